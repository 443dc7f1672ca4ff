import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/EnvironmentCacheClear";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { accountId: ACCOUNT, appId: APP } = SEED.apps.acmeFrontend;
const client = fixture.client;

const target = { accountId: ACCOUNT, appId: APP, environmentId: "production" };
const clears = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith(":clearCache"));

describe("EnvironmentCacheClear against the simulator", () => {
  it("clears the cache once on create; read equals the outputs; a second diff shows no change", async () => {
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, { ...target, triggers: { release: "v1" } });
    expect(clears()).toHaveLength(1);
    expect(clears()[0]!.status).toBe(200);
    expect(id).toMatch(
      new RegExp(`^accounts/${ACCOUNT}/apps/${APP}/environments/production/cacheClears/[0-9a-f-]{36}$`),
    );
    expect(outs).toMatchObject({
      triggers: { release: "v1" },
      environmentResourceName: `accounts/${ACCOUNT}/apps/${APP}/environments/production`,
      lastClearedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ ...target, triggers: { release: "v1" } });
    expect(await diff(provider, id, outs, { ...target, triggers: { release: "v1" } })).toEqual({
      changes: false,
    });
  });

  it("clears again when triggers change (an update), and not otherwise", async () => {
    const { id, outs } = await createOk(provider, target);
    expect(await diff(provider, id, outs, target)).toEqual({ changes: false });
    const news = await checkOk(provider, { ...target, triggers: { build: "b2" } });
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, news);
    expect(clears()).toHaveLength(1);
    expect(updated.outs).toMatchObject({ triggers: { build: "b2" } });
    expect(Date.parse(updated.outs!["lastClearedAt"])).toBeGreaterThanOrEqual(
      Date.parse(String(outs["lastClearedAt"])),
    );
  });

  it("is gone when its environment was deleted out of band (read gives an empty id)", async () => {
    const { id, outs } = await createOk(provider, { ...target, environmentId: "staging" });
    await client().environments.delete(ACCOUNT, APP, "staging");
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("delete only forgets: nothing is sent to the service", async () => {
    const { id, outs } = await createOk(provider, target);
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
  });

  it("reports the service's refusal with what it was about", async () => {
    const inputs = await checkOk(provider, { ...target, environmentId: "nope" });
    await expect(provider.create(inputs)).rejects.toThrow(
      /wpengine:EnvironmentCacheClear create failed: POST .*environments\/nope:clearCache: 404 Not found: Environment not found/,
    );
  });
});

describe("EnvironmentCacheClear check", () => {
  it("names each invalid property with its reason", async () => {
    expect(await checkFails(provider, { ...target, appId: "", triggers: ["x"] })).toEqual([
      "appId: appId must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
      "triggers: triggers must be a map of JSON values",
    ]);
    expect(await checkFails(provider, { appId: APP, environmentId: "production" })).toEqual([
      "accountId: accountId is required and must be a string",
    ]);
  });

  it("lets unknown values through in preview; an unknown trigger plans a re-run", async () => {
    const inputs = await checkOk(provider, { ...target, triggers: { build: UNKNOWN } });
    expect(inputs).toEqual({ ...target, triggers: { build: UNKNOWN } });
    expect(await provider.diff!("x", { ...target, triggers: { build: "b1" } }, inputs)).toEqual({
      changes: true,
    });
  });
});
