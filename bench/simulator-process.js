/**
 * The bundled simulator in a child process, for the benches: the bench process is the client, so its CPU
 * and heap are its own. Also the `/proc` readers both benches use (Linux; NaN or undefined elsewhere):
 * a process's CPU time and peak resident memory, and the CPU of this process's reaped children.
 */
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

let clkTck = 100;
try {
  clkTck = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
} catch {
  // Keep the usual 100 Hz.
}

/** The fields of `/proc/<pid>/stat` after the command name (field k of proc(5) is [k - 3]), or undefined. */
function statFields(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}
/** CPU milliseconds of a process from its stat fields (utime + stime). */
const cpuMsOf = (f) => ((Number(f[11]) + Number(f[12])) * 1000) / clkTck;
/** CPU milliseconds of this process's reaped children (cutime + cstime). */
const childrenCpuMs = () => {
  const f = statFields("self");
  return ((Number(f[13]) + Number(f[14])) * 1000) / clkTck;
};
/** Peak resident memory of a process (VmHWM), MB; NaN when it cannot be read. */
function peakMbOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

const running = new Set();
process.on("exit", () => {
  for (const cp of running) cp.kill();
});

/**
 * Starts `node dist/simulator/cli.js --port 0 --quiet ...args` from the repository `root`; resolves once it
 * listens.
 */
function startSimulatorProcess(root, args = []) {
  return new Promise((resolve, reject) => {
    const cli = [path.join(root, "dist/simulator/cli.js"), "--port", "0", "--quiet", ...args];
    const cp = spawn(process.execPath, cli, { stdio: ["ignore", "pipe", "inherit"] });
    running.add(cp);
    let url;
    let stopping = false;
    let out = "";
    const timer = setTimeout(() => reject(new Error("the simulator did not start within 20 s")), 20_000);
    cp.stdout.setEncoding("utf8");
    cp.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !url) {
        clearTimeout(timer);
        url = m[1];
        resolve(handle());
      }
    });
    cp.on("exit", (code, signal) => {
      running.delete(cp);
      clearTimeout(timer);
      if (!url) reject(new Error(`the simulator exited early (${code ?? signal})`));
      else if (!stopping) console.error(`the simulator exited (${code ?? signal})`);
    });
    const handle = () => ({
      url,
      pid: cp.pid,
      /** The simulator's control API (/__sim, no authentication). */
      async control(method, p, body) {
        const res = await fetch(`${url}${p}`, {
          method,
          headers: body === undefined ? {} : { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`control ${method} ${p}: ${res.status} ${await res.text()}`);
        return res.status === 204 ? undefined : res.json();
      },
      /** CPU milliseconds used so far. */
      cpuMs() {
        const f = statFields(cp.pid);
        return f ? cpuMsOf(f) : Number.NaN;
      },
      /** Peak resident memory so far (VmHWM), MB. */
      peakMb: () => peakMbOf(cp.pid),
      stop() {
        stopping = true;
        return new Promise((r) => {
          if (cp.exitCode !== null || cp.signalCode !== null) return r();
          cp.on("exit", () => r());
          cp.kill("SIGTERM");
        });
      },
    });
  });
}

module.exports = { startSimulatorProcess, statFields, cpuMsOf, childrenCpuMs, peakMbOf };
