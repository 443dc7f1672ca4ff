import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/DomainVerification";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;
const VERIFIED_DOMAIN = SEED.domains.acmeExample.id; // seeded verified on acmeprod

const client = fixture.client;

/** A new, unverified domain on acmeprod, with the TXT record the service expects. */
async function pendingDomain(name = "shop.acme.example") {
  const d = await client().domains.create(ACMEPROD, { name });
  expect(d.ownership_status).toBe("TXT_VERIFICATION_PENDING");
  return { id: d.id, name: d.name, key: d.txt_verification_key!, value: d.txt_verification_value! };
}

const verificationPosts = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/verification"));

describe("DomainVerification lifecycle", () => {
  it("verifies once the TXT record is published; read equals the outputs; a second diff shows no changes", async () => {
    const d = await pendingDomain();
    fixture.sim.publishTxt(d.key, d.value);
    const news = { installId: ACMEPROD, domainId: d.id, retryIntervalSeconds: 1 };
    const { id, outs } = await createOk(provider, news);
    expect(id).toBe(d.id);
    expect(outs).toMatchObject({
      installId: ACMEPROD,
      domainId: d.id,
      domainName: "shop.acme.example",
      ownershipStatus: "TXT_VERIFIED",
      verifiedDomain: "shop.acme.example",
      timeoutSeconds: 600,
      retryIntervalSeconds: 1,
    });
    expect(Number.isNaN(Date.parse(String(outs["verifiedTime"])))).toBe(false);
    expect((await client().domains.get(ACMEPROD, d.id)).ownership_status).toBe("TXT_VERIFIED");

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ ...news, timeoutSeconds: 600 });
    expect(await diff(provider, id, outs, news)).toEqual({ changes: false });
  });

  it("keeps asking until the record appears", async () => {
    const d = await pendingDomain();
    fixture.sim.clearRequests();
    const inputs = await checkOk(provider, { installId: ACMEPROD, domainId: d.id, retryIntervalSeconds: 1 });
    const created = provider.create(inputs);
    await fixture.sim.served((r) => r.method === "POST" && r.path.endsWith("/verification"));
    expect(verificationPosts()[0]?.status).toBe(400);
    fixture.sim.publishTxt(d.key, d.value);
    const { outs } = await created;
    expect(outs["ownershipStatus"]).toBe("TXT_VERIFIED");
    expect(verificationPosts().map((r) => r.status)).toEqual([400, 200]);
  });

  it("fails after its deadline with the TXT record to publish", async () => {
    const d = await pendingDomain();
    const inputs = await checkOk(provider, {
      installId: ACMEPROD,
      domainId: d.id,
      timeoutSeconds: 1,
      retryIntervalSeconds: 1,
    });
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:DomainVerification create failed: domain shop.acme.example (id ${d.id}) is not verified after ` +
        `timeoutSeconds (1 s): publish a DNS TXT record named "${d.key}" with the value "${d.value}", wait for it ` +
        "to propagate, then run again (or raise timeoutSeconds). The service last answered: TXT record not found",
    );
    expect((await client().domains.get(ACMEPROD, d.id)).ownership_status).toBe("TXT_VERIFICATION_PENDING");
  });

  it("succeeds at once for a domain already verified, with or without adopt", async () => {
    for (const adopt of [undefined, false, true]) {
      fixture.sim.clearRequests();
      const { outs } = await createOk(provider, {
        installId: ACMEPROD,
        domainId: VERIFIED_DOMAIN,
        ...(adopt === undefined ? {} : { adopt }),
      });
      expect(outs).toMatchObject({
        ownershipStatus: "TXT_VERIFIED",
        verifiedTime: "2024-03-01T10:00:00.000Z",
      });
      expect(verificationPosts()).toEqual([]);
    }
  });

  it("replaces the resource when the install or the domain changes", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMEPROD, domainId: VERIFIED_DOMAIN });
    const other = SEED.domains.wwwAcmeExample.id;
    expect(await diff(provider, id, outs, { installId: ACMEPROD, domainId: other })).toEqual({
      changes: true,
      replaces: ["domainId"],
    });
    expect(await diff(provider, id, outs, { installId: ACMESTG, domainId: VERIFIED_DOMAIN })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });

  it("changing only the waits is no change (they matter to create alone)", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMEPROD, domainId: VERIFIED_DOMAIN });
    const news = {
      installId: ACMEPROD,
      domainId: VERIFIED_DOMAIN,
      timeoutSeconds: 60,
      retryIntervalSeconds: 5,
    };
    expect(await diff(provider, id, outs, news)).toEqual({ changes: false });
  });

  it("a verification found lost by read is a change, and update verifies again", async () => {
    const d = await pendingDomain();
    const news = { installId: ACMEPROD, domainId: d.id, retryIntervalSeconds: 1 };
    // Read of a domain that is not verified: what a refresh sees when the verification was lost.
    const stale = { ...(await checkOk(provider, news)), ownershipStatus: "TXT_VERIFIED", domainId: d.id };
    const read = await provider.read!(d.id, stale);
    expect(read.props).toMatchObject({ ownershipStatus: "TXT_VERIFICATION_PENDING", verifiedTime: null });
    expect(await diff(provider, d.id, read.props!, news)).toEqual({ changes: true });

    fixture.sim.publishTxt(d.key, d.value);
    const updated = await provider.update!(d.id, read.props!, await checkOk(provider, news));
    expect(updated.outs).toMatchObject({ ...news, domainName: d.name, ownershipStatus: "TXT_VERIFIED" });
    expect(await diff(provider, d.id, updated.outs!, news)).toEqual({ changes: false });
  });

  it("delete forgets: nothing is sent and the domain stays verified", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMEPROD, domainId: VERIFIED_DOMAIN });
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
    expect((await client().domains.get(ACMEPROD, VERIFIED_DOMAIN)).ownership_status).toBe("TXT_VERIFIED");
  });

  it("read reports gone (empty id) once the domain is deleted out of band", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMEPROD, domainId: VERIFIED_DOMAIN });
    await client().domains.delete(ACMEPROD, VERIFIED_DOMAIN);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });
});

describe("DomainVerification errors from the service", () => {
  it("names both inputs when the domain is not on the install", async () => {
    const inputs = await checkOk(provider, { installId: ACMESTG, domainId: VERIFIED_DOMAIN });
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:DomainVerification create failed: domainId ${VERIFIED_DOMAIN} is not a domain of installId ${ACMESTG} (404 Not found)`,
    );
  });
});

describe("DomainVerification check", () => {
  const base = { installId: ACMEPROD, domainId: VERIFIED_DOMAIN };

  it("fills the defaults", async () => {
    expect(await checkOk(provider, base)).toEqual({ ...base, timeoutSeconds: 600, retryIntervalSeconds: 10 });
  });

  it("requires UUIDs", async () => {
    expect(await checkFails(provider, { installId: "acmeprod", domainId: "www" })).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
      "domainId: domainId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { installId: ACMEPROD })).toEqual([
      "domainId: domainId is required and must be a string",
    ]);
  });

  it("keeps the retry interval at 1 s or more, in whole seconds", async () => {
    expect(await checkFails(provider, { ...base, retryIntervalSeconds: 0 })).toEqual([
      "retryIntervalSeconds: retryIntervalSeconds must be at least 1 (the real service allows one check per 5 s)",
    ]);
    expect(await checkFails(provider, { ...base, retryIntervalSeconds: 2.5 })).toEqual([
      "retryIntervalSeconds: retryIntervalSeconds must be a whole number of seconds",
    ]);
  });

  it("bounds timeoutSeconds", async () => {
    expect((await checkFails(provider, { ...base, timeoutSeconds: -1 }))[0]).toMatch(/^timeoutSeconds: /);
  });

  it("lets values unknown during preview through untouched", async () => {
    const news = { installId: ACMEPROD, domainId: UNKNOWN };
    expect(await checkOk(provider, news)).toMatchObject(news);
    const { id, outs } = await createOk(provider, base);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true, replaces: ["domainId"] });
  });
});
