/**
 * The create journal, by which `pulumi-wpengine recover` takes back exactly what a killed run created
 * (docs/recover.md): one JSON line per step, the lines of one turn in one write (a kill tears at most the
 * last), holding the run, the kind, its identity and the id, never a credential or another input.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { mayHaveActed } from "../../sdk";
import { procStat } from "./watchdog";
import type { Props } from "./wire";

/** The identity of one object: the kind and the inputs that name it. */
export interface Identity {
  kind: string;
  key: Record<string, string | number | boolean>;
}

/**
 * One journal line: `sending` before a create's first write (a create that writes nothing leaves none, so
 * another's object never looks like the killed run's), `made` its id, `failed` nothing of its own,
 * `recovered` taken by a recovery, `deleted` removed (or found gone), `cleared` the lines before are settled.
 */
export interface JournalEntry extends Identity {
  t: string;
  /** The pid of the `pulumi` process whose run this is. */
  run: number;
  host: string;
  /** The stack the run's command line names (`--stack`), else the project's selected one; a line without one counts only as the killed run's. */
  stack?: string;
  /** The run's pulumi command (`up`, `destroy`, `refresh`, ...), when its command line could be read. */
  command?: string;
  step: "sending" | "made" | "failed" | "recovered" | "deleted" | "cleared";
  id?: string;
  /** The recovery (its plan's token) a `recovered` line belongs to. */
  recovery?: string;
}

const JOURNAL_FILE = "journal.jsonl";

export const journalDir = (dir = process.cwd()): string =>
  process.env["WPE_JOURNAL_DIR"] || path.join(dir, ".wpengine");

/** The inputs that name a kind's object: its identity's (ownership.md), else (an action) what replaces it. */
export const identityFields = (def: {
  identity?: { fields: readonly string[] };
  replaceOn: readonly string[];
}) => def.identity?.fields ?? def.replaceOn;

/** The identity of a create: the kind and its identity inputs (`fields`) that have a plain value. */
export function identityOf(kind: string, fields: readonly string[], inputs: Props): Identity {
  const key: Identity["key"] = {};
  for (const k of [...fields].sort()) {
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

type Run = { pid: number; stack?: string; command?: string; argv?: readonly string[] };

/** The nearest `pulumi` ancestor, its stack and command (the dynamic provider runs under `sh`); no `/proc`: the parent. */
function thisRun(): Run | null {
  if (!fs.existsSync("/proc/self/stat")) return { pid: process.ppid };
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    const stat = procStat(pid);
    if (stat?.name === "pulumi") {
      const argv = readText(`/proc/${pid}/cmdline`)?.split("\0");
      if (!argv) return { pid };
      const stack = stackOfCommand(argv) ?? selectedStack(process.cwd(), process.env, stat.startedAt);
      return { pid, stack, command: commandOf(argv), argv };
    }
    if (!stat) break;
    pid = stat.parent;
  }
  return null;
}

/** The values of `flags` on a command line (`--target X`, `--target=X`, `-t X`). */
export function valuesOf(argv: readonly string[], flags: readonly string[]): string[] {
  return argv.flatMap((a, i) => {
    const long = flags.find((f) => f.startsWith("--") && a.startsWith(`${f}=`));
    if (long) return [a.slice(long.length + 1)];
    return flags.includes(a) && argv[i + 1] !== undefined ? [argv[i + 1]!] : [];
  });
}

/** The stack a `pulumi` command line names (`--stack NAME`, `--stack=NAME`, `-s NAME`), if any. */
export const stackOfCommand = (argv: readonly string[]): string | undefined =>
  valuesOf(argv, ["--stack", "-s"])[0];

/**
 * The stack `pulumi stack select` chose for the project in `dir` (a run naming none runs it), as the CLI
 * keeps it: `$PULUMI_HOME/workspaces/<project>-<sha1 of Pulumi.yaml's path>-workspace.json`, by backend.
 * None when that file changed after the run started (`startedAt`): another stack was selected meanwhile.
 */
export function selectedStack(dir = process.cwd(), env = process.env, startedAt = Number.POSITIVE_INFINITY) {
  try {
    let root = path.resolve(dir);
    while (!fs.existsSync(path.join(root, "Pulumi.yaml")) && path.dirname(root) !== root)
      root = path.dirname(root);
    const file = path.join(root, "Pulumi.yaml");
    const project = env["PULUMI_PROJECT"];
    if (!project || !fs.existsSync(file)) return undefined;
    const home = env["PULUMI_HOME"] || path.join(os.homedir(), ".pulumi");
    const sha = createHash("sha1").update(file).digest("hex");
    const workspace = path.join(home, "workspaces", `${project}-${sha}-workspace.json`);
    if (fs.statSync(workspace).mtimeMs > startedAt + 20) return undefined;
    const { stacks = {}, stack } = JSON.parse(fs.readFileSync(workspace, "utf8")) as Workspace;
    const credentials = jsonOf(readText(path.join(home, "credentials.json"))) as { current?: string } | null;
    const backend = env["PULUMI_BACKEND_URL"] ?? credentials?.current;
    const all = Object.values(stacks);
    const named = (backend && stacks[backend]) || (all.length === 1 ? all[0] : stack);
    return typeof named === "string" ? named.split("/").pop() : undefined;
  } catch {
    return undefined; // no workspace file: the line names no stack
  }
}

type Workspace = { stacks?: Record<string, string>; stack?: string };

/** The text of `file`, else none (unreadable). */
function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `json` parsed, else none (none, or not JSON). */
export function jsonOf(json: string | undefined): unknown {
  try {
    return JSON.parse(json ?? "");
  } catch {
    return undefined;
  }
}

const COMMANDS = ["up", "destroy", "refresh", "import", "preview", "watch", "do"];
const ALIASES: Record<string, string> = { update: "up", down: "destroy" };

/** The pulumi command a command line runs (`up` for `pulumi update`, `destroy` for `pulumi down`), if any. */
export function commandOf(argv: readonly string[]): string | undefined {
  const named = argv.slice(1).map((a) => (Object.hasOwn(ALIASES, a) ? ALIASES[a]! : a));
  return named.find((a) => COMMANDS.includes(a));
}

let warned = false;
let run: Run | null | undefined;

/** The `pulumi` run this provider serves (its pid, stack, command and command line), if any. */
export function currentRun(): Run | null {
  if (run === undefined) run = thisRun();
  return run;
}

/** Whether this provider runs under `pulumi do`, which reads no stack (its advice names variables and flags). */
export const underPulumiDo = (): boolean => currentRun()?.command === "do";

/** Appends one line for this run; none outside a `pulumi` run, nor under `pulumi do` (nothing to recover). */
function record(step: JournalEntry["step"], identity: Identity, more: Partial<JournalEntry> = {}): void {
  if (process.env["WPE_JOURNAL"] === "off" || underPulumiDo() || !run) return;
  const dir = journalDir();
  const line = {
    t: new Date().toISOString(),
    run: run.pid,
    host: os.hostname(),
    stack: run.stack, // left out of the line when the command names none
    command: run.command,
    step,
    ...identity,
    ...more,
  };
  // Written with the other lines of this turn (the creates one bulk call answered): one write for all.
  if (pending.size === 0) queueMicrotask(flushJournal);
  pending.set(dir, [...(pending.get(dir) ?? []), line]);
}

/** Lines recorded and not yet written, by journal directory. */
const pending = new Map<string, JournalEntry[]>();
/** Journals written since their last fsync, and whether an fsync of them is under way. */
const unsynced = new Set<string>();
let syncing = false;

/**
 * Writes the lines recorded so far, one write per journal, before a write leaves (`beforeWrite`) and before
 * the calls that recorded them answer. A `sending` is fsynced before this returns (on disk before its write
 * leaves); the other lines are fsynced without holding the plugin's only thread (1.3 ms an fsync here, one
 * per delete of a destroy): a killed process loses nothing written, only a machine's crash could.
 */
function flushJournal(): void {
  for (const [dir, lines] of pending) {
    pending.delete(dir);
    const sending = lines.some((l) => l.step === "sending");
    append(lines, dir, sending);
  }
  syncLater();
}

/** fsyncs every journal written since its last fsync, off the plugin's thread, one round at a time. */
function syncLater(): void {
  if (syncing || unsynced.size === 0) return;
  syncing = true;
  const files = [...unsynced].map((dir) => path.join(dir, JOURNAL_FILE));
  unsynced.clear();
  let left = files.length;
  const done = () => {
    if (--left > 0) return;
    syncing = false;
    syncLater();
  };
  for (const file of files)
    fs.open(file, "r", (err, fd) => (err ? done() : fs.fsync(fd, () => fs.close(fd, done))));
}

/** Appends lines to the journal in `dir`, fsynced unless `durable` is false (said once when it cannot be written). */
export function append(entries: JournalEntry | JournalEntry[], dir = journalDir(), durable = true): void {
  try {
    const lines = [entries].flat().map((e) => `${JSON.stringify(e)}\n`);
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(path.join(dir, JOURNAL_FILE), "a", 0o600);
    try {
      fs.writeSync(fd, lines.join(""));
      if (durable) fs.fsyncSync(fd);
      else unsynced.add(dir);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    if (warned) return;
    warned = true;
    process.stderr.write(
      `wpengine: the create journal ${path.join(dir, JOURNAL_FILE)} cannot be written (${(err as Error).message}): after a killed run, pulumi-wpengine recover cannot tell what this run created\n`,
    );
  }
}

/** Records as the run of `pid` (tests: a vitest worker has no `pulumi` ancestor); `undefined` looks again. */
export function setJournalRun(pid: number | undefined): void {
  run = pid === undefined ? undefined : { pid };
}

/** Every whole line of the journal in `dir` (a line torn by a kill is skipped). */
export function readJournal(dir = journalDir()): JournalEntry[] {
  return (readText(path.join(dir, JOURNAL_FILE)) ?? "").split("\n").flatMap((line) => {
    const e = jsonOf(line) as JournalEntry | null | undefined; // none when blank, or torn by a kill
    return typeof e?.kind === "string" && typeof e.run === "number" && e.key && typeof e.step === "string"
      ? [e]
      : [];
  });
}

/** What the recovery's `up` may adopt: each identity, with the id the killed run recorded when it knew it. */
export type RecoveryPlan = { token: string; adopt: (Identity & { id?: string })[] };

let plan: { token: string; byText: Map<string, { id?: string }> } | null | undefined;

/** The recovery plan of this process (`WPE_RECOVER_PLAN`), or `null` outside a recovery. */
function recoveryPlan(): typeof plan {
  const file = process.env["WPE_RECOVER_PLAN"];
  if (plan === undefined && file) {
    const { token, adopt } = JSON.parse(fs.readFileSync(file, "utf8")) as RecoveryPlan;
    plan = { token, byText: new Map(adopt.map((a) => [identityText(a), a])) };
  }
  plan ??= null;
  return plan;
}

/**
 * Whether this process serves a recovery's `up`. Its creates decide alone: a check failure would stop the
 * whole `up` (the engine bails on one, `--continue-on-error` or not), and with it every other adoption.
 */
export const withinRecovery = (): boolean => recoveryPlan() !== null;

/** Forgets the plan read (tests). */
export function resetRecoveryPlan(): void {
  plan = undefined;
}

/** The create the current call serves (lifecycle.ts runs each create's work in it): its `sending`, its `holds`. */
const creating = new AsyncLocalStorage<{ sending: () => void; holds: (id: string) => void }>();

/** The `sending` of the create this call serves, if any: a batch takes each item's along (batch.ts). */
export const sendingOf = (): (() => void) | undefined => creating.getStore()?.sending;

/** Before a write leaves (the sdk's `beforeWrite`): the `sending` of the create it serves, once, on disk. */
export function beforeWrite(): void {
  creating.getStore()?.sending();
  flushJournal();
}

/**
 * The object the create this call serves made, as soon as its id is known (`afterCreate`, before a wait for
 * it to be ready): a run killed during the wait left that id, which a recovery adopts and no other.
 */
export const createHolds = (id: string): void => creating.getStore()?.holds(id);

/** The journal's part in one create (lifecycle.ts). */
export function journalCreate(kind: string, fields: readonly string[], inputs: Props) {
  const identity = identityOf(kind, fields, inputs);
  const current = recoveryPlan();
  const claim = current?.byText.get(identityText(identity));
  let sent = false;
  let held: string | undefined;
  const sending = () => {
    if (sent) return;
    sent = true;
    record("sending", identity);
  };
  // Only an object a write of this create made (an adoption writes after it finds the object).
  const holds = (id: string) => {
    if (!sent || held !== undefined || claim) return;
    held = id;
    record("made", identity, { id });
  };
  return {
    /** Runs the create's work; its first write records `sending` before it leaves. */
    run: <T>(fn: () => Promise<T>): Promise<T> => creating.run({ sending, holds }, fn),
    /** The recovery running now adopts this create's object (the killed run's create of the same identity). */
    adopt: claim !== undefined,
    /** The killed run's create was answered (it recorded the id): the object found is that one, not a guess. */
    answered: claim?.id !== undefined,
    /** The error when the object live under this identity is not the one the killed run recorded. */
    foreign(liveId: string | undefined): Error | undefined {
      if (claim?.id === undefined || liveId === undefined || claim.id.toLowerCase() === liveId.toLowerCase())
        return undefined;
      const named = Object.entries(identity.key).map(([k, v]) => `${k} ${v}`);
      return new Error(
        `the interrupted run made id ${claim.id}, but the service now holds id ${liveId} under this ${identity.kind}'s ${named.join(", ")}: not taken by pulumi-wpengine recover (another stack or a person may manage it). Rename this resource, or set adopt: true on it if that object is meant to be this stack's`,
      );
    },
    /** Records the object the create ended with: `adopted`, found (a recovery's adoption), else made. */
    made(id: string, adopted = false): void {
      if (claim && current && adopted) record("recovered", identity, { id, recovery: current.token });
      else if (held !== id) record("made", identity, { id });
    },
    /** Records a failure that proves nothing was made (an "already exists", a 4xx refusal); the error, reworded for a recovery. */
    failed(err: unknown): unknown {
      const e = err as { alreadyExists?: unknown; withinRecovery?: string; status?: unknown } | null;
      // An answer proves nothing was done as the sdk rules it (a 4xx); an error without one proves nothing.
      if (e?.alreadyExists !== true && !(typeof e?.status === "number" && !mayHaveActed(err))) return err;
      record("failed", identity);
      if (!current || claim || e?.alreadyExists !== true) return err;
      return new Error(
        `${e.withinRecovery ?? (err as Error).message}. Not taken by pulumi-wpengine recover: no create of this stack's interrupted run made it (another stack or a person may manage it)`,
      );
    },
  };
}

/** Records a delete that removed the object (or found it gone): a recovery no longer claims that id. */
export const journalDeleted = (kind: string, fields: readonly string[], props: Props, id: string): void =>
  record("deleted", identityOf(kind, fields, props), { id });
