/**
 * Runs a compiled JS Pulumi program in a child `node` process under `pulumi.runtime.setMocks` (see
 * `runner.ts`), answering each resource registration with a callback of the parent.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { resolvePulumiRoot } from "./plugin";
import {
  type ChildMessage,
  type ProgramOutput,
  type RegisteredReply,
  type RegisterMessage,
  RUNNER_SOURCE,
  RUNNER_SPEC_ENV,
  type RunnerSpec,
} from "./runner";

export interface RunProgramOptions {
  programDir: string;
  program: string;
  project: string;
  stack: string;
  preview: boolean;
  /** Stack config the program sees through `new pulumi.Config()` (`PULUMI_CONFIG`). */
  config: Record<string, string>;
  /** Config keys marked secret for the program (`PULUMI_CONFIG_SECRET_KEYS`). */
  secretConfigKeys: string[];
  env?: Record<string, string | undefined>;
  timeoutMs: number;
  /** Answers one registration: the id and the state, or throws to fail it. */
  onRegister: (msg: RegisterMessage) => Promise<{ id?: string; state: Record<string, unknown> }>;
  /** Each line the program printed (stdout and stderr). */
  onOutput?: (line: string, stream: "stdout" | "stderr") => void;
}

export interface ProgramResult {
  outputs: Record<string, ProgramOutput>;
  /** Errors the program raised (uncaught, rejected, failed registrations as the program saw them). */
  errors: string[];
  /** Everything the program printed. */
  output: string[];
  exitCode: number | null;
  durationMs: number;
}

/** Runs the program once; resolves when it has finished and every registration was answered. */
export function runProgram(opts: RunProgramOptions): Promise<ProgramResult> {
  const started = Date.now();
  const programDir = path.resolve(opts.programDir);
  const spec: RunnerSpec = {
    programDir,
    program: opts.program,
    project: opts.project,
    stack: opts.stack,
    preview: opts.preview,
    fallbackPulumiRoot: resolvePulumiRoot(programDir),
  };
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...opts.env,
    [RUNNER_SPEC_ENV]: JSON.stringify(spec),
    PULUMI_CONFIG: JSON.stringify(opts.config),
    PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(opts.secretConfigKeys),
    PULUMI_NODEJS_PROJECT: opts.project,
    PULUMI_NODEJS_STACK: opts.stack,
  };
  // The SDK's own warnings (a deprecated `sys`, experimental WASI) are noise in a program's output.
  const quiet = ["--disable-warning=DEP0025", "--disable-warning=ExperimentalWarning"];
  const child = spawn(process.execPath, [...quiet, "-e", RUNNER_SOURCE], {
    cwd: programDir,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const output: string[] = [];
  const collect = (stream: "stdout" | "stderr") => {
    let buf = "";
    return (d: Buffer) => {
      buf += d.toString();
      let nl = buf.indexOf("\n");
      while (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (output.length < 2_000) output.push(line);
        opts.onOutput?.(line, stream);
        nl = buf.indexOf("\n");
      }
    };
  };
  child.stdout?.on("data", collect("stdout"));
  child.stderr?.on("data", collect("stderr"));

  return new Promise<ProgramResult>((resolve, reject) => {
    let done: { outputs: Record<string, ProgramOutput>; errors: string[] } | undefined;
    let inFlight = 0;
    let exited: number | null | undefined;
    let settled = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish(new Error(`the program did not finish within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    const finish = (err?: Error) => {
      if (settled) return;
      if (!err && (exited === undefined || inFlight > 0)) return;
      settled = true;
      clearTimeout(timer);
      if (err) return reject(err);
      if (!done) {
        return reject(
          new Error(`the program runner exited (code ${exited}) without a result:\n${output.join("\n")}`),
        );
      }
      resolve({
        outputs: done.outputs,
        errors: done.errors,
        output,
        exitCode: exited ?? null,
        durationMs: Date.now() - started,
      });
    };
    child.on("error", (e) => finish(new Error(`cannot start the program runner: ${e.message}`)));
    // 'close', not 'exit': it comes after the child's stdio AND its IPC channel are drained, so a final
    // "done" message still in flight when the process exits is read first ('exit' plus a setImmediate
    // could settle before it: "exited (code 0) without a result").
    child.on("close", (code) => {
      exited = code;
      finish();
    });
    child.on("message", (raw: ChildMessage) => {
      if (raw.t === "done") {
        done = { outputs: raw.outputs, errors: raw.errors };
        return;
      }
      if (raw.t !== "register") return;
      inFlight++;
      opts
        .onRegister(raw)
        .then(
          (r): RegisteredReply => ({
            t: "registered",
            seq: raw.seq,
            ...(r.id !== undefined ? { id: r.id } : {}),
            state: r.state,
          }),
          (e: unknown): RegisteredReply => ({
            t: "registered",
            seq: raw.seq,
            error: e instanceof Error ? e.message : String(e),
          }),
        )
        .then((reply) => {
          inFlight--;
          if (child.connected) child.send(reply);
          finish();
        });
    });
  });
}
