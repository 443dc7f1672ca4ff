/**
 * Which objects the stacks of the current Pulumi backend already hold, so the importer does not write them
 * into a second program (whose adopting `up` would make two stacks own one object: destroying either would
 * delete it under the other). Read with the `pulumi` CLI the user is logged in with: `pulumi stack ls --all
 * --json`, then `pulumi stack export --stack <org/project/stack>` of each, a few at a time. Both shapes of
 * this package's resources count: the Node.js classes (`pulumi-nodejs:dynamic/wpengine:<Kind>`) and the
 * executable provider's (`wpengine:index:<Kind>`), matched by kind and id. Stacks of another backend are
 * not seen.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { kindOfType } from "../provider/core/stackState";

/** How many `pulumi stack export` run at once. */
export const EXPORTS_AT_ONCE = 4;

/** The objects held, `<Kind>:<id, lower case>` → the fully qualified names of the stacks holding it (`a, b`). */
export type Held = Map<string, string>;

/** `stack a` or `stacks a, b`, as the messages name what holds an object. */
export const stacksText = (stacks: string): string =>
  stacks.includes(", ") ? `stacks ${stacks}` : `stack ${stacks}`;

/** The key of an object in {@link Held}. */
export const heldKey = (kind: string, id: string): string => `${kind}:${id.toLowerCase()}`;

/**
 * The kinds whose id is not the object's alone: one person is an AccountUser of the same id on each of
 * their accounts, so a stack holding them on one account does not hold them on another. Keyed
 * `<parent>/<id>` when the state names the parent (`accountId` in its outputs or inputs).
 */
const PARENT: Record<string, string> = { AccountUser: "accountId" };

/** The keys an object of `kind`, `id` (and `fields`, its import id's parts) may be held under, most precise first. */
export function heldKeys(
  kind: string,
  id: string,
  fields: Record<string, string | undefined> = {},
): string[] {
  const parent = PARENT[kind] && fields[PARENT[kind]];
  return parent ? [heldKey(kind, `${parent}/${id}`), heldKey(kind, id)] : [heldKey(kind, id)];
}

/** The result of the check: what is held, or why the stacks could not be read (the import refuses). */
export type HeldCheck = { held: Held; stacks: number; unread: string[] } | { skipped: string };

/**
 * The objects of this package in one exported state (`pulumi stack export`), added to `held` as held by
 * `stack`. A resource being deleted, or a pending delete's old copy, does not count.
 */
export function heldIn(exported: unknown, stack: string, held: Held = new Map()): Held {
  const resources = (exported as { deployment?: { resources?: unknown[] } } | undefined)?.deployment
    ?.resources;
  for (const r of Array.isArray(resources) ? resources : []) {
    const {
      type,
      id,
      delete: deleting,
      outputs,
      inputs,
    } = (r ?? {}) as { type?: unknown; id?: unknown; delete?: unknown; outputs?: unknown; inputs?: unknown };
    if (typeof type !== "string" || typeof id !== "string" || !id || deleting === true) continue;
    const kind = kindOfType(type);
    if (!kind) continue;
    const parentField = PARENT[kind];
    const parent = parentField
      ? [outputs, inputs]
          .map((o) => (o as Record<string, unknown> | undefined)?.[parentField])
          .find((v): v is string => typeof v === "string" && v !== "")
      : undefined;
    const key = heldKeys(kind, id, parentField && parent ? { [parentField]: parent } : {})[0]!;
    // Two stacks holding one object own it twice already: both are named.
    const before = held.get(key);
    if (before === undefined) held.set(key, stack);
    else if (!before.split(", ").includes(stack)) held.set(key, `${before}, ${stack}`);
  }
  return held;
}

/** The project of a fully qualified stack name (`org/project/stack`), or `undefined` for a short one. */
export const projectOf = (stack: string): string | undefined => {
  const parts = stack.split("/");
  return parts.length === 3 ? parts[1] : undefined;
};

type Ran = { code: number; stdout: string; stderr: string };

/** Runs `pulumi` in `cwd`; rejects only when it cannot be started (not on PATH). */
function pulumi(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = { stdout: "", stderr: "" };
    child.stdout.on("data", (b: Buffer) => {
      out.stdout += b;
    });
    child.stderr.on("data", (b: Buffer) => {
      out.stderr += b;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, ...out }));
  });
}

/** The last line of what a failed `pulumi` said, without its `error: `. */
const said = (r: Ran) =>
  (r.stderr || r.stdout)
    .trim()
    .split("\n")
    .map((l) => l.trim().replace(/^error:\s*/i, ""))
    .filter(Boolean)
    .at(-1) ?? `exit ${r.code}`;

/**
 * Reads every stack of the current backend (`pulumi stack ls --all`) and what each holds. The stacks of
 * `ownProject` (the project `--out` already holds, regenerated with `--force`: its stacks hold its own
 * objects) are not another owner and are not read. Never throws: a missing CLI or login is a `skipped`
 * (which the importer refuses, unless `--include-managed`).
 */
export async function heldByStacks(
  env: NodeJS.ProcessEnv,
  ownProject?: string,
  atOnce = EXPORTS_AT_ONCE,
): Promise<HeldCheck> {
  // Outside any project: `stack ls --all` names every stack fully (inside one, its own by the short name).
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-held-"));
  try {
    let ls: Ran;
    try {
      ls = await pulumi(["stack", "ls", "--all", "--json"], env, cwd);
    } catch (err) {
      return { skipped: `no pulumi CLI to run (${(err as Error).message})` };
    }
    if (ls.code !== 0) return { skipped: `pulumi stack ls failed: ${said(ls)}` };
    let listed: { name?: unknown }[];
    try {
      listed = JSON.parse(ls.stdout) as { name?: unknown }[];
    } catch {
      return { skipped: "pulumi stack ls --json printed no JSON" };
    }
    const names = (Array.isArray(listed) ? listed : [])
      .map((s) => s?.name)
      .filter((n): n is string => typeof n === "string" && n !== "")
      .filter((n) => ownProject === undefined || projectOf(n) !== ownProject);
    const exported: (unknown | Ran)[] = new Array(names.length);
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const i = next++;
        const r = await pulumi(["stack", "export", "--stack", names[i]!], env, cwd);
        if (r.code !== 0) {
          exported[i] = r;
          continue;
        }
        try {
          exported[i] = JSON.parse(r.stdout);
        } catch {
          exported[i] = { ...r, code: 1, stderr: "printed no JSON" };
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(atOnce, names.length) }, worker));
    } catch (err) {
      return { skipped: `no pulumi CLI to run (${(err as Error).message})` };
    }
    const held: Held = new Map();
    const unread: string[] = [];
    for (const [i, name] of names.entries()) {
      const e = exported[i] as Partial<Ran> & { deployment?: unknown };
      if (typeof e?.code === "number" && e.deployment === undefined)
        unread.push(`${name} (pulumi stack export failed: ${said(e as Ran)})`);
      else heldIn(e, name, held);
    }
    return { held, stacks: names.length, unread };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}
