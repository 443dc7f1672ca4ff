/**
 * The base of every resource class: registers `pulumi-nodejs:dynamic/wpengine:<Kind>` with the thin
 * provider of its kind, declares its outputs, and marks the secret ones.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { AnyObject, Kind, OutputsOf } from "../core/define";
import { CLAIMANT } from "../core/identity";
import { GUARDS } from "./guards";
import { thinProvider } from "./thin";

/** Options every resource takes: the standard custom-resource options. */
export type ResourceOptions = pulumi.CustomResourceOptions;

export abstract class WpEngineResource extends pulumi.dynamic.Resource {
  /**
   * @param kind the resource kind (type token suffix and module name under `provider/`)
   * @param outputs every output key the class exposes that is not an input, declared so the engine
   *   reports it (a dynamic resource only surfaces keys present at registration)
   * @param secrets keys stored encrypted, as inputs and as outputs, whether or not the program wraps
   *   the value in `pulumi.secret` (a plain string given for a private key is still a secret)
   */
  protected constructor(
    kind: string,
    name: string,
    args: object,
    outputs: readonly string[],
    opts?: ResourceOptions,
    secrets: readonly string[] = [],
  ) {
    const props: Record<string, unknown> = {};
    for (const key of outputs) props[key] = undefined;
    Object.assign(props, args);
    // Which resource claims the object (see core/identity.ts): the one plugin process that serves every
    // dynamic resource of the program refuses a second claim of one identity at check.
    props[CLAIMANT] = name;
    for (const key of secrets) {
      if (props[key] !== undefined) props[key] = pulumi.secret(props[key] as pulumi.Input<unknown>);
    }
    const merged: ResourceOptions = secrets.length
      ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] }
      : (opts ?? {});
    // Pulumi's registration wraps each property in four promises that each capture `new Error().stack`
    // for its leak report; with the source maps a program runs with, formatting those stacks was the
    // largest cost of declaring a resource (12-19 ms of CPU each in `npm run bench`). They are left
    // empty here. The resource's source position is unaffected: Pulumi lifts the limit to read it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(thinProvider(kind), name, props, merged, "wpengine", kind);
    } catch (e) {
      // An error thrown while registering still shows where the program declared the resource.
      Error.stackTraceLimit = limit;
      if (e instanceof Error) e.stack = `${e.stack}\n${new Error().stack?.split("\n").slice(1).join("\n")}`;
      throw e;
    } finally {
      Error.stackTraceLimit = limit;
    }
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
type InputsOf<D> = D extends Kind<infer IS extends AnyObject, AnyObject> ? z.input<IS> : never;
type AllOutputsOf<D> =
  D extends Kind<infer IS extends AnyObject, infer OS extends AnyObject> ? OutputsOf<IS, OS> : never;

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

/**
 * The class of a kind, as a program uses it: `new Domain(name, args, opts)`. `A` and `P` are the kind's
 * generated interfaces (`generated.ts`: the same types, each property with its description, enums as unions).
 */
export interface ResourceClass<D extends AnyKind, A = ArgsOf<D>, P = OutputPropertiesOf<D>> {
  new (name: string, args: A, opts?: ResourceOptions): WpEngineResource & P;
  /** The definition the class is derived from. */
  readonly definition: D;
  /** Whether `obj` is a resource of this class (across copies of the package). */
  isInstance(obj: unknown): boolean;
}

/**
 * Derives the dynamic class of a kind from its definition: its args and output properties are typed
 * from the zod schemas, every output is declared to the engine, the secrets marked, and the kind's
 * program-side guard (`guards.ts`) run. `kinds/generated.ts` builds every class with it.
 */
export function resourceClass<D extends AnyKind, A = ArgsOf<D>, P = OutputPropertiesOf<D>>(
  def: D,
): ResourceClass<D, A, P> {
  const outputs = [...Object.keys(def.inputs.shape), ...Object.keys(def.outputs.shape)];
  const secrets = def.secrets ?? [];
  const guard = Object.hasOwn(GUARDS, def.kind) ? GUARDS[def.kind] : undefined;
  class Resource extends WpEngineResource {
    static readonly definition = def;
    constructor(name: string, args: A, opts?: ResourceOptions) {
      guard?.declaring?.(name, args as Record<string, unknown>);
      super(def.kind, name, args as object, outputs, opts, secrets);
      guard?.declared?.(this as unknown as Record<string, unknown>, name);
    }
  }
  Object.defineProperty(Resource, "name", { value: def.kind });
  return Resource as unknown as ResourceClass<D, A, P>;
}
