/**
 * The one mapping from the sdk's records (snake_case, as the service sends them, checked by the sdk's
 * zod schemas) to the camelCase records lookups return. It reads the sdk schema, so the rules below hold
 * for every record; `docs/lookups.md` states them for users:
 *
 * 1. every key the sdk schema declares is kept, camelCased (`php_version` -> `phpVersion`), at every
 *    depth, map keys included; keys the schema does not declare are dropped;
 * 2. an absent value (`undefined` or `null`) is `[]` for a list, `{}` for a map, `false` for a boolean,
 *    and `null` for anything else: never `undefined`;
 * 3. a nested object with an `id` (a reference, `account: { id }`) also gives `<key>Id` (`accountId`);
 * 4. an int64 metric (the sdk's `Int64Schema`, a string on the wire) is a number;
 *    an open enum (`z.custom<Status | string>`) is a string.
 *
 * A view may rename a field, give the view of the records a field holds, or add a computed field: the
 * few places where a lookup's public shape is not the sdk record's (see `views.ts`).
 */
import { z } from "zod";
import { type Int64, Int64Schema } from "../../sdk";
import { camelKey, defOf, unwrap } from "../core/wire";

// ---------------------------------------------------------------------------------------------------
// Types.

/** `php_version` -> `phpVersion`. */
export type CamelKey<S extends string> = S extends `${infer H}_${infer R}`
  ? `${H}${Capitalize<CamelKey<R>>}`
  : S;

/** The declared keys of an object type (an index signature of a loose object dropped). */
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
type IsMap<T> = T extends readonly unknown[]
  ? false
  : T extends object
    ? [keyof Known<T>] extends [never]
      ? true
      : false
    : false;

/** A value as the mapping gives it (rules 1, 3 and 4). */
export type Camel<T> = T extends Int64
  ? number
  : T extends readonly (infer U)[]
    ? Camel<U>[]
    : T extends object
      ? IsMap<T> extends true
        ? { [k: string]: CamelField<T[keyof T]> }
        : { [K in keyof Known<T> as CamelKey<K & string>]-?: CamelField<T[K]> } & RefIds<Known<T>>
      : T;

/** A field's value (rule 2: an absent list is `[]`, map `{}`, boolean `false`, anything else `null`). */
export type CamelField<V> = [V] extends [NonNullable<V>]
  ? Camel<V>
  : NonNullable<V> extends readonly unknown[] | boolean
    ? Camel<NonNullable<V>>
    : IsMap<NonNullable<V>> extends true
      ? Camel<NonNullable<V>>
      : Camel<NonNullable<V>> | null;

/** Rule 3: `account: { id }` also gives `accountId`. */
type RefIds<T> = {
  [K in keyof T as NonNullable<T[K]> extends readonly unknown[]
    ? never
    : NonNullable<T[K]> extends { id: unknown }
      ? `${CamelKey<K & string>}Id`
      : never]-?: NonNullable<T[K]> extends { id: infer I } ? Camel<I> | null : never;
};

// ---------------------------------------------------------------------------------------------------
// The runtime: a view of an sdk schema is its output schema (for the executable provider's schema and
// the docs) and the function that maps a record to it.

/** A record's view: what a lookup returns, as a zod schema and as the mapping that produces it. */
export interface View<O> {
  /** The mapped record's schema (each field `.meta({ description })` where the view describes it). */
  readonly schema: z.ZodType<O>;
  /** The mapping of one sdk record (already parsed by the sdk). */
  map(value: unknown): O;
}

/** A computed field: its schema (described) and how it comes from the record the generic rules give. */
export interface Derived<C, O> {
  schema: z.ZodType<O>;
  from: (record: C) => O;
}

/** A field's node: how its value maps, what it is when absent, and its output schema. */
interface Node {
  readonly schema: z.ZodType;
  readonly absent: unknown;
  map(value: unknown): unknown;
  /** The view of an object node, for rule 3. */
  readonly object?: ObjectNode;
}
interface ObjectNode {
  readonly keys: Record<string, Node>;
}

/** The node of a schema (`nested`: the view of the records it holds, instead of the generic one). */
function nodeOf(s: z.ZodType, nested?: View<unknown>): Node {
  const int64 = (c: z.ZodType) => c === (Int64Schema as z.ZodType);
  const { inner, nullable: absentable } = unwrap(s, int64);
  const nullable = absentable || int64(inner);
  const def = defOf(inner);
  const orNull = (n: Node): Node =>
    nullable && n.absent === null ? { ...n, schema: n.schema.nullable() } : n;
  if (inner === (Int64Schema as z.ZodType))
    return orNull({ schema: z.number(), absent: null, map: (v) => (v === "" ? null : Number(v)) });
  switch (def.type) {
    case "object": {
      if (nested) return orNull({ schema: nested.schema, absent: null, map: (v) => nested.map(v) });
      const v = objectView(inner as z.ZodObject);
      return orNull({ schema: v.schema, absent: null, map: v.map, object: v });
    }
    case "array": {
      const item = nodeOf(def.element, nested);
      return {
        schema: z.array(item.schema),
        absent: [],
        map: (v) => (v as unknown[]).map((x) => mapNode(item, x)),
      };
    }
    case "record": {
      const value = nodeOf(def.valueType, nested);
      return {
        schema: z.record(z.string(), value.schema),
        absent: {},
        map: (v) =>
          Object.fromEntries(Object.entries(v as object).map(([k, x]) => [camelKey(k), mapNode(value, x)])),
      };
    }
    case "boolean":
      return { schema: z.boolean(), absent: false, map: (v) => v };
    case "custom":
      return orNull({ schema: z.string(), absent: null, map: (v) => v });
    default:
      return orNull({ schema: inner, absent: null, map: (v) => v });
  }
}

function mapNode(n: Node, v: unknown): unknown {
  return v === undefined || v === null ? n.absent : n.map(v);
}

interface ObjectView extends ObjectNode {
  readonly schema: z.ZodObject;
  map(value: unknown): Record<string, unknown>;
}

/** The generic view of an sdk object schema, with a view's renames and nested views. */
function objectView(
  s: z.ZodObject,
  rename: Record<string, string> = {},
  nested: Record<string, View<unknown>> = {},
): ObjectView {
  const renamed = new Map(Object.entries(rename).map(([to, from]) => [from, to]));
  const keys: Record<string, Node> = {};
  const fields: [out: string, from: string, node: Node][] = [];
  for (const [key, field] of Object.entries(s.shape as Record<string, z.ZodType>)) {
    const node = nodeOf(field, nested[key]);
    keys[key] = node;
    fields.push([renamed.get(key) ?? camelKey(key), key, node]);
    // Rule 3: a reference `x: { id }` also gives `xId`.
    const id = node.object?.keys["id"];
    if (id && !renamed.has(key)) {
      const idNode = orNullNode(id);
      fields.push([
        `${camelKey(key)}Id`,
        key,
        { ...idNode, map: (v) => mapNode(idNode, (v as { id?: unknown }).id) },
      ]);
    }
  }
  const shape = Object.fromEntries(
    fields.map(([out, from, node]) => {
      const description = z.globalRegistry.get(s.shape[from] as z.ZodType)?.description;
      return [out, description ? node.schema.meta({ description }) : node.schema];
    }),
  );
  return {
    keys,
    schema: z.object(shape),
    map: (value) => {
      const rec = value as Record<string, unknown>;
      return Object.fromEntries(fields.map(([out, from, node]) => [out, mapNode(node, rec[from])]));
    },
  };
}

const orNullNode = (n: Node): Node => (n.absent === null ? { ...n, schema: n.schema.nullable() } : n);

/** A view that computed fields can be added to. */
export interface ViewBuilder<O> extends View<O> {
  /** The view with computed fields, replacing any field of the same name. */
  derive<D extends Record<string, Derived<O, unknown>>>(
    fields: D,
  ): View<Omit<O, keyof D> & { [K in keyof D]: ReturnType<D[K]["from"]> }>;
}

/** The view of one sdk record schema; `spec` renames fields (new name: sdk key) and gives nested views. */
export function view<
  S extends z.ZodType,
  R extends Record<string, keyof z.output<S> & string> = Record<never, never>,
  N extends { [K in keyof z.output<S>]?: View<unknown> } = Record<never, never>,
>(schema: S, spec: { rename?: R; nested?: N } = {}): ViewBuilder<Mapped<z.output<S>, R, N>> {
  const { inner } = unwrap(schema);
  if (defOf(inner).type !== "object") throw new Error("view: the sdk schema is not an object");
  const base = objectView(inner as z.ZodObject, spec.rename, spec.nested as Record<string, View<unknown>>);
  return {
    schema: base.schema as never,
    map: base.map as never,
    derive: (fields) => {
      const derive = Object.entries(fields) as [string, Derived<unknown, unknown>][];
      return {
        schema: base.schema.extend(Object.fromEntries(derive.map(([k, d]) => [k, d.schema]))) as never,
        map: (value) => {
          const rec = base.map(value);
          for (const [k, d] of derive) rec[k] = d.from(rec);
          return rec as never;
        },
      };
    },
  };
}

/** The view of a map whose values are records of a view (e.g. usage rollups by metric). */
export function mapOf<O>(of: View<O>): View<Record<string, O>> {
  return {
    schema: z.record(z.string(), of.schema),
    map: (value) =>
      Object.fromEntries(
        Object.entries((value ?? {}) as object).map(([k, v]) => [camelKey(k), v == null ? null : of.map(v)]),
      ) as Record<string, O>,
  };
}

/** The output type of a view. */
export type ViewOf<V> = V extends View<infer O> ? O : never;

type NestedOut<V, N> = V extends null | undefined
  ? never
  : V extends readonly unknown[]
    ? ViewOf<N>[]
    : IsMap<V> extends true
      ? Record<string, ViewOf<N>>
      : ViewOf<N>;
type NestedField<V, N> = [V] extends [NonNullable<V>]
  ? NestedOut<V, N>
  : NonNullable<V> extends readonly unknown[]
    ? NestedOut<NonNullable<V>, N>
    : IsMap<NonNullable<V>> extends true
      ? NestedOut<NonNullable<V>, N>
      : NestedOut<NonNullable<V>, N> | null;

/** A record under the generic rules, with its renames and nested views (before computed fields). */
export type Mapped<T, R extends Record<string, string>, N> = Omit<
  Camel<Omit<Known<T>, R[keyof R] | keyof N>>,
  keyof R
> & {
  [K in keyof N as K extends R[keyof R] ? never : CamelKey<K & string>]: NestedField<T[K & keyof T], N[K]>;
} & {
  [K in keyof R]: R[K] extends keyof N
    ? NestedField<T[R[K] & keyof T], N[R[K]]>
    : CamelField<T[R[K] & keyof T]>;
};
