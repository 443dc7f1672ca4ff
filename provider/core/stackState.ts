/**
 * The resources of this stack a targeted run leaves out (`--target`, `--exclude`): the engine neither checks
 * nor deletes them, so this process's claims (identity.ts) do not see them, yet one of them may hold the
 * object a resource of the run adopts or deletes (a rename taken over with `adopt` under `--target`). And a
 * new resource that finds its object on the service names the resource holding it in the state (one the
 * engine has not checked yet). Read once a process from the stack's state, by the run's own CLI
 * (`pulumi stack export`), only in such a run or on such a find.
 */
import { execFile } from "node:child_process";
import { readlinkSync } from "node:fs";
import { promisify } from "node:util";
import { describeClaimant } from "./identity";
import { currentRun, valuesOf } from "./journal";

type Held = { kind: string; id: string; claimant: string; urn: string };

/** The kind of a resource type of this package (`pulumi-nodejs:dynamic/wpengine:Domain`, `wpengine:index:Domain`). */
export function kindOfType(type: string): string | undefined {
  return /^(?:pulumi-nodejs:dynamic\/wpengine|wpengine:index):(\w+)$/.exec(type)?.[1];
}

/** A URN pattern of `--target` (`*` any run of characters) as a test. */
const matcher = (pattern: string) => {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^${pattern.split("*").map(literal).join(".*")}$`);
  return (urn: string) => re.test(urn);
};

/** Whether the run leaves a resource out, by its URN; `undefined` when the run is not targeted. */
export function leftOutBy(argv: readonly string[]): ((urn: string) => boolean) | undefined {
  const targets = valuesOf(argv, ["--target", "-t"]).map(matcher);
  const excludes = valuesOf(argv, ["--exclude"]).map(matcher);
  if (!targets.length && !excludes.length) return undefined;
  return (urn) => excludes.some((m) => m(urn)) || (targets.length > 0 && !targets.some((m) => m(urn)));
}

/** Whether this provider serves a targeted `pulumi` run. */
export const inTargetedRun = (): boolean => {
  const argv = currentRun()?.argv;
  return !!argv && leftOutBy(argv) !== undefined;
};

/** This package's resources in an exported state (`pulumi stack export`), those being deleted left out. */
export function heldInState(exported: unknown): Held[] {
  const resources = (exported as { deployment?: { resources?: unknown[] } })?.deployment?.resources;
  return (Array.isArray(resources) ? resources : []).flatMap((r) => {
    const { type, id, urn, outputs, inputs, delete: deleting } = (r ?? {}) as Record<string, unknown>;
    const kind = typeof type === "string" ? kindOfType(type) : undefined;
    if (!kind || typeof id !== "string" || !id || typeof urn !== "string" || deleting === true) return [];
    const named = [outputs, inputs].map((o) => (o as Record<string, unknown> | undefined)?.["__claimant"]);
    const claimant = named.find((c): c is string => typeof c === "string" && c !== "") ?? urn;
    return [{ kind, id: id.toLowerCase(), claimant, urn }];
  });
}

let state: Promise<Held[] | Error> | undefined;

/** The stack's state as the run's CLI exports it, once a process. */
function readState(pid: number, stack: string | undefined): Promise<Held[] | Error> {
  const args = ["stack", "export", ...(stack ? ["--stack", stack] : []), "--non-interactive"];
  state ??= (async () => {
    try {
      const cli = readlinkSync(`/proc/${pid}/exe`);
      const { stdout } = await promisify(execFile)(cli, args, { maxBuffer: 1 << 30, timeout: 120_000 });
      return heldInState(JSON.parse(stdout));
    } catch (err) {
      const last = (err as { stderr?: string }).stderr?.trim().split("\n").at(-1);
      return last ? new Error(last) : (err as Error);
    }
  })();
  return state;
}

/** The URNs of the other resources holding object `id` of `kind` that a targeted run leaves out, or why unread. */
export async function heldOutsideRun(kind: string, id: string, claimant: unknown): Promise<string[] | Error> {
  const run = currentRun();
  if (!run?.argv || !leftOutBy(run.argv)) return [];
  const held = await readState(run.pid, run.stack);
  return held instanceof Error ? held : othersIn(held, run.argv, kind, id, claimant);
}

/**
 * The claimants of the other resources of this stack's state that hold object `id` of `kind` (none outside a
 * `pulumi` run, or when the state cannot be read): read once a process, when a new resource finds its object.
 */
export async function heldInStack(kind: string, id: string, claimant: unknown): Promise<string[]> {
  const run = currentRun();
  const held = run ? await readState(run.pid, run.stack) : [];
  if (held instanceof Error) return [];
  return held
    .filter(
      (h) => h.kind === kind && h.id === id.toLowerCase() && h.claimant !== claimant && h.urn !== claimant,
    )
    .map((h) => h.claimant);
}

/** The URNs among `held` of the other resources holding object `id` of `kind` that the run of `argv` leaves out. */
export function othersIn(
  held: readonly Held[],
  argv: readonly string[],
  kind: string,
  id: string,
  claimant: unknown,
) {
  const leftOut = leftOutBy(argv);
  // A resource the run adopts or deletes is in the run, so one the run leaves out is another, whatever its
  // claim (a Node.js class's is its name, which a resource moved under a parent keeps). Only
  // `--target-dependents` takes in resources no --target names: there a resource of the same claim is this.
  const dependents = argv.includes("--target-dependents");
  const self = (h: Held) => h.claimant === claimant && (h.urn === claimant || dependents);
  return held
    .filter((h) => h.kind === kind && h.id === id.toLowerCase() && !!leftOut?.(h.urn) && !self(h))
    .map((h) => h.urn);
}

/** The resources `urns` of `kind`, in words, as holding an object too while this targeted run leaves them out. */
export const holdingToo = (kind: string, urns: readonly string[]): string =>
  `${urns.map((u) => describeClaimant(kind, u)).join(", ")} of this stack ${urns.length > 1 ? "hold" : "holds"} ` +
  `it too, and this targeted run (--target, --exclude) leaves ${urns.length > 1 ? "them" : "it"} out`;
