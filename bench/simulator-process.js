/**
 * The bundled simulator in a child process, for the benches: the bench process is the client, so its CPU
 * and heap are its own, and the simulator's CPU and peak memory are read from `/proc/<pid>` (Linux; NaN
 * elsewhere).
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
        try {
          const fields = fs.readFileSync(`/proc/${cp.pid}/stat`, "utf8").split(") ")[1].split(" ");
          return ((Number(fields[11]) + Number(fields[12])) * 1000) / clkTck;
        } catch {
          return Number.NaN;
        }
      },
      /** Peak resident memory so far (VmHWM), MB. */
      peakMb() {
        try {
          const status = fs.readFileSync(`/proc/${cp.pid}/status`, "utf8");
          return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
        } catch {
          return Number.NaN;
        }
      },
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

module.exports = { startSimulatorProcess, clkTck };
