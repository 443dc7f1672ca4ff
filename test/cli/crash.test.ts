/**
 * A `pulumi up` killed with SIGKILL partway through a stack of 100 domains, then run again: the service
 * never holds a duplicate, and the way back to a converged stack is, after the engine's own
 * `pulumi cancel` (its lock outlives the kill, whatever the provider), the one documented step (README,
 * "After a crash"): `WPE_ADOPT_EXISTING=true pulumi up`, whose creates take over what the killed run
 * created but never recorded. Run twice: with the engine's checkpoint after every step, and with
 * `PULUMI_SKIP_CHECKPOINTS=true` (README, "Large stacks"), where the killed run recorded nothing at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject, killGroup } from "../../tools/cli/project";

const N = 100;
const SUFFIX = ".crash.example";
const INSTALL = SEED.installs.acmedev.id;

const program = `"use strict";
const wpengine = require("pulumi-wpengine");
for (let i = 0; i < ${N}; i++) new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}" });
`;

describe.each<{ mode: string; env: Record<string, string> }>([
  { mode: "checkpoints after every step", env: {} },
  { mode: "PULUMI_SKIP_CHECKPOINTS=true", env: { PULUMI_SKIP_CHECKPOINTS: "true" } },
])("a pulumi up killed mid-apply ($mode)", { timeout: 20 * 60_000 }, ({ env }) => {
  let sim: RunningSimulator;
  let project: CliProject;

  /** The crash domains on the service, by name (a name listed twice is a duplicate). */
  const onService = async (): Promise<string[]> => {
    const res = await fetch(`${sim.url}/__sim/state`);
    const world = (await res.json()) as { domains: Record<string, { name: string; install_id: string }> };
    return Object.values(world.domains)
      .filter((d) => d.install_id === INSTALL && d.name.endsWith(SUFFIX))
      .map((d) => d.name);
  };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    project = await CliProject.create({
      files: { "index.js": program, "package.json": '{ "name": "cli-crash", "main": "index.js" }\n' },
      name: "cli-crash",
      config: {
        "wpengine:apiUrl": sim.apiUrl,
        "wpengine:appHostingUrl": sim.appHostingUrl,
        "wpengine:username": "demo",
      },
      secrets: { "wpengine:password": "demo" },
      env,
    });
  }, 10 * 60_000);

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("leaves no duplicate, and one documented step converges the stack", async () => {
    // Kill the CLI (SIGKILL, no chance to clean up) once a quarter of the domains exist.
    let pid: number | undefined;
    const killed = project.run(["up", "--yes", "--skip-preview"], {
      allowFail: true,
      onSpawn: (p) => {
        pid = p;
      },
    });
    let finished: Awaited<typeof killed> | undefined;
    void killed.then((r) => {
      finished = r;
    });
    while ((await onService()).length < N / 4) {
      if (finished)
        throw new Error(`the up ended before it could be killed:\n${finished.stdout}\n${finished.stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(pid!, "SIGKILL");
    expect((await killed).code).not.toBe(0);
    // A CI runner ends the killed CLI's process group; the provider plugin runs in a group of its own and
    // must end by itself, promptly, since it could still write to the service.
    killGroup(pid);
    const deadline = Date.now() + 20_000;
    while (project.strays().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(project.strays(), "processes left running 20 s after the engine was killed").toEqual([]);
    const afterKill = await onService();
    expect(afterKill.length).toBeGreaterThanOrEqual(N / 4);
    expect(new Set(afterKill).size).toBe(afterKill.length);

    // The engine's own lock outlives a SIGKILL (any provider): releasing it is the engine's step.
    const locked = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true });
    expect(locked.code).not.toBe(0);
    expect(locked.stdout + locked.stderr).toMatch(/the stack is currently locked/);
    await project.run(["cancel", "--yes"]);

    // A plain up refuses to make a second copy of what the killed run created.
    const plain = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true });
    const text = plain.stdout + plain.stderr;
    const after = await onService();
    expect(new Set(after).size).toBe(after.length);
    if (plain.code !== 0)
      expect(text).toMatch(/already exists on install .*set adopt: true|pending operations/);

    // The documented step: creates adopt what exists. Then the stack is whole and settled.
    await project.run(["up", "--yes", "--skip-preview"], { env: { WPE_ADOPT_EXISTING: "true" } });
    const converged = await onService();
    expect(converged.sort()).toEqual(Array.from({ length: N }, (_, i) => `d${i}${SUFFIX}`).sort());
    const resources = await project.resources();
    expect(resources).toHaveLength(N);
    expect(new Set(resources.map((r) => r.id)).size).toBe(N);
    await project.expectNoChanges(["--refresh"]);
    // The killed run's pending creates are cleared by the last step of the documented recovery.
    await project.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
    expect(await project.pendingOperations()).toBe(0);
    expect(await project.resources()).toHaveLength(N);
    expect((await onService()).length).toBe(N);

    await project.destroy();
    expect(await onService()).toEqual([]);
  });
});
