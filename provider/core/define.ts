/** A resource kind is one definition: schemas with `.meta()` markers, texts and lifecycle methods. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { WpEngineClient } from "../../sdk";
import { unreachableAccount } from "./errors";
import type { Identity } from "./identity";
import { PROFILE_INPUT, uuidString } from "./inputs";
import { type Context, defineProvider, type NaturalKey, type ResourceDefinition } from "./lifecycle";
import { type AnyObject, comparable, type Wire } from "./wire";

declare module "zod/v4/core" {
  interface GlobalMeta {
    /** Changing this input replaces the object (it is part of the object's identity). */
    replaces?: boolean;
    /** A setting of the provider, never sent to the service (`adopt`): a change of it alone plans nothing. */
    setting?: boolean;
    /** A setting later calls read from the state (the API user): a change of it is an update that writes nothing. */
    kept?: boolean;
    /** Stored encrypted in the state whether or not the program marks it secret. */
    secret?: boolean;
    /** The service never returns it: carried over from the state, so it cannot show drift. */
    writeOnly?: boolean;
    /** An output no in-place update changes (the object's id): it stays known in a preview of an update. */
    stable?: boolean;
    /** The values a refined (not `z.enum`) string input accepts: the classes type it as their union. */
    values?: readonly string[];
    /** Part of the object's address, before its own name (the install of a domain): `ctx.parents`, and its identity. */
    parent?: boolean;
    /** The object's own name under its parent (a domain's name): `ctx.key`, and the last part of its identity. */
    key?: boolean;
    /** Where the service has it when not at the snake_case of its name (see `wire.ts`). */
    wire?: Wire;
    /** The value as sent, given the program's and the other inputs (a rule of time); the state keeps the program's. */
    sent?: (value: unknown, values: Record<string, unknown>) => unknown;
    /** The inputs whose change sends this one along (its value as sent depends on them). */
    sentWith?: readonly string[];
  }
}

/** What the service computes; `{}` for none (zod types `z.object({})` as a record). */
// biome-ignore lint/complexity/noBannedTypes: the empty object type is meant: no computed outputs.
type Computed<OS extends AnyObject> = string extends keyof z.output<OS> ? {} : z.output<OS>;

/** The outputs of a kind: its inputs (as checked) overlaid by what the service reports. */
export type OutputsOf<IS extends AnyObject, OS extends AnyObject> = Omit<z.output<IS>, keyof Computed<OS>> &
  Computed<OS>;

/** A kind's definition: its create, read and update return what the service computes and reports. */
type DefinitionOf<IS extends AnyObject, OS extends AnyObject> = ResourceDefinition<
  z.output<IS>,
  OutputsOf<IS, OS> & Record<string, unknown>,
  Computed<OS> & Partial<Omit<z.output<IS>, keyof Computed<OS>>>
>;

/** A kind's identity (identity.ts; its fields are the inputs marked `parent` and `key`) and, with `find`, its natural key. */
export interface KindIdentity<I> extends Omit<Identity<I>, "fields"> {
  /** The id of the live object that holds the key, looked up afresh (see {@link NaturalKey}). */
  find?(inputs: I, ctx: Context): Promise<string | undefined>;
  /** What create throws when `find` answers `id` and `adopt` is not set (`alreadyExists`): check says the same at preview. */
  refusal?(id: string, ctx: Context): Error;
}

/** How `pulumi do wpengine:<Kind> list` enumerates a kind's existing objects, each as its import id. */
export interface KindListing {
  /** What a listing is of (the install of domains, the account of users), each field described: `listInputs`. */
  inputs: AnyObject;
  /** Every object the query covers, paged through the service at its largest page: the parts of its import id (`{installId}`, `{id}`, ...) and its own name. */
  items(
    query: Record<string, string>,
    client: WpEngineClient,
  ): Promise<{ fields: Record<string, string>; name: string }[]>;
}

/** Every item of an sdk iteration (its pages followed). */
export const collect = <T>(items: AsyncIterable<T>): Promise<T[]> => Array.fromAsync(items);

/** The first item of an sdk iteration that matches (its pages followed only as far as needed). */
export async function findFirst<T>(items: AsyncIterable<T>, match: (x: T) => boolean) {
  for await (const x of items) if (match(x)) return x;
  return undefined;
}

/** Orders strings as `sort()` without a comparator does (by UTF-16 code unit, not `localeCompare`). */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The listing of a kind's objects under one parent (`{accountId}/{id}`), the parent's id its one input. An
 * `optional` parent only narrows it (unset, every object the credentials see), is no part of the import id,
 * and when it lists nothing is checked against the accounts seen (the service lists an unseen one as empty).
 */
export function listedUnder<T, P extends string | { optional: string }>(
  parent: P,
  description: string,
  list: (client: WpEngineClient, parentId: P extends string ? string : string | undefined) => Promise<T[]>,
  item: (x: T) => [id: string, name: string],
  idField = "id",
): KindListing {
  const required = typeof parent === "string";
  const field = required ? parent : parent.optional;
  return {
    inputs: z.object({ [field]: (required ? uuidString : uuidString.optional()).meta({ description }) }),
    items: async (q, client) => {
      const found = await list(client, q[field]!);
      if (!found.length && !required && field === "accountId" && q[field]) {
        const seen = await collect(client.accounts.iterate({ limit: 100 }));
        if (!seen.some((a) => a.id.toLowerCase() === q[field]!.toLowerCase()))
          throw new Error(`wpengine: ${unreachableAccount(q[field], seen)}`);
      }
      return found.map((x) => {
        const [id, name] = item(x);
        return { fields: { ...(required && { [field]: q[field]! }), [idField]: id }, name };
      });
    },
  };
}

type Derived = "schema" | "replaceOn" | "updatable" | "kept" | "secrets" | "identity" | "naturalKey";

/** What a kind's module writes. */
export interface KindSpec<IS extends AnyObject, OS extends AnyObject>
  extends Omit<DefinitionOf<IS, OS>, Derived> {
  /** What the resource is, in a paragraph (the class's and the schema's description, the docs' lead). */
  description: string;
  /** What delete does on the service, in words (the docs and the schema say it). */
  deletes: string;
  /** What a refresh does when the object is gone on the service, in words (the docs say it). */
  gone: string;
  /** The import id (`{field}` parts are inputs `read` needs, `{id}` the id), or why there is none. */
  importId: string | { none: string };
  /** Why `pulumi-wpengine import` leaves out the objects of a kind that has an import id. */
  notImported?: string;
  /** What addresses one object (absent for an action, which owns none); with `find`, its natural key. */
  identity?: KindIdentity<z.output<IS>>;
  /** What resolves a lost response when the identity has no `find` (see {@link NaturalKey}). */
  naturalKey?: Exclude<NaturalKey<z.output<IS>>, { what: string }>;
  /** How `pulumi do ... list` finds the existing objects (every importable kind has one). */
  list?: KindListing;
  /** The inputs (made strict), each field described, markers in `.meta()`. */
  inputs: IS;
  /** What the service computes besides the inputs, each field described. */
  outputs: OS;
  /** Inputs `check` computes (no field of `inputs`), compared as the updatable inputs are. */
  computedInputs?: readonly string[];
}

/** A kind as every front door reads it. */
export interface Kind<IS extends AnyObject = AnyObject, OS extends AnyObject = AnyObject>
  extends Omit<KindSpec<IS, OS>, "naturalKey" | "identity">,
    Omit<DefinitionOf<IS, OS>, "naturalKey" | "identity"> {
  /** Resolves a lost response: the identity's `find`, or what the spec says. */
  naturalKey: NaturalKey<z.output<IS>>;
  /** What addresses one object, its fields derived from the markers. */
  identity?: KindIdentity<z.output<IS>> & Identity<z.output<IS>>;
  /** Inputs the service never returns (the `writeOnly` marker); always derived, possibly empty. */
  writeOnly: readonly (keyof z.output<IS> & string)[];
  /** The lifecycle methods, as the dynamic plugin and the executable provider call them, with the definition they were built from. */
  // biome-ignore lint/suspicious/noExplicitAny: the provider of any kind.
  provider: pulumi.dynamic.ResourceProvider & { definition: ResourceDefinition<any, any> };
}

/** The `.meta()` of each field of an object schema. */
export function fieldMeta(schema: AnyObject): Record<string, z.core.GlobalMeta> {
  return Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, (v as z.ZodType).meta() ?? {}]));
}

/** Derives the diff's split and the secrets from the markers, and builds the lifecycle methods. */
export function defineKind<IS extends AnyObject, OS extends AnyObject>(
  given: KindSpec<IS, OS>,
): Kind<IS, OS> {
  // Strict (an unknown input is refused), and every kind takes `profile` (the API user its calls run as).
  const spec = { ...given, inputs: given.inputs.strict().extend({ profile: PROFILE_INPUT }) as IS };
  const inputs = fieldMeta(spec.inputs);
  const outputs = fieldMeta(spec.outputs);
  const keys = Object.keys(inputs) as (keyof z.output<IS> & string)[];
  const fields = [...keys.filter((k) => inputs[k]!.parent), ...keys.filter((k) => inputs[k]!.key)];
  const identity = spec.identity && { ...spec.identity, fields };
  const naturalKey = identity?.find
    ? { what: identity.what, find: identity.find, refusal: identity.refusal }
    : spec.naturalKey;
  if (!naturalKey)
    throw new Error(`${spec.kind}: give identity.find or naturalKey (what resolves a lost response)`);
  const def = {
    ...spec,
    schema: spec.inputs,
    replaceOn: keys.filter((k) => inputs[k]!.replaces),
    updatable: keys.filter((k) => !inputs[k]!.replaces && !inputs[k]!.setting),
    kept: keys.filter((k) => inputs[k]!.kept),
    secrets: [...keys, ...Object.keys(outputs)].filter((k) => (inputs[k] ?? outputs[k])!.secret),
    stableOutputs: Object.keys(outputs).filter((k) => outputs[k]!.stable),
    writeOnly: keys.filter((k) => inputs[k]!.writeOnly),
    normalize: comparable(spec.inputs, spec.normalize),
    naturalKey,
    identity,
  } as DefinitionOf<IS, OS> & Omit<Kind<IS, OS>, "provider">;
  const provider = defineProvider({ ...def, updatable: [...def.updatable, ...(spec.computedInputs ?? [])] });
  return { ...def, provider };
}
