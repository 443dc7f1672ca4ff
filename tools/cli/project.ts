/**
 * The CLI tier: Pulumi programs run by the real `pulumi` CLI, as a user types the commands, against the
 * simulator. A {@link CliProject} is a project directory (the program's files, `node_modules` linked to
 * the packed-and-installed package), a local file backend, a throwaway passphrase and its own
 * PULUMI_HOME, all in one temp directory.
 *
 * The CLI comes from tools/pulumi/toolchain.js (`npm test` runs the tests under it; a test file run on
 * its own ensures it here). No CLI is a failure, never a skip.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { type PackedProgram, packedProgram, REPO, tempDir } from "./pack";

const toolchain: {
  ensure(): Promise<{ env: Record<string, string> }>;
} = require(path.join(REPO, "tools/pulumi/toolchain.js"));

export const PASSPHRASE = "cli-tier-throwaway-passphrase";

let ensured: Promise<Record<string, string>> | undefined;

/** The environment the CLI runs with (PATH with pulumi, the language host, the plugin and a Node >= 22). */
export function cliEnv(): Promise<Record<string, string>> {
  ensured ??= (async () => {
    if (process.env["PULUMI_WPENGINE_PULUMI"]) return {};
    return (await toolchain.ensure()).env;
  })();
  return ensured;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The command as typed, for messages. */
  command: string;
}

export class CliError extends Error {
  constructor(readonly result: RunResult) {
    super(
      `${result.command} exited ${result.code}\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
    );
  }
}

/** One step of a `--json` preview or update: what the engine planned or did for a resource. */
export interface JsonStep {
  op: string;
  urn: string;
  type?: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
  oldState?: { outputs?: Record<string, unknown>; inputs?: Record<string, unknown> };
  newState?: { id?: string; outputs?: Record<string, unknown>; inputs?: Record<string, unknown> };
}

export interface JsonPreview {
  steps: JsonStep[];
  changeSummary?: Record<string, number>;
  diagnostics?: { message: string; severity: string; urn?: string }[];
}

/** The resource name of a URN (`urn:pulumi:stack::project::type::name`). */
export const urnName = (urn: string): string => urn.split("::").at(-1) ?? urn;

/** Steps that change something, as `name: op`. */
export const changes = (p: JsonPreview): string[] =>
  p.steps.filter((s) => s.op !== "same").map((s) => `${urnName(s.urn)}: ${s.op}`);

export interface ProjectOptions {
  /** A directory to copy the program from (an example), or files to write. */
  from?: string;
  files?: Record<string, string>;
  /** The project name (Pulumi.yaml `name:`) when `files` has no Pulumi.yaml. */
  name?: string;
  stack?: string;
  /** Plain stack config (`key` or `ns:key`). */
  config?: Record<string, string>;
  /** Secret stack config, set with `pulumi config set --secret`. */
  secrets?: Record<string, string>;
  /** Extra environment of every command. */
  env?: Record<string, string>;
  /** Deadline of one command (default 6 minutes: a busy 2-core machine runs several at once). */
  timeoutMs?: number;
}

/** A Pulumi project with one stack on a local file backend. */
export class CliProject {
  private constructor(
    readonly root: string,
    readonly dir: string,
    readonly stack: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timeoutMs: number,
  ) {}

  static async create(opts: ProjectOptions): Promise<CliProject> {
    const [env, packed] = await Promise.all([cliEnv(), packedProgram()]);
    const root = tempDir("wpe-cli-");
    const dir = path.join(root, "project");
    if (opts.from) copyProgram(opts.from, dir);
    else fs.mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(opts.files ?? {})) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    if (!fs.existsSync(path.join(dir, "Pulumi.yaml"))) {
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        `name: ${opts.name ?? "cli-test"}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
      );
    }
    linkModules(packed, dir);
    for (const d of ["backend", "home"]) fs.mkdirSync(path.join(root, d));
    const stack = opts.stack ?? "dev";
    const project = new CliProject(
      root,
      dir,
      stack,
      {
        ...process.env,
        ...env,
        PULUMI_BACKEND_URL: `file://${path.join(root, "backend")}`,
        PULUMI_HOME: path.join(root, "home"),
        PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        NO_COLOR: "1",
        ...opts.env,
      },
      opts.timeoutMs ?? 6 * 60_000,
    );
    await project.run(["stack", "init", stack]);
    await project.setConfig(opts.config ?? {}, opts.secrets ?? {});
    return project;
  }

  /** Sets stack config in one command (`pulumi config set-all`). */
  async setConfig(plain: Record<string, string>, secret: Record<string, string> = {}): Promise<void> {
    const args = [
      ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
    ];
    if (args.length) await this.run(["config", "set-all", ...args]);
  }

  /** Runs `pulumi <args> --stack <stack> --non-interactive`; throws a {@link CliError} on a non-zero exit unless `allowFail`. */
  async run(
    args: string[],
    opts: { allowFail?: boolean; env?: Record<string, string>; onSpawn?: (pid: number) => void } = {},
  ): Promise<RunResult> {
    const full = [
      ...args,
      "--non-interactive",
      ...(args[0] === "stack" && args[1] === "init" ? [] : ["--stack", this.stack]),
    ];
    if (args[0] === "stack" && args[1] === "init") full.push("--non-interactive");
    const result = await runCommand("pulumi", full, {
      cwd: this.dir,
      env: { ...this.env, ...opts.env },
      timeoutMs: this.timeoutMs,
      ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
    });
    if (result.code !== 0 && !opts.allowFail) throw new CliError(result);
    return result;
  }

  /**
   * Runs another command in the project's directory with the CLI's environment (e.g. the package's bin,
   * `node_modules/.bin/pulumi-wpengine`, as a user runs it); throws a {@link CliError} on a non-zero exit
   * unless `allowFail`.
   */
  async exec(
    cmd: string,
    args: string[],
    opts: { allowFail?: boolean; env?: Record<string, string>; onSpawn?: (pid: number) => void } = {},
  ): Promise<RunResult> {
    const result = await runCommand(cmd, args, {
      cwd: this.dir,
      env: { ...this.env, ...opts.env },
      timeoutMs: this.timeoutMs,
      ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
    });
    if (result.code !== 0 && !opts.allowFail) throw new CliError(result);
    return result;
  }

  /** `pulumi up --yes --skip-preview`, then the stack's outputs. */
  async up(extra: string[] = []): Promise<{ result: RunResult; outputs: Record<string, unknown> }> {
    const result = await this.run(["up", "--yes", "--skip-preview", "--diff", ...extra]);
    return { result, outputs: await this.outputs() };
  }

  /** `pulumi preview --json` (plus `extra`, e.g. `--refresh`). */
  async preview(extra: string[] = []): Promise<JsonPreview> {
    const result = await this.run(["preview", "--json", ...extra]);
    return parseJson(result) as JsonPreview;
  }

  /** `pulumi preview --expect-no-changes`: passes only when nothing would change. */
  async expectNoChanges(extra: string[] = []): Promise<RunResult> {
    return this.run(["preview", "--expect-no-changes", "--diff", ...extra]);
  }

  async refresh(extra: string[] = []): Promise<RunResult> {
    return this.run(["refresh", "--yes", "--skip-preview", ...extra]);
  }

  async destroy(extra: string[] = []): Promise<RunResult> {
    return this.run(["destroy", "--yes", "--skip-preview", ...extra]);
  }

  /** The stack's outputs, secrets shown (`pulumi stack output --json --show-secrets`). */
  async outputs(): Promise<Record<string, unknown>> {
    return parseJson(await this.run(["stack", "output", "--json", "--show-secrets"])) as Record<
      string,
      unknown
    >;
  }

  /** `pulumi stack export` as text (secrets stay encrypted, as stored). */
  async exportText(): Promise<string> {
    return (await this.run(["stack", "export"])).stdout;
  }

  /** The resources of the exported state (without the stack and the providers). */
  async resources(): Promise<
    { urn: string; type: string; id?: string; outputs?: Record<string, unknown> }[]
  > {
    const state = JSON.parse(await this.exportText()) as {
      deployment: {
        resources?: { urn: string; type: string; id?: string; outputs?: Record<string, unknown> }[];
      };
    };
    return (state.deployment.resources ?? []).filter(
      (r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"),
    );
  }

  /**
   * SIGKILLs every process still running with this project's PULUMI_HOME: what a killed CLI leaves
   * behind, since the engine starts its plugins in process groups of their own (Linux: `/proc`).
   * Returns how many there were.
   */
  killStrays(): number {
    let killed = 0;
    for (const pid of this.strays()) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // gone already
      }
    }
    return killed;
  }

  /** The processes still running with this project's PULUMI_HOME (Linux: `/proc`), with their commands. */
  strays(): number[] {
    const marker = `PULUMI_HOME=${path.join(this.root, "home")}\0`;
    const found: number[] = [];
    for (const name of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        // A zombie (state Z) has ended; it only waits for its parent to reap it.
        if (/^\d+ \(.*\) Z /.test(stat)) continue;
        if (fs.readFileSync(`/proc/${name}/environ`, "utf8").includes(marker)) found.push(Number(name));
      } catch {
        // gone already, or not ours to read
      }
    }
    return found;
  }

  /** The pending operations the state records (operations the engine began and never saw end). */
  async pendingOperations(): Promise<number> {
    const state = JSON.parse(await this.exportText()) as { deployment: { pending_operations?: unknown[] } };
    return state.deployment.pending_operations?.length ?? 0;
  }

  dispose(): void {
    this.killStrays();
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

function parseJson(result: RunResult): unknown {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(
      `${result.command} printed no JSON:\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
    );
  }
}

/** Copies a program directory (its sources, not its node_modules or stack files). */
function copyProgram(from: string, to: string): void {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => !/(^|\/)(node_modules|Pulumi\.[^/]+\.yaml)$/.test(path.relative(from, src)),
  });
}

/** The packed install's node_modules, linked into the project (one install shared by every project). */
function linkModules(packed: PackedProgram, dir: string): void {
  fs.symlinkSync(path.join(packed.dir, "node_modules"), path.join(dir, "node_modules"), "dir");
}

/** Runs a command with a deadline; the whole process group is killed when it passes. */
export function runCommand(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; onSpawn?: (pid: number) => void },
): Promise<RunResult> {
  const command = `${cmd} ${args.join(" ")}`;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b) => {
      stdout += b;
    });
    child.stderr.on("data", (b) => {
      stderr += b;
    });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(
        new Error(
          `${command} did not finish within ${opts.timeoutMs / 1000} s\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
        ),
      );
    }, opts.timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`${command}: ${err.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, command });
    });
  });
}

/** SIGKILLs a process group (the CLI, its language host, the program and the plugins). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export { REPO };
