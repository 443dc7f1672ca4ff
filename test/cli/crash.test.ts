/**
 * A `pulumi up` of N domains killed with SIGKILL partway through, on the real CLI against the simulator:
 * the CLI itself (as a cancelled CI job does) or the provider's process, early, midway and late, through
 * both front doors (the dynamic provider of a Node.js program, and the executable provider of a YAML
 * program), with the engine's checkpoint after every step and with `PULUMI_SKIP_CHECKPOINTS=true`
 * (docs/running.md, "Large stacks"), where the killed run recorded nothing at all. Each time: the service never
 * holds a duplicate; the provider's process ends by itself within seconds of the CLI's death; and the
 * documented recovery, `pulumi-wpengine recover` run through the package's bin (docs/recover.md), leaves
 * the state holding every object once, no pending operation, and a clean `preview --refresh`, while a
 * domain a second stack made beforehand, which the program also declares, stays that stack's (not
 * adopted, not deleted); its create refused first in the recovery's `up` (before any other is started)
 * does not stop the adoption of the rest (the `up` runs with --continue-on-error). Beside a live `up`, the
 * recovery refuses, naming the process, and touches nothing. One simulator and one project per front door
 * serve every round (each ends with a destroy).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AFTER_A_CRASH } from "../../provider/core/errors";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject, cliEnv, killGroup, REPO, type RunResult, urnName } from "../../tools/cli/project";
import { demoConfig } from "../support/simulator";

const toolchain: { ensureYamlHost(): Promise<string> } = require("../../tools/pulumi/toolchain.js");

const N = 40;
const INSTALL = SEED.installs.acmedev.id;
/** Each domain create takes this long on the simulator, so that a kill point is reached mid-apply. */
const CREATE_LATENCY_MS = 300;
/** How long the last step of the up (the contested domain's create) takes when a round kills at its tail. */
const TAIL_MS = 5_000;
const CHECKPOINTS = {};
const NO_CHECKPOINTS = { PULUMI_SKIP_CHECKPOINTS: "true" };
/** The domain a second stack made beforehand; the dynamic program declares it too when this is set. */
const CONTESTED_NAME = "contested.crash-other.example";
const CONTESTED = { CRASH_CONTESTED: "1" };
/**
 * A recovery's program shape: every dN waits behind "gate", a domain of another install whose create the
 * simulator answers GATE_MS late, while the contested domain waits for nothing (its refusal comes first).
 */
const GATED = { CRASH_GATED: "1" };
const GATE_INSTALL = SEED.installs.acmestg.id;
const GATE_NAME = "gate.crash-gate.example";
const GATE_MS = 8_000;

/** The documented recovery (docs/recover.md), through the package's bin as a user runs it. */
async function recoverStack(
  project: CliProject,
  env: Record<string, string>,
  selected = false,
): Promise<RunResult> {
  expect(AFTER_A_CRASH).toBe("pulumi-wpengine recover");
  const bin = path.join(project.dir, "node_modules", ".bin", "pulumi-wpengine");
  const t0 = Date.now();
  // `selected`: the stack pulumi has selected, as a user who passes no --stack.
  const args = selected ? ["recover"] : ["recover", "--stack", project.stack];
  const r = await project.exec(bin, args, { env, allowFail: true });
  const adopted = /adopted (\d+) object/.exec(r.stdout)?.[1];
  figures.push(`${((Date.now() - t0) / 1000).toFixed(1)} s, ${adopted ?? "?"} adopted, exit ${r.code}`);
  return r;
}

let sim: RunningSimulator;
const exitDelays: string[] = [];
/** Each recovery: how long it took, what it adopted. */
const figures: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  await slowCreates(CREATE_LATENCY_MS);
});

afterAll(async () => {
  console.log(`provider exit after the CLI was killed: ${exitDelays.join(", ")}`);
  console.log(`pulumi-wpengine recover: ${figures.join("; ")}`);
  await sim?.stop();
});

/**
 * Sets how long each single domain create (and, with `bulk`, each bulk create too) takes on the simulator;
 * `tailMs` also slows the GET of one domain by its id, which in an up of this program only the contested
 * domain's create makes (its name is in the install's listing: the create confirms it is live);
 * `lateBulkMs` answers each bulk create that long after its domains are on the service.
 */
async function slowCreates(latencyMs: number, bulk = false, tailMs = 0, lateBulkMs = 0): Promise<void> {
  const path = `/v1/installs/${INSTALL}/domains${bulk ? "*" : ""}`;
  const rules: object[] = [{ method: "POST", path, latencyMs }];
  if (lateBulkMs) rules.unshift({ method: "POST", path: `${path}/bulk`, after: true, latencyMs: lateBulkMs });
  if (tailMs) rules.push({ method: "GET", path: `/v1/installs/${INSTALL}/domains/*`, latencyMs: tailMs });
  await putFaults(rules);
}

/** Replaces the simulator's fault rules. */
async function putFaults(rules: object[]): Promise<void> {
  const res = await fetch(`${sim.url}/__sim/faults`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  expect(res.status).toBe(200);
}

/** The pending operations of the state, or `undefined` when the export met a checkpoint being written. */
async function pendingNow(project: CliProject): Promise<number | undefined> {
  const r = await project.run(["stack", "export"], { allowFail: true });
  if (r.code !== 0) return undefined;
  return (
    (JSON.parse(r.stdout) as { deployment: { pending_operations?: unknown[] } }).deployment.pending_operations
      ?.length ?? 0
  );
}

/** The lock files of the project's file backend (the engine's, one per running update). */
function lockFiles(project: CliProject): string[] {
  const dir = path.join(project.root, "backend", ".pulumi", "locks");
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".json")).sort();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The domains on the service whose name ends in `suffix` (a name listed twice is a duplicate). */
async function onService(suffix: string): Promise<string[]> {
  const world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as {
    domains: Record<string, { name: string; install_id: string }>;
  };
  return Object.values(world.domains)
    .filter((d) => d.install_id === INSTALL && d.name.endsWith(suffix))
    .map((d) => d.name);
}

/**
 * The stack's `.attrs` sidecar in the project's file backend, when it is empty: the engine's file backend
 * (gocloud's fileblob) creates it, writes it, then renames the new state in, and a SIGKILL after the first
 * step leaves it empty; every later command then fails with "failed to load checkpoint: EOF" though the
 * state is whole. `pulumi-wpengine recover` deletes it (docs/recover.md).
 */
function emptySidecar(project: CliProject): string | undefined {
  const file = sidecarOf(project);
  return fs.statSync(file).size === 0 ? file : undefined;
}

/** The stack's `.attrs` sidecar (`.pulumi/stacks/<project>/<stack>.json.attrs`). */
function sidecarOf(project: CliProject): string {
  const stacks = path.join(project.root, "backend", ".pulumi", "stacks");
  const found = (fs.readdirSync(stacks, { recursive: true }) as string[]).filter(
    (f) => path.basename(f) === `${project.stack}.json.attrs`,
  );
  expect(found.length, "the stack's .attrs sidecar").toBe(1);
  return path.join(stacks, found[0]!);
}

/** The processes still running, with their command lines and parents (for a failure's message). */
const described = (pids: number[]) =>
  pids.map((pid) => {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return `${pid} (parent ${stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]}): ${cmd}`;
    } catch {
      return `${pid}: gone`;
    }
  });

/** The provider plugin processes of the project (dynamic: a `sh` script and its node; executable: node). */
function pluginPids(project: CliProject): number[] {
  return project.strays().filter((pid) => {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return /pulumi-resource-(pulumi-nodejs|wpengine)|dynamic-provider/.test(cmd);
    } catch {
      return false;
    }
  });
}

interface Round {
  kill: "CLI" | "provider";
  /** The share of the N creates on the service when the kill lands. */
  at: number;
  env: Record<string, string>;
  /** Also check what a user meets before the recovery: the engine's lock, a plain up's refusal. */
  meet?: boolean;
  /** The program also declares the domain a second stack made beforehand (after every other domain). */
  contested?: boolean;
  /**
   * The kill also lands inside the engine's write of the state's `.attrs` sidecar: the test empties it, as
   * such a kill does (a kill lands there by chance too, in any round); recover then runs without --stack.
   */
  tear?: boolean;
  /**
   * Each bulk create is answered seconds after its domains land: on a loaded machine the executable
   * provider's batching can send all N in one call, and the up then ended before the kill (2026-11-30).
   */
  lateBulk?: boolean;
}

/** The second stack, and the id of the domain it made. */
let second: { id: string; other: CliProject } | undefined;

const label = (r: Round) =>
  `the ${r.kill} killed at ${Math.round(r.at * 100)}% of the creates${r.env === NO_CHECKPOINTS ? ", PULUMI_SKIP_CHECKPOINTS=true" : ""}`;

/** Kills the apply as `round` says, recovers as documented, and checks the stack is whole and settled. */
async function crashAndRecover(project: CliProject, suffix: string, round: Round): Promise<void> {
  const env = { ...round.env, ...(round.contested ? CONTESTED : {}) };
  const contested = round.contested ? second : undefined;
  if (round.contested) expect(contested, "the second stack's domain").toBeDefined();
  const all = Array.from({ length: N }, (_, i) => `d${i}${suffix}`).sort();
  let pid: number | undefined;
  let finished: RunResult | undefined;
  // A kill at 95% lands in the up's last step, the contested domain's create: the creates in flight land
  // together (one bulk call of the engine's --parallel), so the count jumps to N and the up ends soon after.
  // That step is made to take seconds, so the kill lands inside it on a loaded machine too (without, a cold
  // CI run's up ended first, 2026-11-26).
  const tail = round.contested === true && round.at >= 0.9;
  if (tail || round.lateBulk)
    await slowCreates(CREATE_LATENCY_MS, false, tail ? TAIL_MS : 0, round.lateBulk ? TAIL_MS : 0);
  const killed = project.run(["up", "--yes", "--skip-preview"], {
    allowFail: true,
    env,
    onSpawn: (p) => {
      pid = p;
    },
  });
  void killed.then((r) => {
    finished = r;
  });
  while ((await onService(suffix)).length < Math.max(1, Math.floor(N * round.at))) {
    if (finished)
      throw new Error(`the up ended before it could be killed:\n${finished.stdout}\n${finished.stderr}`);
    await sleep(50);
  }
  const plugins = pluginPids(project);
  expect(plugins.length).toBeGreaterThan(0);
  if (round.kill === "CLI") {
    // A CI runner ends the killed CLI's process group; the provider plugin runs in a group of its own and
    // must end by itself, promptly, since it could still write to the service.
    killGroup(pid);
    const t0 = Date.now();
    const running = () => plugins.filter((p) => project.strays().includes(p));
    while (running().length && Date.now() - t0 < 30_000) await sleep(100);
    expect(described(running()), "provider processes left running 30 s after the CLI was killed").toEqual([]);
    exitDelays.push(`${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // The engine's own helpers end soon after it, or outlive it (the YAML language host does, reparented):
    // they make no call to the service. The test ends them, as a CI runner would.
    for (const t1 = Date.now(); project.strays().length && Date.now() - t1 < 5_000; ) await sleep(100);
    const others = described(project.strays());
    if (others.length) console.log(`left running by the engine, killed by the test:\n${others.join("\n")}`);
    project.killStrays();
  } else {
    for (const p of plugins) process.kill(p, "SIGKILL");
  }
  const result = await killed;
  expect(result.code).not.toBe(0);
  if (round.tear) fs.truncateSync(sidecarOf(project), 0);
  const torn = emptySidecar(project);
  if (torn) console.log(`the kill left ${path.basename(torn)} empty`);
  if (round.kill === "provider") {
    // The engine names the provider's death by what it was doing when the kill landed: a call in flight
    // ("error reading from server") or the next one dialled ("exited prematurely", "connection refused").
    expect(result.stdout + result.stderr).toMatch(
      /error reading from server|exited prematurely|connect: connection refused/,
    );
    expect(described(project.strays()), "processes left running after the CLI ended").toEqual([]);
  }
  if (tail || round.lateBulk) await slowCreates(CREATE_LATENCY_MS);
  // Requests already sent when the kill landed may still complete on the service.
  await sleep(2 * CREATE_LATENCY_MS);
  const afterKill = await onService(suffix);
  expect(afterKill.length).toBeGreaterThanOrEqual(Math.floor(N * round.at));
  expect(new Set(afterKill).size).toBe(afterKill.length);

  if (round.meet && torn) {
    // With the sidecar empty, every command fails on the checkpoint, before any lock: recover repairs it.
    for (const cmd of [
      ["up", "--yes", "--skip-preview"],
      ["cancel", "--yes"],
    ]) {
      const failed = await project.run(cmd, { allowFail: true, env });
      expect(failed.code).not.toBe(0);
      expect(failed.stdout + failed.stderr).toMatch(/failed to load checkpoint: EOF/);
    }
  } else if (round.meet) {
    // The engine's own lock outlives a SIGKILL of the CLI (any provider): the first step releases it.
    const locked = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true, env });
    expect(locked.code).not.toBe(0);
    expect(locked.stdout + locked.stderr).toMatch(/the stack is currently locked/);
    await project.run(["cancel", "--yes"], { env });
    // A plain up makes no second copy of what the killed run created: it refuses, saying how to adopt.
    const plain = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true, env });
    const after = await onService(suffix);
    expect(new Set(after).size).toBe(after.length);
    // The refusal names the way back (docs/recover.md).
    if (plain.code !== 0)
      expect(plain.stdout + plain.stderr).toMatch(/already exists on install .*set adopt: true/);
    if (plain.code !== 0) expect(plain.stdout + plain.stderr).toContain(`run \`${AFTER_A_CRASH}\``);
  }

  // After a torn sidecar, without --stack: pulumi cannot even name the selected stack then.
  const recovered = await recoverStack(project, env, round.tear === true);
  const said = recovered.stdout + recovered.stderr;
  if (contested) {
    // The second stack's domain is refused, by name, and the rest converges.
    expect(recovered.code, said).toBe(1);
    expect(said).toMatch(
      new RegExp(
        `domain ${CONTESTED_NAME} already exists on install ${INSTALL}[^\\n]*Not taken by pulumi-wpengine recover`,
      ),
    );
    await checkContested(contested);
  } else expect(recovered.code, said).toBe(0);
  if (round.env === NO_CHECKPOINTS) expect(said).toMatch(/no pending operation is recorded/);
  // The empty sidecar is recover's to repair, said in one line.
  if (torn) {
    expect(said).toContain(`deleted the empty ${torn} the killed run left beside the state`);
    // The recovery's own commands wrote the sidecar afresh.
    expect(emptySidecar(project)).toBeUndefined();
  } else expect(said).not.toMatch(/deleted the empty/);

  expect((await onService(suffix)).sort()).toEqual(all);
  const resources = await project.resources();
  expect(resources.map((r) => urnName(r.urn)).sort()).toEqual(
    Array.from({ length: N }, (_, i) => `d${i}`).sort(),
  );
  expect(new Set(resources.map((r) => r.id)).size).toBe(N);
  expect(await project.pendingOperations()).toBe(0);
  // Without the contested domain in the program (its owner keeps it), nothing is left to do.
  await project.run(["preview", "--expect-no-changes", "--refresh"], { env: round.env });

  await project.destroy();
  expect(await onService(suffix)).toEqual([]);
  if (contested) await checkContested(contested);
}

/** The contested domain is still on the service with the second stack's id, and only that stack holds it. */
async function checkContested(c: { id: string; other: CliProject }): Promise<void> {
  const world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as {
    domains: Record<string, { name: string; install_id: string }>;
  };
  const live = Object.entries(world.domains).filter(
    ([, d]) => d.install_id === INSTALL && d.name === CONTESTED_NAME,
  );
  expect(live.map(([id]) => id)).toEqual([c.id]);
  expect((await c.other.resources()).map((r) => r.id)).toEqual([c.id]);
}

describe("a pulumi up of dynamic resources killed mid-apply", { timeout: 20 * 60_000 }, () => {
  const SUFFIX = ".crash.example";
  let project: CliProject;

  beforeAll(async () => {
    // The contested domain comes after every other create, so a kill always lands before it is tried
    // (with CRASH_GATED, a recovery's shape, it comes first instead).
    const program = `"use strict";
const wpengine = require("pulumi-wpengine");
// CRASH_GATED: every dN waits behind the gate (slow), the contested domain behind nothing.
const gated = !!process.env.CRASH_GATED;
const gate = gated ? [new wpengine.Domain("gate", { installId: "${GATE_INSTALL}", name: "${GATE_NAME}" })] : [];
const all = [];
for (let i = 0; i < ${N}; i++) all.push(new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}" }, { dependsOn: gate }));
if (process.env.CRASH_CONTESTED)
  new wpengine.Domain("contested", { installId: "${INSTALL}", name: "${CONTESTED_NAME}" }, { dependsOn: gated ? [] : all });
`;
    // A second stack (another project) that made the contested domain beforehand.
    const owner = `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.Domain("mine", { installId: "${INSTALL}", name: "${CONTESTED_NAME}" });
`;
    const [p, other] = await Promise.all([
      CliProject.create({
        files: { "index.js": program, "package.json": '{ "name": "cli-crash", "main": "index.js" }\n' },
        name: "cli-crash",
        config: demoConfig(sim),
        secrets: { "wpengine:password": "demo" },
      }),
      CliProject.create({
        files: { "index.js": owner, "package.json": '{ "name": "cli-crash-other", "main": "index.js" }\n' },
        name: "cli-crash-other",
        config: demoConfig(sim),
        secrets: { "wpengine:password": "demo" },
      }),
    ]);
    project = p;
    await other.up();
    second = { id: (await other.resources())[0]!.id!, other };
  }, 10 * 60_000);

  afterAll(async () => {
    if (second) {
      await second.other.destroy();
      second.other.dispose();
    }
    project?.dispose();
  });

  it("recover refuses beside a live up, naming its process, and leaves its lock and pending creates alone", async () => {
    await slowCreates(20_000, true);
    let pid: number | undefined;
    const live = project.run(["up", "--yes", "--skip-preview"], {
      allowFail: true,
      onSpawn: (p) => {
        pid = p;
      },
    });
    try {
      // The run holds the lock and has creates under way (its checkpoint records them as pending).
      for (const t0 = Date.now(); ((await pendingNow(project)) ?? 0) === 0; ) {
        if (Date.now() - t0 > 120_000) throw new Error("the up recorded no pending create within 120 s");
        await sleep(200);
      }
      const locks = lockFiles(project);
      expect(locks.length).toBe(1);
      const refused = await recoverStack(project, {});
      expect(refused.code, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stderr).toContain(
        `a pulumi process still holds the stack: pid ${pid} (pulumi up --yes --skip-preview`,
      );
      expect(lockFiles(project)).toEqual(locks);
      let pending = await pendingNow(project);
      while (pending === undefined) {
        await sleep(200);
        pending = await pendingNow(project);
      }
      expect(pending).toBeGreaterThan(0);
    } finally {
      // Whatever happened, the live run ends by itself before the next test (the rounds share the stack).
      await slowCreates(CREATE_LATENCY_MS);
      await live;
    }
    // The live run was left alone: it ends by itself, whole.
    const ended = await live;
    expect(ended.code, ended.stdout + ended.stderr).toBe(0);
    expect((await project.resources()).length).toBe(N);
    expect(await project.pendingOperations()).toBe(0);
    expect(lockFiles(project)).toEqual([]);
    await project.destroy();
    expect(await onService(SUFFIX)).toEqual([]);
  });

  it.each<Round>([
    { kill: "CLI", at: 0.05, env: CHECKPOINTS, meet: true, contested: true },
    { kill: "CLI", at: 0.05, env: NO_CHECKPOINTS, contested: true },
    { kill: "CLI", at: 0.5, env: NO_CHECKPOINTS, contested: true },
    { kill: "CLI", at: 0.5, env: CHECKPOINTS, meet: true, tear: true },
    { kill: "CLI", at: 0.95, env: CHECKPOINTS, contested: true },
    { kill: "CLI", at: 0.95, env: NO_CHECKPOINTS, contested: true },
    { kill: "provider", at: 0.5, env: CHECKPOINTS, contested: true },
  ])("$kill at $at: no duplicate, and the documented recovery leaves nothing behind", async (round) => {
    console.log(label(round));
    await crashAndRecover(project, SUFFIX, round);
  });

  it("a create refused first in the recovery does not stop it: everything the killed run made is adopted", async () => {
    // The killed run: the dN only, no checkpoint (none of what it made is in the state).
    await slowCreates(CREATE_LATENCY_MS);
    const all = Array.from({ length: N }, (_, i) => `d${i}${SUFFIX}`).sort();
    let pid: number | undefined;
    let finished: RunResult | undefined;
    const killed = project.run(["up", "--yes", "--skip-preview"], {
      allowFail: true,
      env: NO_CHECKPOINTS,
      onSpawn: (p) => {
        pid = p;
      },
    });
    void killed.then((r) => {
      finished = r;
    });
    while ((await onService(SUFFIX)).length < N / 2) {
      if (finished)
        throw new Error(`the up ended before it could be killed:\n${finished.stdout}\n${finished.stderr}`);
      await sleep(50);
    }
    const plugins = pluginPids(project);
    killGroup(pid);
    for (const t0 = Date.now(); plugins.some((p) => project.strays().includes(p)); ) {
      if (Date.now() - t0 > 30_000) throw new Error("the provider still runs 30 s after the CLI was killed");
      await sleep(100);
    }
    for (const t1 = Date.now(); project.strays().length && Date.now() - t1 < 5_000; ) await sleep(100);
    project.killStrays();
    expect((await killed).code).not.toBe(0);
    await sleep(2 * CREATE_LATENCY_MS);
    const made = await onService(SUFFIX);
    expect(made.length).toBeGreaterThanOrEqual(N / 2);
    expect((await project.resources()).length).toBe(0);

    // The recovery's program declares the contested domain too, refused at once; every dN waits behind the
    // gate, created GATE_MS late, so the refusal comes before any dN's create is started. Without
    // --continue-on-error the engine starts none after it: what the killed run made would stay orphaned.
    await putFaults([
      { method: "POST", path: `/v1/installs/${GATE_INSTALL}/domains*`, latencyMs: GATE_MS },
      { method: "POST", path: `/v1/installs/${INSTALL}/domains`, latencyMs: CREATE_LATENCY_MS },
    ]);
    try {
      const recovered = await recoverStack(project, { ...CONTESTED, ...GATED });
      const said = recovered.stdout + recovered.stderr;
      expect(recovered.code, said).toBe(1);
      expect(said).toMatch(
        new RegExp(
          `domain ${CONTESTED_NAME} already exists on install ${INSTALL}[^\\n]*Not taken by pulumi-wpengine recover`,
        ),
      );
      // Each domain on the service once (no duplicate), each the one the state holds under its name: none of
      // what the killed run made is orphaned (on the service, in no state).
      const world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as {
        domains: Record<string, { name: string; install_id: string }>;
      };
      const live = Object.entries(world.domains).filter(
        ([, d]) => d.install_id === INSTALL && d.name.endsWith(SUFFIX),
      );
      const resources = await project.resources();
      const inState = new Map(resources.map((r) => [urnName(r.urn), r.id]));
      const orphans = live
        .filter(([id, d]) => inState.get(d.name.split(".")[0]!) !== id)
        .map(([, d]) => d.name);
      expect(
        orphans.filter((n) => made.includes(n)),
        "made by the killed run, left in no state",
      ).toEqual([]);
      expect(orphans).toEqual([]);
      expect(live.map(([, d]) => d.name).sort()).toEqual(all);
      expect([...inState.keys()].sort()).toEqual(
        [...Array.from({ length: N }, (_, i) => `d${i}`), "gate"].sort(),
      );
      expect(new Set(resources.map((r) => r.id)).size).toBe(resources.length);
      expect(said).toContain(
        `adopted ${made.length} object(s) the killed run created (or, where its create was never answered, most likely made):`,
      );
      expect(await project.pendingOperations()).toBe(0);
      // The other stack's domain stays its own.
      await checkContested(second!);
    } finally {
      await slowCreates(CREATE_LATENCY_MS);
    }
    // Without the contested domain in the program, nothing is left to do.
    await project.run(["preview", "--expect-no-changes", "--refresh"], { env: GATED });
    await project.destroy();
    expect(await onService(SUFFIX)).toEqual([]);
    await checkContested(second!);
  });
});

describe("a pulumi up of a YAML program (executable provider) killed mid-apply", {
  timeout: 20 * 60_000,
}, () => {
  const SUFFIX = ".crash-yaml.example";
  let project: CliProject;

  beforeAll(async () => {
    const resources = Array.from(
      { length: N },
      (_, i) =>
        `  d${i}:\n    type: wpengine:index:Domain\n    properties:\n      installId: ${INSTALL}\n      name: d${i}${SUFFIX}\n`,
    ).join("");
    const yamlHost = await toolchain.ensureYamlHost();
    const PATH = (await cliEnv())["PATH"] ?? process.env["PATH"];
    project = await CliProject.create({
      files: { "Pulumi.yaml": `name: cli-crash-yaml\nruntime: yaml\nresources:\n${resources}` },
      config: demoConfig(sim),
      secrets: { "wpengine:password": "demo" },
      // The plugin on PATH, as after `npm install -g pulumi-wpengine`; it runs from dist/.
      env: { PATH: [path.join(REPO, "bin"), yamlHost, PATH].join(path.delimiter) },
    });
  }, 30 * 60_000);

  afterAll(() => project?.dispose());

  it.each<Round>([
    { kill: "CLI", at: 0.5, env: CHECKPOINTS, lateBulk: true },
    { kill: "CLI", at: 0.5, env: NO_CHECKPOINTS, lateBulk: true },
    { kill: "provider", at: 0.5, env: CHECKPOINTS, lateBulk: true },
  ])("$kill at $at: no duplicate, and the documented recovery leaves nothing behind", async (round) => {
    console.log(label(round));
    await crashAndRecover(project, SUFFIX, round);
  });
});
