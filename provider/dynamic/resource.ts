/** The resource classes: each registers `pulumi-nodejs:dynamic/wpengine:<Kind>` with its kind's thin provider. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { CONFIG_KEYS, notSecretLine, SECRET_SETTINGS } from "../core/config";
import type { Kind, OutputsOf } from "../core/define";
import { CLAIMANT } from "../core/identity";
import { GUARDS } from "./guards";
import { thinProvider } from "./thin";

/** The base of every resource class. */
export abstract class WpEngineResource extends pulumi.dynamic.Resource {
  protected constructor(def: AnyKind, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    warnClearSecrets();
    // Every output key is declared: a dynamic resource only surfaces keys present at registration.
    const keys = [...Object.keys(def.inputs.shape), ...Object.keys(def.outputs.shape)];
    const props = { ...Object.fromEntries<unknown>(keys.map((k) => [k, undefined])), ...args };
    // Which resource claims the object (see core/identity.ts): the one plugin process that serves every
    // dynamic resource of the program refuses a second claim of one identity at check.
    props[CLAIMANT] = name;
    // The secrets are stored encrypted, whether or not the program wraps the value in `pulumi.secret`.
    const secrets = def.secrets ?? [];
    for (const key of secrets)
      if (props[key] !== undefined) props[key] = pulumi.secret(props[key] as pulumi.Input<unknown>);
    const additionalSecretOutputs = [...(opts?.additionalSecretOutputs ?? []), ...secrets];
    // Pulumi's registration captures `new Error().stack` four times per property for its leak report:
    // formatting those (source-mapped) stacks was most of a declaration's cost (12-19 ms in `npm run
    // bench`), so they are left empty. Pulumi lifts the limit to read the resource's source position,
    // which it takes a fixed number of frames below its own: this file's frames are left out of the stacks
    // taken meanwhile, so the position (and the stack the state keeps) is the program's line, not this one.
    const limit = Error.stackTraceLimit;
    const format = Error.prepareStackTrace;
    Error.stackTraceLimit = 0;
    Error.prepareStackTrace = (err, frames) => {
      const kept = frames.filter((f) => f.getFileName() !== __filename);
      return format ? format(err, kept) : `${err}${kept.map((f) => `\n    at ${f}`).join("")}`;
    };
    try {
      super(thinProvider(def.kind), name, props, { ...opts, additionalSecretOutputs }, "wpengine", def.kind);
    } catch (e) {
      // An error thrown while registering still shows where the program declared the resource.
      Error.stackTraceLimit = limit;
      Error.prepareStackTrace = format;
      if (e instanceof Error) e.stack = `${e.stack}\n${new Error().stack?.split("\n").slice(1).join("\n")}`;
      throw e;
    } finally {
      Error.stackTraceLimit = limit;
      Error.prepareStackTrace = format;
    }
  }
}

const WARNED = Symbol.for("pulumi-wpengine.clear-secrets-warned");

/**
 * Once per program, at preview: a secret setting the stack config holds in clear text, which the
 * `pulumi-nodejs` provider's inputs (all the stack's config) then keep in the state as they are.
 */
function warnClearSecrets(): void {
  const g = globalThis as { [WARNED]?: boolean };
  if (g[WARNED] || !pulumi.runtime.isDryRun()) return;
  g[WARNED] = true;
  // The SDK's own test of a config key (internal: not in its typings).
  const { isConfigSecret } = require("@pulumi/pulumi/runtime/config") as {
    isConfigSecret?: (key: string) => boolean;
  };
  if (!isConfigSecret) return;
  for (const name of SECRET_SETTINGS) {
    const key = CONFIG_KEYS[name].key;
    const secret = isConfigSecret(key) || isConfigSecret(key.replace(":", ":config:"));
    if (pulumi.runtime.getConfig(key) && !secret)
      pulumi.log.warn(notSecretLine(name, "the stack's config file and the state hold it in clear text"));
  }
}

/** An input as a program may give it: a plain value, a promise or an output, at every level. */
export type DeepInput<T> = pulumi.Input<Deep<T>>;
type Deep<T> = T extends readonly (infer U)[]
  ? DeepInput<U>[]
  : T extends Record<string, unknown>
    ? { [K in keyof T]: DeepInput<T[K]> }
    : T;

// biome-ignore lint/suspicious/noExplicitAny: any kind, whatever its schemas.
type AnyKind = Kind<any, any>;
type InputsOf<D extends AnyKind> = z.input<D["inputs"]>;
type AllOutputsOf<D extends AnyKind> = OutputsOf<D["inputs"], D["outputs"]>;

/** The arguments of a kind's class: each input of its schema, as a `pulumi.Input`. */
export type ArgsOf<D extends AnyKind> = { [K in keyof InputsOf<D>]: DeepInput<InputsOf<D>[K]> } & {
  /** The credential profile (API user) the resource's calls run as (`defineKind` adds it to every kind). */
  profile?: pulumi.Input<string>;
};

/** The output properties of a kind's class: every input and every computed output, as `pulumi.Output`s. */
export type OutputPropertiesOf<D extends AnyKind> = {
  readonly [K in keyof AllOutputsOf<D>]-?: pulumi.Output<AllOutputsOf<D>[K]>;
} & {
  /** The credential profile (API user) the resource's calls run as (`defineKind` adds it to every kind). */
  readonly profile: pulumi.Output<string | undefined>;
};

/** The class of a kind (`new Domain(name, args, opts)`); `A` and `P` are its interfaces in `generated.ts`. */
export interface ResourceClass<D extends AnyKind, A = ArgsOf<D>, P = OutputPropertiesOf<D>> {
  new (name: string, args: A, opts?: pulumi.CustomResourceOptions): WpEngineResource & P;
  readonly definition: D;
  /** Whether `obj` is a resource of this class (across copies of the package). */
  isInstance(obj: unknown): boolean;
}

/** The dynamic class of a kind, from its definition, running its guard (`guards.ts`); `generated.ts` uses it. */
export function resourceClass<D extends AnyKind, A = ArgsOf<D>, P = OutputPropertiesOf<D>>(
  def: D,
): ResourceClass<D, A, P> {
  const guard = Object.hasOwn(GUARDS, def.kind) ? GUARDS[def.kind] : undefined;
  class Resource extends WpEngineResource {
    static readonly definition = def;
    constructor(name: string, args: A, opts?: pulumi.CustomResourceOptions) {
      guard?.declaring?.(name, args as Record<string, unknown>);
      super(def, name, args as object, opts);
      guard?.declared?.(this as unknown as Record<string, unknown>, name);
    }
  }
  Object.defineProperty(Resource, "name", { value: def.kind });
  return Resource as unknown as ResourceClass<D, A, P>;
}
