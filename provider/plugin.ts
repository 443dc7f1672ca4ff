/**
 * The stable entry of the plugin side: every serialized provider (`dynamic/thin.ts`) `require`s this file
 * by its package path, so it keeps its name and exports while old state exists: `configure` and `run`
 * (called by the first releases' closures) and the lifecycle methods below (called on
 * `Object.create(<this module>)` with an own `kind`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { profileOf, setStackConfig, withProfile } from "./core/config";
import { type CheckFailure, forEngine } from "./core/inputs";
import { stopWithParent } from "./core/watchdog";
import { quietHostTrace } from "./dynamic/hostErrors";
import { KINDS } from "./registry";

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  stopWithParent();
  // Every key of the stack, to refuse a misspelt `wpengine:*` one: the host's config holds them all, but
  // its interface only reads one at a time.
  const all = (req.config as unknown as { rawConfig?: Record<string, unknown> }).rawConfig;
  setStackConfig((key) => req.config.get(key), Object.keys(all ?? {}));
}

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/** The methods whose errors Pulumi's dynamic-provider host also prints with their stack (see `hostErrors.ts`). */
const TRACED: ReadonlySet<Method> = new Set(["check", "diff", "read", "delete"]);

export async function run(kind: string, method: Method, ...args: unknown[]): Promise<unknown> {
  const provider = Object.hasOwn(KINDS, kind) ? KINDS[kind]?.provider : undefined;
  if (!provider) throw new Error(`wpengine: unknown resource kind ${JSON.stringify(kind)}`);
  const fn = provider[method] as (...a: unknown[]) => Promise<{ failures?: CheckFailure[] }>;
  try {
    // Every method's last argument holds the resource's properties: its `profile` chooses the API user.
    const result = await withProfile(profileOf(args.at(-1)), () => fn.apply(provider, args));
    // A check's failures as the engine prints them.
    return method === "check" && result?.failures?.length
      ? { ...result, failures: result.failures.map(forEngine) }
      : result;
  } catch (err) {
    if (TRACED.has(method)) quietHostTrace(err);
    throw err;
  }
}

/** The method on the deserialized provider (`this.kind`), cut to its `arity` arguments (the last the properties). */
const method = (name: Method, arity: number) =>
  function (this: { kind: string }, ...args: unknown[]): Promise<unknown> {
    return run(this.kind, name, ...args.slice(0, arity));
  };

export const check = method("check", 2);
export const diff = method("diff", 3);
export const create = method("create", 1);
export const read = method("read", 2);
export const update = method("update", 3);
// `delete` is a reserved word: exported under that name from a local of another.
const remove = method("delete", 2);

export { remove as delete };
