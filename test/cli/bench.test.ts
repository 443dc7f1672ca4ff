/**
 * `npm run bench`'s programs run to their end and find nothing wrong: the engine bench at a small
 * size, checkpoints skipped only (its figures need N up to 1,000; this proves the harness, ours and the
 * floor, the counts it verifies and its report), the memory bench at a small size, and the SDK bench whole. Figures are not asserted: speed lives in the benches, not in tests.
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
  it("the engine bench runs our stack and Pulumi's floor on the CLI and reports each step side by side", async () => {
    const r = await run(["bench/engine.js", "--sizes", "3", "--latency", "0", "--modes", "skip"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("WRONG");
    // Each step of both programs ran (the bench verified 3 resources created and deleted, 3 domains on
    // the service and none after, a no-op that calls nothing but the credentials proof); the row shows
    // the floor's wall time, ours as calls · wall, and the ratio. Our call counts are not pinned here
    // (test/cli/calls.test.ts does): only that the service was called.
    for (const step of ["up", "no-op preview", "refresh", "destroy"])
      expect(r.stdout).toMatch(
        new RegExp(
          `^\\| 3 \\| skipped \\| ${step} \\| \\d+\\.\\d s \\| [1-9]\\d* · \\d+\\.\\d s \\| \\d+\\.\\d\\d× \\|$`,
          "m",
        ),
      );
    expect(r.stdout).toMatch(/^- calls at N = 3, --parallel \d+: `up` \d+ \(issue 23/m);
    expect(r.stdout).toMatch(/^\| 3 \| \d+ \| \d+ \| 345 \|$/m);
  });

  it("the engine bench's floor of a Domain's shape declares what a Domain declares and runs every step", async () => {
    // The bench refuses to start when the floor's shape and Domain's definition differ (a property added).
    const r = await run([
      "bench/engine.js",
      "--sizes",
      "2",
      "--latency",
      "0",
      "--modes",
      "skip",
      "--floor-shape",
      "domain",
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("WRONG");
    expect(r.stdout).toContain("whose provider does no I/O, each with a Domain's properties and outputs");
    for (const step of ["up", "no-op preview", "refresh", "destroy"])
      expect(r.stdout).toMatch(
        new RegExp(`^\\| 2 \\| skipped \\| ${step} \\| \\d+\\.\\d s \\| [1-9]\\d* · `, "m"),
      );
  });

  it("the memory bench registers each variant's resources and properties and reports them side by side", async () => {
    const r = await run(["bench/memory.js", "--n", "20"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("WRONG");
    // The floor registers its 2 inputs and __provider; ours as many as the floor given a Domain's properties.
    expect(r.stdout).toMatch(/^\| floor \| 3 \| -?\d+\.\d \| -?\d+\.\d \| 0\.0 \|$/m);
    const ours = /^\| ours \| (\d+) \|/m.exec(r.stdout)?.[1];
    expect(Number(ours)).toBeGreaterThan(3);
    expect(r.stdout).toMatch(new RegExp(`^\\| floor, Domain's properties \\| ${ours} \\|`, "m"));
  });

  it("the SDK bench finds nothing wrong", async () => {
    const r = await run(["bench/run.js"]);
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("WRONG");
  });
});
