/**
 * The README's route for a user before the package is on npm: `npm install <git URL of this repository>`.
 * npm clones the repository, runs its `prepare` (which compiles dist/) and installs the result, so the
 * package a program gets is complete: its classes load, with their docs beside them.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../../tools/cli/pack";

const run = promisify(execFile);

describe("installing the package from its git repository", { timeout: 15 * 60_000 }, () => {
  const dir = tempDir("wpe-git-install-");
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("npm install git+file://<repo> builds dist/ through prepare and the classes load", async () => {
    fs.writeFileSync(path.join(dir, "package.json"), '{ "name": "git-install-check", "private": true }\n');
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `git+file://${REPO}`], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
    });
    const pkg = path.join(dir, "node_modules", "pulumi-wpengine");
    expect(fs.existsSync(path.join(pkg, "dist", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(pkg, "docs", "Domain.md"))).toBe(true);
    // Only what the package declares: no sources, no tests, no dev tools.
    expect(fs.existsSync(path.join(pkg, "dist", "tools"))).toBe(false);
    expect(fs.existsSync(path.join(pkg, "test"))).toBe(false);
    const { stdout } = await run(
      process.execPath,
      ["-e", 'const w = require("pulumi-wpengine"); console.log(typeof w.Domain, typeof w.getInstalls)'],
      { cwd: dir },
    );
    expect(stdout.trim()).toBe("function function");
  });
});
