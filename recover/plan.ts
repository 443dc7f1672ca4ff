/** What `pulumi-wpengine recover` decides from files alone: who holds the stack, what the killed run created. */
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { AFTER_A_CRASH } from "../provider/core/errors";
import { type Identity, identityOf, identityText, type JournalEntry } from "../provider/core/journal";
import { kindOfType } from "../provider/core/stackState";

export { kindOfType };

/** A file backend's lock on a stack (`.pulumi/locks/<org>/<project>/<stack>/<id>.json`). */
export interface Lock {
  file: string;
  pid: number;
  hostname: string;
  timestamp?: string;
}

/** The local path of a `file://` backend URL, or `undefined` for any other backend. */
export function fileBackendRoot(url: string, home = process.env["HOME"] ?? ""): string | undefined {
  if (!url.startsWith("file://")) return undefined;
  const rest = decodeURIComponent(url.slice("file://".length).replace(/\?.*$/, ""));
  if (rest === "~" || rest.startsWith("~/")) return path.join(home, rest.slice(1));
  return rest;
}

/** The names in a directory; none when it cannot be read. */
export function namesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The lock files of `stack` (of `project`) under a file backend's root. */
export function findLocks(root: string, project: string, stack: string): Lock[] {
  const base = path.join(root, ".pulumi", "locks");
  const dirs = [
    path.join(base, stack), // stacks of a backend without projects
    ...subdirs(base).map((org) => path.join(base, org, project, stack)),
  ];
  const locks: Lock[] = [];
  for (const dir of dirs) {
    for (const name of namesIn(dir).filter((n) => n.endsWith(".json"))) {
      const file = path.join(dir, name);
      try {
        const c = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
        if (typeof c.pid !== "number") continue;
        locks.push({
          file,
          pid: c.pid,
          hostname: typeof c.hostname === "string" ? c.hostname : "",
          ...(typeof c.timestamp === "string" ? { timestamp: c.timestamp } : {}),
        });
      } catch {
        // not a lock
      }
    }
  }
  return locks;
}

function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

/** The file backend's state files of a stack: plain, gzip or zstd (`PULUMI_SELF_MANAGED_STATE_GZIP`). */
const STATE_FILES = [".json", ".json.gz", ".json.zst"];

/**
 * An empty `.attrs` sidecar beside a stack's state file (`.pulumi/stacks/[<project>/]<stack>.json.attrs`).
 * The file backend (gocloud's fileblob) creates the sidecar, writes it, then renames the new state in: a
 * SIGKILL between the first two leaves it empty, and every later command fails with "failed to load
 * checkpoint: EOF" though the state is whole. `whole`: whether the state beside it parses, or why not.
 */
export interface EmptySidecar {
  file: string;
  stack: string;
  whole: true | string;
}

/** The empty sidecars of `project`'s stacks (only of `stack` when given) under a file backend's root. */
export function emptySidecars(root: string, project: string, stack?: string): EmptySidecar[] {
  const base = path.join(root, ".pulumi", "stacks");
  const only = stack?.split("/").pop();
  const found: EmptySidecar[] = [];
  for (const dir of [path.join(base, project), base]) {
    for (const name of namesIn(dir)) {
      const suffix = STATE_FILES.find((s) => name.endsWith(`${s}.attrs`));
      if (!suffix) continue;
      const stackName = name.slice(0, -`${suffix}.attrs`.length);
      if (only !== undefined && stackName !== only) continue;
      const file = path.join(dir, name);
      try {
        if (!fs.statSync(file).isFile() || fs.statSync(file).size !== 0) continue;
      } catch {
        continue;
      }
      found.push({ file, stack: stackName, whole: stateParses(file.slice(0, -".attrs".length)) });
    }
  }
  return found;
}

/**
 * Deletes the empty sidecars of `stack` whose state is whole (the engine then reads the state without
 * one) and returns them; throws, deleting nothing, when a state beside an empty sidecar does not parse.
 */
export function repairSidecars(root: string, project: string, stack: string): string[] {
  const empty = emptySidecars(root, project, stack);
  for (const s of empty)
    if (s.whole !== true)
      throw new Error(
        `the killed run left ${s.file} empty, and ${s.whole}: compare the state with its .bak, then delete ` +
          `the empty sidecar by hand and run ${AFTER_A_CRASH} again`,
      );
  for (const s of empty) fs.rmSync(s.file);
  return empty.map((s) => s.file);
}

/** Whether a state file reads as a whole checkpoint (`true`), or why not. */
function stateParses(file: string): true | string {
  try {
    let bytes: Buffer = fs.readFileSync(file);
    if (file.endsWith(".gz")) bytes = zlib.gunzipSync(bytes);
    if (file.endsWith(".zst")) {
      const unzstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
      if (!unzstd) return "this Node.js cannot read zstd (Node.js 22.15 or later can)";
      bytes = unzstd(bytes);
    }
    const state = JSON.parse(bytes.toString("utf8")) as { checkpoint?: unknown } | null;
    return state && typeof state === "object" && "checkpoint" in state ? true : "it holds no checkpoint";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT"
      ? "there is no state file beside it"
      : `the state file does not parse (${(err as Error).message})`;
  }
}

/**
 * An operation the state records as begun and never ended (`pending_operations`): `creating`, `deleting`,
 * `updating`, ... A SIGKILL leaves one for each step in flight; the engine keeps them until a refresh.
 */
export interface PendingOperation {
  op: string;
  urn: string;
  type: string;
  inputs: Record<string, unknown>;
}

/** A pending operation of type `creating`. */
export type PendingCreate = PendingOperation;

/** The pending operations of an exported state (`pulumi stack export`). */
export function pendingOperations(state: unknown): PendingOperation[] {
  type Op = { type?: string; resource?: { urn?: string; type?: string; inputs?: Record<string, unknown> } };
  const ops = (state as { deployment?: { pending_operations?: Op[] } })?.deployment?.pending_operations ?? [];
  return ops.flatMap(({ type, resource: r }) =>
    type && r?.urn && r.type ? [{ op: type, urn: r.urn, type: r.type, inputs: r.inputs ?? {} }] : [],
  );
}

/** The pending creates of an exported state. */
export function pendingCreates(state: unknown): PendingCreate[] {
  return pendingOperations(state).filter((o) => o.op === "creating");
}

/** The adoptions whose recorded id the state already holds are settled: a finished up leaves none. */
export function notHeld(adopt: Adoption[], state: unknown): Adoption[] {
  const resources =
    (state as { deployment?: { resources?: { id?: unknown }[] } })?.deployment?.resources ?? [];
  const held = new Set(resources.map((r) => (typeof r.id === "string" ? r.id.toLowerCase() : "")));
  return adopt.filter((a) => !a.id || !held.has(a.id.toLowerCase()));
}

/** The stack's last finished run, as its history records it (`update` is `up`). */
export interface LastRun {
  command: string;
  result?: string;
  endTime?: string;
}

/**
 * What the killed run was: `none` (no run was killed: no lock, no pending operation, nothing to adopt, and
 * the last run, if any, did not fail; one that failed, a run whose provider was killed, is named), `up`
 * (the recovery's `up` finishes it), the pulumi command its journal lines name (`destroy`, `refresh`, ...),
 * `deleting` (only deletes seen, its command unknown: a destroy, or an up that removes resources), or
 * `unknown` (a lock and no other trace). The killed run is the lock's pid, else the journal's latest run.
 * `failed`: the run is known only from the history, as one that failed (killed, or failed on its own).
 */
export function killedRun(
  lock: Pick<Lock, "pid" | "hostname"> | undefined,
  ops: PendingOperation[],
  lines: JournalEntry[],
  adopt: Adoption[],
  history?: LastRun,
): { what: string; pid?: number; failed?: true } {
  if (!lock && !ops.length && !adopt.length)
    return history?.result === "failed" ? { what: history.command, failed: true } : { what: "none" };
  const last = lines.at(-1);
  const pid = lock?.pid ?? last?.run;
  const host = lock ? lock.hostname : last?.host;
  const mine = lines.filter((e) => e.run === pid && e.host === host);
  const at = pid === undefined ? {} : { pid };
  const command = mine.find((e) => e.command)?.command;
  if (command) return { what: command, ...at };
  if (
    ops.some((o) => o.op !== "deleting") ||
    mine.some((e) => e.step !== "deleted") ||
    (!lock && adopt.length)
  )
    return { what: "up", ...at };
  return { what: ops.length || mine.length ? "deleting" : "unknown", ...at };
}

/**
 * The journal lines of `stack` a recovery weighs: those after its last `cleared` line. A line naming no stack
 * counts only as the killed run's (`killed`, the lock's pid; else the latest run here): another run's may be
 * another stack's of the same directory.
 */
export function unsettled(journal: JournalEntry[], stack: string, killed?: number): JournalEntry[] {
  const latest = killed ?? journal.findLast((e) => e.stack === undefined || e.stack === stack)?.run;
  const mine = journal.filter((e) => e.stack === stack || (e.stack === undefined && e.run === latest));
  let from = 0;
  mine.forEach((e, i) => {
    if (e.step === "cleared" && e.stack === stack) from = i + 1;
  });
  return mine.slice(from).filter((e) => e.step !== "cleared");
}

export interface Adoption extends Identity {
  /** The id the run recorded (its create answered), when it did. */
  id?: string;
  /** Where it comes from: a pending create of the state (its URN), or the journal only. */
  urn?: string;
}

/**
 * What the recovery may adopt: each identity whose create a run of the stack began (a pending create, or a
 * journal line) and did not see refused. The latest such run decides: its create answered with an id (only
 * that id is adopted), or never answered. A later run's "already exists" settles nothing for an earlier run
 * that made the object. With a journal (`journaled`), a pending create no line is left of sent no write (a
 * run journals a create just before its first write), so what holds its identity is another stack's.
 */
export function adoptions(
  pending: PendingCreate[],
  lines: JournalEntry[],
  fieldsOf: (kind: string) => readonly string[] | undefined,
  journaled = false,
): { adopt: Adoption[]; refused: string[] } {
  // The last settling step of each identity in each run ("made" is not unsettled by a later resend).
  const byRun = new Map<string, Map<string, JournalEntry>>();
  const identities = new Map<string, Identity>();
  for (const e of lines) {
    const text = identityText(e);
    identities.set(text, { kind: e.kind, key: e.key });
    const run = `${e.run}@${e.host}`;
    const last = byRun.get(run) ?? new Map<string, JournalEntry>();
    byRun.set(run, last);
    // A recovery's adoption settles as its create's "made" does.
    const step = e.step === "recovered" ? { ...e, step: "made" as const } : e;
    if (step.step !== "sending" || !last.has(text) || last.get(text)!.step === "sending")
      last.set(text, step);
  }
  const adopt = new Map<string, Adoption>();
  const refused = new Set<string>();
  const consider = (text: string, identity: Identity, urn?: string) => {
    // The latest run that did not see it refused decides: its create made this id, or never answered; or
    // it deleted the object, which no recovery then claims.
    const ends = [...byRun.values()].map((m) => m.get(text)).filter((e): e is JournalEntry => !!e);
    const end = ends.reverse().find((e) => e.step !== "failed");
    if (end?.step === "deleted" && !urn) return;
    if (ends.length && !end) {
      refused.add(text);
      return;
    }
    const prior = adopt.get(text);
    const at = urn ?? prior?.urn;
    const id = end?.step === "made" ? end.id : undefined;
    adopt.set(text, { ...identity, ...(id ? { id } : {}), ...(at ? { urn: at } : {}) });
  };
  for (const [text, identity] of identities) consider(text, identity);
  for (const p of pending) {
    const kind = kindOfType(p.type);
    const fields = kind ? fieldsOf(kind) : undefined;
    if (!kind || !fields) continue;
    const identity = identityOf(kind, fields, p.inputs);
    if (journaled && !identities.has(identityText(identity))) continue;
    consider(identityText(identity), identity, p.urn);
  }
  return { adopt: [...adopt.values()], refused: [...refused] };
}

/** The refusals a recovery reports: the killed run's own (an earlier, finished run's are already told). */
export function refusedBy(refused: string[], lines: JournalEntry[], pid: number | undefined): string[] {
  const its = new Set(lines.filter((e) => e.run === pid && e.step === "failed").map(identityText));
  return refused.filter((r) => its.has(r));
}
