/**
 * The one mapping between the service's field names (snake_case, as the APIs send and take them) and the
 * properties of the resources and lookups (camelCase). A property's wire field is the snake_case of its
 * name unless its `.meta({ wire })` says otherwise, at every depth; from that a kind's outputs, create
 * bodies and update patches are derived (`wireOf`), and an error's `field` is named by its input
 * (`inputOfField`). A kind writes code only for a real transformation (a computed output, a value the
 * API spells differently).
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";

/** `php_version` -> `phpVersion` (already camelCase keys are kept). */
export const camelKey = (s: string): string => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** `secureAllUrls` -> `secure_all_urls`. */
export const snakeKey = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Where a property is on the wire when that is not the snake_case of its name: a dotted path
 * (`network_details.dns_config_info.cname`; a number is a list's index), or, when the service answers it
 * elsewhere than it takes it, both (`{ read: "redirects_to.0.id", write: "redirect_to" }`), and `none`:
 * what a patch sends to clear it when that is not null (`"nil"`). `false`: the provider's own input (a
 * deletion guard), never read from nor sent to the service.
 */
export type Wire = false | string | { read: string; write: string; none?: string };

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definition, read generically.
type Def = any;
/** Any object schema. */
// biome-ignore lint/suspicious/noExplicitAny: any object schema, whatever its shape.
type AnyObject = z.ZodObject<any>;

/** zod's definition of a schema (its `type`, inner schemas), read generically. */
export const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const metaOf = (s: z.ZodType): z.core.GlobalMeta => s.meta() ?? {};

/**
 * A schema under its wrappers (optional, nullable, default, lazy, a pipe's schema), down to `stop` if
 * given: whether it may be absent (optional or nullable) and what an absent value is (a default, `null`,
 * `undefined`), as the outermost wrapper says.
 */
export function unwrap(
  s: z.ZodType,
  stop?: (s: z.ZodType) => boolean,
): { inner: z.ZodType; nullable: boolean; absent?: () => unknown } {
  let cur = s;
  let nullable = false;
  let absent: (() => unknown) | undefined;
  for (;;) {
    if (stop?.(cur)) return { inner: cur, nullable, absent };
    const def = defOf(cur);
    switch (def.type) {
      case "default":
      case "prefault":
        absent ??= () => structuredClone(def.defaultValue);
        cur = def.innerType;
        break;
      case "nullable":
      case "optional":
        nullable = true;
        absent ??= def.type === "nullable" ? () => null : () => undefined;
        cur = def.innerType;
        break;
      case "readonly":
      case "nonoptional":
      case "catch":
        cur = def.innerType;
        break;
      case "pipe":
        // A preprocess (transform -> schema) is typed by its schema; a transform or a check by its input.
        cur = defOf(def.in).type === "transform" ? def.out : def.in;
        break;
      case "lazy":
        cur = def.getter();
        break;
      default:
        return { inner: cur, nullable, absent };
    }
  }
}

/** One field of an object schema as the wire has it. */
interface Field {
  key: string;
  read: string[];
  write: string[];
  none: unknown;
  schema: z.ZodType;
  meta: z.core.GlobalMeta;
}

const split = (path: string): string[] => path.split(".");

/** How an API spells a property's name: the snake_case of it (the hosting API), or as is (App Hosting's). */
export type KeyCase = (name: string) => string;
/** The App Hosting API's fields are the properties' own (camelCase) names. */
export const asIs: KeyCase = (name) => name;

function fieldsOf(schema: AnyObject, keyCase: KeyCase): Field[] {
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, s]) => {
    const meta = metaOf(s);
    if (meta.wire === false) return [];
    const wire = meta.wire ?? keyCase(key);
    const [read, write] = typeof wire === "string" ? [wire, wire] : [wire.read, wire.write];
    const none = typeof wire === "string" ? null : (wire.none ?? null);
    return [{ key, read: split(read), write: split(write), none, schema: s, meta }];
  });
}

const at = (value: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((v, k) => (v == null ? undefined : (v as Record<string, unknown>)[k]), value);

function put(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = target;
  for (const k of path.slice(0, -1)) {
    cur[k] ??= {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

/**
 * A value read from the wire into a schema's shape. Absent (`undefined` or `null`), it is the schema's
 * default, `null` when nullable, absent when optional, else `[]`, `false`, `""`, `0`, or an object of
 * absent fields.
 */
function read(s: z.ZodType, value: unknown, kc: KeyCase): unknown {
  const { inner, absent } = unwrap(s);
  const def = defOf(inner);
  if (value == null) {
    if (absent) return absent();
    switch (def.type) {
      case "array":
        return [];
      case "boolean":
        return false;
      case "string":
        return "";
      case "number":
        return 0;
      case "object":
        return readObject(inner as AnyObject, {}, kc);
      default:
        return null;
    }
  }
  if (def.type === "object") return readObject(inner as AnyObject, value, kc);
  if (def.type === "array" && Array.isArray(value)) return value.map((v) => read(def.element, v, kc));
  return value;
}

/**
 * An object's fields read from the wire. `given`: the fields are a kind's inputs, and one the record does not
 * carry (a write-only one, or one without a default) is left out, so the lifecycle carries it over from the
 * state.
 */
function readObject(schema: AnyObject, record: unknown, kc: KeyCase, given = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(schema, kc)) {
    if (f.meta.setting) continue;
    const raw = at(record, f.read);
    if (given && raw == null && (f.meta.writeOnly || !unwrap(f.schema).absent)) continue;
    const v = read(f.schema, raw, kc);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

/** A value in its wire form (nested objects' fields at their wire paths). */
function write(s: z.ZodType, value: unknown, kc: KeyCase): unknown {
  if (value == null) return value;
  const def = defOf(unwrap(s).inner);
  if (def.type === "object")
    return writeObject(unwrap(s).inner as AnyObject, value as Record<string, unknown>, kc);
  if (def.type === "array" && Array.isArray(value)) return value.map((v) => write(def.element, v, kc));
  return value;
}

/** An object's fields at their wire paths: `keys` (else all but settings), those null too when `clear`. */
function writeObject(
  schema: AnyObject,
  values: Record<string, unknown>,
  kc: KeyCase,
  keys?: readonly string[],
  clear = false,
) {
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(schema, kc)) {
    const v = values[f.key];
    if (f.meta.setting || (keys && !keys.includes(f.key)) || v === undefined || (v === null && !clear))
      continue;
    put(out, f.write, v === null ? f.none : write(f.schema, v, kc));
  }
  return out;
}

/** What a kind derives from its inputs and outputs: see {@link wireOf}. */
export interface WireMapping<I, O> {
  /**
   * The outputs of a service record: each input (but settings; one the record lacks only if it has a
   * default and is not write-only) and output read at its wire path; `known` (what the record does not
   * carry, e.g. the install of a domain) overlaid.
   */
  outputs(record: unknown, known?: Partial<O>): O;
  /**
   * The inputs a record holds, each one it lacks as its type's empty value (`""`, `0`, `false`, `[]`, null
   * when nullable, its default if it has one): to compare a record with the inputs.
   */
  fields(record: unknown): I;
  /** A request body: the inputs (all but settings, or `keys`) set (not null), at their wire paths. */
  body(values: Partial<I>, keys?: readonly (keyof I & string)[]): Record<string, unknown>;
  /**
   * The PATCH that brings the object from `have` to `want`: the updatable inputs `want` gives that differ
   * (compared through `normalize`), at their wire paths (a null one too: it clears); `undefined` when none does.
   */
  patch(have: Partial<O>, want: Partial<I>): Record<string, unknown> | undefined;
  /** The body of an update that takes the object whole: every updatable input, at its wire path. */
  whole(want: Partial<I>): Record<string, unknown>;
}

/**
 * The wire mapping of a kind's inputs and outputs. `normalize` is the kind's canonical form for
 * comparison (`defineKind`'s `normalize`), used by `patch`; `kc` how its API spells a name.
 */
export function wireOf<IS extends AnyObject, OS extends AnyObject, O = z.output<IS> & z.output<OS>>(
  inputs: IS,
  outputs: OS,
  normalize?: (key: keyof z.output<IS> & string, value: unknown) => unknown,
  kc: KeyCase = snakeKey,
): WireMapping<z.output<IS>, O> {
  const updatable = fieldsOf(inputs, kc)
    .filter((f) => !f.meta.replaces && !f.meta.setting)
    .map((f) => f.key);
  const norm = (k: string, v: unknown) => (normalize ? normalize(k as never, v) : (v ?? null));
  return {
    outputs: (record, known) =>
      ({ ...readObject(inputs, record, kc, true), ...readObject(outputs, record, kc), ...known }) as O,
    fields: (record) => readObject(inputs, record, kc) as z.output<IS>,
    body: (values, keys) => writeObject(inputs, values as Record<string, unknown>, kc, keys),
    patch(have, want) {
      const h = have as Record<string, unknown>;
      const w = want as Record<string, unknown>;
      const changed = updatable.filter(
        (k) => w[k] !== undefined && !isDeepStrictEqual(norm(k, h[k]), norm(k, w[k])),
      );
      return changed.length ? writeObject(inputs, w, kc, changed, true) : undefined;
    },
    whole: (want) => writeObject(inputs, want as Record<string, unknown>, kc, updatable, true),
  };
}

/**
 * The input property a service's error `field` points at (`bucket_region` -> `bucketRegion`,
 * `frequency.value` -> `frequency.value`): the longest tail of its path (list indexes dropped) that is a
 * wire path of the kind's inputs, at any depth (`appId` -> `name` where the App's name is declared
 * `wire: "appId"`); else the camelCase of its last part (a request wrapper such as `user.` is no input).
 */
export function inputOfField(inputs: AnyObject | undefined, field: string): string {
  const parts = field.split(".").filter((p) => !/^\d+$/.test(p));
  const known = new Map<string, string>();
  // An API spells names in snake_case or as they are (App Hosting's): an error may use either.
  const walk = (schema: AnyObject, wire: string, prop: string) => {
    for (const f of [...fieldsOf(schema, asIs), ...fieldsOf(schema, snakeKey)]) {
      for (const path of [f.write, f.read]) {
        const w = `${wire}${path.filter((p) => !/^\d+$/.test(p)).join(".")}`;
        known.set(w, `${prop}${f.key}`);
        const { inner } = unwrap(f.schema);
        const def = defOf(inner);
        const object = def.type === "array" ? unwrap(def.element).inner : inner;
        if (defOf(object).type === "object") walk(object as AnyObject, `${w}.`, `${prop}${f.key}.`);
      }
    }
  };
  if (inputs) walk(inputs, "", "");
  for (let i = 0; i < parts.length; i++) {
    const prop = known.get(parts.slice(i).join("."));
    if (prop) return prop;
  }
  return camelKey(parts[parts.length - 1] ?? field);
}
