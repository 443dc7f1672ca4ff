/**
 * The plugin executable's command line: the engine starts it with its address (host:port); one of the
 * package's commands runs that command; any other word, or --help, gets the usage instead of a provider
 * server waiting for an engine that never comes.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const PLUGIN = path.join(__dirname, "..", "..", "bin", "pulumi-resource-wpengine");
const run = (...args: string[]) =>
  spawnSync(process.execPath, [PLUGIN, ...args], { encoding: "utf8", timeout: 30_000 });

describe("pulumi-resource-wpengine's command line", () => {
  it("refuses an unknown word with the commands it takes, and answers --help", () => {
    const typo = run("recovr");
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe(
      "pulumi-resource-wpengine: unknown command recovr. The engine starts this provider itself; run it as one of the package's commands: import, report, recover, simulator (e.g. pulumi-resource-wpengine recover --help).\n",
    );
    expect(run("--version").stdout).toBe(`${require("../../package.json").version}\n`);
    const help = run("--help");
    expect(help.status).toBe(0);
    expect(help.stderr).toContain(
      "run it as one of the package's commands: import, report, recover, simulator",
    );
  });

  it("runs a command of the package (recover's usage)", () => {
    const usage = run("recover", "--help");
    expect(usage.stdout + usage.stderr).toContain("usage: pulumi-wpengine recover [--stack NAME]");
  });
});
