/**
 * The language tier: Python and Go programs with the generated SDKs (`languages/`), run through Pulumi's
 * Automation API with the real `pulumi` CLI and the executable provider, against a simulator.
 *
 * - Python: a virtualenv in the toolchain cache (`python-pulumi-<version>`) with `pulumi` from PyPI at
 *   {@link PYTHON_PULUMI} and mypy; the generated SDK is installed into it by pip from a copy of
 *   `languages/python` on every run (so the run uses the SDK of the checkout).
 * - Go: `examples/go` built with `go build` (its go.mod replaces the SDK module by `languages/go`),
 *   caches in the Go client's own (module cache, build cache).
 *
 * No Python, no Go, or a failed install is a failure, never a skip.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO, tempDir } from "./pack";
import { cliEnv, type RunResult, runCommand } from "./project";

const toolchain: { CACHE: string } = require(path.join(REPO, "tools/pulumi/toolchain.js"));

/**
 * `pulumi` on PyPI: the newest served there (PyPI serves up to 3.272.0; the Go SDK of examples/go is
 * v3.274.1, the CLI the toolchain's). The generated SDK asks for >=3.231.0.
 */
export const PYTHON_PULUMI = "3.272.0";
/** Besides `pulumi`: the generated SDK's own dependency (its `pyproject.toml`) and the build and type-check tools. */
const PYTHON_TOOLS = ["parver==1.0.1.post0", "mypy==2.4.1", "setuptools==80.9.0", "wheel==0.45.1"];

/** A command's result, or an error with its output when it exits non-zero. */
export async function mustRun(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  const r = await runCommand(cmd, args, opts);
  if (r.code !== 0) {
    throw new Error(
      `${r.command} exited ${r.code}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`,
    );
  }
  return r;
}

export interface PythonEnv {
  /** The virtualenv's python. */
  python: string;
  /** Its bin directory (mypy, pip). */
  bin: string;
}

/**
 * The cached virtualenv with `pulumi`, the type checker and setuptools (which builds the SDK's wheel
 * and sdist: tools/release.ts), made when missing (a marker file is written last, so an interrupted
 * install is redone).
 */
export async function pythonVenv(): Promise<PythonEnv> {
  const root = path.join(toolchain.CACHE, `python-pulumi-${PYTHON_PULUMI}`);
  const bin = path.join(root, "bin");
  const python = path.join(bin, "python");
  const marker = path.join(root, ".complete");
  const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  const wanted = `pulumi==${PYTHON_PULUMI} ${PYTHON_TOOLS.join(" ")}\n`;
  // Made again when the list of what it holds changed.
  if (!fs.existsSync(marker) || fs.readFileSync(marker, "utf8") !== wanted) {
    fs.rmSync(root, { recursive: true, force: true });
    await mustRun("python3", ["-m", "venv", root], { cwd: REPO, env, timeoutMs: 120_000 });
    await mustRun(python, ["-m", "pip", "install", "--quiet", `pulumi==${PYTHON_PULUMI}`, ...PYTHON_TOOLS], {
      cwd: REPO,
      env,
      timeoutMs: 8 * 60_000,
    });
    fs.writeFileSync(marker, wanted);
  }
  return { python, bin };
}

/**
 * {@link pythonVenv} with a Python SDK installed into it afresh: `sdk` (a wheel, as a user installs the
 * release's, with its dependencies checked), or the checkout's `languages/python` when not given.
 */
export async function pythonEnv(sdk?: string): Promise<PythonEnv> {
  const venv = await pythonVenv();
  const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  if (sdk) {
    await mustRun(venv.python, ["-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", sdk], {
      cwd: path.dirname(sdk),
      env,
      timeoutMs: 4 * 60_000,
    });
    // What the wheel requires (pulumi, semver, ...) is installed: its metadata names what it needs.
    await mustRun(venv.python, ["-m", "pip", "check"], {
      cwd: path.dirname(sdk),
      env,
      timeoutMs: 2 * 60_000,
    });
    return venv;
  }
  // From a copy: a build leaves files beside the sources, and languages/ must stay as generated.
  const copy = tempDir("wpe-pysdk-");
  fs.cpSync(path.join(REPO, "languages", "python"), copy, { recursive: true });
  await mustRun(
    venv.python,
    ["-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--force-reinstall", copy],
    { cwd: copy, env, timeoutMs: 4 * 60_000 },
  );
  fs.rmSync(copy, { recursive: true, force: true });
  return venv;
}

/** Go's environment for the example: the module graph as committed (no edits to go.mod or go.sum). */
export const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GOFLAGS: "-mod=readonly -buildvcs=false",
  GOTOOLCHAIN: "local",
  GOWORK: "off",
  CGO_ENABLED: "0",
});

/** `examples/go` built into `outDir`; returns the binary. */
export async function buildGoExample(outDir: string): Promise<string> {
  const out = path.join(outDir, "wpengine-go-example");
  await mustRun("go", ["build", "-o", out, "."], {
    cwd: path.join(REPO, "examples", "go"),
    env: goEnv(),
    timeoutMs: 15 * 60_000,
  });
  return out;
}

/** Where an Automation API program runs: the CLI on PATH, the plugin installed, a file backend. */
export interface AutomationRun {
  env: NodeJS.ProcessEnv;
  root: string;
}

const plugin: {
  ensurePlugin(): Promise<{ binary: string; tarball: string; version: string }>;
} = require(path.join(REPO, "tools/plugin/build.js"));

/**
 * The environment of an Automation API program: the toolchain's PATH (pulumi) without the package's
 * bin, its own backend, PULUMI_HOME and passphrase, and `vars` (the WPE_* credentials and ids the
 * examples read). The provider is the self-contained plugin (tools/plugin/build.js), installed into
 * that PULUMI_HOME from its tarball by `pulumi plugin install`, as a Python or Go user installs it.
 */
export async function automationEnv(vars: Record<string, string>): Promise<AutomationRun> {
  const [cli, built] = await Promise.all([cliEnv(), plugin.ensurePlugin()]);
  const root = tempDir("wpe-lang-");
  for (const d of ["backend", "home"]) fs.mkdirSync(path.join(root, d));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...cli,
    PULUMI_BACKEND_URL: `file://${path.join(root, "backend")}`,
    PULUMI_HOME: path.join(root, "home"),
    PULUMI_CONFIG_PASSPHRASE: "language-tier-throwaway-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    NO_COLOR: "1",
    ...vars,
  };
  await mustRun(
    "pulumi",
    [
      "plugin",
      "install",
      "resource",
      "wpengine",
      built.version,
      "--file",
      built.tarball,
      "--non-interactive",
    ],
    { cwd: root, env, timeoutMs: 3 * 60_000 },
  );
  return { root, env };
}

/** What the examples' Automation API drivers print last: the change summary and, for up, the outputs. */
export interface AutomationResult {
  changes: Record<string, number>;
  outputs?: Record<string, { value: unknown; secret: boolean }>;
}

/** Runs `cmd ...args <command>` and parses the JSON line it prints last. */
export async function automation(
  run: AutomationRun,
  cmd: string,
  args: string[],
  command: string,
  cwd: string,
): Promise<AutomationResult> {
  const r = await mustRun(cmd, [...args, command], { cwd, env: run.env, timeoutMs: 6 * 60_000 });
  const last = r.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as AutomationResult;
  } catch {
    throw new Error(
      `${r.command} printed no JSON result:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`,
    );
  }
}
