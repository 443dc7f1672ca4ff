/**
 * The language tier: the Python and Go quickstarts (`examples/python`, `examples/go`), written against
 * the SDKs generated from the executable provider's schema (`languages/`), run through Pulumi's
 * Automation API (inline programs: the SDK serves the language runtime itself, so no language host is
 * needed) with the real `pulumi` CLI and `pulumi-resource-wpengine`, against a simulator. Each language:
 * up, a preview that plans nothing, drift made on the service out of band and repaired by an up with
 * refresh, destroy. The programs also pass their language's checker against the SDK (mypy --strict,
 * go vet), which refuses a mistyped program. The provider is the self-contained plugin
 * (tools/plugin/build.js: one executable, no Node.js needed), installed from its tarball by
 * `pulumi plugin install`. Needs `npm run build`.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import {
  type AutomationRun,
  automation,
  automationEnv,
  buildGoExample,
  goEnv,
  mustRun,
  pythonEnv,
} from "../../tools/cli/languages";
import { REPO, tempDir } from "../../tools/cli/pack";
import { cliEnv, runCommand } from "../../tools/cli/project";

/** The version the plugin reports: package.json's. */
const PKG_VERSION: string = require("../../package.json").version;
const INSTALL = SEED.installs.acmeprod.id;
const ACCOUNT = SEED.accounts.acme.id;
/** The simulator's API user: a throwaway password, which must never reach the state in clear. */
const USER = "lang-tier-user";
const PASSWORD = "pw-lang-tier-5e1c";
/** What both quickstarts declare: 2 domains, the cache exclusions, a user, and the stack. */
const RESOURCES = 5;
const PROGRAM_EXCLUSIONS = [
  { type: "query arg", value: "^utm_" },
  { type: "url path", value: "^/cart/" },
];

interface Program {
  /** The command that runs the Automation API driver; the step (`up`, ...) is appended. */
  cmd: string;
  args: string[];
  cwd: string;
}

/**
 * The shared lifecycle of one language's quickstart. `prepare` makes its program runnable (installs the
 * SDK, builds) and returns how to run it.
 */
function lifecycle(
  language: string,
  project: string,
  baseDomain: string,
  prepare: (root: string) => Promise<Program>,
): void {
  describe(`${language}: the quickstart through the Automation API`, { timeout: 10 * 60_000 }, () => {
    let sim: RunningSimulator;
    let run: AutomationRun;
    let program: Program;
    let client: WpEngineClient;
    let wwwId: string;
    let editorId: string;

    const step = (command: string) => automation(run, program.cmd, program.args, command, program.cwd);
    const exclusions = async () =>
      (await client.cacheExclusions.get(INSTALL))
        .filter((e) => e.type !== "cookie")
        .map(({ type, value }) => ({ type, value }))
        .sort((a, b) => (`${a.type} ${a.value}` < `${b.type} ${b.value}` ? -1 : 1));

    beforeAll(async () => {
      sim = await startSimulator({ port: 0, quiet: true, username: USER, password: PASSWORD });
      client = new WpEngineClient({
        username: USER,
        password: PASSWORD,
        apiUrl: sim.apiUrl,
        appHostingUrl: sim.appHostingUrl,
      });
      run = await automationEnv({
        WPE_API_USER_ID: USER,
        WPE_API_PASSWORD: PASSWORD,
        WPE_API_URL: sim.apiUrl,
        WPE_APP_HOSTING_URL: sim.appHostingUrl,
        WPE_ACCOUNT_ID: ACCOUNT,
        WPE_INSTALL_ID: INSTALL,
      });
      program = await prepare(run.root);
    }, 20 * 60_000);

    afterAll(async () => {
      await sim?.stop();
      if (run) fs.rmSync(run.root, { recursive: true, force: true });
    });

    it("up creates the domains, the exclusions and the user on the service, and the lookup answers", async () => {
      const up = await step("up");
      expect(up.changes).toEqual({ create: RESOURCES });
      const outs = up.outputs ?? {};
      expect(outs["installName"]).toEqual({ value: "acmeprod", secret: false });
      wwwId = String(outs["wwwDomainId"]?.value);
      editorId = String(outs["editorUserId"]?.value);
      const www = await client.domains.get(INSTALL, wwwId);
      expect(www).toMatchObject({ name: `www.${baseDomain}`, primary: true });
      expect(outs["apexRedirectsTo"]?.value).toBe(wwwId);
      expect(outs["txtRecord"]?.value).toMatchObject({ name: `_wpe_verification.www.${baseDomain}` });
      expect(await exclusions()).toEqual(PROGRAM_EXCLUSIONS);
      expect(await client.accountUsers.get(ACCOUNT, editorId)).toMatchObject({
        email: `editor@${baseDomain}`,
      });

      // The only wpengine plugin the engine could use is the installed self-contained one.
      for (const dir of (run.env["PATH"] ?? "").split(path.delimiter))
        expect(fs.existsSync(path.join(dir, "pulumi-resource-wpengine")), dir).toBe(false);
      const plugins = await mustRun("pulumi", ["plugin", "ls", "--json"], {
        cwd: run.root,
        env: run.env,
        timeoutMs: 60_000,
      });
      expect(JSON.parse(plugins.stdout)).toEqual([
        expect.objectContaining({ name: "wpengine", kind: "resource", version: PKG_VERSION }),
      ]);

      // The password went in as secret config: encrypted in the state, never in clear.
      const exported = await runCommand(
        "pulumi",
        ["stack", "export", "--stack", `organization/${project}/dev`, "--non-interactive"],
        { cwd: run.root, env: run.env, timeoutMs: 2 * 60_000 },
      );
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain("wpengine:index:Domain");
      expect(exported.stdout).not.toContain(PASSWORD);
      const provider = JSON.parse(exported.stdout).deployment.resources.find((r: { type: string }) =>
        r.type.startsWith("pulumi:providers:wpengine"),
      );
      expect(provider.inputs.password).toHaveProperty("ciphertext");
    });

    it("a second preview plans nothing", async () => {
      expect((await step("preview")).changes).toEqual({ same: RESOURCES });
    });

    it("drift made on the service out of band is repaired by up with refresh", async () => {
      const res = await fetch(`${sim.apiUrl}/installs/${INSTALL}/cache_exclusions`, {
        method: "PUT",
        headers: {
          "content-type": "application/json",
          authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`,
        },
        body: JSON.stringify({ exclusions: [{ type: "url path", value: "^/changed-by-hand/" }] }),
      });
      expect(res.status).toBe(200);
      expect(await exclusions()).toEqual([{ type: "url path", value: "^/changed-by-hand/" }]);
      const repaired = await step("refresh-up");
      expect(repaired.changes).toEqual({ same: RESOURCES - 1, update: 1 });
      expect(await exclusions()).toEqual(PROGRAM_EXCLUSIONS);
      expect((await step("preview")).changes).toEqual({ same: RESOURCES });
    });

    it("destroy deletes the domains and the user and clears the exclusions", async () => {
      expect((await step("destroy")).changes).toEqual({ delete: RESOURCES });
      await expect(client.domains.get(INSTALL, wwwId)).rejects.toThrow();
      await expect(client.accountUsers.get(ACCOUNT, editorId)).rejects.toThrow();
      expect(await exclusions()).toEqual([]);
    });
  });
}

/** mypy --strict on a directory of Python files, with the SDK installed: its result. */
async function mypy(bin: string, dir: string, files: string[]) {
  return runCommand(path.join(bin, "mypy"), ["--strict", "--follow-imports=silent", ...files], {
    cwd: dir,
    env: { ...process.env, MYPY_CACHE_DIR: path.join(dir, ".mypy_cache") },
    timeoutMs: 4 * 60_000,
  });
}

let pythonBin = "";

lifecycle("Python", "wpengine-python", "python.example", async (root) => {
  const py = await pythonEnv();
  pythonBin = py.bin;
  // The program from a copy (no __pycache__ written into the checkout).
  const dir = path.join(root, "program");
  fs.cpSync(path.join(REPO, "examples", "python"), dir, { recursive: true });
  return { cmd: py.python, args: ["automation.py"], cwd: dir };
});

describe("Python: the SDK's types", { timeout: 10 * 60_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    if (!pythonBin) pythonBin = (await pythonEnv()).bin;
    dir = tempDir("wpe-mypy-");
    fs.cpSync(path.join(REPO, "examples", "python"), dir, { recursive: true });
  }, 20 * 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("the example passes mypy --strict against the generated SDK", async () => {
    const r = await mypy(pythonBin, dir, ["quickstart.py", "automation.py", "__main__.py"]);
    expect(r.stdout, r.stderr).toContain("Success: no issues found in 3 source files");
    expect(r.code).toBe(0);
  });

  it("mypy refuses a program that gives an input, an enum or an output the wrong type", async () => {
    fs.writeFileSync(
      path.join(dir, "mistyped.py"),
      [
        "import pulumi_wpengine as wpengine",
        'wpengine.Domain("a", install_id="i", name="n", primary="yes")',
        'wpengine.CacheExclusionsExclusionsArgs(type="nonsense", value="v")',
        'n: int = wpengine.Domain("b", install_id="i", name="n").txt_verification_key',
        "",
      ].join("\n"),
    );
    const r = await mypy(pythonBin, dir, ["mistyped.py"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/mistyped\.py:2: error: No overload variant of "Domain"/);
    expect(r.stdout).toMatch(
      /mistyped\.py:3: error: Argument "type" .* expected "CacheExclusionsExclusionsType/,
    );
    expect(r.stdout).toMatch(
      // Null once verified: Optional, as the docs' "or null" says.
      /mistyped\.py:4: error: Incompatible types in assignment \(expression has type "Output\[str \| None\]"/,
    );
    expect(r.stdout).toContain("Found 3 errors in 1 file");
  });
});

lifecycle("Go", "wpengine-go", "go.example", async (root) => {
  const bin = await buildGoExample(root);
  return { cmd: bin, args: [], cwd: root };
});

describe("Go: the SDK's types", { timeout: 15 * 60_000 }, () => {
  it("go vet passes on the generated SDK and the example", async () => {
    const r = await mustRun(
      "go",
      ["vet", "github.com/pulumi-wpengine/pulumi-wpengine/languages/go/wpengine/...", "."],
      { cwd: path.join(REPO, "examples", "go"), env: goEnv(), timeoutMs: 15 * 60_000 },
    );
    expect(r.stderr).toBe("");
  });

  it("the compiler refuses a program that gives an input or an enum the wrong type", async () => {
    const dir = tempDir("wpe-go-mistyped-");
    try {
      const example = path.join(REPO, "examples", "go");
      for (const f of ["go.mod", "go.sum"]) fs.copyFileSync(path.join(example, f), path.join(dir, f));
      const mod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
      fs.writeFileSync(
        path.join(dir, "go.mod"),
        mod.replace("=> ../../languages/go", `=> ${REPO}/languages/go`),
      );
      fs.writeFileSync(
        path.join(dir, "main.go"),
        [
          "package main",
          "",
          "import (",
          '\t"github.com/pulumi-wpengine/pulumi-wpengine/languages/go/wpengine"',
          '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
          ")",
          "",
          "func main() {",
          "\tpulumi.Run(func(ctx *pulumi.Context) error {",
          '\t\t_, err := wpengine.NewDomain(ctx, "a", &wpengine.DomainArgs{InstallId: pulumi.String("i"), Name: pulumi.String("n"), Primary: pulumi.String("yes")})',
          '\t\t_ = wpengine.CacheExclusionsExclusionsArgs{Type: pulumi.Int(3), Value: pulumi.String("v")}',
          "\t\treturn err",
          "\t})",
          "}",
          "",
        ].join("\n"),
      );
      const r = await runCommand("go", ["build", "-o", path.join(dir, "out"), "."], {
        cwd: dir,
        env: goEnv(),
        timeoutMs: 10 * 60_000,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot use pulumi\.String\("yes"\).* as pulumi\.BoolPtrInput value/);
      expect(r.stderr).toMatch(
        /cannot use pulumi\.Int\(3\).* as wpengine\.CacheExclusionsExclusionsTypeInput value/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

const pluginBuild: {
  ensurePlugin(): Promise<{ binary: string; tarball: string; version: string; payloadBytes: number }>;
} = require("../../tools/plugin/build.js");

/** Starts `cmd` and resolves with the milliseconds until it prints the port it serves on (then kills it). */
function timeToPort(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} printed no port within 30 s:\n${out}\n${err}`));
    }, 30_000);
    child.stderr.on("data", (b) => {
      err += b;
    });
    child.stdout.on("data", (b) => {
      out += b;
      if (/^\d+\s*$/m.test(out)) {
        clearTimeout(timer);
        resolve(performance.now() - t0);
        child.kill("SIGKILL");
      }
    });
    child.on("error", reject);
  });
}

describe("the self-contained plugin (no Node.js needed)", { timeout: 10 * 60_000 }, () => {
  it("starts with no node on PATH, serves the schema, and is what a release would publish", async () => {
    const built = await pluginBuild.ensurePlugin();
    expect(path.basename(built.tarball)).toBe(
      `pulumi-resource-wpengine-v${built.version}-linux-amd64.tar.gz`,
    );
    // A copy of its own, so the first start unpacks (the one a user's first up pays).
    const dir = tempDir("wpe-plugin-");
    try {
      const exe = path.join(dir, "pulumi-resource-wpengine");
      fs.copyFileSync(built.binary, exe);
      fs.chmodSync(exe, 0o755);
      const bare = { HOME: dir, PATH: "/nonexistent" };
      const first = await timeToPort(exe, [], bare);
      const warm = await timeToPort(exe, [], bare);
      const npmBin = await timeToPort(
        process.execPath,
        [path.join(REPO, "bin", "pulumi-resource-wpengine")],
        process.env,
      );
      const schema = await mustRun("pulumi", ["package", "get-schema", exe], {
        cwd: dir,
        env: { ...process.env, ...(await cliEnv()), PULUMI_HOME: path.join(dir, "home") },
        timeoutMs: 2 * 60_000,
      });
      expect(JSON.parse(schema.stdout.slice(schema.stdout.indexOf("{")))).toMatchObject({
        name: "wpengine",
        version: built.version,
      });
      const size = (f: string) => `${(fs.statSync(f).size / 2 ** 20).toFixed(1)} MiB`;
      console.log(
        `plugin: executable ${size(built.binary)}, tarball ${size(built.tarball)}, payload ${(built.payloadBytes / 2 ** 20).toFixed(1)} MiB; ` +
          `start to port: first ${first.toFixed(0)} ms (unpacks), then ${warm.toFixed(0)} ms; npm bin on node ${process.version}: ${npmBin.toFixed(0)} ms`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
