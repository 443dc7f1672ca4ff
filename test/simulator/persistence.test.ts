import { type ChildProcess, spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { loadState, Store } from "../../simulator/store";
import { call, SEED } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "wpe-sim-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const domains = `/v1/installs/${SEED.installs.acmeprod.id}/domains`;
const CLI = resolve(__dirname, "../../dist/simulator/cli.js");

describe("--state: the world in a file", () => {
  it("keeps a mutation across stop and start on the same file", async () => {
    const file = join(dir, "restart.json");
    let sim: RunningSimulator = await startSimulator({ stateFile: file, quiet: true });
    const created = await call(sim, "POST", domains, { name: "kept.acme.example" });
    expect(created.status).toBe(201);
    sim.advance(7200);
    await sim.stop();
    sim = await startSimulator({ stateFile: file, quiet: true });
    try {
      const read = await call(sim, "GET", `${domains}/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.txt_verification_value).toBe(created.body.txt_verification_value);
      // The clock offset survives too, so time never goes backwards.
      const clock = await call(sim, "GET", "/__sim/clock");
      expect(clock.body.advancedSeconds).toBe(7200);
    } finally {
      await sim.stop();
    }
  });

  it("puts a write on disk before answering, by appending to a journal instead of rewriting the world", async () => {
    const file = join(dir, "journal.json");
    const sim = await startSimulator({ stateFile: file, quiet: true });
    try {
      const snapshot = readFileSync(file, "utf8");
      const created = await call(sim, "POST", domains, { name: "durable.acme.example" });
      // Read back from disk while the simulator runs: the answered write is already there.
      expect(loadState(file).domains[created.body.id]?.name).toBe("durable.acme.example");
      // The snapshot was not rewritten; the journal holds only the record that changed.
      expect(readFileSync(file, "utf8")).toBe(snapshot);
      const journal = readFileSync(`${file}.journal`, "utf8");
      expect(journal).toContain("durable.acme.example");
      expect(journal.length).toBeLessThan(snapshot.length / 4);
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await sim.stop();
    }
  });

  it("replays the journal on start and folds it into the snapshot; a torn last line (never answered) is dropped", async () => {
    const file = join(dir, "torn.json");
    let sim = await startSimulator({ stateFile: file, quiet: true });
    const created = await call(sim, "POST", domains, { name: "replayed.acme.example" });
    await sim.stop();
    appendFileSync(`${file}.journal`, '[{"t":"domains","k":"torn","v":{"na');
    sim = await startSimulator({ stateFile: file, quiet: true });
    try {
      expect((await call(sim, "GET", `${domains}/${created.body.id}`)).body.name).toBe(
        "replayed.acme.example",
      );
      expect(JSON.parse(readFileSync(file, "utf8")).domains[created.body.id].name).toBe(
        "replayed.acme.example",
      );
      expect(readFileSync(`${file}.journal`, "utf8")).toBe("");
    } finally {
      await sim.stop();
    }
  });

  it("folds the journal into the snapshot once it outgrows it (4 MiB at least), while it runs", async () => {
    const file = join(dir, "outgrown.json");
    const store = new Store(file);
    const id = SEED.domains.wwwAcmeExample.id;
    const domain = store.world.domains[id]!;
    // Five answered writes of a 1 MiB record: the fourth takes the journal past 4 MiB, and it is folded.
    for (let i = 0; i < 5; i++) {
      store.world.domains[id] = { ...domain, name: String(i).repeat(1024 * 1024) };
      await store.commit();
    }
    try {
      // What is left is the fifth write alone.
      expect(statSync(`${file}.journal`).size).toBeLessThan(1.1 * 1024 * 1024);
      expect(loadState(file).domains[id]?.name).toBe("4".repeat(1024 * 1024));
    } finally {
      store.close();
    }
  });

  it("starts from the seeded world when the file does not exist, and reset writes the seeded world back", async () => {
    const file = join(dir, "reset.json");
    const sim = await startSimulator({ stateFile: file, quiet: true });
    try {
      expect(existsSync(file)).toBe(true);
      await call(sim, "DELETE", `${domains}/${SEED.domains.wwwAcmeExample.id}`);
      expect(loadState(file).domains[SEED.domains.wwwAcmeExample.id]).toBeUndefined();
      sim.reset();
      expect(JSON.parse(readFileSync(file, "utf8")).domains[SEED.domains.wwwAcmeExample.id]).toBeDefined();
    } finally {
      await sim.stop();
    }
  });
});

describe("shared: one world file, several processes (the embedded simulator)", () => {
  it("serves each request from the world as every process left it", async () => {
    const file = join(dir, "shared.json");
    const a = await startSimulator({ stateFile: file, quiet: true, shared: true });
    const b = await startSimulator({ stateFile: file, quiet: true, shared: true });
    try {
      const created = await call(a, "POST", domains, { name: "seen.acme.example" });
      expect(created.status).toBe(201);
      // b loaded the world before the create: its next request takes in what a wrote.
      expect((await call(b, "GET", `${domains}/${created.body.id}`)).status).toBe(200);
      expect((await call(b, "DELETE", `${domains}/${created.body.id}`)).status).toBe(204);
      expect((await call(a, "GET", `${domains}/${created.body.id}`)).status).toBe(404);
      const listed = await call(a, "GET", domains);
      expect(listed.body.results.map((d: { name: string }) => d.name)).not.toContain("seen.acme.example");
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("loses no answered write while processes write one world at once and others start (each start folds the journal)", async () => {
    const file = join(dir, "writers.json");
    // Each writer: its own simulator process on the file, creating domains one after another, printing the
    // names the service answered 201 to.
    const writer = (install: string, tag: string) =>
      new Promise<string[]>((done, fail) => {
        const script = `
          const { startSimulator } = require(${JSON.stringify(resolve(__dirname, "../../dist/simulator"))});
          (async () => {
            const sim = await startSimulator({ stateFile: ${JSON.stringify(file)}, quiet: true, shared: true });
            const auth = "Basic " + Buffer.from("demo:demo").toString("base64");
            const made = [];
            for (let i = 0; i < 18; i++) {
              const name = "${tag}" + i + ".acme.example";
              const r = await fetch(sim.apiUrl + "/installs/${install}/domains", {
                method: "POST",
                headers: { authorization: auth, "content-type": "application/json" },
                body: JSON.stringify({ name }),
              });
              if (r.status === 201) made.push(name);
            }
            await sim.stop();
            console.log(JSON.stringify(made));
          })();`;
        const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
        let out = "";
        child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
        child.on("exit", (code) =>
          code === 0 ? done(JSON.parse(out)) : fail(new Error(`writer ${tag}: ${code}`)),
        );
      });
    // Seeded once, so the writers start on an existing world.
    await (await startSimulator({ stateFile: file, quiet: true, shared: true })).stop();
    const writers = [
      writer(SEED.installs.acmestg.id, "s"),
      writer(SEED.installs.acmedev.id, "d"),
      writer(SEED.installs.globexstg.id, "g"),
    ];
    // Meanwhile other processes start on the file (a program's lookups, another provider) and stop.
    let running = true;
    void Promise.all(writers).finally(() => (running = false));
    for (let starts = 0; running && starts < 40; starts++)
      await (await startSimulator({ stateFile: file, quiet: true, shared: true })).stop();
    const answered = (await Promise.all(writers)).flat();
    expect(answered).toHaveLength(3 * 18);
    const names = new Set(Object.values(loadState(file).domains).map((d) => d.name));
    expect(answered.filter((n) => !names.has(n))).toEqual([]);
  });
});

/** Starts the compiled CLI and resolves with its URL once it prints its line. */
function startCli(args: string[]): Promise<{ child: ChildProcess; url: string; line: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0]!;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line.trim());
      if (out.includes("\n") && match) resolvePromise({ child, url: match[1]!, line: line.trim() });
    });
    child.on("exit", (code) => reject(new Error(`simulator exited with ${code}: ${out}`)));
  });
}

const asSim = (url: string) => ({ url }) as RunningSimulator;

// `npm test` builds before running the tests, so a missing build is a failure here, not a skip.
describe("the CLI (dist/simulator/cli.js)", () => {
  it("prints one line with its URL, takes a free port with --port 0, and stops cleanly on SIGTERM", async () => {
    const { child, url, line } = await startCli(["--port", "0"]);
    expect(line).toBe(`pulumi-wpengine simulator listening on ${url}`);
    expect((await call(asSim(url), "GET", "/v1/installs")).status).toBe(200);
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("loses nothing on SIGKILL: a restart on the same --state file sees the change", async () => {
    const file = join(dir, "killed.json");
    const first = await startCli(["--port", "0", "--state", file]);
    const created = await call(asSim(first.url), "POST", domains, { name: "survivor.acme.example" });
    expect(created.status).toBe(201);
    const killed = new Promise((r) => first.child.on("exit", r));
    first.child.kill("SIGKILL");
    await killed;
    const second = await startCli(["--port", "0", "--state", file]);
    try {
      const read = await call(asSim(second.url), "GET", `${domains}/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.name).toBe("survivor.acme.example");
    } finally {
      second.child.kill("SIGTERM");
    }
  });

  it("shares a --state file live with the embedded simulators of other processes", async () => {
    const file = join(dir, "served-shared.json");
    const served = await startCli(["--port", "0", "--state", file]);
    const embedded = await startSimulator({ stateFile: file, quiet: true, shared: true });
    try {
      const made = await call(embedded, "POST", domains, { name: "embedded.acme.example" });
      expect(made.status).toBe(201);
      // The served one answers from the world as the embedded one left it, and refuses the same name again.
      expect((await call(asSim(served.url), "GET", `${domains}/${made.body.id}`)).status).toBe(200);
      expect((await call(asSim(served.url), "POST", domains, { name: "embedded.acme.example" })).status).toBe(
        400,
      );
      const theirs = await call(asSim(served.url), "POST", domains, { name: "served.acme.example" });
      expect((await call(embedded, "GET", `${domains}/${theirs.body.id}`)).status).toBe(200);
    } finally {
      served.child.kill("SIGTERM");
      await embedded.stop();
    }
  });

  it("keeps every acknowledged write through a kill -9 in the middle of a stream of writes", async () => {
    const file = join(dir, "stream.json");
    const first = await startCli(["--port", "0", "--state", file]);
    const acknowledged: string[] = [];
    const killed = new Promise((r) => first.child.on("exit", r));
    // Forty creates in flight at once; the kill lands once ten have been answered.
    const writes = Array.from({ length: 40 }, (_, i) =>
      call(asSim(first.url), "POST", domains, { name: `stream${i}.acme.example` }).then(
        (r) => {
          if (r.status === 201) acknowledged.push(r.body.id);
          if (acknowledged.length === 10) first.child.kill("SIGKILL");
        },
        () => undefined, // cut off by the kill: never acknowledged
      ),
    );
    await Promise.all(writes);
    await killed;
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);
    const second = await startCli(["--port", "0", "--state", file]);
    try {
      const listed = await call(asSim(second.url), "GET", domains);
      const ids = listed.body.results.map((d: { id: string }) => d.id);
      expect(acknowledged.filter((id) => !ids.includes(id))).toEqual([]);
    } finally {
      second.child.kill("SIGTERM");
    }
  });

  it("removes temporary files a kill -9 left behind at the next start", async () => {
    const file = join(dir, "leftover.json");
    const first = await startCli(["--port", "0", "--state", file]);
    const killed = new Promise((r) => first.child.on("exit", r));
    first.child.kill("SIGKILL");
    await killed;
    // What a kill during a snapshot write leaves: the temporary file of the dead process.
    const leftover = join(dir, `.leftover.json.${first.child.pid}.tmp`);
    writeFileSync(leftover, '{"version":1,"half');
    const unrelated = join(dir, ".other.json.1.tmp");
    writeFileSync(unrelated, "not ours");
    const second = await startCli(["--port", "0", "--state", file]);
    try {
      expect(existsSync(leftover)).toBe(false);
      expect(existsSync(unrelated)).toBe(true);
      expect((await call(asSim(second.url), "GET", "/v1/installs")).status).toBe(200);
    } finally {
      second.child.kill("SIGTERM");
    }
  });

  it("takes a rate limit with --rate, the bulk answer's shape with --bulk-domains, --latency and --faults", async () => {
    const faults = join(dir, "faults.json");
    writeFileSync(faults, JSON.stringify({ rules: [{ path: "/v1/sites", status: 503, count: 1 }] }));
    const { child, url } = await startCli([
      "--port",
      "0",
      "--rate",
      "2/s",
      "--bulk-domains",
      "object",
      "--latency",
      "5",
      "--faults",
      faults,
    ]);
    try {
      expect((await call(asSim(url), "GET", "/__sim/settings")).body).toEqual({
        rate: "2/s",
        bulkDomains: "object",
        latencyMs: 5,
      });
      // The file's rule is in force from the start: the first GET of /v1/sites is a 503, the next a 200.
      expect((await call(asSim(url), "GET", "/v1/sites")).status).toBe(503);
      expect((await call(asSim(url), "GET", "/v1/sites")).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("changes the demo credentials with --username and --password", async () => {
    const { child, url } = await startCli(["--port", "0", "--username", "alice", "--password", "s3cret"]);
    try {
      const ok = await call(asSim(url), "GET", "/v1/installs", undefined, {
        user: null,
        headers: { authorization: `Basic ${Buffer.from("alice:s3cret").toString("base64")}` },
      });
      expect(ok.status).toBe(200);
      expect((await call(asSim(url), "GET", "/v1/installs")).status).toBe(401);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
