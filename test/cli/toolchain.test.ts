/**
 * The README names the CLI version the tests run on: the toolchain's own answer, not a hand-written
 * guess. When the CLI is the toolchain's build (in its cache), the version it reports is the one the
 * README names (else the README names the fallback pin); every version skipped as known bad is named.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";

const REPO = path.resolve(__dirname, "..", "..");
const toolchain: {
  ensure(): Promise<{ pulumi: string; pulumiVersion: string }>;
  CACHE: string;
  PINNED_PKG: string;
  KNOWN_BAD: Record<string, string>;
} = require("../../tools/pulumi/toolchain.js");

const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
const named = /not on the script's `KNOWN_BAD` list \(here: \*\*(v\d+\.\d+\.\d+)\*\*;([^)]*)\)/.exec(readme);

it("the README names the CLI the toolchain builds, and each version it skips", async () => {
  expect(named, "README: the `pulumi` item of 'The real Pulumi engine in this repository'").not.toBeNull();
  const [, version, skipped] = named!;
  for (const bad of Object.keys(toolchain.KNOWN_BAD)) expect(skipped).toContain(`${bad} is skipped`);
  const { pulumi, pulumiVersion } = await toolchain.ensure();
  // The CLI the toolchain built (in its cache); a user's own `pulumi` on PATH says nothing about the README.
  if (pulumi.startsWith(toolchain.CACHE + path.sep)) expect(pulumiVersion).toBe(version);
  else expect(version).toBe(toolchain.PINNED_PKG);
}, 1_800_000);
