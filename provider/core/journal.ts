/**
 * The create journal: what each run's creates set out to make and made, so that `pulumi-wpengine recover`
 * (provider/recover/) takes back exactly the objects a killed run created, and nothing another stack or a
 * person made (docs/recover.md).
 *
 * One JSON line per step, appended and fsynced before the create goes on (a SIGKILL loses at most the line
 * being written, which the reader skips): `sending` just before the create's first write leaves (a create
 * that finds its object already there and writes nothing leaves no `sending`, so a kill during its look
 * never makes another's object look like the killed run's), in `.wpengine/journal.jsonl` beside the project (the plugin's
 * working directory), or in `$WPE_JOURNAL_DIR`. A line holds the run (the `pulumi` process's pid and host),
 * the kind, its identity (the inputs whose change replaces it: a domain's install and name, a user's
 * account and email) and, once made, the id: never a credential or any other input.
 *
 * While `pulumi-wpengine recover` runs its `pulumi up`, `WPE_RECOVER_PLAN` names a file listing what that
 * run may adopt ({@link RecoveryPlan}); every other create still refuses what it finds.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The identity of one object: the kind and the inputs that name it. */
export interface Identity {
  kind: string;
  key: Record<string, string | number | boolean>;
}

/**
 * One journal line. `sending`: a create began (written before any request); `made`: it ended with this id;
 * `failed`: it ended without an object of its own (refused, or "already exists"); `recovered`: the
 * recovery's `up` took the object as this stack's; `deleted`: a delete of the stack removed it (or found it
 * gone); `cleared`: a recovery of the stack ended, and the lines
 * before it are settled.
 */
export interface JournalEntry extends Identity {
  t: string;
  /** The pid of the `pulumi` process whose run this is. */
  run: number;
  host: string;
  /** The stack, when the run's command line names it (`--stack`); a line without one counts for any stack. */
  stack?: string;
  step: "sending" | "made" | "failed" | "recovered" | "deleted" | "cleared";
  id?: string;
  /** The recovery (its plan's token) a `recovered` line belongs to. */
  recovery?: string;
}

/** What the recovery's `up` may adopt: each identity, with the id the killed run recorded when it knew it. */
export interface RecoveryPlan {
  token: string;
  adopt: (Identity & { id?: string })[];
}

export const JOURNAL_FILE = "journal.jsonl";

/** The journal's directory: `$WPE_JOURNAL_DIR`, or `.wpengine` in `dir` (the project). */
export function journalDir(dir = process.cwd()): string {
  return process.env["WPE_JOURNAL_DIR"] || path.join(dir, ".wpengine");
}

/** The identity of a create: the kind and its identity inputs that have a plain value. */
export function identityOf(
  kind: string,
  replaceOn: readonly string[],
  inputs: Record<string, unknown>,
): Identity {
  const key: Identity["key"] = {};
  for (const k of [...replaceOn].sort()) {
    const v = inputs[k];
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") key[k] = v;
  }
  return { kind, key };
}

/** One text per identity (names compare without case, as the service does). */
export function identityText(i: Identity): string {
  const parts = Object.keys(i.key)
    .sort()
    .map((k) => `${k}=${String(i.key[k]).toLowerCase()}`);
  return `${i.kind} ${parts.join(" ")}`;
}

/**
 * The `pulumi` process this provider serves: the nearest ancestor named `pulumi` (Linux: the dynamic
 * provider runs under a shell script); `undefined` when there is none (the provider called in-process, as
 * tests do: nothing to journal). Without `/proc`, the parent.
 */
export function runPid(): number | undefined {
  if (!fs.existsSync("/proc/self/stat")) return process.ppid;
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (comm === "pulumi") return pid;
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      break;
    }
  }
  return undefined;
}

/** The stack a `pulumi` command line names (`--stack NAME`, `--stack=NAME`, `-s NAME`), if any. */
export function stackOfCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--stack" || a === "-s") return argv[i + 1];
    if (a.startsWith("--stack=")) return a.slice("--stack=".length);
  }
  return undefined;
}

function stackOfRun(pid: number): string | undefined {
  try {
    return stackOfCommand(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"));
  } catch {
    return undefined;
  }
}

let warned = false;
let run: { pid: number; stack?: string } | null | undefined;

/** Appends one line and fsyncs it. A journal that cannot be written is said once, and the create goes on. */
export function record(
  step: JournalEntry["step"],
  identity: Identity,
  more: Partial<JournalEntry> = {},
): void {
  if (process.env["WPE_JOURNAL"] === "off") return;
  if (run === undefined) {
    const pid = runPid();
    const stack = pid === undefined ? undefined : stackOfRun(pid);
    run = pid === undefined ? null : { pid, ...(stack ? { stack } : {}) };
  }
  if (!run) return;
  append({
    t: new Date().toISOString(),
    run: run.pid,
    host: os.hostname(),
    ...(run.stack ? { stack: run.stack } : {}),
    step,
    ...identity,
    ...more,
  });
}

/** Appends one line to the journal in `dir` and fsyncs it (said once when it cannot be written). */
export function append(entry: JournalEntry, dir = journalDir()): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(path.join(dir, JOURNAL_FILE), "a", 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(entry)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    if (warned) return;
    warned = true;
    process.stderr.write(
      `wpengine: the create journal ${path.join(dir, JOURNAL_FILE)} cannot be written (${(err as Error).message}): ` +
        "after a killed run, pulumi-wpengine recover cannot tell what this run created\n",
    );
  }
}

/** Every whole line of the journal in `dir` (a line torn by a kill is skipped). */
export function readJournal(dir = journalDir()): JournalEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, JOURNAL_FILE), "utf8");
  } catch {
    return [];
  }
  const out: JournalEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as JournalEntry;
      if (typeof e.kind === "string" && typeof e.run === "number" && e.key && typeof e.step === "string")
        out.push(e);
    } catch {
      // torn by a kill
    }
  }
  return out;
}

let plan: { token: string; byText: Map<string, { id?: string }> } | null | undefined;

/** The recovery plan of this process (`WPE_RECOVER_PLAN`), or `null` outside a recovery. */
export function recoveryPlan(): { token: string; byText: Map<string, { id?: string }> } | null {
  if (plan !== undefined) return plan;
  const file = process.env["WPE_RECOVER_PLAN"];
  if (!file) {
    plan = null;
    return plan;
  }
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as RecoveryPlan;
  plan = {
    token: parsed.token,
    byText: new Map(parsed.adopt.map((a) => [identityText(a), a.id === undefined ? {} : { id: a.id }])),
  };
  return plan;
}

/** Forgets the plan read (tests). */
export function resetRecoveryPlan(): void {
  plan = undefined;
}

/** Whether an error proves the create made nothing of its own: the object already existed, or a 4xx refusal. */
function madeNothing(err: unknown): boolean {
  const e = err as { alreadyExists?: unknown; status?: unknown; method?: unknown } | null;
  if (e?.alreadyExists === true) return true;
  return typeof e?.status === "number" && e.status >= 400 && e.status < 500 && e.status !== 408;
}

/** The `sending` of the create the current call serves (lifecycle.ts runs each create's work in it). */
const creating = new AsyncLocalStorage<() => void>();

/** The `sending` of the create this call serves, if any: a batch takes each item's along (batch.ts). */
export const sendingOf = (): (() => void) | undefined => creating.getStore();

/** Before a write leaves (the sdk's `beforeWrite`): the `sending` of the create it serves, once. */
export function beforeWrite(): void {
  creating.getStore()?.();
}

/**
 * The journal's part in one create (lifecycle.ts): `run` does the create's work, recording `sending` before
 * its first write (`beforeWrite`), and `adopt` says whether the recovery
 * running now may adopt the object (`adopt`). `made`, `failed` record the outcome; `refused` words an
 * "already exists" that the recovery did not take.
 */
export function journalCreate(kind: string, replaceOn: readonly string[], inputs: Record<string, unknown>) {
  const identity = identityOf(kind, replaceOn, inputs);
  const current = recoveryPlan();
  const claim = current?.byText.get(identityText(identity));
  let sent = false;
  const sending = () => {
    if (sent) return;
    sent = true;
    record("sending", identity);
  };
  return {
    /** Runs the create's work; its first write records `sending` before it leaves. */
    run: <T>(fn: () => Promise<T>): Promise<T> => creating.run(sending, fn),
    /** The recovery adopts this create's object (the killed run's create of the same identity). */
    adopt: claim !== undefined,
    /**
     * Whether the object live under this identity (`liveId`, looked up before the create) is one the
     * recovery must not take: the killed run recorded another id. Then the error that says so.
     */
    foreign(liveId: string | undefined): Error | undefined {
      if (claim?.id === undefined || liveId === undefined || claim.id.toLowerCase() === liveId.toLowerCase())
        return undefined;
      return new Error(
        `${identityText(identity)}: the interrupted run made id ${claim.id}, but the service now holds id ${liveId} ` +
          "under this identity: not taken by pulumi-wpengine recover (another stack or a person may manage it)",
      );
    },
    /** Records the object the create ended with (lifecycle.ts says an adoption to the user). */
    made(id: string): void {
      if (claim && current) record("recovered", identity, { id, recovery: current.token });
      else record("made", identity, { id });
    },
    /** A failed create: recorded when it proves nothing of its own was made; the error, reworded for a recovery. */
    failed(err: unknown): unknown {
      if (!madeNothing(err)) return err;
      record("failed", identity);
      if (!current || claim || (err as { alreadyExists?: unknown }).alreadyExists !== true) return err;
      return Object.assign(
        new Error(
          `${(err as Error).message}. Not taken by pulumi-wpengine recover: no create of this stack's interrupted ` +
            "run made it (another stack or a person may manage it)",
        ),
        { alreadyExists: true },
      );
    },
  };
}

/** Records a delete that removed the object (or found it gone): a recovery no longer claims that id. */
export function journalDeleted(
  kind: string,
  replaceOn: readonly string[],
  props: Record<string, unknown>,
  id: string,
): void {
  record("deleted", identityOf(kind, replaceOn, props), { id });
}
