import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/App";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff, refusedAtCheck, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACCOUNT = SEED.accounts.acme.id;
const SEEDED = SEED.apps.acmeFrontend.appId;
const client = fixture.client;

describe("App against the simulator", () => {
  it("a create whose answer was lost after the service acted takes the app as its own, in one line", async () => {
    fixture.sim.setFaults([
      { method: "POST", path: "/v1/accounts/*/apps", after: true, status: 503, count: 1 },
    ]);
    try {
      const { lines, result } = await said(() =>
        createOk(provider, { accountId: ACCOUNT, name: "lostapp", region: "US-C" }),
      );
      expect(result.id).toBe(`accounts/${ACCOUNT}/apps/lostapp`);
      // Not "adopted the existing ...": nothing held the name before this create's send.
      expect(lines).toEqual([
        `wpengine:App lostapp: send 1 was answered 503 Service unavailable, but what it asked for exists now ` +
          `(found by the app's name in its account: ${result.id}; nothing held it before the send): taken as created`,
      ]);
    } finally {
      fixture.sim.setFaults([]);
    }
  });

  it("creates, reads back the same outputs, and shows no change on a second diff", async () => {
    const { id, outs, inputs } = await createOk(provider, {
      accountId: ACCOUNT,
      name: "storefront",
      region: "regions/EU-W",
    });
    expect(id).toBe(`accounts/${ACCOUNT}/apps/storefront`);
    expect(outs).toMatchObject({ accountId: ACCOUNT, name: "storefront", region: "EU-W", resourceName: id });
    expect(outs["createTime"]).toEqual(expect.any(String));
    expect((await client().apps.get(ACCOUNT, "storefront")).region).toBe("regions/EU-W");

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ accountId: ACCOUNT, name: "storefront", region: "EU-W" });
    expect(
      await diff(provider, id, outs, { accountId: ACCOUNT, name: "storefront", region: "EU-W" }),
    ).toEqual({
      changes: false,
    });
    expect(inputs["region"]).toBe("EU-W");
  });

  it("sees an app deleted and re-made in another region out of band, and plans a replacement", async () => {
    const { id, outs } = await createOk(provider, { accountId: ACCOUNT, name: "storefront", region: "US-C" });
    await client().apps.delete(ACCOUNT, "storefront");
    await client().apps.create(ACCOUNT, "storefront", { region: "regions/UK" });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ region: "UK" });
    expect(
      await diff(provider, id, read.props!, { accountId: ACCOUNT, name: "storefront", region: "US-C" }),
    ).toEqual({
      changes: true,
      replaces: ["region"],
      deleteBeforeReplace: true,
    });
  });

  it("deletes the app on the service; a read afterwards reports it gone; a second delete succeeds", async () => {
    const { id, outs } = await createOk(provider, { accountId: ACCOUNT, name: "storefront", region: "US-C" });
    await provider.delete!(id, outs);
    await expect(client().apps.get(ACCOUNT, "storefront")).rejects.toMatchObject({ status: 404 });
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await expect(provider.delete!(id, outs)).resolves.toBeUndefined();
  });

  it("fails create on an existing app without adopt, saying how to take it over", async () => {
    const inputs = await refusedAtCheck(provider, { accountId: ACCOUNT, name: SEEDED, region: "US-C" });
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:App create failed: app ${SEEDED} already exists in account ${ACCOUNT}; renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
  });

  it("adopts an existing app with adopt: true, and only in its own region", async () => {
    const { id, outs } = await createOk(provider, {
      accountId: ACCOUNT,
      name: SEEDED,
      region: "US-C",
      adopt: true,
    });
    expect(id).toBe(`accounts/${ACCOUNT}/apps/${SEEDED}`);
    expect(outs).toMatchObject({ region: "US-C", adopt: true, createTime: "2024-03-01T10:00:00.000Z" });

    // Refused at preview already; create, sent past the check, says the same.
    const refusal = /in region US-C, not EU-W; an app cannot change region/;
    const wrong = await refusedAtCheck(
      provider,
      { accountId: ACCOUNT, name: SEEDED, region: "EU-W", adopt: true },
      refusal,
    );
    await expect(provider.create(wrong)).rejects.toThrow(refusal);
  });

  it("names the input when the service refuses a value check let through", async () => {
    // A service stricter than check: the provider is called directly with an id the service refuses.
    await expect(provider.create({ accountId: ACCOUNT, name: "Not_Valid", region: "US-C" })).rejects.toThrow(
      /wpengine:App create failed: .*400 Bad Request.*appId.*\(input "name"\)/,
    );
  });
});

describe("App check", () => {
  it("names each invalid property with its reason", async () => {
    expect(await checkFails(provider, { accountId: "acme", name: "Shop!", region: "mars" })).toEqual([
      "accountId: accountId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
      "name: name must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
      "region: region must be one of US-C, EU-W, AUS-SE, UK (or regions/<region>)",
    ]);
    expect(await checkFails(provider, { accountId: ACCOUNT, region: "US-C" })).toEqual([
      "name: name is required and must be a string",
    ]);
    expect(
      (await checkFails(provider, { accountId: ACCOUNT, name: "a", region: "UK", regoin: "UK" })).join(),
    ).toMatch(/regoin/);
  });

  it("lets unknown values through in preview and plans a replacement for them", async () => {
    const inputs = await checkOk(provider, { accountId: UNKNOWN, name: "shop", region: UNKNOWN });
    expect(inputs).toEqual({ accountId: UNKNOWN, name: "shop", region: UNKNOWN });
    const olds = { accountId: ACCOUNT, name: "shop", region: "US-C" };
    expect(await provider.diff!("x", olds, inputs)).toEqual({
      changes: true,
      replaces: ["accountId", "region"],
    });
  });
});
