/**
 * What a whole stack costs on the service under the real `pulumi` CLI at its default parallelism: a first
 * `up` of N domains on one install is about N/5 calls (bulk creates of the domains the engine sends at once,
 * one listing shared by the looks before creating), a no-op `preview` and a no-op `up` make no API call but
 * the one proof of the credentials, `refresh` and `preview --refresh` read them through one listing of the
 * install per process (one call per page) and `destroy` deletes each once. Agencies run this on every merge; `npm run bench`
 * measures the same at N up to 1,000. Then the same stack against a service that rate-limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import type { CliProject } from "../../tools/cli/project";
import { simulatorProject } from "../support/faulted";

const N = 200;
const INSTALL = SEED.installs.acmedev.id;
/** Listings and other fixed reads an apply may add (issue 23's done-when: N/5 + 30 and N/20 + 30). */
const FIXED = 30;

const program = (n: number) => `"use strict";
const wpengine = require("pulumi-wpengine");
for (let i = 0; i < ${n}; i++) new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + ".calls.example" });
`;

/** A CLI project of `n` domains against `sim`. */
const projectOf = (sim: RunningSimulator, n: number, name: string) => simulatorProject(sim, name, program(n));

const count = (list: string[], re: RegExp) => list.filter((c) => re.test(c)).length;

/** The names of the program's domains on the service. */
async function onService(sim: RunningSimulator): Promise<string[]> {
  const client = new WpEngineClient({ username: "demo", password: "demo", apiUrl: sim.apiUrl });
  const names: string[] = [];
  for await (const d of client.domains.iterate(INSTALL))
    if (d.name.endsWith(".calls.example")) names.push(d.name);
  return names.sort();
}
const declared = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.calls.example`).sort();

describe("API calls of a stack of domains under the pulumi CLI", { timeout: 20 * 60_000 }, () => {
  let sim: RunningSimulator;
  let project: CliProject;

  /** Runs a CLI command; returns the API requests it made, as `METHOD path`. */
  const calls = async (args: string[]): Promise<string[]> => {
    sim.clearRequests();
    await project.run(args);
    return sim.requests().map((r) => `${r.method} ${r.path}`);
  };
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    project = await projectOf(sim, N, "cli-calls");
  }, 10 * 60_000);

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("first up: bulk creates, at most N/5 + 30 calls", async () => {
    const up = await calls(["up", "--yes", "--skip-preview"]);
    const bulks = count(up, /^POST \/v1\/installs\/[^/]+\/domains\/bulk$/);
    console.log(`[calls] up of ${N} domains: ${up.length} calls, ${bulks} of them bulk creates`);
    expect(count(up, /^POST \/v1\/installs\/[^/]+\/domains$/)).toBe(0);
    expect(bulks).toBeGreaterThanOrEqual(N / 20);
    expect(up.length).toBeLessThanOrEqual(N / 5 + FIXED);
    expect(await onService(sim)).toEqual(declared(N));
    // Each resource's recorded source position is the line of the program that declared it (the frames
    // of the package's class are left out), and so is the first frame of its recorded stack.
    const state = JSON.parse(await project.exportText()) as {
      deployment: {
        resources: { type: string; sourcePosition?: string; stackTrace?: { sourcePosition?: string }[] }[];
      };
    };
    const domains = state.deployment.resources.filter((r) => r.type.endsWith("wpengine:Domain"));
    expect(domains).toHaveLength(N);
    for (const d of domains) {
      expect(d.sourcePosition).toMatch(/^project:\/\/\/index\.js#3,\d+$/);
      expect(d.stackTrace?.[0]?.sourcePosition).toBe(d.sourcePosition);
    }
  });

  it("a no-op preview and a no-op up make no API call but the one proof of the credentials", async () => {
    // The provider process proves its credentials once, at its first check (wrong ones fail the preview).
    expect(await calls(["preview", "--expect-no-changes"])).toEqual(["GET /v1/user"]);
    expect(await calls(["up", "--yes", "--skip-preview", "--expect-no-changes"])).toEqual(["GET /v1/user"]);
  });

  it("refresh and preview --refresh list the install once (one call per page of its domains) and change nothing; destroy deletes each once", async () => {
    let onInstall = 0;
    for await (const _ of new WpEngineClient({
      username: "demo",
      password: "demo",
      apiUrl: sim.apiUrl,
    }).domains.iterate(INSTALL))
      onInstall++;
    const pages = Array.from(
      { length: Math.ceil(onInstall / 100) },
      () => `GET /v1/installs/${INSTALL}/domains`,
    );
    const refresh = await calls(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    console.log(`[calls] refresh of ${N} domains: ${refresh.length} calls (${pages.length} pages)`);
    // Whatever the engine's pace: every read is served by the process's one listing.
    expect(refresh).toEqual(pages);
    const preview = await calls(["preview", "--refresh", "--expect-no-changes"]);
    expect(preview.sort()).toEqual(["GET /v1/user", ...pages].sort());
    const destroy = await calls(["destroy", "--yes", "--skip-preview"]);
    expect(count(destroy, /^DELETE \/v1\/installs\/[^/]+\/domains\/[^/]+$/)).toBe(N);
    expect(destroy.length).toBeLessThanOrEqual(N + FIXED);
  });

  it("with --parallel 20 and wpengine:maxConcurrency 20, the bulk creates carry more domains each", async () => {
    sim.clearRequests();
    await project.run(["up", "--yes", "--skip-preview", "--parallel", "20"], {
      env: { WPE_MAX_CONCURRENCY: "20" },
    });
    const up = sim.requests().map((r) => `${r.method} ${r.path}`);
    const bulks = count(up, /^POST \/v1\/installs\/[^/]+\/domains\/bulk$/);
    console.log(
      `[calls] up of ${N} domains at --parallel 20: ${up.length} calls, ${bulks} of them bulk creates`,
    );
    expect(await onService(sim)).toEqual(declared(N));
    expect(bulks).toBeLessThanOrEqual(N / 10);
    await project.run(["destroy", "--yes", "--skip-preview", "--parallel", "20"], {
      env: { WPE_MAX_CONCURRENCY: "20" },
    });
    expect(await onService(sim)).toEqual([]);
  });
});

describe("a stack of 100 domains against a service that rate-limits (20/s)", { timeout: 20 * 60_000 }, () => {
  const M = 100;
  let sim: RunningSimulator;
  let project: CliProject;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true, rate: "20/s" });
    project = await projectOf(sim, M, "cli-rate");
  }, 10 * 60_000);

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("up, refresh and destroy complete with no failed resource and no duplicate, the 429s waited out", async () => {
    const started = performance.now();
    await project.run(["up", "--yes", "--skip-preview"]);
    const up = (performance.now() - started) / 1000;
    expect(await onService(sim)).toEqual(declared(M));
    expect((await project.resources()).filter((r) => r.type.endsWith("wpengine:Domain"))).toHaveLength(M);
    await project.run(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    // 100 deletes against a limit of 3/s (a burst of 3): the service answers 429 and the provider waits,
    // however slowly a busy machine lets the engine send them (at 20/s a loaded run could stay under it).
    sim.configure({ rate: "3/s" });
    sim.clearRequests();
    const t = performance.now();
    await project.run(["destroy", "--yes", "--skip-preview"]);
    const destroy = (performance.now() - t) / 1000;
    const log = sim.requests();
    console.log(
      `[rate 20/s] up of ${M}: ${up.toFixed(1)} s; destroy: ${destroy.toFixed(1)} s, ${log.length} requests, ` +
        `${log.filter((r) => r.status === 429).length} answered 429 at 3/s (the limit's own bound: ${((M - 3) / 3).toFixed(0)} s)`,
    );
    expect(log.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(log.filter((r) => r.method === "DELETE" && r.status === 204)).toHaveLength(M);
    expect(await onService(sim)).toEqual([]);
  });
});
