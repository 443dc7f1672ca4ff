/** `pulumi-wpengine recover [--stack NAME]`: the way back after a `pulumi up` or `destroy` was killed mid-apply (docs/recover.md). */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { AFTER_A_CRASH } from "../provider/core/errors";
import {
  append,
  commandOf,
  identityFields,
  journalDir,
  type RecoveryPlan,
  readJournal,
} from "../provider/core/journal";
import { KINDS } from "../provider/registry";
import { alive, PROGRAM } from "../sdk/core/process";
import {
  adoptions,
  emptySidecars,
  fileBackendRoot,
  findLocks,
  killedRun,
  type LastRun,
  type Lock,
  namesIn,
  notHeld,
  pendingOperations,
  refusedBy,
  repairSidecars,
  unsettled,
} from "./plan";

export const USAGE = `usage: ${PROGRAM} recover [--stack NAME] [--force]

After a pulumi run was killed mid-apply (a cancelled CI job, a crash), in the project's directory:
refuses while a pulumi process still holds the stack; says so and changes nothing when no run was killed;
otherwise deletes the empty .attrs sidecar a kill can leave beside a file backend's state ("failed to load
checkpoint: EOF"), cancels the stack's lock and settles the state's pending operations (a refresh drops
the interrupted deletes that happened). After a killed \`pulumi up\` it runs \`pulumi up\` adopting exactly
the objects whose creates the killed run began (the state's pending creates and the create journal
.wpengine/journal.jsonl), listing each with its id; anything else that already exists is refused, not
adopted. After a killed \`pulumi destroy\` (or any other command) it runs nothing more and says what to
run again. See docs/recover.md.

  --stack NAME   the stack (default: the selected stack)
  --force        the lock names a process on another host: you have made sure it no longer runs
`;

type Ran = { code: number; stdout: string; stderr: string };
type RunOptions = { env?: NodeJS.ProcessEnv; show?: boolean };

/** Runs `pulumi`; `show` streams its output to the user as it comes. */
function pulumi(args: string[], opts: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = { stdout: "", stderr: "" };
    for (const stream of ["stdout", "stderr"] as const)
      child[stream].on("data", (b: Buffer) => {
        out[stream] += b;
        if (opts.show) process[stream].write(b);
      });
    child.on("error", (err) => reject(new Error(`cannot run pulumi: ${err.message}`)));
    child.on("close", (code) => resolve({ code: code ?? 1, ...out }));
  });
}

/** Runs `pulumi`, throwing with the end of its output when it fails. */
async function must(args: string[], opts: RunOptions = {}): Promise<Ran> {
  const r = await pulumi(args, opts);
  if (r.code !== 0)
    throw new Error(
      `pulumi ${args.join(" ")} exited ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ")}`,
    );
  return r;
}

/** What a live process is, for a message: `pid 123 (pulumi up --yes)`. */
export function describeProcess(pid: number): string {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return `pid ${pid} (${cmd || "?"})`;
  } catch {
    return `pid ${pid}`;
  }
}

/** The `pulumi` processes on this host working in `dir` (Linux: `/proc`), whatever the backend. */
export function pulumisIn(dir: string): number[] {
  const real = fs.realpathSync(dir);
  const found: number[] = [];
  for (const name of namesIn("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "pulumi") continue;
      if (/^\d+ \(.*\) Z /.test(stat)) continue; // a zombie
      if (fs.realpathSync(`/proc/${name}/cwd`) === real) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Why the stack must not be recovered now (a run still holds it), or `undefined`. */
export function holderOf(
  locks: Lock[],
  local: number[],
  force: boolean,
  host = os.hostname(),
): string | undefined {
  for (const lock of locks) {
    const since = lock.timestamp ? ` since ${lock.timestamp}` : "";
    if (lock.hostname === host && alive(lock.pid))
      return `a pulumi process still holds the stack: ${describeProcess(lock.pid)}${since}, lock ${lock.file}. Let it finish, or end it (kill ${lock.pid}), then run ${AFTER_A_CRASH} again`;
    if (lock.hostname !== host && !force)
      return `the stack's lock names pid ${lock.pid} on host ${lock.hostname}${since}, which this host cannot see. Make sure that run has ended, then run ${AFTER_A_CRASH} --force`;
  }
  if (local.length)
    return `a pulumi process is still running in this project: ${local.map(describeProcess).join(", ")}. Let it finish, or end it, then run ${AFTER_A_CRASH} again`;
  return undefined;
}

function projectName(dir: string): string {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    try {
      const m = /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readFileSync(path.join(dir, file), "utf8"));
      if (m) return m[1]!;
    } catch {
      // try the next
    }
  }
  throw new Error(`no Pulumi.yaml here: run ${AFTER_A_CRASH} in the project's directory`);
}

/**
 * The selected stack. When pulumi cannot name it because the killed run left its state's sidecar empty
 * ("failed to load checkpoint: EOF"), the one stack of the project with an empty sidecar is it.
 */
async function selectedStack(root: string | undefined, project: string): Promise<string> {
  const shown = await pulumi(["stack", "--show-name"]);
  if (shown.code === 0) return shown.stdout.trim();
  const why = (shown.stderr || shown.stdout).trim().split("\n").pop() ?? "";
  const broken = root && /failed to load checkpoint/.test(why) ? emptySidecars(root, project) : [];
  const stacks = [...new Set(broken.map((s) => s.stack))];
  if (stacks.length === 1) return stacks[0]!;
  throw new Error(
    `pulumi stack --show-name exited ${shown.code}: ${why}. Name the stack: ${AFTER_A_CRASH} --stack NAME`,
  );
}

const say = (line: string) => process.stdout.write(`${PROGRAM} recover: ${line}\n`);

export async function recover(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      stack: { type: "string", short: "s" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const dir = process.cwd();
  const project = projectName(dir);
  const backend =
    process.env["PULUMI_BACKEND_URL"] ||
    ((JSON.parse((await must(["whoami", "--json"])).stdout) as { url?: string }).url ?? "");
  const root = fileBackendRoot(backend);
  const stack = values.stack ?? (await selectedStack(root, project));
  const on = ["--stack", stack];

  const locks = root ? findLocks(root, project, stack) : [];
  const holder = holderOf(locks, pulumisIn(dir), values.force === true);
  if (holder) {
    process.stderr.write(`${PROGRAM} recover: ${holder}\n`);
    return 1;
  }
  for (const file of root ? repairSidecars(root, project, stack) : [])
    say(
      `deleted the empty ${file} the killed run left beside the state (the state is whole; pulumi failed on it with "failed to load checkpoint: EOF")`,
    );
  if (!root)
    say(
      `backend ${backend.replace(/\/\/[^@/]*@/, "//")} keeps its lock out of sight: only pulumi processes of this host in this directory were looked for`,
    );

  const exported = async () => JSON.parse((await must(["stack", "export", ...on])).stdout) as unknown;
  const state = await exported();
  const ops = pendingOperations(state);
  const pending = ops.filter((o) => o.op === "creating");
  const journal = readJournal(journalDir(dir));
  const lines = unsettled(journal, stack, locks[0]?.pid);
  const fieldsOf = (kind: string) => (KINDS[kind] ? identityFields(KINDS[kind]) : undefined);
  const found = adoptions(pending, lines, fieldsOf, journal.length > 0);
  const adopt = notHeld(found.adopt, state);
  const lock = locks[0];
  // With no trace of a killed run, the history tells a finished run from one that failed on its own
  // (the provider's process killed: the engine ended the run, leaving nothing pending).
  const last = lock || ops.length || adopt.length ? undefined : await lastRun(on);
  const killed = killedRun(lock, ops, lines, adopt, last);
  if (killed.what === "none") {
    const ran = last?.command
      ? `its last run, pulumi ${last.command}, ${last.result ?? "ended"}${last.endTime ? ` at ${last.endTime}` : ""}`
      : "no lock, no pending operation, no create the journal leaves unfinished";
    say(`stack ${stack}: nothing to recover, no run of it was killed (${ran}). Nothing was changed`);
    return 0;
  }
  // Known only from the history, the run may have failed on its own: not called killed.
  const theRun = killed.failed ? "the failed run" : "the killed run";
  const runs = new Set(lines.map((e) => `pid ${e.run} on ${e.host}`));
  const counts = [...new Set(ops.map((o) => o.op))].map(
    (op) => `${ops.filter((o) => o.op === op).length} ${op}`,
  );
  say(
    `stack ${stack}: ${lock ? `the killed run was pid ${lock.pid} on ${lock.hostname} (its lock)` : "no lock"}; ` +
      `${counts.length ? `pending operations in the state: ${counts.join(", ")}` : "no pending operation in the state"}; ` +
      `the create journal holds ${lines.length} line(s) of ${runs.size} run(s) of this stack since its last recovery`,
  );
  if (lock) await must(["cancel", "--yes", ...on], { show: true });
  // A refresh ends every pending operation; a targeted one reads only the objects they name, and drops
  // from the state those the service shows gone (an interrupted delete that happened).
  if (pending.length)
    await must(["refresh", "--yes", "--skip-preview", "--clear-pending-creates", ...on], { show: true });
  else if (ops.length) {
    await must(["refresh", "--yes", "--skip-preview", ...ops.flatMap((o) => ["--target", o.urn]), ...on], {
      show: true,
    });
    say(
      `settled the ${ops.length} interrupted operation(s): the refresh dropped from the state what the service shows gone`,
    );
  }
  const pendingLeft = async () => pendingOperations(await exported()).length;
  if (killed.what !== "up") {
    say(nextStep(killed.what, stack, killed.pid, killed.failed));
    settled(dir, stack);
    say(`stack ${stack}: ${await pendingLeft()} pending operation(s) left`);
    return 0;
  }
  if (!ops.length)
    say(
      "no pending operation is recorded (checkpoints skipped, PULUMI_SKIP_CHECKPOINTS, or a run killed before its first create): " +
        "adopting by natural key only what the journal says this stack's runs began",
    );
  for (const r of refusedBy(found.refused, lines, killed.pid))
    say(`not adopted: ${r} (${theRun}'s create of it was refused: not its object)`);

  const token = randomUUID();
  const planFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-recover-")), "plan.json");
  const plan: RecoveryPlan = {
    token,
    adopt: adopt.map(({ kind, key, id }) => ({ kind, key, ...(id ? { id } : {}) })),
  };
  fs.writeFileSync(planFile, JSON.stringify(plan), { mode: 0o600 });
  let up: Ran;
  try {
    // On past a create refused (another's object): the rest of what the killed run made is still adopted.
    up = await pulumi(["up", "--yes", "--skip-preview", "--continue-on-error", ...on], {
      env: { WPE_RECOVER_PLAN: planFile },
      show: true,
    });
  } finally {
    fs.rmSync(path.dirname(planFile), { recursive: true, force: true });
  }
  const recovered = readJournal(journalDir(dir)).filter(
    (e) => e.step === "recovered" && e.recovery === token,
  );
  say(
    `adopted ${recovered.length} object(s) ${theRun} created (or, where its create was never answered, most likely made)${recovered.length ? ":" : ""}`,
  );
  for (const e of recovered)
    process.stdout.write(`  ${e.kind} ${Object.values(e.key).join(" ")}: id ${e.id}\n`);
  if (up.code !== 0) {
    // The advice on "already exists" only where a create was refused so (its message names this command).
    const taken = /run `[^`\n]*recover`/.test(`${up.stdout}${up.stderr}`);
    process.stderr.write(
      `${PROGRAM} recover: the pulumi up exited ${up.code} (above); what it adopted stays in the state.${
        taken
          ? ` A create refused as "already exists" that ${theRun} did not make is another's object: remove or rename that resource, or take it over with adopt: true`
          : ""
      }\n`,
    );
    return 1;
  }
  settled(dir, stack);
  say(`stack ${stack}: ${await pendingLeft()} pending operation(s) left`);
  return 0;
}

/** Ends the stack's part of the journal: the next recovery weighs only later runs. */
function settled(dir: string, stack: string): void {
  const t = new Date().toISOString();
  append(
    { t, run: process.pid, host: os.hostname(), stack, step: "cleared", kind: "", key: {} },
    journalDir(dir),
  );
}

/** What to run after a killed run that recover does not finish itself: an `up` could undo a destroy. */
function nextStep(what: string, stack: string, pid?: number, failed?: true): string {
  const run = `${failed ? "the failed run" : "the interrupted run"}${pid === undefined ? "" : ` (pid ${pid})`}`;
  const again = (command: string) => `pulumi ${command} --stack ${stack}`;
  switch (what) {
    case "destroy":
      return (
        `${run} was a pulumi destroy. Run it again to finish it: ${again("destroy")}. ` +
        "Recover runs no up (it would re-create what the destroy deleted)"
      );
    case "deleting":
      return (
        `${run} was deleting (a pulumi destroy, or an up that removes resources). ` +
        `Run again the command that was killed: ${again("destroy")}, or ${again("up")}. Recover runs neither (an up would re-create what a destroy deleted)`
      );
    case "unknown":
      return (
        `${run} left no trace of what it did (no pending operation, no journal line): its lock is cancelled. ` +
        `Run again the command that was killed: ${again("up")}, or ${again("destroy")}`
      );
    default:
      return `${run} was a pulumi ${what}. Run it again: ${again(what)}`;
  }
}

/** The stack's last finished run (`pulumi stack history`), if it has one. */
async function lastRun(on: string[]): Promise<LastRun | undefined> {
  const r = await pulumi(["stack", "history", "--output", "json", "--page-size", "1", ...on]);
  try {
    const [u] = JSON.parse(r.stdout) as { kind?: string; result?: string; endTime?: string }[];
    if (!u?.kind) return undefined;
    const command = commandOf(["pulumi", u.kind]) ?? u.kind; // history's "update" is an up
    return {
      command,
      ...(u.result ? { result: u.result } : {}),
      ...(u.endTime ? { endTime: u.endTime } : {}),
    };
  } catch {
    return undefined; // no history to show
  }
}

export async function main(argv: string[] = process.argv.slice(3)): Promise<number> {
  try {
    return await recover(argv);
  } catch (err) {
    process.stderr.write(`${PROGRAM} recover: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof TypeError && /parseArgs|option/i.test(String(err)) ? 2 : 1;
  }
}
