/**
 * `npm run bench`'s two programs run to their end and find nothing wrong: the engine bench at a small
 * size (its figures need N up to 400; this proves the harness, the counts it verifies and its report),
 * and the SDK bench whole. Figures are not asserted: speed lives in the benches, not in tests.
 */
import { describe, expect, it } from "vitest";
import { cliEnv, REPO, runCommand } from "../../tools/cli/project";

const run = async (args: string[]) =>
  runCommand("node", args, {
    cwd: REPO,
    env: { ...process.env, ...(await cliEnv()) },
    timeoutMs: 10 * 60_000,
  });

describe("npm run bench", { timeout: 12 * 60_000 }, () => {
  it("the engine bench runs a stack on the CLI and reports each step", async () => {
    const r = await run(["bench/engine.js", "--sizes", "0,3", "--latency", "0"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("WRONG");
    // The report's rows: the first up of 3 domains makes one bulk create, one shared listing and the one
    // GET /user by which the provider proves its credentials; a no-op makes only that proof; a refresh one
    // listing.
    expect(r.stdout).toMatch(/^\| 3 \| up \| 3 \| /m);
    expect(r.stdout).toMatch(/^\| 3 \| refresh \| 1 \| /m);
    expect(r.stdout).toMatch(/^\| 3 \| no-op preview \| 1 \| /m);
    expect(r.stdout).toMatch(/^\| 3 \| destroy \| 3 \| /m);
    expect(r.stdout).toMatch(/^\| 3 \| \d+ \| \d+ \| 345 \|$/m);
  });

  it("the SDK bench finds nothing wrong", async () => {
    const r = await run(["bench/run.js"]);
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("WRONG");
  });
});
