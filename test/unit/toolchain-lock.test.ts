/**
 * On a fresh machine two commands may build the same toolchain piece at once (`npm test` beside
 * `npm run demo`, a second checkout, test files in parallel): one builds, the others wait and use what it
 * built, and a lock left by a killed build is taken over instead of blocking every later run.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";

const SCRIPT = path.resolve(__dirname, "..", "..", "tools", "pulumi", "toolchain.js");
const cache = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-toolchain-"));
afterEach(() => fs.rmSync(path.join(cache, "piece"), { recursive: true, force: true }));
afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

/** A process that builds `piece` under the lock: its build notes itself in `builds`, waits, then makes `piece/done`. */
function builder(): Promise<number | null> {
  const code = `
    const fs = require("node:fs"), path = require("node:path");
    const dir = path.join(process.env.PULUMI_WPENGINE_TOOLCHAIN, "piece");
    const done = () => fs.existsSync(path.join(dir, "done"));
    require(${JSON.stringify(SCRIPT)}).locked("piece", done, async () => {
      fs.appendFileSync(path.join(process.env.PULUMI_WPENGINE_TOOLCHAIN, "builds"), process.pid + "\\n");
      await new Promise((r) => setTimeout(r, 1500));
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "done"), "");
    }).then(() => { if (!done()) process.exit(3); }, (e) => { console.error(e); process.exit(2); });`;
  const child = spawn(process.execPath, ["-e", code], {
    env: { ...process.env, PULUMI_WPENGINE_TOOLCHAIN: cache },
    stdio: "inherit",
  });
  return new Promise((resolve) => child.on("exit", resolve));
}

const builds = () => {
  const file = path.join(cache, "builds");
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
  fs.rmSync(file, { force: true });
  return lines.filter(Boolean).length;
};

it("three processes that need the same piece at once build it once, and all three find it", async () => {
  expect(await Promise.all([builder(), builder(), builder()])).toEqual([0, 0, 0]);
  expect(builds()).toBe(1);
  expect(fs.existsSync(path.join(cache, "piece.lock"))).toBe(false);
});

it("a lock left by a process that died is taken over: the piece is built, not waited for forever", async () => {
  const lock = path.join(cache, "piece.lock");
  fs.mkdirSync(lock);
  // A pid that is not running: a finished child's.
  const dead = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => dead.on("exit", resolve));
  fs.writeFileSync(path.join(lock, "pid"), String(dead.pid));
  expect(await builder()).toBe(0);
  expect(builds()).toBe(1);
  expect(fs.existsSync(lock)).toBe(false);
});
