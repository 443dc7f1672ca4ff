import { X509Certificate } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { CLAIMANT, forgetClaims } from "../../provider/core/identity";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/ThirdPartyCertificate";
import { SEED } from "../../simulator";
import { chainFor, encryptKey, selfSigned, validBetween } from "../fixtures/self-signed";
import { checkFails, checkOk, createOk, diff, refusedAtCheck, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;

const client = fixture.client;

const www = selfSigned(["www.acme.example", "acme.example"]);
const renewed = selfSigned(["www.acme.example"]);
const chain = chainFor("shop.acme.example");
const wanted = { installId: ACMEPROD, certificate: www.certificate, privateKey: www.privateKey };

/** Imports a certificate by hand (or as another stack would): the install serves it from then on. */
const importByHand = (pair: { certificate: string; privateKey: string }) =>
  client().certificates.importThirdParty(ACMEPROD, {
    certificate: Buffer.from(pair.certificate).toString("base64"),
    private_key: Buffer.from(pair.privateKey).toString("base64"),
  });

const serialOf = (pair: { certificate: string }) => new X509Certificate(pair.certificate).serialNumber;

afterEach(() => forgetClaims());

const importPosts = () =>
  fixture.sim
    .requests()
    .filter((r) => r.method === "POST" && r.path.endsWith("/ssl_certificates/third_party"));

describe("ThirdPartyCertificate lifecycle", () => {
  it("imports, reports the certificate, reads back the same outputs, and a second diff shows no changes", async () => {
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, wanted);
    expect(id).toBe(ACMEPROD);
    expect(importPosts().map((r) => r.status)).toEqual([200]);
    expect(outs).toMatchObject({
      installId: ACMEPROD,
      subject: "CN=www.acme.example, O=Throwaway Test",
      issuer: "CN=www.acme.example, O=Throwaway Test",
      names: ["www.acme.example", "acme.example"],
      privateKey: www.privateKey,
    });
    expect(outs["fingerprint"]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(Date.parse(String(outs["notAfter"]))).toBeGreaterThan(Date.now());

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual(wanted);
    expect(await diff(provider, id, outs, wanted)).toEqual({ changes: false });
  });

  it("shows no change for the same PEM with CRLF line ends", async () => {
    const { id, outs } = await createOk(provider, wanted);
    const crlf = { ...wanted, certificate: www.certificate.replace(/\n/g, "\r\n") };
    expect(await diff(provider, id, outs, crlf)).toEqual({ changes: false });
  });

  it("imports a chain with its intermediate, end-entity first", async () => {
    const { outs } = await createOk(provider, {
      installId: ACMEPROD,
      certificate: chain.chain,
      privateKey: chain.leaf.privateKey,
    });
    expect(outs).toMatchObject({
      subject: "CN=shop.acme.example",
      issuer: "CN=Throwaway Test Intermediate",
      names: ["shop.acme.example"],
    });
  });

  it("re-imports in place when the certificate and key change", async () => {
    const { id, outs } = await createOk(provider, wanted);
    const news = await checkOk(
      provider,
      { ...wanted, certificate: renewed.certificate, privateKey: renewed.privateKey },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, news);
    expect(importPosts()).toHaveLength(1);
    expect(updated.outs).toMatchObject({ installId: ACMEPROD, names: ["www.acme.example"] });
    expect(updated.outs?.["fingerprint"]).not.toBe(outs["fingerprint"]);
  });

  it("imports again when the answer to a re-import is lost (importing the same pair twice is harmless)", async () => {
    const { id, outs } = await createOk(provider, wanted);
    const news = await checkOk(
      provider,
      { ...wanted, certificate: renewed.certificate, privateKey: renewed.privateKey },
      outs,
    );
    fixture.sim.clearRequests();
    fixture.sim.setFaults([{ method: "POST", path: "*/third_party", after: true, drop: true, count: 1 }]);
    const updated = await provider.update!(id, outs, news);
    expect(importPosts().map((r) => r.status)).toEqual([0, expect.any(Number)]);
    expect(updated.outs?.["fingerprint"]).not.toBe(outs["fingerprint"]);
  });

  it("replaces the resource when the install changes", async () => {
    const { id, outs } = await createOk(provider, wanted);
    expect(await diff(provider, id, outs, { ...wanted, installId: ACMESTG })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });

  it("imports the same pair again over itself, adopt or not (an interrupted run, a re-created resource)", async () => {
    for (const adopt of [false, true, undefined]) {
      fixture.sim.clearRequests();
      await createOk(provider, { ...wanted, adopt });
      expect(importPosts()).toHaveLength(1);
    }
  });

  it("create refuses to import over another third-party certificate the install serves, unless adopt", async () => {
    await importByHand(renewed);
    fixture.sim.clearRequests();
    const refusal = new RegExp(
      `install ${ACMEPROD} already serves another third-party certificate \\(serial number ${serialOf(renewed)}\\), ` +
        "perhaps another stack's; renamed a resource\\? give it `aliases` with its old name \\(docs/ownership.md\\); else set adopt: true to import this one over it, or, after an interrupted run",
      "i",
    );
    // Refused at preview already (another stack's preview); create, sent past the check, says the same.
    const inputs = await refusedAtCheck(provider, wanted, refusal);
    await expect(provider.create(inputs)).rejects.toThrow(refusal);
    expect(importPosts()).toEqual([]);

    const { result, lines } = await said(() => createOk(provider, { ...wanted, adopt: true }));
    expect(importPosts()).toHaveLength(1);
    expect(result.outs["serialNumber"]).toBe(serialOf(www));
    expect(lines.join("\n")).toMatch(
      new RegExp(
        `adopted the existing third-party certificate of install ${ACMEPROD} \\(serial number ${serialOf(renewed)}; this one imported over it\\)`,
        "i",
      ),
    );
  });

  it("read reports the stored state while the install serves it; gone once another is imported over it, or the install is deleted", async () => {
    const { id, outs } = await createOk(provider, wanted);
    expect((await provider.read!(id, outs)).props).toEqual(outs);
    // Another certificate imported by hand: the install lists another serial number, so this one is gone
    // (the next up creates it again, importing it over the other only with adopt).
    await importByHand(renewed);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await createOk(provider, { ...wanted, adopt: true });
    expect((await provider.read!(id, outs)).props).toEqual(outs);
    await client().installs.delete(ACMEPROD);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("delete forgets: nothing is sent to the service", async () => {
    const { id, outs } = await createOk(provider, wanted);
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
  });
});

describe("ThirdPartyCertificate errors from the service", () => {
  it("names the offending input", async () => {
    // check would refuse this pair; calling create directly stands for a service stricter than check.
    const mismatched = { ...wanted, privateKey: renewed.privateKey };
    await expect(provider.create(mismatched)).rejects.toThrow(
      /private_key does not match the certificate.*\(input "privateKey"\)$/,
    );
  });

  it("fails when the install does not exist", async () => {
    const inputs = await refusedAtCheck(
      provider,
      { ...wanted, installId: "1e000000-0000-4000-8000-0000000000ff" },
      /^installId 1e000000-0000-4000-8000-0000000000ff names no install on the service/,
    );
    await expect(provider.create(inputs)).rejects.toThrow(/404 Not found/);
  });
});

describe("ThirdPartyCertificate check", () => {
  const fails = (news: Record<string, unknown>) => checkFails(provider, { ...wanted, ...news });

  it("requires a UUID installId", async () => {
    expect(await fails({ installId: "acmeprod" })).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
  });

  it("requires PEM certificate text", async () => {
    expect(await fails({ certificate: "not a certificate" })).toEqual([
      "certificate: certificate must be PEM text: one or more blocks starting with -----BEGIN CERTIFICATE-----",
    ]);
    expect(await fails({ certificate: undefined })).toEqual([
      "certificate: certificate is required and must be a string",
    ]);
  });

  it("refuses a certificate about to be imported outside its validity, not one already imported", async () => {
    const old = validBetween("old.acme.example");
    expect(await fails({ ...old })).toEqual([
      "certificate: certificate has expired: the end-entity certificate (CN=old.acme.example) was valid until " +
        "2021-01-01T00:00:00.000Z, and the install would serve it; give the renewed certificate and its key",
    ]);
    const future = validBetween("new.acme.example", "20900101000000Z", "20910101000000Z");
    expect(await fails({ ...future })).toEqual([
      "certificate: certificate is not valid yet: the end-entity certificate (CN=new.acme.example) is valid from " +
        "2090-01-01T00:00:00.000Z, and the install would serve it now (browsers refuse it until then); import it once it is valid",
    ]);
    // The stack already holds it (imported before it expired): previews go on; the fleet report flags it.
    const held = { ...wanted, ...old };
    expect((await provider.check!(held, held)).failures ?? []).toEqual([]);
  });

  it("checks every certificate of the chain", async () => {
    const broken = `${www.certificate}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`;
    const [failure] = await fails({ certificate: broken });
    expect(failure).toMatch(
      /^certificate: the 2nd certificate of the chain is not a valid X\.509 certificate/,
    );
  });

  it("refuses a chain out of order", async () => {
    const [failure] = await fails({
      certificate: chain.intermediate.certificate + chain.leaf.certificate,
      privateKey: chain.leaf.privateKey,
    });
    expect(failure).toMatch(/^certificate: the chain is out of order/);
  });

  it("refuses a key that is not a PEM private key, without echoing it", async () => {
    const failures = await fails({ privateKey: "my-secret-password" });
    expect(failures).toEqual([
      "privateKey: privateKey must be PEM text starting with -----BEGIN PRIVATE KEY----- (or RSA/EC)",
    ]);
    expect(failures.join()).not.toContain("my-secret-password");
  });

  it("refuses a private key given as certificate without echoing it", async () => {
    expect(await fails({ certificate: www.privateKey, privateKey: www.privateKey })).toEqual([
      "certificate: certificate contains a private key: pass the key as privateKey, not in the chain",
    ]);
  });

  it("refuses an encrypted key", async () => {
    expect(await fails({ privateKey: encryptKey(www.privateKey) })).toEqual([
      "privateKey: privateKey is encrypted; the service needs the key without a passphrase",
    ]);
  });

  it("refuses a key that does not match the end-entity certificate", async () => {
    expect(await fails({ privateKey: renewed.privateKey })).toEqual([
      "privateKey: privateKey does not match the end-entity certificate (CN=www.acme.example, O=Throwaway Test)",
    ]);
  });

  it("two resources of one program on one install fail naming both (each up would import one over the other)", async () => {
    await checkOk(provider, { ...wanted, [CLAIMANT]: "certA" });
    const [failure] = await fails({
      certificate: renewed.certificate,
      privateKey: renewed.privateKey,
      [CLAIMANT]: "certB",
    });
    expect(failure).toBe(
      `installId: wpengine:ThirdPartyCertificate "certB" and wpengine:ThirdPartyCertificate "certA" both claim ` +
        `the install's third-party certificate (installId "${ACMEPROD}"): an install serves ` +
        "one third-party certificate, and each `pulumi up` would import one over the other. Declare one certificate " +
        "per install (one whose names cover every domain it serves).",
    );
    // The first checks again (preview, then up) and passes; another install is another certificate.
    await checkOk(provider, { ...wanted, [CLAIMANT]: "certA" });
    await checkOk(provider, { ...wanted, installId: ACMESTG, [CLAIMANT]: "certB" });
  });

  it("lets values unknown during preview through untouched, skipping the match rule", async () => {
    const news = { ...wanted, privateKey: UNKNOWN };
    const inputs = await checkOk(provider, news);
    expect(inputs["privateKey"]).toBe(UNKNOWN);
    expect(inputs["certificate"]).toBe(www.certificate);
  });
});
