import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { resetClient } from "../../provider/core/client";
import { clearStackConfig, setStackConfig } from "../../provider/core/config";
import { type Props, UNKNOWN } from "../../provider/core/inputs";
import { contextOf, defineProvider, type ResourceDefinition } from "../../provider/core/lifecycle";
import { GUARDS } from "../../provider/dynamic/guards";
import { InstallPlacement } from "../../provider/kinds/generated";
import { definition as install, installLoss } from "../../provider/kinds/Install";
import { definition as site } from "../../provider/kinds/Site";
import { md5Fingerprint, parsePublicKey, definition as sshKey } from "../../provider/kinds/SshKey";

const SITE = "5e000000-0000-4000-8000-000000000001";
const ACCOUNT = "ac000000-0000-4000-8000-000000000001";

describe("the deletion guard of the lifecycle", () => {
  // A definition whose every API call would fail the test: the guard must decide before any of them.
  const calls: string[] = [];
  const guarded = defineProvider({
    kind: "Guarded",
    schema: site.inputs,
    replaceOn: ["accountId"],
    updatable: ["name", "deletionProtection"],
    protects: (o: Record<string, unknown>) => `site "${o["name"]}"`,
    create: async () => {
      calls.push("create");
      return { id: "x", outs: {} };
    },
    read: async () => undefined,
    delete: async () => {
      calls.push("delete");
    },
  });
  const olds = { accountId: ACCOUNT, name: "Blog", deletionProtection: true };

  it("refuses delete while on (and when the outputs predate the guard), without calling the service", async () => {
    await expect(guarded.delete!("x", olds)).rejects.toThrow(
      'wpengine:Guarded delete failed: deletionProtection is on: deleting would destroy site "Blog" for good.',
    );
    await expect(guarded.delete!("x", { accountId: ACCOUNT, name: "Blog" })).rejects.toThrow(
      /deletionProtection is on/,
    );
    expect(calls).toEqual([]);
    // Off: the definition's delete runs (with a client of made-up credentials; it sends nothing).
    setStackConfig((key) => ({ "wpengine:username": "u", "wpengine:password": "p" })[key]);
    resetClient();
    try {
      await guarded.delete!("x", { ...olds, deletionProtection: false });
    } finally {
      clearStackConfig();
      resetClient();
    }
    expect(calls).toEqual(["delete"]);
  });

  it("fails a diff that would replace while on, naming the inputs; an in-place change passes", async () => {
    const news = { ...olds, accountId: "ac000000-0000-4000-8000-000000000002" };
    await expect(guarded.diff!("x", olds, news)).rejects.toThrow(
      /changing accountId replaces it, which deletes site "Blog" for good, and deletionProtection is on\..*or keep accountId as it is\./,
    );
    expect(await guarded.diff!("x", olds, { ...olds, name: "Blog 2" })).toEqual({ changes: true });
    // Turning it off in the same change as the replacement is not enough: the recorded guard decides.
    await expect(guarded.diff!("x", olds, { ...news, deletionProtection: false })).rejects.toThrow(
      /deletionProtection is on/,
    );
    // A value unknown at preview may turn out unchanged: planned as a replacement, not refused.
    expect(await guarded.diff!("x", olds, { ...olds, accountId: UNKNOWN })).toEqual({
      changes: true,
      replaces: ["accountId"],
    });
    expect(await guarded.diff!("x", { ...olds, deletionProtection: false }, news)).toEqual({
      changes: true,
      replaces: ["accountId"],
    });
  });
});

/** What the lifecycle's read records over the definition's, with `client` answering the service's record. */
async function readThrough(def: typeof site | typeof install, client: never, id: string, olds: Props) {
  const reading = defineProvider({
    ...(def as unknown as ResourceDefinition<Props, Props>),
    read: (id, olds) => (def as typeof site).read(id, olds as never, contextOf(def, client, olds)),
  });
  setStackConfig((key) => ({ "wpengine:username": "u", "wpengine:password": "p" })[key]);
  resetClient();
  try {
    return (await reading.read!(id, olds)).props as Record<string, unknown>;
  } finally {
    clearStackConfig();
    resetClient();
  }
}

describe("Site and Install outputs", () => {
  it("a site's read maps the record and keeps its account and guard", async () => {
    const record = { id: SITE, name: "Blog", installs: [{ id: "i1", name: "blogprod" }, { id: "i2" }] };
    const client = { sites: { get: async () => record } } as never;
    const outs = await readThrough(site, client, SITE, { accountId: ACCOUNT, deletionProtection: true });
    expect(outs).toMatchObject({
      siteId: SITE,
      accountId: ACCOUNT,
      name: "Blog",
      deletionProtection: true,
      tags: [],
    });
    expect(outs).not.toHaveProperty("installs");
  });

  it("an install's read lower-cases the environment, names the install's id installId and keeps its guard", async () => {
    const record = {
      id: "i1",
      name: "blogprod",
      environment: "Staging",
      site: { id: SITE },
      primary_domain: "x.example",
      cms_version: "6.8",
    };
    const client = { installs: { get: async () => record } } as never;
    const outs = await readThrough(install, client, "i1", { deletionProtection: false });
    expect(outs).not.toHaveProperty("primaryDomain");
    expect(outs).not.toHaveProperty("cmsVersion");
    expect(outs).toMatchObject({
      installId: "i1",
      environment: "staging",
      siteId: SITE,
      deletionProtection: false,
    });
    expect(outs).not.toHaveProperty("id");
    expect(installLoss(outs as { name: string; installId: string })).toBe(
      "install blogprod (i1) with its domains, backups and settings",
    );
  });
});

describe("InstallPlacement and Install do not fight", () => {
  it("refuses an InstallPlacement of an install an Install of the program manages", () => {
    const id = pulumi.output("1e000000-0000-4000-8000-000000000009");
    // What declaring `new Install("prod", ...)` records of its id outputs.
    GUARDS["Install"]!.declared!({ id, installId: id }, "prod");
    let err: unknown;
    try {
      new InstallPlacement("move", { installId: id, siteId: SITE, environment: "staging" });
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toContain(
      'wpengine:InstallPlacement move: installId is the install of wpengine.Install "prod", which places it itself',
    );
    // A RunError: Pulumi prints its message alone, not "unhandled exception" and a trace into the package.
    expect(pulumi.RunError.isInstance(err)).toBe(true);
  });
});

describe("OpenSSH public keys", () => {
  const KEY =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJHUPEcxk8IlK0Iio5WPowMFr/2W2FowztUF0Nwrpoza ci@example.com";

  it("parses type, blob and comment; the MD5 fingerprint is what ssh-keygen -E md5 prints", () => {
    const parsed = parsePublicKey(KEY);
    if (typeof parsed === "string") throw new Error(parsed);
    expect([parsed.type, parsed.comment, parsed.blob.length]).toEqual(["ssh-ed25519", "ci@example.com", 51]);
    expect(md5Fingerprint(parsed.blob)).toBe("1b:f2:f9:ca:3a:da:14:74:5a:a6:5c:51:2f:1a:79:74");
  });

  it("canonical spacing: one space between parts, no blanks around", async () => {
    const spaced = `\t${KEY.replaceAll(" ", "  ")}\n`;
    expect(sshKey.inputs.parse({ publicKey: spaced }).publicKey).toBe(KEY);
    // Compared the same way where a value has not been through check (a key as the service lists it).
    expect(await sshKey.provider.diff!("k1", { publicKey: KEY }, { publicKey: spaced })).toMatchObject({
      changes: false,
    });
  });
});
