/**
 * `pulumi-wpengine import` under the real `pulumi` CLI, one scenario per route.
 *
 * TypeScript (the default): the project generated from the simulator's seeded world plus a fleet (50
 * installs, 1,000 domains: `IMPORT_TEST_FLEET_SITES` sites of two installs of 20 domains) is run with the
 * packed package, as a user installs it. Its program typechecks under `tsc --strict`; the first
 * `WPE_ADOPT_EXISTING=true pulumi up` makes zero writes to the service (the simulator's request log) and
 * records one resource per object; `pulumi preview --refresh` shows no change (the exit code of
 * `--expect-no-changes`, and no `[diff:` in the plain text, where refresh diffs show); one cache exclusion
 * added to the program applies as exactly one write. The ups run with `PULUMI_SKIP_CHECKPOINTS=true`, what
 * a fleet's user does (docs/running.md "Large stacks": the state is written once, at the end).
 *
 * YAML (the executable provider): the project generated from the same world (about 1,140 resources of 10 kinds)
 * is taken in by `pulumi import --file import.json` with zero writes, one resource in state per object;
 * `pulumi up` and `pulumi preview --refresh --expect-no-changes` change nothing.
 *
 * Python (the generated SDK and the executable provider, run through the Automation API as
 * test/cli/languages.test.ts runs Python: `runtime: python` needs a language host this machine cannot build):
 * the project generated from the same world passes `mypy --strict`; its `__main__.py`, run with
 * `WPE_ADOPT_EXISTING=true`, takes every object in with zero writes, and the next `preview --refresh` plans nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ImportResult, importAccount } from "../../importer";
import { COVERED } from "../../importer/kinds";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { driftLines, plannedChanges } from "../../tools/cli/drift";
import {
  type AutomationResult,
  type AutomationRun,
  automation,
  automationEnv,
  type PythonEnv,
  pythonEnv,
} from "../../tools/cli/languages";
import { REPO, tempDir } from "../../tools/cli/pack";
import { CliProject, cliEnv, type JsonStep, runCommand, urnName } from "../../tools/cli/project";
import { buildFleet } from "../../tools/fleet";
import { cliChange, DRIFT } from "../engine/drift";

const toolchain: { ensureYamlHost(): Promise<string> } = require("../../tools/pulumi/toolchain.js");

/** The seeded world plus the fleet, for both routes. */
let sim: RunningSimulator;
/** Sites of two installs of 20 domains each: 25 gives the 50 installs and 1,000 domains. */
const FLEET_SITES = Number(process.env["IMPORT_TEST_FLEET_SITES"] ?? 25);

const writes = (s = sim) => s.requests().filter((r) => r.method !== "GET");
const credentials = (s = sim) => ({
  WPE_API_USER_ID: "demo",
  WPE_API_PASSWORD: "demo",
  WPE_API_URL: s.apiUrl,
  WPE_APP_HOSTING_URL: s.appHostingUrl,
});

async function generate(
  language: "typescript" | "python" | "yaml",
  s = sim,
): Promise<{ out: string; result: ImportResult }> {
  const out = path.join(tempDir("wpe-import-"), "fleet");
  // Each project runs on its own backend, which this process is not logged in to: no stack to check
  // (test/cli/import-held.test.ts covers the check), so without it.
  const result = await importAccount({
    out,
    language,
    env: credentials(s),
    project: "fleet",
    includeManaged: true,
  });
  return { out, result };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true, pace: 20 });
  const client = new WpEngineClient({
    username: "demo",
    password: "demo",
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });
  await buildFleet(client, { sites: FLEET_SITES });
  // Offload settings on one install, so that kind's adoption is taken in too.
  await client.offloadSettings.update(SEED.installs.acmestg.id, {
    cloud: "s3",
    bucket: "acme-uploads",
    bucket_region: "us-east-1",
    path_settings: [{ path: "wp-content/uploads/", excluded_paths: [], redirect_type: "permanent" }],
  });
}, 5 * 60_000);

afterAll(async () => {
  await sim?.stop();
});

describe("pulumi-wpengine import, TypeScript route (WPE_ADOPT_EXISTING=true pulumi up), under the pulumi CLI", {
  timeout: 40 * 60_000,
}, () => {
  let project: CliProject;
  let generated: ImportResult;

  beforeAll(async () => {
    const gen = await generate("typescript");
    generated = gen.result;
    project = await CliProject.create({
      from: gen.out,
      env: { ...credentials(), PULUMI_SKIP_CHECKPOINTS: "true" },
      timeoutMs: 20 * 60_000,
    });
    fs.rmSync(path.dirname(gen.out), { recursive: true, force: true });
  }, 30 * 60_000);

  afterAll(() => {
    if (project) fs.rmSync(project.root, { recursive: true, force: true });
  });

  it("typechecks under tsc --strict with the packed package", async () => {
    const tsc = await runCommand(
      process.execPath,
      [path.join(project.dir, "node_modules", "typescript", "bin", "tsc"), "-p", ".", "--strict", "--noEmit"],
      { cwd: project.dir, env: process.env, timeoutMs: 10 * 60_000 },
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    expect(tsc.code).toBe(0);
  });

  it("takes every object in with zero writes; preview --refresh shows no change; one added exclusion is one write", async () => {
    const count = (k: string) => generated.model.resources.filter((r) => r.kind === k).length;
    expect([count("Install"), count("Domain")]).toEqual([8 + 2 * FLEET_SITES, 7 + 40 * FLEET_SITES]);
    expect([count("DomainMappings"), count("OffloadSettings")]).toEqual([1, 1]);

    sim.clearRequests();
    await project.run(["up", "--yes", "--skip-preview"], { env: { WPE_ADOPT_EXISTING: "true" } });
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([]);
    const kinds = (await project.resources()).map((r) =>
      r.type.replace("pulumi-nodejs:dynamic/wpengine:", ""),
    );
    expect(kinds.length).toBe(generated.model.resources.length);
    expect(new Set(kinds)).toEqual(new Set(generated.model.resources.map((r) => r.kind)));

    await project.expectNoChanges(["--refresh"]);
    const plain = await project.run(["preview", "--refresh"]);
    expect(plain.stdout).not.toContain("[diff:");
    expect(writes()).toEqual([]);

    // One cache exclusion added to the program: one PUT of that install's list, nothing else (acmeprod: the
    // transferable acmeblog refuses changes, though its unchanged list was adopted above without a write).
    const file = path.join(project.dir, "index.ts");
    const program = fs.readFileSync(file, "utf8");
    const at = program.indexOf(
      "exclusions: [\n",
      program.indexOf('new wpengine.CacheExclusions("acmeprod-cache-exclusions"'),
    );
    expect(at).toBeGreaterThan(0);
    const cut = at + "exclusions: [\n".length;
    fs.writeFileSync(
      file,
      `${program.slice(0, cut)}    { type: "url path", value: "^/added-after-import/" },\n${program.slice(cut)}`,
    );
    sim.clearRequests();
    await project.up();
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /v1/installs/${SEED.installs.acmeprod.id}/cache_exclusions`,
    ]);
  });
});

describe("pulumi-wpengine import, YAML route (pulumi import --file), under the pulumi CLI", {
  timeout: 30 * 60_000,
}, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const pulumi = async (args: string[]) => {
    const r = await runCommand(
      "pulumi",
      [...args, "--non-interactive", ...(args[0] === "stack" ? [] : ["--stack", "dev"])],
      {
        cwd: dir,
        env,
        timeoutMs: 15 * 60_000,
      },
    );
    if (r.code !== 0)
      throw new Error(`${r.command} exited ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
    return r;
  };

  beforeAll(async () => {
    const cli = await cliEnv();
    const yamlHost = await toolchain.ensureYamlHost();
    // The world the TypeScript route adopted (its one added exclusion included): about 1,140 resources, about
    // 2.5 minutes on a 2-core machine.
    const gen = await generate("yaml", sim);
    dir = gen.out;
    fs.mkdirSync(path.join(dir, "..", "backend"));
    env = {
      ...process.env,
      ...cli,
      ...credentials(sim),
      PATH: [path.join(REPO, "bin"), yamlHost, cli["PATH"] ?? process.env["PATH"]].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${path.join(dir, "..", "backend")}`,
      PULUMI_HOME: path.join(dir, "..", "home"),
      PULUMI_CONFIG_PASSPHRASE: "import-yaml-test",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      NO_COLOR: "1",
    };
    await pulumi(["stack", "init", "dev"]);
  }, 30 * 60_000);

  afterAll(() => {
    if (dir) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("imports every object by the import file with zero writes; up and preview --refresh change nothing", async () => {
    const imported = JSON.parse(fs.readFileSync(path.join(dir, "import.json"), "utf8")) as {
      resources: unknown[];
    };
    sim.clearRequests();
    await pulumi(["import", "--file", "import.json", "--generate-code=false", "--protect=false", "--yes"]);
    // Import, then no change (ImportStateVerify): the first preview plans nothing for any kind (a default
    // the program leaves out, like an install's timeoutSeconds or deletionProtection, is no update).
    const first = JSON.parse((await pulumi(["preview", "--json"])).stdout) as { steps: JsonStep[] };
    expect(first.steps.filter((s) => s.op !== "same").map((s) => `${urnName(s.urn)}: ${s.op}`)).toEqual([]);
    await pulumi(["up", "--yes", "--skip-preview"]);
    expect(writes(sim).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    const state = JSON.parse((await pulumi(["stack", "export"])).stdout) as {
      deployment: {
        resources: { type: string; urn: string; id?: string; outputs?: Record<string, unknown> }[];
      };
    };
    expect(state.deployment.resources.filter((r) => r.type.startsWith("wpengine:index:")).length).toBe(
      imported.resources.length,
    );
    await pulumi(["preview", "--refresh", "--expect-no-changes", "--diff"]);
    // No refresh diff either, in the text and the --json (an imported Environment showed
    // [diff: -timeoutSeconds] on every refreshed preview after an up).
    expect(driftLines((await pulumi(["preview", "--refresh"])).stdout)).toEqual([]);
    const refreshed = JSON.parse((await pulumi(["refresh", "--preview-only", "--json"])).stdout);
    expect(Object.keys(refreshed.changeSummary)).toEqual(["same"]);
    const kinds = new Set(
      state.deployment.resources.map((r) => r.type).filter((t) => t.startsWith("wpengine:")),
    );
    console.log(
      `import then no change, no refresh diff: ${imported.resources.length} resources of ${[...kinds].sort().join(", ")}`,
    );

    // Out-of-band drift at this front door: one row of the drift matrix per kind of the program, made
    // through the API to the first object of the kind it applies to; the refreshed plan holds exactly
    // those objects and properties, up --refresh repairs them, and a refreshed preview is quiet again.
    const client = new WpEngineClient({
      username: "demo",
      password: "demo",
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    const expected: Record<string, string> = {};
    for (const d of DRIFT) {
      const change = cliChange(d);
      if (!change || !("row" in change)) continue;
      for (const r of state.deployment.resources.filter((x) => x.type === `wpengine:index:${d.kind}`)) {
        const applied = await change.row
          .change({ client, sim, seed: SEED }, { id: r.id!, outs: r.outputs ?? {} })
          .then(
            () => true,
            () => false,
          );
        if (!applied) continue;
        expected[urnName(r.urn)] = `update ${change.row.property}`;
        break;
      }
    }
    const drifted = JSON.parse((await pulumi(["preview", "--refresh", "--diff", "--json"])).stdout);
    expect(plannedChanges(drifted)).toEqual(expected);
    await pulumi(["up", "--refresh", "--yes", "--skip-preview"]);
    expect(driftLines((await pulumi(["preview", "--refresh"])).stdout)).toEqual([]);
    console.log(`drift through the executable provider: ${JSON.stringify(expected)}`);

    // The sites and installs are protected (the program's `protect`, recorded by an up): a destroy of the
    // estate is refused by the engine before anything is deleted, their domains and users included.
    sim.clearRequests();
    const destroy = await runCommand("pulumi", ["destroy", "--yes", "--non-interactive", "--stack", "dev"], {
      cwd: dir,
      env,
      timeoutMs: 15 * 60_000,
    });
    expect(destroy.code).not.toBe(0);
    expect(destroy.stdout + destroy.stderr).toMatch(/protected/);
    expect(writes(sim).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});

/**
 * The Automation API driver of a generated Python project: its `__main__.py` as the inline program and its
 * `Pulumi.yaml` as the project (config defaults included), so no Python language host is needed; the
 * last line printed is the change summary and the output as JSON.
 */
const PYTHON_DRIVER = `
import json, runpy, sys
import pulumi.automation as auto

project, command = sys.argv[1], sys.argv[2]
stack = auto.create_or_select_stack(
    stack_name="dev",
    project_name="fleet",
    program=lambda: runpy.run_path(project + "/__main__.py"),
    opts=auto.LocalWorkspaceOptions(work_dir=project),
)
log = lambda text: sys.stderr.write(text + "\\n")
if command == "up":
    result = stack.up(on_output=log)
    print(json.dumps({"changes": result.summary.resource_changes, "stdout": result.stdout}))
else:
    result = stack.preview(on_output=log, refresh=True)
    print(json.dumps({"changes": result.change_summary, "stdout": result.stdout}))
`;

describe("pulumi-wpengine import, Python route (WPE_ADOPT_EXISTING=true pulumi up, through the Automation API)", {
  timeout: 30 * 60_000,
}, () => {
  let dir: string;
  let generated: ImportResult;
  let py: PythonEnv;
  let run: AutomationRun;
  const step = async (command: string, env: Record<string, string> = {}) =>
    (await automation(
      { ...run, env: { ...run.env, ...env } },
      py.python,
      ["driver.py", dir],
      command,
      path.dirname(dir),
    )) as AutomationResult & { stdout: string };

  beforeAll(async () => {
    const gen = await generate("python", sim);
    dir = gen.out;
    generated = gen.result;
    fs.writeFileSync(path.join(dir, "..", "driver.py"), PYTHON_DRIVER);
    py = await pythonEnv();
    run = await automationEnv({ ...credentials(sim), PULUMI_SKIP_CHECKPOINTS: "true" });
  }, 30 * 60_000);

  afterAll(() => {
    if (dir) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    if (run) fs.rmSync(run.root, { recursive: true, force: true });
  });

  it("typechecks under mypy --strict with the generated SDK", async () => {
    const mypy = await runCommand(
      path.join(py.bin, "mypy"),
      ["--strict", "--follow-imports=silent", "__main__.py"],
      {
        cwd: dir,
        env: { ...process.env, MYPY_CACHE_DIR: path.join(dir, "..", ".mypy_cache") },
        timeoutMs: 10 * 60_000,
      },
    );
    expect(`${mypy.stdout}${mypy.stderr}`).toMatch(/^Success: no issues found in 1 source file/);
    expect(mypy.code).toBe(0);
  });

  it("takes every object in with zero writes; the next preview --refresh plans nothing", async () => {
    const resources = generated.model.resources.length;
    expect(new Set(generated.model.resources.map((r) => r.kind))).toEqual(new Set(COVERED));
    sim.clearRequests();
    const up = await step("up", { WPE_ADOPT_EXISTING: "true" });
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // One resource per object, and the stack.
    expect(up.changes).toEqual({ create: resources + 1 });
    const preview = await step("preview");
    expect(preview.changes).toEqual({ same: resources + 1 });
    expect(driftLines(preview.stdout)).toEqual([]);
    expect(writes()).toEqual([]);
  });
});
