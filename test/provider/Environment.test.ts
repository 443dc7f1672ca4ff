import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/Environment";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { checkFails, checkOk, diff, refusedAtCheck } from "../support/provider";
import { useProviderConfig, useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { accountId: ACCOUNT, appId: APP } = SEED.apps.acmeFrontend;
const client = (sim: RunningSimulator = fixture.sim) =>
  new WpEngineClient({
    username: "demo",
    password: "demo",
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });

const { advancing } = fixture;

const preview = { accountId: ACCOUNT, appId: APP, name: "preview", displayName: "Preview", branch: "main" };

async function create(news: Record<string, unknown>) {
  const inputs = await checkOk(provider, news);
  const { id, outs } = await advancing(provider.create(inputs));
  return { id, outs: outs as Record<string, unknown> };
}

describe("Environment against the simulator", () => {
  it("creates and waits for reconciling to end; read equals the outputs; a second diff shows no change", async () => {
    const { id, outs } = await create({ ...preview, rootDirectory: "web/" });
    expect(id).toBe(`accounts/${ACCOUNT}/apps/${APP}/environments/preview`);
    expect(outs).toMatchObject({
      name: "preview",
      displayName: "Preview",
      branch: "main",
      rootDirectory: "web",
      resourceName: id,
      reconciling: false,
      timeoutSeconds: 600,
    });
    expect((await client().environments.get(ACCOUNT, APP, "preview")).reconciling).toBe(false);

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ ...preview, rootDirectory: "web", timeoutSeconds: 600 });
    expect(await diff(provider, id, outs, { ...preview, rootDirectory: "web" })).toEqual({ changes: false });
  });

  it("updates displayName, branch and rootDirectory in place and waits again", async () => {
    const { id, outs } = await create(preview);
    const news = await checkOk(
      provider,
      { ...preview, displayName: "Preview 2", branch: "uploadable", rootDirectory: "app" },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await advancing(provider.update!(id, outs, news));
    expect(updated.outs).toMatchObject({
      displayName: "Preview 2",
      branch: "uploadable",
      rootDirectory: "app",
      reconciling: false,
      resourceName: id,
      createTime: outs["createTime"],
    });
    const live = await client().environments.get(ACCOUNT, APP, "preview");
    expect([live.displayName, live.branch, live.rootDirectory, live.reconciling]).toEqual([
      "Preview 2",
      "uploadable",
      "app",
      false,
    ]);
  });

  it("sees an out-of-band change in read, and the next diff plans an update", async () => {
    const { id, outs } = await create(preview);
    await client().environments.update(ACCOUNT, APP, "preview", {
      displayName: "Renamed by hand",
      branch: "hotfix",
    });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ displayName: "Renamed by hand", branch: "hotfix" });
    expect(read.inputs).toMatchObject({ displayName: "Renamed by hand", branch: "hotfix" });
    expect(await diff(provider, id, read.props!, preview)).toEqual({ changes: true });
  });

  it("deletes the environment; read afterwards reports it gone; a second delete succeeds", async () => {
    const { id, outs } = await create(preview);
    await provider.delete!(id, outs);
    await expect(client().environments.get(ACCOUNT, APP, "preview")).rejects.toMatchObject({ status: 404 });
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await expect(provider.delete!(id, outs)).resolves.toBeUndefined();
  });

  it("fails create on an existing environment without adopt, saying how to take it over", async () => {
    const inputs = await refusedAtCheck(provider, { ...preview, name: "staging" });
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:Environment create failed: environment staging already exists in app ${APP} of account ${ACCOUNT}; renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
  });

  it("adopts an existing environment with adopt: true and brings it to the declared fields", async () => {
    const { id, outs } = await create({ ...preview, name: "staging", displayName: "Stage", adopt: true });
    expect(id).toBe(`accounts/${ACCOUNT}/apps/${APP}/environments/staging`);
    expect(outs).toMatchObject({ displayName: "Stage", branch: "main", reconciling: false, adopt: true });
    expect((await client().environments.get(ACCOUNT, APP, "staging")).branch).toBe("main");
  });

  it("records the environment when a step after its creation fails (the error carries the id)", async () => {
    const inputs = await checkOk(provider, preview);
    fixture.sim.clearRequests();
    const pending = provider.create(inputs).catch((e: unknown) => e);
    // Once the environment exists (it reconciles for a real second), every read of it fails.
    await fixture.sim.served((r) => r.method === "POST");
    fixture.sim.setFaults([{ method: "GET", path: "*/environments/preview", status: 500 }]);
    const err = await pending;
    expect(err).toMatchObject({
      name: "CreatedButFailedError",
      id: `accounts/${ACCOUNT}/apps/${APP}/environments/preview`,
      properties: expect.objectContaining({ name: "preview", displayName: "Preview" }),
    });
    expect(String((err as Error).message)).toMatch(/wpengine:Environment create failed: .*500/);
    fixture.sim.setFaults([]);
    expect((await client().environments.get(ACCOUNT, APP, "preview")).name).toBeTruthy();
  });

  it("names the input when the service refuses a value", async () => {
    // Called without check, as a service stricter than check would be: the id is refused as environmentId.
    await expect(
      advancing(provider.create({ ...preview, name: "Bad_Id", rootDirectory: "", timeoutSeconds: 5 })),
    ).rejects.toThrow(/wpengine:Environment create failed: .*400 Bad Request.*\(input "name"\)/);
    await expect(
      advancing(
        provider.create({ ...preview, branch: "b".repeat(300), rootDirectory: "", timeoutSeconds: 5 }),
      ),
    ).rejects.toThrow(/400 Bad Request.*\(input "branch"\)/);
  });
});

describe("Environment waits with its own deadline", () => {
  let slow: RunningSimulator;
  beforeAll(async () => {
    // A simulator whose asynchronous work is 1000 times slower than real time: reconciling never ends in the test.
    slow = await startSimulator({ port: 0, quiet: true, pace: 0.001 });
    useProviderConfig(slow);
  });
  afterAll(async () => {
    useProviderConfig(fixture.sim);
    await slow.stop();
  });

  it("fails create after timeoutSeconds, naming the wait, and records the environment", async () => {
    const inputs = await checkOk(provider, { ...preview, timeoutSeconds: 1 });
    const err = await provider.create(inputs).catch((e: unknown) => e);
    expect(err).toMatchObject({
      name: "CreatedButFailedError",
      id: `accounts/${ACCOUNT}/apps/${APP}/environments/preview`,
    });
    expect((err as Error).message).toMatch(
      /timed out .* waiting for environment .*preview to finish reconciling \(timeoutSeconds 1\)/,
    );
    expect((await client(slow).environments.get(ACCOUNT, APP, "preview")).reconciling).toBe(true);
  });

  it("fails update after timeoutSeconds, naming the wait", async () => {
    const olds = {
      ...preview,
      name: "production",
      displayName: "Production",
      branch: "uploadable",
      rootDirectory: "",
      timeoutSeconds: 600,
    };
    const news = await checkOk(provider, { ...olds, displayName: "Prod", timeoutSeconds: 1 }, olds);
    await expect(
      provider.update!(`accounts/${ACCOUNT}/apps/${APP}/environments/production`, olds, news),
    ).rejects.toThrow(
      /wpengine:Environment update failed: timed out .*to finish reconciling \(timeoutSeconds 1\)/,
    );
  });
});

describe("Environment check", () => {
  it("names each invalid property with its reason", async () => {
    expect(
      await checkFails(provider, {
        accountId: ACCOUNT,
        appId: "App",
        name: "-x",
        displayName: " ",
        branch: "",
        rootDirectory: "/abs",
        timeoutSeconds: 0,
      }),
    ).toEqual([
      "appId: appId must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
      "name: name must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
      "displayName: displayName must not be empty",
      "branch: branch must not be empty (use `uploadable` for zip uploads)",
      "rootDirectory: rootDirectory must be a relative path inside the repository (no leading / and no ..)",
      "timeoutSeconds: timeoutSeconds must be more than 0",
    ]);
    expect(await checkFails(provider, { accountId: ACCOUNT, appId: APP, name: "x" })).toEqual([
      "displayName: displayName is required and must be a string",
      "branch: branch is required and must be a string (use `uploadable` for zip uploads)",
    ]);
  });

  it("lets unknown values through in preview; an unknown id plans a replacement, an unknown field an update", async () => {
    const inputs = await checkOk(provider, { ...preview, appId: UNKNOWN, displayName: UNKNOWN });
    expect(inputs).toMatchObject({
      appId: UNKNOWN,
      displayName: UNKNOWN,
      branch: "main",
      timeoutSeconds: 600,
    });
    const olds = { ...preview, rootDirectory: "" };
    expect(await provider.diff!("x", olds, inputs)).toEqual({ changes: true, replaces: ["appId"] });
    expect(await provider.diff!("x", olds, { ...olds, displayName: UNKNOWN })).toEqual({ changes: true });
  });
});
