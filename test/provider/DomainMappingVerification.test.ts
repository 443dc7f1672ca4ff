import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/DomainMappingVerification";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, deleteSays, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const APP = SEED.apps.acmeFrontend;
const ENV = { accountId: APP.accountId, appId: APP.appId, environmentId: "production" };
const DOMAIN = "shop.acme-frontend.example";
const NAME = `accounts/${APP.accountId}/apps/${APP.appId}/environments/production/domainMappings/${DOMAIN}`;

const client = fixture.client;

/** Maps a new, unverified domain on production (next to the seeded one); returns its TXT record. */
async function pendingMapping() {
  const set = await client().domainMappings.replace(ENV.accountId, ENV.appId, ENV.environmentId, {
    domainMappings: [{ domain: APP.domain, primary: true }, { domain: DOMAIN }],
  });
  const txt = set.find((m) => m.domain === DOMAIN)?.txtVerification;
  expect(txt?.verified).toBe(false);
  return { name: txt!.name!, value: txt!.value! };
}

const posts = (verb: string) =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith(`:${verb}`));

describe("DomainMappingVerification lifecycle", () => {
  it("verifies once the TXT record is published; read equals the outputs; a second diff shows no changes", async () => {
    const txt = await pendingMapping();
    fixture.sim.publishTxt(txt.name, txt.value);
    const news = { ...ENV, domain: "Shop.Acme-Frontend.Example.", retryIntervalSeconds: 1 };
    const { id, outs } = await createOk(provider, news);
    expect(id).toBe(NAME);
    expect(outs).toMatchObject({
      ...ENV,
      domain: DOMAIN,
      txtVerified: true,
      txtRecordName: txt.name,
      txtRecordValue: txt.value,
      resourceName: NAME,
      revalidate: false,
      timeoutSeconds: 600,
    });
    expect(posts("revalidate")).toEqual([]);
    const live = await client().domainMappings.iterate(ENV.accountId, ENV.appId, ENV.environmentId);
    for await (const m of live) if (m.domain === DOMAIN) expect(m.txtVerification?.verified).toBe(true);

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toMatchObject({ ...ENV, domain: DOMAIN });
    expect(await diff(provider, id, outs, news)).toEqual({ changes: false });
  });

  it("keeps asking until the record appears, then revalidates when asked", async () => {
    const txt = await pendingMapping();
    fixture.sim.clearRequests();
    const inputs = await checkOk(provider, {
      ...ENV,
      domain: DOMAIN,
      retryIntervalSeconds: 1,
      revalidate: true,
    });
    const created = provider.create(inputs);
    await fixture.sim.served((r) => r.method === "POST" && r.path.endsWith(":verifyTxtRecord"));
    expect(posts("verifyTxtRecord")[0]?.status).toBe(400);
    fixture.sim.publishTxt(txt.name, txt.value);
    const { outs } = await created;
    expect(outs["txtVerified"]).toBe(true);
    expect(posts("verifyTxtRecord").map((r) => r.status)).toEqual([400, 200]);
    expect(posts("revalidate").map((r) => r.status)).toEqual([200]);
  });

  it("fails after its deadline with the TXT record to publish", async () => {
    const txt = await pendingMapping();
    const inputs = await checkOk(provider, {
      ...ENV,
      domain: DOMAIN,
      timeoutSeconds: 1,
      retryIntervalSeconds: 1,
    });
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:DomainMappingVerification create failed: domain mapping ${DOMAIN} of environment production is ` +
        `not verified after timeoutSeconds (1 s): publish a DNS TXT record named "${txt.name}" with the value ` +
        `"${txt.value}", wait for it to propagate, then run again (or raise timeoutSeconds).`,
    );
  });

  it("succeeds at once for a mapping already verified, without asking the service to verify", async () => {
    const txt = await pendingMapping();
    fixture.sim.publishTxt(txt.name, txt.value);
    await client().domainMappings.verifyTxtRecord(ENV.accountId, ENV.appId, ENV.environmentId, DOMAIN);
    fixture.sim.clearRequests();
    const { outs } = await createOk(provider, { ...ENV, domain: DOMAIN });
    expect(outs["txtVerified"]).toBe(true);
    expect(posts("verifyTxtRecord")).toEqual([]);
  });

  it("says what to do when the domain is not mapped on the environment", async () => {
    const inputs = await checkOk(provider, { ...ENV, domain: "nowhere.example" });
    await expect(provider.create(inputs)).rejects.toThrow(
      "domain nowhere.example is not mapped on environment production of app acme-frontend: add it to the " +
        "environment's DomainMappings first",
    );
  });

  it("reads as gone once the mapping is removed; delete only forgets, saying so", async () => {
    const txt = await pendingMapping();
    fixture.sim.publishTxt(txt.name, txt.value);
    const { id, outs } = await createOk(provider, { ...ENV, domain: DOMAIN });
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:DomainMappingVerification ${NAME}: forgotten only, nothing sent to the service: a verification cannot be undone (the mapping stays verified)`,
    ]);
    expect(fixture.sim.requests()).toEqual([]);
    await client().domainMappings.replace(ENV.accountId, ENV.appId, ENV.environmentId, {
      domainMappings: [{ domain: APP.domain, primary: true }],
    });
    fixture.sim.advance(3_600);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });
});

describe("DomainMappingVerification diff and check", () => {
  it("a refresh that found the verification lost is a change; identity changes replace", async () => {
    const outs = { ...ENV, domain: DOMAIN, revalidate: false, timeoutSeconds: 600, retryIntervalSeconds: 10 };
    const news = { ...ENV, domain: DOMAIN };
    expect(await diff(provider, NAME, { ...outs, txtVerified: true }, news)).toEqual({ changes: false });
    expect(await diff(provider, NAME, { ...outs, txtVerified: false }, news)).toEqual({ changes: true });
    expect(
      await diff(provider, NAME, { ...outs, txtVerified: true }, { ...news, domain: "www.other.example" }),
    ).toEqual({
      changes: true,
      replaces: ["domain"],
    });
  });

  it("names every bad input", async () => {
    expect(await checkFails(provider, { ...ENV, domain: "https://shop.example/" })).toEqual([
      "domain: domain must be a domain name such as www.example.com (no scheme, no path, no wildcard)",
    ]);
    expect(await checkFails(provider, { ...ENV, accountId: "acme", domain: DOMAIN })).toEqual([
      "accountId: accountId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { ...ENV, domain: DOMAIN, retryIntervalSeconds: 0 })).toEqual([
      "retryIntervalSeconds: retryIntervalSeconds must be at least 1 (the real service allows one check per 5 s)",
    ]);
    expect(await checkFails(provider, { ...ENV, domain: DOMAIN, revalidate: "yes" })).toEqual([
      "revalidate: revalidate must be true or false",
    ]);
  });

  it("passes unknown values through during preview", async () => {
    const inputs = await checkOk(provider, { ...ENV, environmentId: UNKNOWN, domain: UNKNOWN });
    expect(inputs["domain"]).toBe(UNKNOWN);
    expect(inputs["environmentId"]).toBe(UNKNOWN);
  });
});
