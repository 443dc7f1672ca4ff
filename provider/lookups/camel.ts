/**
 * The one mapping from the sdk's records (snake_case, parsed by its zod schemas) to the camelCase records
 * lookups return, read from the sdk schema: the rules 1 to 4 of `docs/lookups.md` ("The records"). A view
 * may rename a field, give a nested field's view, or add a computed field (`views.ts`).
 */
import { z } from "zod";
import { type Int64, Int64Schema } from "../../sdk";
import { camelKey, defOf, unwrap } from "../core/wire";

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

/** Rule 2 on a field of type `V` whose value maps to `O`: `O | null` if it may be absent, unless a list, map or boolean. */
type Field<V, O> = [V] extends [NonNullable<V>]
  ? O
  : NonNullable<V> extends readonly unknown[] | boolean
    ? O
    : IsMap<NonNullable<V>> extends true
      ? O
      : O | null;
/** A field's value under the generic rules. */
export type CamelField<V> = Field<V, Camel<NonNullable<V>>>;

/** Rule 3: `account: { id }` also gives `accountId`. */
type RefIds<T> = {
  [K in keyof T as NonNullable<T[K]> extends readonly unknown[]
    ? never
    : NonNullable<T[K]> extends { id: unknown }
      ? `${CamelKey<K & string>}Id`
      : never]-?: NonNullable<T[K]> extends { id: infer I } ? Camel<I> | null : never;
};

/** A record's view: what a lookup returns, as a zod schema and as the mapping that produces it. */
export interface View<O> {
  /** The mapped record's schema (fields described where the sdk's are). */
  readonly schema: z.ZodType<O>;
  /** The mapping of one sdk record (already parsed by the sdk). */
  map(value: unknown): O;
}

/** A computed field: its schema (described) and how it comes from the record the generic rules give. */
export interface Derived<C, O> {
  schema: z.ZodType<O>;
  from: (record: C) => O;
}

/** A field's output schema and mapping, its value when absent (unset: null), and an object's `id` node. */
interface Node extends View<unknown> {
  readonly absent?: unknown;
  readonly id?: Node;
}

/** The node made nullable, when its absent value is `null`. */
const orNull = (n: Node): Node => (n.absent == null ? { ...n, schema: n.schema.nullable() } : n);
const mapNode = (n: Node, v: unknown): unknown => (v == null ? (n.absent ?? null) : n.map(v));

/** The node of a schema (`nested`: the view of the records it holds, instead of the generic one). */
function nodeOf(s: z.ZodType, nested?: View<unknown>): Node {
  const int64 = (c: z.ZodType) => c === (Int64Schema as z.ZodType);
  const { inner, nullable } = unwrap(s, int64);
  const def = defOf(inner);
  const scalar = (n: Node): Node => (nullable ? orNull(n) : n);
  // An int64 metric is null when absent or empty, whether or not the sdk marks it optional.
  if (int64(inner)) return orNull({ schema: z.number(), map: (v) => (v === "" ? null : Number(v)) });
  switch (def.type) {
    case "object":
      return scalar(nested ?? objectView(inner as z.ZodObject));
    case "array": {
      const item = nodeOf(def.element, nested);
      return {
        schema: z.array(item.schema),
        absent: [],
        map: (v) => (v as unknown[]).map((x) => mapNode(item, x)),
      };
    }
    case "record":
      return recordNode(nodeOf(def.valueType, nested));
    case "boolean":
      return { schema: z.boolean(), absent: false, map: (v) => v };
    default:
      // An open enum (`z.custom`) is a string.
      return scalar({ schema: def.type === "custom" ? z.string() : inner, map: (v) => v });
  }
}

/** A map (its keys camelCased) of values of `value`'s node. */
const recordNode = (value: Node): Node => ({
  schema: z.record(z.string(), value.schema),
  absent: {},
  map: (v) =>
    Object.fromEntries(Object.entries(v as object).map(([k, x]) => [camelKey(k), mapNode(value, x)])),
});

/** The generic view of an sdk object schema, with a view's renames (new name: sdk key) and nested views. */
function objectView(
  s: z.ZodObject,
  rename: Record<string, string> = {},
  nested: Record<string, View<unknown>> = {},
): Omit<Node, "map"> & { schema: z.ZodObject; map(value: unknown): Record<string, unknown> } {
  const renamed = new Map(Object.entries(rename).map(([to, from]) => [from, to]));
  const fields: [out: string, from: string, node: Node][] = [];
  for (const [key, field] of Object.entries(s.shape as Record<string, z.ZodType>)) {
    const node = nodeOf(field, nested[key]);
    fields.push([renamed.get(key) ?? camelKey(key), key, node]);
    const id = node.id && orNull(node.id);
    if (id && !renamed.has(key))
      fields.push([
        `${camelKey(key)}Id`,
        key,
        { ...id, map: (v) => mapNode(id, (v as { id?: unknown }).id) },
      ]);
  }
  const shape = Object.fromEntries(
    fields.map(([out, from, node]) => {
      const description = z.globalRegistry.get(s.shape[from] as z.ZodType)?.description;
      return [out, description ? node.schema.meta({ description }) : node.schema];
    }),
  );
  return {
    id: fields.find(([, from]) => from === "id")?.[2],
    schema: z.object(shape),
    map: (value) => {
      const rec = value as Record<string, unknown>;
      return Object.fromEntries(fields.map(([out, from, node]) => [out, mapNode(node, rec[from])]));
    },
  };
}

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
  const node = recordNode(of);
  return { schema: node.schema as never, map: (value) => mapNode(node, value) as never };
}

/** The output type of a view. */
export type ViewOf<V> = V extends View<infer O> ? O : never;

/** A field's value given a nested view `N` of the records it holds (a list or map of them, or one). */
type NestedOut<V, N> = V extends readonly unknown[]
  ? ViewOf<N>[]
  : IsMap<V> extends true
    ? Record<string, ViewOf<N>>
    : ViewOf<N>;
/** The field `K` of `T` under its nested view, if it has one, else the generic rules. */
type FieldOf<T, K, N> = K extends keyof N
  ? Field<T[K & keyof T], NestedOut<NonNullable<T[K & keyof T]>, N[K]>>
  : CamelField<T[K & keyof T]>;

/** A record under the generic rules, with its renames and nested views (before computed fields). */
export type Mapped<T, R extends Record<string, string>, N> = Omit<
  Camel<Omit<Known<T>, R[keyof R] | keyof N>>,
  keyof R
> & {
  [K in keyof N as K extends R[keyof R] ? never : CamelKey<K & string>]: FieldOf<T, K, N>;
} & { [K in keyof R]: FieldOf<T, R[K], N> };
