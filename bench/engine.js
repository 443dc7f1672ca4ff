/**
 * `npm run bench:engine` (part of `npm run bench`): whole stacks on the real Pulumi engine.
 *
 * A generated program of N `Domain`s on one install is run by the `pulumi` CLI (tools/pulumi/toolchain.js
 * provides it) against the bundled simulator in a child process, for N = 0 (the engine's fixed start-up),
 * 50, 100, 200 and 400. For each N: the first `up`, a no-op `preview`, a no-op `up`, `refresh` and
 * `destroy`. Each step reports the API calls that reached the simulator, the wall time, the bound (calls ×
 * the service's median latency / the client's concurrency), the CPU time and peak memory of each process
 * (the CLI, the language host, the program, the dynamic-provider plugin, the simulator), then a
 * least-squares fit of wall time against N. `--profile` adds one more round with CPU profiles of every
 * node process and of the engine, summarised by where the time goes.
 *
 *   node bench/engine.js [--sizes 0,50,100,200,400] [--latency 100] [--profile 400] [--write]
 *
 * `--latency` is the delay the simulator adds to every API request, standing in for the real service's
 * round trip (the reference documents none); `--write` replaces the figures section of bench/README.md.
 * Like bench/run.js this asserts no timing: it exits 1 only when a result is wrong (a step that fails, a
 * count of domains on the service that is not N, a no-op that changes something).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { CliProject } = require("../dist/tools/cli/project.js");
const { DEFAULT_MAX_CONCURRENCY } = require("../dist/sdk");
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
const SIZES = String(flag("sizes", "0,50,100,200,400")).split(",").map(Number);
const LATENCY = Number(flag("latency", 100));
const PROFILE = flag("profile", false);
const WRITE = flag("write", false) === true;
/** `--env K=V,K2=V2`: extra environment of every CLI command (e.g. `PULUMI_SKIP_CHECKPOINTS=true`). */
const ENV = Object.fromEntries(
  String(flag("env", ""))
    .split(",")
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
);

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
// The stack
// ---------------------------------------------------------------------------------------------------

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const wpengine = require("pulumi-wpengine");
const n = Number(new pulumi.Config().require("n"));
for (let i = 0; i < n; i++) new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}" });
`;

const STEPS = [
  { name: "up", args: ["up", "--yes", "--skip-preview"] },
  { name: "no-op preview", args: ["preview", "--expect-no-changes"] },
  { name: "no-op up", args: ["up", "--yes", "--skip-preview", "--expect-no-changes"] },
  { name: "refresh", args: ["refresh", "--yes", "--skip-preview", "--expect-no-changes"] },
  { name: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
];

async function main() {
  const t0 = Date.now();
  const sim = await startSimulatorProcess(ROOT);
  const control = sim.control;
  if (LATENCY > 0) await control("PUT", "/__sim/faults", { rules: [{ path: "*", latencyMs: LATENCY }] });
  const auth = `Basic ${Buffer.from("demo:demo").toString("base64")}`;

  // The service's median latency: 101 sequential GETs of an install, as the plugin's client sends them.
  const lat = [];
  for (let i = 0; i < 101; i++) {
    const s = performance.now();
    const res = await fetch(`${sim.url}/v1/installs/${INSTALL}`, { headers: { authorization: auth } });
    await res.arrayBuffer();
    lat.push(performance.now() - s);
  }
  const median = lat.sort((a, b) => a - b)[50];
  console.log(
    `simulator ${sim.url} · added latency ${LATENCY} ms · median latency ${median.toFixed(1)} ms · ` +
      `client concurrency ${DEFAULT_MAX_CONCURRENCY}`,
  );

  const project = await CliProject.create({
    files: {
      "index.js": PROGRAM,
      "package.json": '{ "name": "bench-engine", "main": "index.js" }\n',
      // A JavaScript program: the CLI need not load TypeScript (ts-node) to run it.
      "Pulumi.yaml": "name: bench-engine\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n",
    },
    name: "bench-engine",
    config: {
      "wpengine:apiUrl": `${sim.url}/v1`,
      "wpengine:appHostingUrl": sim.url,
      "wpengine:username": "demo",
      n: "0",
    },
    secrets: { "wpengine:password": "demo" },
    timeoutMs: 30 * 60_000,
  });
  console.log(`project ${project.dir}`);

  const onService = async () => {
    const world = await control("GET", "/__sim/state");
    return Object.values(world.domains).filter((d) => d.name.endsWith(SUFFIX)).length;
  };

  /** Runs one step; returns its figures. */
  async function step(s, n, env = {}) {
    await control("DELETE", "/__sim/requests");
    const simCpu0 = sim.cpuMs();
    const tree0 = childrenCpuMs();
    let stop;
    const t = performance.now();
    const result = await project.run(s.args, {
      allowFail: true,
      env,
      onSpawn: (pid) => {
        stop = sampleTree(pid);
      },
    });
    const wall = performance.now() - t;
    const procs = stop();
    const log = (await control("GET", "/__sim/requests")).requests;
    const calls = log.length;
    // The provider proves its credentials once per process (GET /user at the first check): a read.
    const proofs = log.filter((r) => r.method === "GET" && r.path === "/v1/user").length;
    verify(result.code === 0, `N=${n} ${s.name} exited ${result.code}: ${result.stderr.slice(-2000)}`);
    procs.simulator = { cpu: sim.cpuMs() - simCpu0, peak: sim.peakMb(), count: 1 };
    return { step: s.name, n, calls, proofs, wall, tree: childrenCpuMs() - tree0, procs };
  }

  const rows = [];
  const state = [];
  for (const n of SIZES) {
    await project.setConfig({ n: String(n) });
    for (const s of STEPS) {
      const r = await step(s, n, ENV);
      rows.push(r);
      console.log(line(r, median));
      if (s.name === "up") {
        verify((await onService()) === n, `N=${n}: ${await onService()} domains on the service after up`);
        if (n > 0) state.push(stateBytes(await project.exportText(), n));
      }
      if (s.name.startsWith("no-op"))
        verify(
          r.calls - r.proofs === 0 && r.proofs <= 1,
          `N=${n} ${s.name} made ${r.calls} API calls (${r.proofs} of them the credentials proof)`,
        );
    }
    verify((await onService()) === 0, `N=${n}: domains left on the service after destroy`);
  }

  let profile;
  if (PROFILE) profile = await profiled(project, step, Number(PROFILE === true ? 400 : PROFILE));

  const report = render(rows, state, median, profile, ((Date.now() - t0) / 1000).toFixed(0));
  console.log(`\n${report}`);
  if (WRITE) writeReadme(report);
  project.dispose();
  await sim.stop();
  if (wrong.length) {
    console.log(`\n${wrong.length} wrong result(s):\n${wrong.map((w) => `- ${w}`).join("\n")}`);
    process.exit(1);
  }
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
  for (const s of [STEPS[0], STEPS[1], STEPS[4]]) {
    const sub = path.join(dir, s.name.replace(/\W+/g, "-"));
    fs.mkdirSync(sub);
    const args = [...s.args, "--profiling", path.join(sub, "engine")];
    const hook = path.join(__dirname, "cpu-prof-exit.js");
    const r = await step({ ...s, args }, n, {
      ...ENV,
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

function line(r, median) {
  const bound = (r.calls * median) / DEFAULT_MAX_CONCURRENCY;
  const procs = Object.entries(r.procs).map(
    ([k, p]) => `${k} ${s1(p.cpu)} s/${p.peak.toFixed(0)} MB${p.count > 1 ? ` ×${p.count}` : ""}`,
  );
  return `N=${String(r.n).padEnd(4)} ${r.step.padEnd(14)} calls ${String(r.calls).padStart(4)} · wall ${s1(r.wall)} s · bound ${s1(bound)} s · CPU ${s1(r.tree)} s · ${procs.join(" · ")}`;
}

/** Least squares y = a + b·x, with R². */
function linearFit(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  const b = sxx ? sxy / sxx : 0;
  return { a: my - b * mx, b, r2: syy ? (sxy * sxy) / (sxx * syy) : 1 };
}

/** Least squares y = a + b·x + c·x² (normal equations, Cramer's rule). */
function quadraticFit(xs, ys) {
  const S = (k) => xs.reduce((acc, x) => acc + x ** k, 0);
  const T = (k) => xs.reduce((acc, x, i) => acc + x ** k * ys[i], 0);
  const m = [
    [S(0), S(1), S(2)],
    [S(1), S(2), S(3)],
    [S(2), S(3), S(4)],
  ];
  const v = [T(0), T(1), T(2)];
  const det = (q) =>
    q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) -
    q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
    q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
  const d = det(m);
  if (!d) return undefined;
  const col = (j) => det(m.map((row, i) => row.map((x, k) => (k === j ? v[i] : x))));
  return { a: col(0) / d, b: col(1) / d, c: col(2) / d };
}

function render(rows, state, median, profile, seconds) {
  const out = [];
  const startup = Object.fromEntries(rows.filter((r) => r.n === 0).map((r) => [r.step, r.wall]));
  out.push(
    `Measured ${new Date().toISOString().slice(0, 10)} with \`node bench/engine.js${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(" ")}` : ""}\`: ` +
      `pulumi ${spawnSync("pulumi", ["version"], { encoding: "utf8" }).stdout.trim()}, Node ${process.version}, ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${os.loadavg()[0].toFixed(1)} at the end; ` +
      `${seconds} s in all. Added latency ${LATENCY} ms per API request; median latency measured ${median.toFixed(1)} ms; ` +
      `client concurrency ${DEFAULT_MAX_CONCURRENCY} (the engine's \`--parallel\` default is 8 too).`,
    "",
    "| N | step | API calls | wall | bound | (wall − start-up) / bound | CPU, all processes | engine | language host | program | plugin | simulator |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- | --- |",
  );
  for (const r of rows) {
    const bound = (r.calls * median) / DEFAULT_MAX_CONCURRENCY;
    const ratio = r.n > 0 && bound > 0 ? ((r.wall - (startup[r.step] ?? 0)) / bound).toFixed(2) : "";
    const cells = ROLES.map((k) => {
      const p = r.procs[k];
      return p ? `${s1(p.cpu)} s · ${p.peak.toFixed(0)} MB` : "";
    });
    out.push(
      `| ${r.n} | ${r.step} | ${r.calls} | ${s1(r.wall)} s | ${s1(bound)} s | ${ratio} | ${s1(r.tree)} s | ${cells.join(" | ")} |`,
    );
  }
  out.push("", "Process cells: CPU time · peak resident memory (VmHWM).", "");
  out.push(
    "Least-squares fits of wall time (seconds) against N: linear (a + b · N), and quadratic (a + b · N + c · N²; c is what grows with the square, e.g. a whole state written after every step):",
    "",
  );
  out.push(
    "| step | a (s) | b (ms per resource) | R² | quadratic: b (ms) · c (µs per resource²) | calls per resource (largest N) |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const s of STEPS) {
    const pts = rows.filter((r) => r.step === s.name);
    const f = linearFit(
      pts.map((r) => r.n),
      pts.map((r) => r.wall / 1000),
    );
    const last = pts.at(-1);
    const q =
      new Set(pts.map((r) => r.n)).size >= 3
        ? quadraticFit(
            pts.map((r) => r.n),
            pts.map((r) => r.wall / 1000),
          )
        : undefined;
    const quad = q ? `${(q.b * 1000).toFixed(1)} · ${(q.c * 1e6).toFixed(1)}` : "";
    out.push(
      `| ${s.name} | ${f.a.toFixed(2)} | ${(f.b * 1000).toFixed(1)} | ${f.r2.toFixed(3)} | ${quad} | ${last.n ? (last.calls / last.n).toFixed(2) : ""} |`,
    );
  }
  if (state.length) {
    out.push(
      "",
      "State after the first up:",
      "",
      "| N | state bytes | bytes per Domain | `__provider` bytes (stored twice) |",
      "| ---: | ---: | ---: | ---: |",
    );
    for (const s of state) out.push(`| ${s.n} | ${s.total} | ${s.perResource.toFixed(0)} | ${s.provider} |`);
  }
  if (profile) {
    console.log(`profiles: ${profile.dir}`);
    out.push("", `Profiles at N=${profile.n}:`);
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
