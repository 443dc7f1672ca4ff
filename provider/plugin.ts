/**
 * The stable entry of the plugin side. Every serialized provider (see `thin.ts`) `require`s this file
 * by its package path, so it must keep its name and its exports for as long as old state exists:
 * - `configure` and `run(kind, method, ...)`, called by the closures of the first releases;
 * - the lifecycle methods below, called with `this` being `Object.create(<this module>)` plus an own
 *   `kind` (what the serialized provider is now: see `thin.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { profileOf, setStackConfig, withProfile } from "./core/config";
import { type CheckFailure, forEngine } from "./core/inputs";
import { stopWithParent } from "./core/watchdog";
import { quietHostTrace } from "./dynamic/hostErrors";
import { KINDS } from "./registry";

/** Keeps the `wpengine:*` stack config for this plugin process. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  stopWithParent();
  setStackConfig((key) => req.config.get(key));
}

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/** The methods whose errors Pulumi's dynamic-provider host also prints with their stack (see `hostErrors.ts`). */
const TRACED: ReadonlySet<Method> = new Set(["check", "diff", "read", "delete"]);

/** Runs one lifecycle method of a resource kind, found in the registry. */
export async function run(kind: string, method: Method, ...args: unknown[]): Promise<unknown> {
  const provider = Object.hasOwn(KINDS, kind) ? KINDS[kind]?.provider : undefined;
  if (!provider) throw new Error(`wpengine: unknown resource kind ${JSON.stringify(kind)}`);
  const fn = provider?.[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
  if (!fn) throw new Error(`wpengine: resource ${kind} has no ${method}`);
  try {
    // Every method's last argument holds the resource's properties: its `profile` chooses the API user.
    const result = await withProfile(profileOf(args.at(-1)), () => fn.apply(provider, args));
    return method === "check" ? forEngineCheck(result) : result;
  } catch (err) {
    if (TRACED.has(method)) quietHostTrace(err);
    throw err;
  }
}

/** A check result with its failures as the engine prints them (see `forEngine`). */
function forEngineCheck(result: unknown): unknown {
  const r = result as { failures?: CheckFailure[] };
  return r?.failures?.length ? { ...r, failures: r.failures.map(forEngine) } : result;
}

/** What the lifecycle methods below are called on: a serialized provider naming its kind. */
interface Kinded {
  kind: string;
}

// The plugin calls these as methods of the deserialized provider (`provider.create(inputs)`), whose
// prototype is this module: `this.kind` says which resource.
export function check(this: Kinded, olds: unknown, news: unknown): Promise<unknown> {
  return run(this.kind, "check", olds, news);
}
export function diff(this: Kinded, id: string, olds: unknown, news: unknown): Promise<unknown> {
  return run(this.kind, "diff", id, olds, news);
}
export function create(this: Kinded, inputs: unknown): Promise<unknown> {
  return run(this.kind, "create", inputs);
}
export function read(this: Kinded, id: string, props: unknown): Promise<unknown> {
  return run(this.kind, "read", id, props);
}
export function update(this: Kinded, id: string, olds: unknown, news: unknown): Promise<unknown> {
  return run(this.kind, "update", id, olds, news);
}
// `delete` is a reserved word: exported under that name from a local of another.
function remove(this: Kinded, id: string, props: unknown): Promise<unknown> {
  return run(this.kind, "delete", id, props);
}

export { remove as delete };
