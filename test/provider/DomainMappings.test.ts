import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { parseImportId } from "../../provider/executable/registry";
import { definition } from "../../provider/kinds/DomainMappings";
import { SEED } from "../../simulator";
import { checkFails, checkOk, diff, refusedAtCheck, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { accountId: ACCOUNT, appId: APP, domain: SEEDED_DOMAIN } = SEED.apps.acmeFrontend;
const client = fixture.client;

const { advancing } = fixture;

const staging = { accountId: ACCOUNT, appId: APP, environmentId: "staging" };
const shop = [
  { domain: "Shop.example", destinationDomainMapping: "www.shop.example" },
  { domain: "www.shop.example", primary: true },
];
const live = async (env = "staging") => {
  const out: string[] = [];
  for await (const m of client().domainMappings.iterate(ACCOUNT, APP, env))
    out.push(`${m.domain} ${m.state}`);
  return out.sort();
};

async function create(news: Record<string, unknown>) {
  const inputs = await checkOk(provider, news);
  const { id, outs } = await advancing(provider.create(inputs));
  return { id, outs: outs as Record<string, unknown> };
}

describe("DomainMappings against the simulator", () => {
  it("creates the set and waits until every mapping is ACTIVE; read equals the outputs; no change on a second diff", async () => {
    const { id, outs } = await create({ ...staging, mappings: shop });
    expect(id).toBe(`accounts/${ACCOUNT}/apps/${APP}/environments/staging/domainMappings`);
    expect(outs["mappings"]).toEqual([
      { domain: "shop.example", primary: false, destinationDomainMapping: "www.shop.example" },
      { domain: "www.shop.example", primary: true, destinationDomainMapping: null },
    ]);
    expect(outs["primaryDomain"]).toBe("www.shop.example");
    expect(outs["domainMappings"]).toEqual([
      expect.objectContaining({
        domain: "shop.example",
        state: "ACTIVE",
        destinationDomainMapping: "www.shop.example",
      }),
      expect.objectContaining({
        domain: "www.shop.example",
        state: "ACTIVE",
        primary: true,
        txtRecordName: "_wpe_verification.www.shop.example",
        txtRecordValue: expect.stringMatching(/^wpe-verify-/),
        txtVerified: false,
      }),
    ]);
    expect(await live()).toEqual(["shop.example ACTIVE", "www.shop.example ACTIVE"]);

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ ...staging, mappings: outs["mappings"], timeoutSeconds: 600 });
    const reordered = [{ domain: "WWW.SHOP.EXAMPLE.", primary: true }, { ...shop[0] }];
    expect(await diff(provider, id, outs, { ...staging, mappings: reordered })).toEqual({ changes: false });
  });

  it("updates the set in place: afterwards exactly the declared mappings exist", async () => {
    const { id, outs } = await create({ ...staging, mappings: shop });
    const news = await checkOk(
      provider,
      { ...staging, mappings: [{ domain: "www.shop.example" }, { domain: "new.example", primary: true }] },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await advancing(provider.update!(id, outs, news));
    expect(updated.outs).toMatchObject({ primaryDomain: "new.example" });
    expect(
      (updated.outs as { domainMappings: { domain: string; state: string }[] }).domainMappings.map((m) => [
        m.domain,
        m.state,
      ]),
    ).toEqual([
      ["new.example", "ACTIVE"],
      ["www.shop.example", "ACTIVE"],
    ]);
    fixture.sim.advance(60);
    expect(await live()).toEqual(["new.example ACTIVE", "www.shop.example ACTIVE"]);
  });

  it("sees a mapping added out of band in read, and the next diff plans an update", async () => {
    const { id, outs } = await create({ ...staging, mappings: shop });
    await client().domainMappings.replace(ACCOUNT, APP, "staging", {
      domainMappings: [
        ...shop.map((m) => ({ ...m, domain: m.domain.toLowerCase() })),
        { domain: "extra.example" },
      ],
    });
    const read = await provider.read!(id, outs);
    // In the program's order (the extra one after), so a preview shows the one added, not a shuffle.
    expect((read.props as { mappings: { domain: string }[] }).mappings.map((m) => m.domain)).toEqual([
      "shop.example",
      "www.shop.example",
      "extra.example",
    ]);
    expect(await diff(provider, id, read.props!, { ...staging, mappings: shop })).toEqual({ changes: true });
    // The primary moved to the other mapping, one added: each mapping keeps its row (its domain tells).
    await client().domainMappings.replace(ACCOUNT, APP, "staging", {
      domainMappings: [
        { domain: "shop.example", primary: true },
        { domain: "www.shop.example" },
        { domain: "bb.example" },
      ],
    });
    const moved = (await provider.read!(id, outs)).props as {
      mappings: { domain: string; primary: boolean }[];
    };
    expect(moved.mappings.map((m) => `${m.domain} ${m.primary}`)).toEqual([
      "shop.example true",
      "www.shop.example false",
      "bb.example false",
    ]);
  });

  it("reads every page of a large set", async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ domain: `d${String(i).padStart(2, "0")}.example` }));
    const { id, outs } = await create({ ...staging, mappings: many });
    const read = await provider.read!(id, outs);
    expect((read.props as { mappings: unknown[] }).mappings).toHaveLength(60);
    expect(read.props).toEqual(outs);
  });

  it("deletes by replacing the set with none; read afterwards reports it gone; a second delete succeeds", async () => {
    const { id, outs } = await create({ ...staging, mappings: shop });
    await advancing(provider.delete!(id, outs));
    expect(await live()).toEqual([]);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await expect(advancing(provider.delete!(id, outs))).resolves.toBeUndefined();
  });

  it("fails create where mappings exist without adopt, saying how to take them over", async () => {
    const refusal = `environment production of app ${APP} already has domain mappings (${SEEDED_DOMAIN}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to replace them with this set`;
    // Refused at preview already; create, sent past the check, says the same.
    const inputs = await refusedAtCheck(
      provider,
      { ...staging, environmentId: "production", mappings: shop },
      refusal,
    );
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:DomainMappings create failed: ${refusal}`,
    );
    expect(await live("production")).toEqual([`${SEEDED_DOMAIN} ACTIVE`]);
  });

  it("adopts existing mappings with adopt: true, replacing them with the declared set", async () => {
    const mappings = [
      { domain: SEEDED_DOMAIN, primary: true },
      { domain: "acme-frontend.example", destinationDomainMapping: SEEDED_DOMAIN },
    ];
    const { outs } = await create({ ...staging, environmentId: "production", mappings, adopt: true });
    expect(outs["primaryDomain"]).toBe(SEEDED_DOMAIN);
    expect(await live("production")).toEqual([`acme-frontend.example ACTIVE`, `${SEEDED_DOMAIN} ACTIVE`]);
  });

  it("adopts a set that already is the declared one with no write; an import by its id reads the same set", async () => {
    const production = { ...staging, environmentId: "production" };
    fixture.sim.clearRequests();
    const { id, outs } = await create({
      ...production,
      mappings: [{ domain: SEEDED_DOMAIN.toUpperCase(), primary: true }],
      adopt: true,
    });
    expect(fixture.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(outs["primaryDomain"]).toBe(SEEDED_DOMAIN);
    const { id: parsed, olds } = parseImportId("DomainMappings", id);
    expect(parsed).toBe(id);
    const imported = await provider.read!(parsed, olds);
    expect(imported.inputs).toEqual({
      ...production,
      mappings: [{ domain: SEEDED_DOMAIN, primary: true, destinationDomainMapping: null }],
      timeoutSeconds: 600, // a setting an import cannot read: its default, so the first preview plans nothing
    });
    expect(fixture.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("an adoption by WPE_ADOPT_EXISTING (an import's first up) records no adopt the program never set: a refresh shows no diff", async () => {
    const production = { ...staging, environmentId: "production" };
    process.env["WPE_ADOPT_EXISTING"] = "true";
    try {
      const { id, outs } = await create({
        ...production,
        mappings: [{ domain: SEEDED_DOMAIN, primary: true }],
      });
      expect(outs).not.toHaveProperty("adopt");
      const read = await provider.read!(id, outs);
      expect(read.inputs).not.toHaveProperty("adopt");
      expect(read.props).not.toHaveProperty("adopt");
    } finally {
      delete process.env["WPE_ADOPT_EXISTING"];
    }
  });

  it("names the input when the service refuses the set (a domain mapped on another environment)", async () => {
    const inputs = await checkOk(provider, { ...staging, mappings: [{ domain: SEEDED_DOMAIN }] });
    await expect(provider.create(inputs)).rejects.toThrow(
      new RegExp(
        `409 Conflict: .*${SEEDED_DOMAIN.replace(/\./g, "\\.")} is already mapped to another environment.*\\(input "mappings\\.domain"\\)`,
      ),
    );
  });
  it("a refused set is no resource; a wait that fails after the :replace records it (the error carries the id)", async () => {
    const refused = await checkOk(provider, { ...staging, mappings: [{ domain: SEEDED_DOMAIN }] });
    expect(await provider.create(refused).catch((e: unknown) => e)).not.toMatchObject({
      name: "CreatedButFailedError",
    });
    const inputs = await checkOk(provider, { ...staging, mappings: shop });
    fixture.sim.clearRequests();
    const pending = provider.create(inputs).catch((e: unknown) => e);
    // Once the set is sent, every listing of it fails.
    await fixture.sim.served((r) => r.method === "POST");
    fixture.sim.setFaults([{ method: "GET", path: "*/environments/staging/domainMappings*", status: 500 }]);
    const err = await pending;
    fixture.sim.setFaults([]);
    expect(err).toMatchObject({
      name: "CreatedButFailedError",
      id: `accounts/${ACCOUNT}/apps/${APP}/environments/staging/domainMappings`,
      properties: expect.objectContaining({ mappings: inputs["mappings"], domainMappings: [] }),
    });
    expect(String((err as Error).message)).toMatch(/wpengine:DomainMappings create failed: .*500/);
  });
});

describe("DomainMappings check", () => {
  it("names each broken rule with its property and reason", async () => {
    expect(
      await checkFails(provider, {
        ...staging,
        mappings: [
          { domain: "a.example", primary: true },
          { domain: "A.EXAMPLE" },
          { domain: "b.example", primary: true, destinationDomainMapping: "a.example" },
          { domain: "c.example", destinationDomainMapping: "elsewhere.example" },
        ],
      }),
    ).toEqual([
      "mappings[1].domain: domain a.example appears more than once (also mappings[0]); domains compare case-insensitively",
      "mappings: at most one mapping may be primary; 2 are: a.example, b.example",
      "mappings[2].primary: b.example redirects to a.example and so cannot be the primary domain",
      "mappings[3].destinationDomainMapping: elsewhere.example is not a domain of this set; a redirect must point at one",
    ]);
    expect(
      await checkFails(provider, {
        ...staging,
        mappings: [{ domain: "https://x.example/" }, { domain: "*.x.example" }],
      }),
    ).toEqual([
      "mappings[0].domain: domain must be a domain name such as www.example.com (no scheme, no path, no wildcard)",
      "mappings[1].domain: domain must be a domain name such as www.example.com (no scheme, no path, no wildcard)",
    ]);
    expect(await checkFails(provider, { ...staging })).toEqual([
      "mappings: mappings is required and must be a list of {domain, ...}",
    ]);
  });

  it("lets unknown values through in preview without judging the rules they affect", async () => {
    const mappings = [
      { domain: UNKNOWN, primary: true },
      { domain: "a.example", primary: true },
    ];
    const inputs = await checkOk(provider, { ...staging, environmentId: UNKNOWN, mappings });
    expect(inputs).toMatchObject({ environmentId: UNKNOWN, mappings, timeoutSeconds: 600 });
    const olds = {
      ...staging,
      mappings: [{ domain: "a.example", primary: true, destinationDomainMapping: null }],
    };
    const { result, lines } = await said(() => provider.diff!("x", olds, inputs));
    expect(result).toEqual({ changes: true, replaces: ["environmentId"], deleteBeforeReplace: true });
    // Not known yet (it comes from a resource being replaced): the line says it may change, not that it does.
    expect(lines).toEqual([
      "wpengine:DomainMappings staging: environmentId is not known until what it comes from is updated; if it changes, that replaces it by deleting it first, then creating the new one: between the two, neither exists on the service",
    ]);
    const both = await checkOk(provider, { ...staging, appId: UNKNOWN, environmentId: UNKNOWN, mappings });
    expect((await said(() => provider.diff!("x", olds, both))).lines).toEqual([
      "wpengine:DomainMappings staging: appId, environmentId are not known until what they come from is updated; if they change, that replaces it by deleting it first, then creating the new one: between the two, neither exists on the service",
    ]);
  });
});
