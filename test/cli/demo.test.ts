/**
 * `npm run demo` as the README's first line gives it: the built demo (dist/tools/demo.js, what
 * `npm run demo` runs after its build) drives the real `pulumi` CLI through the quickstart at the
 * repository root - up, no-op previews, drift found, repaired, destroyed - and exits 0 only when every
 * step did what it says.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, REPO, runCommand } from "../../tools/cli/project";

describe("npm run demo", { timeout: 15 * 60_000 }, () => {
  it("shows the real CLI doing up, no-op preview, drift, refresh, repair and destroy", async () => {
    const env = { ...process.env, ...(await cliEnv()), NO_COLOR: "1" };
    const r = await runCommand(process.execPath, [path.join(REPO, "dist", "tools", "demo.js")], {
      cwd: REPO,
      env,
      timeoutMs: 14 * 60_000,
    });
    expect(r.code, `${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`).toBe(0);
    for (const heading of [
      "=== pulumi up: creates the quickstart's resources",
      "=== a second preview: nothing to do",
      "=== a refreshed preview of a stack nobody touched: nothing found",
      "=== the refreshed preview finds it",
      "=== pulumi up --refresh repairs it",
      "=== pulumi destroy",
    ]) {
      expect(r.stdout).toContain(heading);
    }
    // The refreshed preview names the drifted property (its id and urn lines come between).
    expect(r.stdout).toMatch(/wpengine:Domain: \(refresh\)[\s\S]*?secureAllUrls\s*: true => false/);
    // The untouched stack's refreshed preview and the one after the repair checked their own output.
    expect(r.stdout).toContain("ok: a refreshed preview of an untouched stack shows no diff and no update");
    expect(r.stdout).toContain("ok: after the repair a refreshed preview shows no diff and no update");
    expect(r.stdout).toContain("ok: nothing left on the service");
    expect(r.stdout).toContain("demo complete: every step did what it said");
  });
});
