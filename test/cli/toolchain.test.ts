/**
 * The CLI the tests run on is one pinned version (tools/pulumi/toolchain.js's PINNED_PKG), whatever the
 * module proxy serves that day and whatever else the machine has: CONTRIBUTING.md names the pin and the
 * versions tried on purpose, and the CLI the toolchain provides reports the pin (or the version asked
 * for with PULUMI_WPENGINE_PKG_VERSION, as `npm run test:newest` does).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect, it } from "vitest";

const REPO = path.resolve(__dirname, "..", "..");
const SCRIPT = path.join(REPO, "tools", "pulumi", "toolchain.js");
const toolchain: {
  ensure(): Promise<{ pulumi: string; pulumiVersion: string }>;
  CACHE: string;
  PINNED_PKG: string;
  KNOWN_BAD: Record<string, string>;
  NEXT_NODE_VERSION: string;
} = require(SCRIPT);

// The toolchain section lives in CONTRIBUTING.md (the README is for users of the package).
const readme = fs.readFileSync(path.join(REPO, "CONTRIBUTING.md"), "utf8");

it("CONTRIBUTING.md names the pinned CLI, each version it skips, and the pin among the versions that passed", () => {
  const pin = /pinned at \*\*(v\d+\.\d+\.\d+)\*\*/.exec(readme);
  expect(
    pin,
    "CONTRIBUTING.md: 'pinned at **vX.Y.Z**' in 'The real Pulumi engine in this repository'",
  ).not.toBeNull();
  expect(pin![1]).toBe(toolchain.PINNED_PKG);
  const passed = /Versions that passed the CLI tier: ([^\n]+)/.exec(readme);
  expect(passed, "CONTRIBUTING.md: 'Versions that passed the CLI tier: ...'").not.toBeNull();
  expect(passed![1]).toContain(toolchain.PINNED_PKG);
  for (const bad of Object.keys(toolchain.KNOWN_BAD)) {
    expect(readme).toContain(`${bad} is skipped`);
    expect(passed![1]).not.toContain(bad);
  }
});

it("the tests run on the pinned CLI (or the one PULUMI_WPENGINE_PKG_VERSION asks for)", async () => {
  const { pulumiVersion } = await toolchain.ensure();
  expect(pulumiVersion).toBe(process.env.PULUMI_WPENGINE_PKG_VERSION || toolchain.PINNED_PKG);
}, 1_800_000);

it("another CLI version in the cache or on PATH does not replace the pin", async () => {
  const { pulumi } = await toolchain.ensure();
  const wanted = process.env.PULUMI_WPENGINE_PKG_VERSION || toolchain.PINNED_PKG;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "toolchain-"));
  try {
    // A cache holding a newer build than the pin, and the pin's build; a `pulumi` of yet another version on PATH.
    const cache = path.join(tmp, "cache");
    const fake = (dir: string, version: string) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "pulumi"), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
    };
    fake(path.join(cache, "pulumi-v3.999.0", "bin"), "v3.999.0");
    fs.symlinkSync(path.dirname(path.dirname(pulumi)), path.join(cache, `pulumi-${wanted}`));
    fake(path.join(tmp, "path"), "v3.998.0");
    const r = spawnSync(process.execPath, [SCRIPT, "env"], {
      encoding: "utf8",
      env: {
        ...process.env,
        PULUMI_WPENGINE_TOOLCHAIN: cache,
        PATH: [path.join(tmp, "path"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(
          path.delimiter,
        ),
      },
    });
    expect(r.status, r.stderr).toBe(0);
    const env = JSON.parse(r.stdout) as { pulumi: string; pulumiVersion: string };
    expect(env.pulumiVersion).toBe(wanted);
    expect(env.pulumi).toBe(path.join(cache, `pulumi-${wanted}`, "bin", "pulumi"));
    expect(r.stderr).toContain(`the pulumi on PATH is v3.998.0; the tests run on ${wanted}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}, 1_800_000);

it("exec --next-node runs the command on the other Node.js line Pulumi's users run, which CONTRIBUTING.md names", () => {
  expect(readme).toContain(`\`npm run test:node24\``);
  expect(readme).toContain(`Node.js ${toolchain.NEXT_NODE_VERSION}`);
  const r = spawnSync(process.execPath, [SCRIPT, "exec", "--next-node", "--", "node", "--version"], {
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim()).toBe(`v${toolchain.NEXT_NODE_VERSION}`);
}, 600_000);
