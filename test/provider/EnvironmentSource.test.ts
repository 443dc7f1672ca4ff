import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/EnvironmentSource";
import { SEED } from "../../simulator";
import { useTempTrees } from "../support/files";
import { checkFails, checkOk, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { accountId: ACCOUNT, appId: APP } = SEED.apps.acmeFrontend;
const client = fixture.client;

const { advancing } = fixture;

const tree = useTempTrees("wpe-site-");
const site = (files: Record<string, string> = { "index.html": "<h1>v1</h1>", "assets/app.js": "run()" }) =>
  tree(files);

const production = { accountId: ACCOUNT, appId: APP, environmentId: "production" };
const ID = `accounts/${ACCOUNT}/apps/${APP}/environments/production/source`;

async function create(news: Record<string, unknown>) {
  const inputs = await checkOk(provider, news);
  const { id, outs } = await advancing(provider.create(inputs));
  return { id, outs: outs as Record<string, unknown>, inputs };
}

describe("EnvironmentSource against the simulator", () => {
  it("zips and uploads a directory, waits for the build; read equals the outputs; no change on a second diff", async () => {
    const path = site();
    const { id, outs, inputs } = await create({ ...production, path });
    expect(id).toBe(ID);
    expect(inputs["sourceHash"]).toMatch(/^[0-9a-f]{64}$/);
    expect(outs).toMatchObject({
      path,
      buildName: expect.stringMatching(
        new RegExp(`^accounts/${ACCOUNT}/apps/${APP}/environments/production/builds/`),
      ),
      buildState: "SUCCEEDED",
      sourceHash: inputs["sourceHash"],
      size: expect.any(Number),
      timeoutSeconds: 900,
    });
    expect((await client().environments.get(ACCOUNT, APP, "production")).build).toBe(outs["buildName"]);

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    // The source's hash, which check computes and the diff compares, stays among the inputs a refresh
    // records (without it every refresh showed -sourceHash).
    expect(read.inputs).toEqual({
      ...production,
      path,
      triggers: {},
      timeoutSeconds: 900,
      sourceHash: outs["sourceHash"],
    });
    expect(await diff(provider, id, outs, { ...production, path })).toEqual({ changes: false });
  });

  it("re-uploads when a file's content changes (seen by check's hash), as an update", async () => {
    const path = site();
    const { id, outs } = await create({ ...production, path });
    writeFileSync(join(path, "index.html"), "<h1>v2</h1>");
    const news = await checkOk(provider, { ...production, path });
    expect(news["sourceHash"]).not.toBe(outs["sourceHash"]);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await advancing(provider.update!(id, outs, news));
    expect(updated.outs).toMatchObject({ buildState: "SUCCEEDED", sourceHash: news["sourceHash"] });
    expect(updated.outs!["buildName"]).not.toBe(outs["buildName"]);
  });

  it("re-uploads the same content when triggers change", async () => {
    const path = site();
    const { id, outs } = await create({ ...production, path, triggers: { n: 1 } });
    const news = await checkOk(provider, { ...production, path, triggers: { n: 2 } });
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await advancing(provider.update!(id, outs, news));
    expect(updated.outs).toMatchObject({
      sourceHash: outs["sourceHash"],
      triggers: { n: 2 },
      buildState: "SUCCEEDED",
    });
    expect(updated.outs!["buildName"]).not.toBe(outs["buildName"]);
  });

  it("uploads a .zip file as it is", async () => {
    const dir = site({ "readme.txt": "x" });
    const zip = zipSync({ "index.html": new TextEncoder().encode("zipped") });
    writeFileSync(join(dir, "site.zip"), zip);
    const { outs } = await create({ ...production, path: join(dir, "site.zip") });
    expect(outs).toMatchObject({ buildState: "SUCCEEDED", size: zip.length });
  });

  it("sees another upload made out of band in read, and the next diff plans a re-upload", async () => {
    const path = site();
    const { id, outs } = await create({ ...production, path });
    const other = await client().environments.upload(
      ACCOUNT,
      APP,
      "production",
      zipSync({ "x.html": new Uint8Array([1]) }),
    );
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ buildName: other.name, sourceHash: null, size: null });
    expect(await diff(provider, id, read.props!, { ...production, path })).toEqual({ changes: true });
  });

  it("delete forgets: nothing is sent and the build stays deployed; read is gone once the environment is", async () => {
    const path = site();
    const { id, outs } = await create({ ...production, path });
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
    expect((await client().environments.get(ACCOUNT, APP, "production")).build).toBe(outs["buildName"]);
    await client().environments.delete(ACCOUNT, APP, "production");
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("fails a create whose build is cancelled, naming the build and its state, and records the resource", async () => {
    const inputs = await checkOk(provider, { ...production, path: site() });
    fixture.sim.clearRequests();
    const pending = provider.create(inputs).catch((e: unknown) => e);
    await fixture.sim.served((r) => r.path.endsWith(":upload"));
    const build = (await client().environments.get(ACCOUNT, APP, "production")).build!;
    await client().builds.cancel(ACCOUNT, APP, "production", build.split("/").pop()!);
    const err = await pending;
    expect(err).toMatchObject({
      name: "CreatedButFailedError",
      id: ID,
      properties: expect.objectContaining({ buildName: build, buildState: "CANCELLED" }),
    });
    expect((err as Error).message).toBe(
      `wpengine:EnvironmentSource create failed: build ${build} ended CANCELLED`,
    );
  });

  it("names the input when the service refuses the upload (an environment that builds a branch)", async () => {
    await client().environments.update(ACCOUNT, APP, "staging", { branch: "main" });
    const inputs = await checkOk(provider, { ...production, environmentId: "staging", path: site() });
    await expect(provider.create(inputs)).rejects.toThrow(
      /wpengine:EnvironmentSource create failed: .*400 Bad Request: branch: .*Uploads need an environment whose branch is "uploadable".*\(input "environmentId"\)/,
    );
  });
});

describe("EnvironmentSource check", () => {
  it("names path when it cannot be uploaded: missing, not a zip, nothing to upload", async () => {
    const dir = site({ "notes.txt": "hi", "empty/.git/HEAD": "ref" });
    expect(await checkFails(provider, { ...production, path: join(dir, "missing") })).toEqual([
      expect.stringMatching(/^path: .*missing does not exist/),
    ]);
    expect(await checkFails(provider, { ...production, path: join(dir, "notes.txt") })).toEqual([
      `path: ${join(dir, "notes.txt")} is not a zip file; give a .zip archive or a directory`,
    ]);
    expect(await checkFails(provider, { ...production, path: join(dir, "empty") })).toEqual([
      `path: directory ${join(dir, "empty")} has no files to upload (.git and node_modules are skipped)`,
    ]);
  });

  it("names each other invalid property", async () => {
    expect(
      await checkFails(provider, {
        ...production,
        path: "",
        timeoutSeconds: 1.5,
        sourceHash: "abc",
        environmentId: "Prod",
      }),
    ).toEqual([
      "environmentId: environmentId must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
      "path: path must not be empty",
      "timeoutSeconds: timeoutSeconds must be a whole number",
      expect.stringMatching(/sourceHash/),
    ]);
  });

  it("lets an unknown path through in preview (no hash yet) and plans an update", async () => {
    const inputs = await checkOk(provider, { ...production, path: UNKNOWN });
    expect(inputs).toEqual({ ...production, path: UNKNOWN, triggers: {}, timeoutSeconds: 900 });
    const olds = { ...production, path: "./site", triggers: {}, sourceHash: "f".repeat(64) };
    expect(await provider.diff!(ID, olds, inputs)).toEqual({ changes: true });
  });
});
