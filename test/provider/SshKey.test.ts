import { describe, expect, it } from "vitest";
import { forEngine } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/SshKey";
import { checkFails, createOk, diff, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { client } = fixture;

const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJHUPEcxk8IlK0Iio5WPowMFr/2W2FowztUF0Nwrpoza ci@example.com";
const OTHER =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICnAIfGfcJtep8uc/0V6Yc5MTs43XnHSKX1s6m1/9oTW joe@example.com";
// What `ssh-keygen -l -E md5` prints for KEY.
const FINGERPRINT = "1b:f2:f9:ca:3a:da:14:74:5a:a6:5c:51:2f:1a:79:74";

const keys = async () => (await client().sshKeys.list()).items;

describe("SshKey lifecycle", () => {
  it("adds the key to the API user; read equals the outputs; a second diff shows no changes", async () => {
    const { id, outs } = await createOk(provider, { publicKey: `  ${KEY.replace(" ", "   ")}\n` });
    expect(outs).toMatchObject({
      sshKeyId: id,
      publicKey: KEY,
      fingerprint: FINGERPRINT,
      comment: "ci@example.com",
    });
    expect((await keys()).map((k) => k.uuid)).toEqual([id]);
    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ publicKey: KEY });
    expect(await diff(provider, id, outs, { publicKey: `${KEY}\n` })).toEqual({ changes: false });
  });

  it("a new key (or comment) replaces it, removing the old one first", async () => {
    const { id, outs } = await createOk(provider, { publicKey: KEY });
    expect(
      await diff(provider, id, outs, { publicKey: `${KEY.split(" ").slice(0, 2).join(" ")} laptop` }),
    ).toEqual({
      changes: true,
      replaces: ["publicKey"],
      deleteBeforeReplace: true,
    });
  });

  it("read reports a key deleted out of band as gone; delete of a gone key succeeds", async () => {
    const { id, outs } = await createOk(provider, { publicKey: KEY });
    await client().sshKeys.delete(id);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await expect(provider.delete!(id, outs)).resolves.toBeUndefined();
  });

  it("delete removes the key", async () => {
    const { id, outs } = await createOk(provider, { publicKey: KEY });
    await createOk(provider, { publicKey: OTHER });
    await provider.delete!(id, outs);
    expect((await keys()).map((k) => k.comment)).toEqual(["joe@example.com"]);
  });

  it("refuses a key already added without adopt; adopts it with adopt: true", async () => {
    const added = await client().sshKeys.create({ public_key: KEY });
    await expect(provider.create(await refusedAtCheck(provider, { publicKey: KEY }))).rejects.toThrow(
      `wpengine:SshKey create failed: this key (fingerprint ${FINGERPRINT}) is already added to the API user (id ${added.uuid}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
    const { id } = await createOk(provider, { publicKey: KEY, adopt: true });
    expect(id).toBe(added.uuid);
    expect(await keys()).toHaveLength(1);
  });
});

describe("SshKey check", () => {
  it("names publicKey and the reason for anything that is not an OpenSSH public key line", async () => {
    const [type, data] = KEY.split(" ") as [string, string];
    const cases: [string, RegExp][] = [
      ["", /<type> <base64 key> \[comment\]/],
      [data, /<type> <base64 key> \[comment\]/],
      [`ssh-dss ${data}`, /type ssh-dss is not one of ssh-ed25519, ssh-rsa/],
      [`${type} not*base64`, /not base64/],
      [`ssh-rsa ${data}`, /not a ssh-rsa key/],
    ];
    for (const [publicKey, reason] of cases) {
      const failures = await checkFails(provider, { publicKey });
      expect(failures, publicKey).toHaveLength(1);
      expect(failures[0], publicKey).toMatch(/^publicKey: /);
      expect(failures[0], publicKey).toMatch(reason);
    }
    expect(await checkFails(provider, {})).toEqual(["publicKey: publicKey is required and must be a string"]);
  });

  it("refuses a private key given as publicKey without naming the property, so no output shows the key", async () => {
    // The engine prints a failing property's value beside the reason: the key would reach the CI log.
    const publicKey =
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
    const { failures = [] } = await provider.check!({}, { publicKey });
    expect(failures.map(forEngine)).toEqual([
      {
        property: "",
        reason: "publicKey is a private key: give the public key line (the .pub file), never the private key",
      },
    ]);
  });
});
