/**
 * The release in a user's hands, without a clone: `npm run release`'s files (tools/release.ts) are
 * written into an empty directory, and there, with nothing of the repository (no source, no
 * node_modules of the checkout, no Go workspace or `replace` pointing back, no wpengine plugin on PATH),
 * the steps of docs/languages.md are run on the real CLI against a simulator:
 *
 * - TypeScript: `npm install ./pulumi-wpengine-<v>.tgz @pulumi/pulumi typescript`, a program, `pulumi up`;
 * - Python: `pulumi plugin install resource wpengine <v> --file <tarball>`, the wheel into a virtualenv,
 *   an Automation API program;
 * - Go: the module from the release's `goproxy/` (GOPROXY=file://...), an Automation API program built;
 * - YAML: a `runtime: yaml` program with the installed plugin;
 * - the importer from the installed tarball (`npx pulumi-wpengine import --out fleet`), then the
 *   generated README's commands word for word: the adoption writes nothing.
 *
 * The simulator stands in for the service (the test's own, to count the writes); the packed package's
 * own simulator (`dist/simulator/cli.js`) is started once to show a user can run it without a clone.
 * Only linux-amd64's plugin is built here (the other platforms' are `npm run release`'s, not run here).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { type AutomationRun, automation, mustRun, pythonEnv } from "../../tools/cli/languages";
import { ensureBuilt, tempDir } from "../../tools/cli/pack";
import { cliEnv, killGroup, PASSPHRASE, runCommand } from "../../tools/cli/project";
import { type Artifact, release } from "../../tools/release";

const toolchain: { ensureYamlHost(): Promise<string> } = require("../../tools/pulumi/toolchain.js");
const PKG: { version: string } = require("../../package.json");
const V = PKG.version;
const INSTALL = SEED.installs.acmeprod.id;
const USER = "release-user";
const PASSWORD = "pw-release-7d41";
const GO_MODULE = "github.com/pulumi-wpengine/pulumi-wpengine/languages/go";

const PY_PROGRAM = `import json, os, sys
import pulumi
import pulumi.automation as auto
import pulumi_wpengine as wpengine

def program() -> None:
    www = wpengine.Domain("www", install_id=pulumi.Config().require("installId"), name="www.python.example")
    pulumi.export("domainId", www.id)

settings = auto.ProjectSettings(name="release-python", runtime="python")
stack = auto.create_or_select_stack(stack_name="dev", project_name="release-python", program=program,
                                    opts=auto.LocalWorkspaceOptions(project_settings=settings))
stack.set_all_config({
    "installId": auto.ConfigValue(os.environ["WPE_INSTALL_ID"]),
    "wpengine:username": auto.ConfigValue(os.environ["WPE_API_USER_ID"]),
    "wpengine:password": auto.ConfigValue(os.environ["WPE_API_PASSWORD"], secret=True),
    "wpengine:apiUrl": auto.ConfigValue(os.environ["WPE_API_URL"]),
    "wpengine:appHostingUrl": auto.ConfigValue(os.environ["WPE_APP_HOSTING_URL"]),
})
if sys.argv[1] == "up":
    up = stack.up(on_output=lambda t: sys.stderr.write(t + "\\n"))
    print(json.dumps({"changes": up.summary.resource_changes,
                      "outputs": {k: {"value": v.value, "secret": v.secret} for k, v in up.outputs.items()}}))
else:
    print(json.dumps({"changes": stack.preview(on_output=lambda t: sys.stderr.write(t + "\\n")).change_summary}))
`;

const GO_PROGRAM = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-wpengine/pulumi-wpengine/languages/go/wpengine"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	ctx := context.Background()
	s, err := auto.UpsertStackInlineSource(ctx, "dev", "release-go", func(ctx *pulumi.Context) error {
		www, err := wpengine.NewDomain(ctx, "www", &wpengine.DomainArgs{
			InstallId: pulumi.String(config.Require(ctx, "installId")),
			Name:      pulumi.String("www.go.example"),
		})
		if err != nil {
			return err
		}
		ctx.Export("domainId", www.ID())
		return nil
	})
	must(err)
	must(s.SetAllConfig(ctx, auto.ConfigMap{
		"installId":              {Value: os.Getenv("WPE_INSTALL_ID")},
		"wpengine:username":      {Value: os.Getenv("WPE_API_USER_ID")},
		"wpengine:password":      {Value: os.Getenv("WPE_API_PASSWORD"), Secret: true},
		"wpengine:apiUrl":        {Value: os.Getenv("WPE_API_URL")},
		"wpengine:appHostingUrl": {Value: os.Getenv("WPE_APP_HOSTING_URL")},
	}))
	var result any
	if os.Args[1] == "up" {
		up, err := s.Up(ctx, optup.ProgressStreams(os.Stderr))
		must(err)
		outputs := map[string]any{}
		for k, v := range up.Outputs {
			outputs[k] = map[string]any{"value": v.Value, "secret": v.Secret}
		}
		result = map[string]any{"changes": up.Summary.ResourceChanges, "outputs": outputs}
	} else {
		p, err := s.Preview(ctx, optpreview.ProgressStreams(os.Stderr))
		must(err)
		result = map[string]any{"changes": p.ChangeSummary}
	}
	out, _ := json.Marshal(result)
	fmt.Println(string(out))
}
`;

const TS_PROGRAM = `import * as wpengine from "pulumi-wpengine";
import * as pulumi from "@pulumi/pulumi";

const www = new wpengine.Domain("www", {
  installId: new pulumi.Config().require("installId"),
  name: "www.typescript.example",
});
export const domainId = www.id;
`;

const YAML_PROGRAM = `name: release-yaml
runtime: yaml
resources:
  www:
    type: wpengine:index:Domain
    properties:
      installId: ${INSTALL}
      name: www.yaml.example
outputs:
  domainId: \${www.id}
`;

/** The commands of a README's first ```sh block, one per line, comments dropped. */
function readmeCommands(readme: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l && !l.startsWith("#"));
}

describe("the release, installed without a clone", { timeout: 30 * 60_000 }, () => {
  let room: string;
  let side: string;
  let artifacts: Artifact[];
  let sim: RunningSimulator;
  let client: WpEngineClient;
  /** The environment of a user's shell in the room: the CLI, no wpengine plugin, their own backend. */
  let env: NodeJS.ProcessEnv;
  const creds = () => ({
    WPE_API_USER_ID: USER,
    WPE_API_PASSWORD: PASSWORD,
    WPE_API_URL: sim.apiUrl,
    WPE_APP_HOSTING_URL: sim.appHostingUrl,
    WPE_INSTALL_ID: INSTALL,
  });
  const sh = (cwd: string, command: string, timeoutMs = 10 * 60_000, extra: NodeJS.ProcessEnv = {}) =>
    mustRun("bash", ["-c", command], { cwd, env: { ...env, ...extra }, timeoutMs });
  const domainOf = async (id: unknown) => client.domains.get(INSTALL, String(id));

  beforeAll(async () => {
    await ensureBuilt();
    room = tempDir("wpe-release-room-");
    side = tempDir("wpe-release-side-");
    const t0 = Date.now();
    artifacts = await release({ out: room, targets: ["linux-amd64"] });
    console.log(
      `release: ${((Date.now() - t0) / 1000).toFixed(0)} s; ${artifacts.map((a) => `${a.file} ${a.bytes} B`).join(", ")}`,
    );
    sim = await startSimulator({ port: 0, quiet: true, username: USER, password: PASSWORD });
    client = new WpEngineClient({
      username: USER,
      password: PASSWORD,
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    const cli = await cliEnv();
    const yamlHost = await toolchain.ensureYamlHost();
    // Nothing of the checkout on PATH: no directory that holds a wpengine plugin.
    const PATH = [yamlHost, ...(cli["PATH"] ?? process.env["PATH"] ?? "").split(path.delimiter)]
      .filter((d) => d && !fs.existsSync(path.join(d, "pulumi-resource-wpengine")))
      .join(path.delimiter);
    for (const d of ["backend", "home", "npm-global"]) fs.mkdirSync(path.join(side, d));
    env = {
      ...process.env,
      ...cli,
      PATH: [path.join(side, "npm-global", "bin"), PATH].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${path.join(side, "backend")}`,
      PULUMI_HOME: path.join(side, "home"),
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      npm_config_prefix: path.join(side, "npm-global"),
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      NO_COLOR: "1",
    };
    for (const k of ["NODE_PATH", "GOWORK", "GOFLAGS", "PULUMI_WPENGINE_PULUMI"]) delete env[k];
  }, 30 * 60_000);

  afterAll(async () => {
    await sim?.stop();
    for (const d of [room, side]) if (d) fs.rmSync(d, { recursive: true, force: true });
  }, 10 * 60_000);

  it("release/ holds every artifact, and SHA256SUMS verifies them", async () => {
    const files = artifacts.map((a) => a.file);
    expect(files).toEqual(
      expect.arrayContaining([
        `pulumi-wpengine-${V}.tgz`,
        `pulumi-resource-wpengine-v${V}-linux-amd64.tar.gz`,
        `pulumi_wpengine-${V}-py3-none-any.whl`,
        `pulumi_wpengine-${V}.tar.gz`,
        `goproxy/${GO_MODULE}/@v/v${V}.zip`,
        `goproxy/${GO_MODULE}/@v/v${V}.mod`,
        `goproxy/${GO_MODULE}/@v/v${V}.info`,
        `goproxy/${GO_MODULE}/@v/list`,
        "RELEASE_NOTES.md",
        "SHA256SUMS",
      ]),
    );
    expect(fs.readFileSync(path.join(room, "RELEASE_NOTES.md"), "utf8")).toMatch(new RegExp(`^## ${V} `));
    const check = await sh(room, "sha256sum -c SHA256SUMS");
    expect(check.stdout.trim().split("\n")).toHaveLength(artifacts.length - 1);
    expect(check.stdout).not.toContain("FAILED");
  });

  it("TypeScript: npm installs the tarball, a program runs, and the package's own simulator starts", async () => {
    const dir = path.join(room, "ts");
    fs.mkdirSync(dir);
    // As docs/languages.md says: npm init's `main` (index.js) would make every preview warn.
    await sh(dir, "npm init -y >/dev/null && npm pkg set main=index.ts");
    await sh(dir, `npm install ../pulumi-wpengine-${V}.tgz @pulumi/pulumi typescript`);
    // No script of the repository's: npm 11 asks every user to approve a dependency's `prepare`.
    const installed = JSON.parse(
      fs.readFileSync(path.join(dir, "node_modules/pulumi-wpengine/package.json"), "utf8"),
    );
    expect(installed).toMatchObject({ name: "pulumi-wpengine", version: V, bin: expect.any(Object) });
    expect(installed.scripts).toBeUndefined();
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: release-typescript\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    fs.writeFileSync(path.join(dir, "index.ts"), TS_PROGRAM);
    await sh(dir, "pulumi stack init dev --non-interactive");
    await sh(
      dir,
      `pulumi config set installId ${INSTALL} && pulumi config set wpengine:apiUrl ${sim.apiUrl} && pulumi config set wpengine:appHostingUrl ${sim.appHostingUrl} && pulumi config set wpengine:username ${USER} && pulumi config set --secret wpengine:password ${PASSWORD}`,
    );
    await sh(dir, "pulumi up --yes --non-interactive");
    const id = (await sh(dir, "pulumi stack output domainId")).stdout.trim();
    expect(await domainOf(id)).toMatchObject({ name: "www.typescript.example" });
    const preview = await sh(dir, "pulumi preview --expect-no-changes --non-interactive");
    expect(preview.stdout + preview.stderr).not.toMatch(/Could not find entry point|DEP0128/);

    // The simulator a user starts from the installed package (no clone): it answers on its port.
    const child = spawn(
      "node",
      ["node_modules/pulumi-wpengine/dist/simulator/cli.js", "--port", "0", "--quiet"],
      { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`no listening line:\n${out}`)), 60_000);
        child.stdout.on("data", (b) => {
          out += b;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}:\n${out}`)));
      });
      expect((await fetch(url)).status).toBeGreaterThan(0);
    } finally {
      killGroup(child.pid);
    }
  });

  /** The plugin from the release, installed as a Python, Go or YAML user installs it (once per PULUMI_HOME). */
  let pluginInstalled: Promise<unknown> | undefined;
  const installPlugin = () => {
    pluginInstalled ??= sh(
      room,
      `pulumi plugin install resource wpengine ${V} --file pulumi-resource-wpengine-v${V}-linux-amd64.tar.gz --non-interactive`,
    );
    return pluginInstalled;
  };
  const run = (): AutomationRun => ({ root: room, env: { ...env, ...creds() } });

  it("Python: the plugin tarball and the wheel installed, a program runs", async () => {
    await installPlugin();
    const py = await pythonEnv(path.join(room, `pulumi_wpengine-${V}-py3-none-any.whl`));
    const dir = path.join(room, "py");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "main.py"), PY_PROGRAM);
    const up = await automation(run(), py.python, ["main.py"], "up", dir);
    expect(up.changes).toEqual({ create: 2 });
    expect(await domainOf(up.outputs?.["domainId"]?.value)).toMatchObject({ name: "www.python.example" });
    expect((await automation(run(), py.python, ["main.py"], "preview", dir)).changes).toEqual({ same: 2 });
    const plugins = JSON.parse((await sh(room, "pulumi plugin ls --json")).stdout);
    expect(plugins).toEqual([expect.objectContaining({ name: "wpengine", kind: "resource", version: V })]);
  });

  it("Go: a program built against the release's module (GOPROXY=file://...) runs", async () => {
    await installPlugin();
    const dir = path.join(room, "go");
    // The user's module cache (Go's own, shared with examples/go's builds, whose compiled Pulumi SDK the
    // build cache then holds): this module's earlier copies are removed from it first, since a release
    // rebuilt at the same version would otherwise be taken from there instead of from goproxy/.
    const modcache = (
      await mustRun("go", ["env", "GOMODCACHE"], { cwd: room, env, timeoutMs: 60_000 })
    ).stdout.trim();
    for (const d of [
      path.join(modcache, "github.com", "pulumi-wpengine"),
      path.join(modcache, "cache", "download", "github.com", "pulumi-wpengine"),
    ])
      if (fs.existsSync(d))
        await mustRun("bash", ["-c", `chmod -R u+w "${d}" && rm -rf "${d}"`], {
          cwd: room,
          env,
          timeoutMs: 60_000,
        });
    // docs/languages.md's steps word for word, in one shell from the release's directory (no GOFLAGS, no
    // extra `go get` of the Pulumi SDK: the module's go.mod asks for one whose dependency graph resolves).
    // Added only for this machine: Go's module index (in the build cache) lists a module version's files
    // once, as if the version could never change, so a release rebuilt at the same version here (a user's
    // never is) would be compiled with an earlier build's file list.
    const go = (...lines: string[]) =>
      sh(
        room,
        [
          'export GOPROXY="file://$PWD/goproxy,https://proxy.golang.org" GONOSUMDB="github.com/pulumi-wpengine/*"',
          ...lines,
        ].join("\n"),
        20 * 60_000,
        { GODEBUG: "goindex=0" },
      );
    await go("mkdir go && cd go && go mod init example.com/myproject");
    fs.writeFileSync(path.join(dir, "main.go"), GO_PROGRAM);
    await go("cd go", `go get ${GO_MODULE}@v${V}`, "go mod tidy && go build");
    expect(fs.readFileSync(path.join(dir, "go.mod"), "utf8")).not.toContain("replace");
    const up = await automation(run(), path.join(dir, "myproject"), [], "up", dir);
    expect(up.changes).toEqual({ create: 2 });
    expect(await domainOf(up.outputs?.["domainId"]?.value)).toMatchObject({ name: "www.go.example" });
    expect((await automation(run(), path.join(dir, "myproject"), [], "preview", dir)).changes).toEqual({
      same: 2,
    });
  });

  it("YAML: a program runs with the installed plugin", async () => {
    await installPlugin();
    const dir = path.join(room, "yaml");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), YAML_PROGRAM);
    const configure = `pulumi config set wpengine:apiUrl ${sim.apiUrl} && pulumi config set wpengine:appHostingUrl ${sim.appHostingUrl} && pulumi config set wpengine:username ${USER} && pulumi config set --secret wpengine:password ${PASSWORD}`;
    await sh(dir, "pulumi stack init dev --non-interactive");
    await sh(dir, configure);
    await sh(dir, "pulumi up --yes --non-interactive");
    const id = (await sh(dir, "pulumi stack output domainId")).stdout.trim();
    expect(await domainOf(id)).toMatchObject({ name: "www.yaml.example" });
    await sh(dir, "pulumi preview --expect-no-changes --non-interactive");

    // The installed plugin executable runs the package's commands, for users without npm.
    const plugin = path.join(
      env["PULUMI_HOME"]!,
      "plugins",
      `resource-wpengine-v${V}`,
      "pulumi-resource-wpengine",
    );
    const recovered = await sh(dir, `${plugin} recover`);
    // Its lines and usage name the executable the user ran, not the npm package's command.
    expect(recovered.stdout).toContain(
      "pulumi-resource-wpengine recover: stack dev: nothing to recover, no run of it was killed (its last run, pulumi up, succeeded",
    );
    expect((await sh(dir, `${plugin} import --help`)).stdout).toMatch(
      /^usage: pulumi-resource-wpengine import --out DIR/,
    );
    // A second stack that declares the same domain is refused, the advice naming that executable.
    await sh(dir, `pulumi stack init other --non-interactive && ${configure}`);
    const taken = await runCommand("pulumi", ["up", "--yes", "--non-interactive", "--stack", "other"], {
      cwd: dir,
      env,
      timeoutMs: 10 * 60_000,
    });
    expect(taken.code).not.toBe(0);
    expect(taken.stdout).toContain(`already exists on install ${INSTALL}`);
    expect(taken.stdout).toContain(`run \`${plugin} recover\``);
    const imported = await sh(
      room,
      `${plugin} import --language yaml --out fleet-plugin --account ${SEED.accounts.acme.id}`,
      5 * 60_000,
      creds(),
    );
    expect(imported.stderr + imported.stdout).toMatch(/pulumi-resource-wpengine import: \d+ resources/);
    // Its README installs the plugin as this user did (no npm), never the plugin's own unpacked files.
    const readme = fs.readFileSync(path.join(room, "fleet-plugin", "README.md"), "utf8");
    expect(readme).toContain(
      `install the release's\ntarball first: \`pulumi plugin install resource wpengine ${V} --file pulumi-resource-wpengine-v${V}-<os>-<arch>.tar.gz\`.`,
    );
    expect(readme.match(/pulumi plugin install/g)).toHaveLength(1);
    expect(readme).toContain("Generated by `pulumi-resource-wpengine import --language yaml");
    expect(readme).not.toMatch(/npm install|\.pulumi-resource-wpengine-/);
    expect(fs.readdirSync(path.join(room, "fleet-plugin")).sort()).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "import.json",
      "wpengine-plugin.yaml",
    ]);
    // On a machine without the plugin, the engine asks for it where wpengine-plugin.yaml says (a YAML
    // program has no SDK to name the server; without the file it asks github.com/pulumi/pulumi-wpengine).
    // Where no release is published (here), the download fails, naming that server.
    const bare: NodeJS.ProcessEnv = { ...env, PULUMI_HOME: path.join(side, "home-bare") };
    delete bare["PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION"];
    const fleet = path.join(room, "fleet-plugin");
    await mustRun("pulumi", ["stack", "init", "bare", "--non-interactive"], {
      cwd: fleet,
      env: bare,
      timeoutMs: 60_000,
    });
    const missing = await runCommand("pulumi", ["preview", "--non-interactive"], {
      cwd: fleet,
      env: bare,
      timeoutMs: 5 * 60_000,
    });
    const said = missing.stdout + missing.stderr;
    expect(said).not.toContain("repos/pulumi/pulumi-wpengine");
    if (!fs.existsSync(path.join(bare["PULUMI_HOME"]!, "plugins", `resource-wpengine-v${V}`)))
      expect(said).toContain(
        `pulumi plugin install resource wpengine v${V} --server github://api.github.com/pulumi-wpengine/pulumi-wpengine`,
      );
  });

  for (const language of ["typescript", "yaml"] as const) {
    it(`the importer from the tarball (${language}), then the generated README word for word: 0 writes`, async () => {
      const dir = path.join(room, "ts");
      const out = `fleet-${language}`;
      const account = SEED.accounts.acme.id;
      await sh(
        dir,
        // The YAML run imports the account the TypeScript run's stack now manages, on the same backend:
        // without --include-managed it would leave all of it out (held by that stack).
        `npx pulumi-wpengine import --out ${out} --account ${account}${language === "yaml" ? " --language yaml --include-managed" : ""}`,
        5 * 60_000,
        creds(),
      );
      const fleet = path.join(dir, out);
      const commands = readmeCommands(fs.readFileSync(path.join(fleet, "README.md"), "utf8"));
      expect(commands.length).toBeGreaterThan(2);
      sim.clearRequests();
      for (const command of commands) await sh(fleet, command, 15 * 60_000, creds());
      const writes = sim.requests().filter((q) => q.method !== "GET");
      expect(writes, "the adoption's writes").toEqual([]);
      const resources = JSON.parse((await sh(fleet, "pulumi stack export")).stdout).deployment.resources;
      expect(resources.length).toBeGreaterThan(5);
    });
  }
});
