/**
 * What a whole stack costs on the service under the real `pulumi` CLI: a first `up` of N domains on one
 * install is N creates plus a bounded number of listings (shared by the concurrent creates), a no-op
 * `preview` and a no-op `up` make no API call, `refresh` reads each resource once and `destroy` deletes
 * each once. Agencies run this on every merge; `npm run bench` measures the same at N up to 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject } from "../../tools/cli/project";

const N = 60;
const INSTALL = SEED.installs.acmedev.id;
/** Listings and other fixed reads an apply may add on top of one call per resource. */
const FIXED = 5;

const program = `"use strict";
const wpengine = require("pulumi-wpengine");
for (let i = 0; i < ${N}; i++) new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + ".calls.example" });
`;

describe("API calls of a stack of domains under the pulumi CLI", { timeout: 20 * 60_000 }, () => {
  let sim: RunningSimulator;
  let project: CliProject;

  /** Runs a CLI command; returns the API requests it made, as `METHOD path`. */
  const calls = async (args: string[]): Promise<string[]> => {
    sim.clearRequests();
    await project.run(args);
    return sim.requests().map((r) => `${r.method} ${r.path}`);
  };
  const count = (list: string[], re: RegExp) => list.filter((c) => re.test(c)).length;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    project = await CliProject.create({
      files: { "index.js": program, "package.json": '{ "name": "cli-calls", "main": "index.js" }\n' },
      name: "cli-calls",
      config: {
        "wpengine:apiUrl": sim.apiUrl,
        "wpengine:appHostingUrl": sim.appHostingUrl,
        "wpengine:username": "demo",
      },
      secrets: { "wpengine:password": "demo" },
    });
  }, 10 * 60_000);

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("first up: N creates and a bounded number of listings", async () => {
    const up = await calls(["up", "--yes", "--skip-preview"]);
    expect(count(up, /^POST \/v1\/installs\/[^/]+\/domains$/)).toBe(N);
    expect(count(up, /^GET \/v1\/installs\/[^/]+\/domains$/)).toBeLessThanOrEqual(FIXED);
    expect(up.length).toBeLessThanOrEqual(Math.floor(1.1 * N) + FIXED);
    // Each resource's recorded stack still reaches the line of the program that declared it.
    const state = JSON.parse(await project.exportText()) as {
      deployment: { resources: { type: string; stackTrace?: { sourcePosition?: string }[] }[] };
    };
    const domains = state.deployment.resources.filter((r) => r.type.endsWith("wpengine:Domain"));
    expect(domains).toHaveLength(N);
    for (const d of domains)
      expect(d.stackTrace?.map((f) => f.sourcePosition)).toContainEqual(
        expect.stringMatching(/^project:\/\/\/index\.js#3,\d+$/),
      );
  });

  it("a no-op preview and a no-op up make no API call but the one proof of the credentials", async () => {
    // The provider process proves its credentials once, at its first check (wrong ones fail the preview).
    expect(await calls(["preview", "--expect-no-changes"])).toEqual(["GET /v1/user"]);
    expect(await calls(["up", "--yes", "--skip-preview", "--expect-no-changes"])).toEqual(["GET /v1/user"]);
  });

  it("refresh reads each resource once; destroy deletes each once", async () => {
    const refresh = await calls(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(refresh.every((c) => c.startsWith("GET "))).toBe(true);
    expect(refresh.length).toBeLessThanOrEqual(N);
    const destroy = await calls(["destroy", "--yes", "--skip-preview"]);
    expect(count(destroy, /^DELETE \/v1\/installs\/[^/]+\/domains\/[^/]+$/)).toBe(N);
    expect(destroy.length).toBeLessThanOrEqual(N + FIXED);
  });
});
