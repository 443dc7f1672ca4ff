/**
 * `pulumi-wpengine recover` after a `pulumi destroy` (docs/recover.md), on the real CLI against the
 * simulator: with nothing killed it says so and changes nothing (after a finished up, and after a finished
 * destroy); after a destroy killed with deletes in flight it cancels the lock, drops from the state the
 * interrupted deletes that happened, runs no `up` (which would re-create what the destroy deleted), and
 * says to run `pulumi destroy` again, which then finishes.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject, killGroup, type RunResult } from "../../tools/cli/project";
import { demoConfig } from "../support/simulator";

const N = 12;
const INSTALL = SEED.installs.acmedev.id;
const SUFFIX = ".recover-destroy.example";
/** Each domain delete takes this long on the simulator, so that the kill lands mid-destroy. */
const DELETE_LATENCY_MS = 1_500;

let sim: RunningSimulator;
let project: CliProject;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The ids of the domains on the service whose name ends in SUFFIX. */
async function onService(): Promise<string[]> {
  const world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as {
    domains: Record<string, { name: string; install_id: string }>;
  };
  return Object.entries(world.domains)
    .filter(([, d]) => d.install_id === INSTALL && d.name.endsWith(SUFFIX))
    .map(([id]) => id)
    .sort();
}

async function slowDeletes(latencyMs: number): Promise<void> {
  const rules = latencyMs ? [{ method: "DELETE", path: `/v1/installs/${INSTALL}/domains/*`, latencyMs }] : [];
  const res = await fetch(`${sim.url}/__sim/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  expect(res.status).toBe(200);
}

/** The state's pending operations as `type name`, or `undefined` when the export met a checkpoint being written. */
async function pendingOps(): Promise<string[] | undefined> {
  const r = await project.run(["stack", "export"], { allowFail: true });
  if (r.code !== 0) return undefined;
  const ops = (
    JSON.parse(r.stdout) as {
      deployment: { pending_operations?: { type: string; resource: { urn: string } }[] };
    }
  ).deployment.pending_operations;
  return (ops ?? []).map((o) => `${o.type} ${o.resource.urn.split("::").at(-1)}`);
}

/** The ids of the domains the state holds. */
async function inState(): Promise<string[]> {
  return (await project.resources()).map((r) => r.id!).sort();
}

/** The documented recovery, through the package's bin as a user runs it. */
async function recover(): Promise<RunResult> {
  const bin = path.join(project.dir, "node_modules", ".bin", "pulumi-wpengine");
  return project.exec(bin, ["recover", "--stack", project.stack], { allowFail: true });
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  const program = `"use strict";
const wpengine = require("pulumi-wpengine");
for (let i = 0; i < ${N}; i++) new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}" });
`;
  project = await CliProject.create({
    files: { "index.js": program, "package.json": '{ "name": "cli-recover", "main": "index.js" }\n' },
    name: "cli-recover",
    config: demoConfig(sim),
    secrets: { "wpengine:password": "demo" },
  });
}, 10 * 60_000);

afterAll(async () => {
  project?.dispose();
  await sim?.stop();
});

describe("pulumi-wpengine recover and pulumi destroy", { timeout: 10 * 60_000 }, () => {
  it("after a finished up, says nothing was killed and changes nothing", async () => {
    await project.up();
    const before = await inState();
    expect(before).toHaveLength(N);
    const r = await recover();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `pulumi-wpengine recover: stack ${project.stack}: nothing to recover, no run of it was killed (its last run, pulumi up, succeeded at `,
    );
    expect(r.stdout).not.toMatch(/Updating|Refreshing/);
    expect(await inState()).toEqual(before);
  });

  it("after a killed destroy, settles the interrupted deletes, re-creates nothing, and says to run the destroy again", async () => {
    const before = await onService();
    expect(before).toHaveLength(N);
    await slowDeletes(DELETE_LATENCY_MS);
    let pid: number | undefined;
    let finished: RunResult | undefined;
    // Three deletes at a time: the kill lands with some done and three in flight, as the engine records.
    const killed = project.run(["destroy", "--yes", "--skip-preview", "--parallel", "3"], {
      allowFail: true,
      onSpawn: (p) => {
        pid = p;
      },
    });
    void killed.then((r) => {
      finished = r;
    });
    const deleting = async () => (await onService()).length <= N - 3 && !!(await pendingOps())?.length;
    while (!(await deleting())) {
      if (finished) throw new Error(`the destroy ended before it could be killed:\n${finished.stdout}`);
      await sleep(50);
    }
    killGroup(pid);
    expect((await killed).code).not.toBe(0);
    for (const t0 = Date.now(); project.strays().length && Date.now() - t0 < 10_000; ) await sleep(100);
    project.killStrays();
    // The deletes already sent complete on the service.
    await slowDeletes(0);
    await sleep(2 * DELETE_LATENCY_MS);
    const left = await onService();
    expect(left.length).toBeLessThan(N);
    const state = await pendingOps();
    expect(state?.length, "the killed destroy's pending deletes").toBeGreaterThan(0);
    expect(state?.every((o) => o.startsWith("deleting "))).toBe(true);
    // The state still holds objects the service no longer has (the interrupted deletes that happened).
    expect((await inState()).length).toBeGreaterThan(left.length);

    const r = await recover();
    const said = r.stdout + r.stderr;
    expect(r.code, said).toBe(0);
    expect(said).toContain(
      `the interrupted run (pid ${pid}) was a pulumi destroy. Run it again to finish it: pulumi destroy --stack ${project.stack}`,
    );
    expect(said).toContain("Recover runs no up");
    expect(said).toContain(`stack ${project.stack}: 0 pending operation(s) left`);
    expect(said).not.toMatch(/Updating \(/);
    // Nothing re-created; the state holds exactly what the service still has, with no pending operation.
    expect(await onService()).toEqual(left);
    expect(await inState()).toEqual(left);
    expect(await pendingOps()).toEqual([]);

    await project.destroy();
    expect(await onService()).toEqual([]);
  });

  it("after a finished destroy, says nothing was killed and re-creates nothing", async () => {
    const r = await recover();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "nothing to recover, no run of it was killed (its last run, pulumi destroy, succeeded at ",
    );
    expect(await onService()).toEqual([]);
    expect(await inState()).toEqual([]);
  });
});
