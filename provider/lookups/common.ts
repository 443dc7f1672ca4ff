/** What every lookup shares: a row of `index.ts`'s table, its options, and the two functions it gives. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { validateInput, type WpEngineClient, WpEngineValidationError } from "../../sdk";
import { explainError, inProgramNames } from "../core/errors";
import { meant } from "../core/meant";
import { withProgramClient } from "../core/programClient";
import type { View } from "./camel";

/** Options of every lookup. */
export interface LookupOptions {
  /** The client to use; default: one built from the program's `wpengine:*` config and the environment. */
  client?: WpEngineClient;
  /** Records per page requested from the service (hosting lists 1 to 100, application hosting any); all pages are read. */
  pageSize?: number;
  /** The credential profile to read as (docs/accounts.md); default: `wpengine:profile`, else `WPE_PROFILE`, else none. */
  profile?: string;
}

/** Arguments of a lookup, each of which may be a `pulumi.Input`. */
export type LookupInputs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** What a lookup's call gives: one sdk record, or (a list) every record, all pages read. */
type Records = Promise<unknown> | AsyncIterable<unknown>;

/** One lookup: a row of the table. */
export interface Lookup<A extends z.ZodObject = z.ZodObject, O = unknown> {
  /** What it returns, in a sentence (the docs' and the executable provider's description). */
  readonly description: string;
  /** Its arguments, each field described with `.meta({ description })`. */
  readonly args: A;
  /** The view of the records it returns (`views.ts`). */
  readonly result: View<O>;
  /** Whether it returns a list of them (every page read). */
  readonly list: boolean;
  /** The service call, with a client, the parsed arguments and the page size asked for. */
  readonly call: (client: WpEngineClient, args: z.output<A>, pageSize: number | undefined) => Records;
}

/** A row without its result and list flag, which `one` and `many` add. */
type Spec<A extends z.ZodObject> = Omit<Lookup<A>, "result" | "list">;

/** A lookup returning one record of `result`. */
export function one<A extends z.ZodObject, O>(result: View<O>, spec: Spec<A>): Lookup<A, O> {
  return { ...spec, result, list: false };
}

/** A lookup returning a list of records of `result` (every page read). */
export function many<A extends z.ZodObject, O>(result: View<O>, spec: Spec<A>): Lookup<A, O[]> {
  return { ...spec, result, list: true } as unknown as Lookup<A, O[]>;
}

/** Runs a lookup: its arguments checked, its call made, its records mapped. */
export async function run<A extends z.ZodObject, O>(
  name: string,
  lookup: Lookup<A, O>,
  args: unknown,
  options: LookupOptions | undefined,
): Promise<O> {
  const known = Object.keys(lookup.args.shape);
  try {
    // An argument it does not take (a typo) is named, not dropped: the one it likely meant, else them all.
    const unknown = Object.keys(args ?? {}).filter((k) => !known.includes(k));
    if (unknown.length)
      throw new WpEngineValidationError(
        name,
        unknown.map((k) => {
          const like = meant(k, known);
          const hint = like ? ` (did you mean ${like}?)` : `: it takes ${known.join(", ") || "none"}`;
          return { path: k, message: `is not an argument of ${name}${hint}` };
        }),
      );
    const parsed = validateInput(name, lookup.args, args ?? {});
    const lookUp = async (client: WpEngineClient) => {
      const records = await lookup.call(client, parsed, options?.pageSize);
      if (!lookup.list) return lookup.result.map(records) as O;
      return (await Array.fromAsync(records as AsyncIterable<unknown>, (r) => lookup.result.map(r))) as O;
    };
    return options?.client ? await lookUp(options.client) : await withProgramClient(options?.profile, lookUp);
  } catch (caught) {
    // A 404 names the argument it is about and the next step, as a resource's does (`asLookup` words a 401
    // or 403: whose credentials, and which API user).
    // The sdk's own checks of the call (a usage range) are named as the program names them.
    const err =
      caught instanceof WpEngineValidationError && caught.operation !== name
        ? inProgramNames(caught, name, known)
        : (caught as { status?: unknown } | null)?.status === 404
          ? explainError(name, "lookup", caught, undefined, lookup.args)
          : caught;
    // Marked as Pulumi's RunError (its class and fields kept): a program that does not catch it prints its
    // message alone, not an unhandled exception with a trace.
    if (err instanceof Error) Object.defineProperty(err, "__pulumiRunError", { value: true });
    throw err;
  }
}

/** The arguments of a lookup's functions: optional when none is required. */
type ArgsOf<A extends z.ZodObject, T> = object extends z.input<A> ? [args?: T] : [args: T];

/** The Promise form of a lookup. */
export type PromiseForm<L> =
  L extends Lookup<infer A, infer O>
    ? (...a: [...ArgsOf<A, z.input<A>>, options?: LookupOptions]) => Promise<O>
    : never;
/** The Output form of a lookup: its arguments may be outputs of other resources. */
export type OutputForm<L> =
  L extends Lookup<infer A, infer O>
    ? (...a: [...ArgsOf<A, LookupInputs<z.input<A>>>, options?: LookupOptions]) => pulumi.Output<O>
    : never;

/** Whether `input` comes from a custom resource this preview creates (id unknown): nothing to look up yet. */
async function createdByThisPreview(input: pulumi.Output<unknown>): Promise<boolean> {
  if (!pulumi.runtime.isDryRun()) return false;
  // `isKnown` is the SDK's own (marked internal in its typings): what its `apply` skips on.
  const custom = [...(await pulumi.getAllResources(input))].filter(pulumi.CustomResource.isInstance);
  for (const r of custom)
    if (!(await (r.id as unknown as { isKnown: Promise<boolean> }).isKnown)) return true;
  return false;
}

/** The two functions of every row: `getX` (a Promise) and `getXOutput` (a `pulumi.Output`). */
export function functionsOf<T extends Record<string, Lookup>>(
  table: T,
): { [K in keyof T]: PromiseForm<T[K]> } & { [K in keyof T & string as `${K}Output`]: OutputForm<T[K]> } {
  const out: Record<string, unknown> = {};
  for (const [name, lookup] of Object.entries(table)) {
    out[name] = (args?: unknown, options?: LookupOptions) => {
      // Seen as handled: Pulumi awaits an exported promise only after a turn of I/O, so one that fails at
      // once (missing credentials) made Node print a PromiseRejectionHandledWarning above its error. An
      // await, a .then or an export still gets the failure.
      const result = run(name, lookup, args, options);
      result.catch(() => {});
      return result;
    };
    out[`${name}Output`] = (args?: unknown, options?: LookupOptions) => {
      const input = pulumi.output((args ?? {}) as pulumi.Input<object>);
      return input.apply((a) =>
        run(name, lookup, a, options).catch(async (err) => {
          // At preview, an argument from a resource this program creates (`app.name`) names an object that is
          // not there yet: the result is unknown until `up` made it (as Go's output-form invoke gives), not a
          // failed preview.
          if ((err as { status?: unknown }).status === 404 && (await createdByThisPreview(input)))
            return pulumi.output(pulumi.unknown);
          throw err;
        }),
      );
    };
  }
  return out as never;
}
