/**
 * The one mapping between the service's fields (snake_case) and the properties (camelCase), each the
 * snake_case of its name unless its `.meta({ wire })` says otherwise: kinds' outputs, bodies and patches.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";

/** The properties the engine passes and records. */
export type Props = Record<string, unknown>;

/** `php_version` -> `phpVersion` (already camelCase keys are kept). */
export const camelKey = (s: string): string => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** `secureAllUrls` -> `secure_all_urls`. */
export const snakeKey = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A property's wire field when not the snake_case of its name: a dotted path (a number a list's index, `""`
 * the record itself: a bare list), or its read and write paths, with `none` what a patch sends to clear it
 * when not null (`"nil"`); `false`: the provider's own input (a deletion guard), never read nor sent.
 */
export type Wire = false | string | { read: string; write: string; none?: string };

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definition, read generically.
type Def = any;
// biome-ignore lint/suspicious/noExplicitAny: any object schema, whatever its shape.
export type AnyObject = z.ZodObject<any>;

/** zod's definition of a schema (its `type`, inner schemas), read generically. */
export const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = ["default", "prefault", "nullable", "optional", "readonly", "nonoptional", "catch"];
/** A schema under its wrappers (down to `stop`), whether it may be absent, and what an absent value is. */
export function unwrap(s: z.ZodType, stop?: (s: z.ZodType) => boolean) {
  let cur = s;
  let nullable = false;
  let absent: (() => unknown) | undefined;
  for (;;) {
    if (stop?.(cur)) return { inner: cur, nullable, absent };
    const def = defOf(cur);
    if (def.type === "default" || def.type === "prefault") absent ??= () => structuredClone(def.defaultValue);
    if (def.type === "nullable" || def.type === "optional") {
      nullable = true;
      absent ??= def.type === "nullable" ? () => null : () => undefined;
    }
    if (WRAPPERS.includes(def.type)) cur = def.innerType;
    // A preprocess (transform -> schema) is typed by its schema; a transform or a check by its input.
    else if (def.type === "pipe") cur = defOf(def.in).type === "transform" ? def.out : def.in;
    else if (def.type === "lazy") cur = def.getter();
    else return { inner: cur, nullable, absent };
  }
}

/** How an API spells a property's name: the snake_case of it (the hosting API), or as is (App Hosting's). */
type KeyCase = (name: string) => string;
/** The App Hosting API's fields are the properties' own (camelCase) names. */
export const asIs: KeyCase = (name) => name;

/** An object schema's fields as the wire has them (settings and `wire: false` inputs left out). */
function fieldsOf(schema: AnyObject, keyCase: KeyCase) {
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, s]) => {
    const meta = s.meta() ?? {};
    if (meta.wire === false || meta.setting) return [];
    const wire = meta.wire ?? keyCase(key);
    const { read, write, none = null } = typeof wire === "string" ? { read: wire, write: wire } : wire;
    const path = (w: string) => (w === "" ? [] : w.split("."));
    return [{ key, read: path(read), write: path(write), none, schema: s, meta }];
  });
}

/** What an absent value of a type reads as, when its schema gives no default and it is not optional. */
const EMPTY: Props = { boolean: false, string: "", number: 0 };

/** A value read from the wire into a schema's shape; an absent one (`undefined`, `null`) as above. */
function read(s: z.ZodType, value: unknown, kc: KeyCase): unknown {
  const { inner, absent } = unwrap(s);
  const def = defOf(inner);
  if (value == null && absent) return absent();
  if (def.type === "object") return readObject(inner as AnyObject, value ?? {}, kc);
  if (value == null) return def.type === "array" ? [] : (EMPTY[def.type] ?? null);
  if (def.type === "array" && Array.isArray(value)) return value.map((v) => read(def.element, v, kc));
  return value;
}

/**
 * An object's fields read from the wire; a `given` input the record lacks is left out if write-only or
 * without a default (the lifecycle keeps it from the state).
 */
function readObject(schema: AnyObject, record: unknown, kc: KeyCase, given = false): Props {
  const out: Props = {};
  for (const f of fieldsOf(schema, kc)) {
    const raw = f.read.reduce<unknown>((v, k) => (v == null ? undefined : (v as Props)[k]), record);
    if (given && raw == null && (f.meta.writeOnly || !unwrap(f.schema).absent)) continue;
    const v = read(f.schema, raw, kc);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

/** A value in its wire form (nested objects' fields at their wire paths). */
function write(s: z.ZodType, value: unknown, kc: KeyCase): unknown {
  if (value == null) return value;
  const { inner } = unwrap(s);
  const def = defOf(inner);
  if (def.type === "object") return writeObject(inner as AnyObject, value as Props, kc);
  if (def.type === "array" && Array.isArray(value)) return value.map((v) => write(def.element, v, kc));
  return value;
}

/** An object's fields at their wire paths: `keys` (else all but settings), those null too when `clear`. */
function writeObject(schema: AnyObject, values: Props, kc: KeyCase, keys?: readonly string[], clear = false) {
  const out: Props = {};
  for (const f of fieldsOf(schema, kc)) {
    const v = values[f.key];
    if ((keys && !keys.includes(f.key)) || v === undefined || (v === null && !clear)) continue;
    const wired = v === null ? f.none : write(f.schema, f.meta.sent ? f.meta.sent(v, values) : v, kc);
    // A field at the record's root is the whole body.
    if (!f.write.length) return wired as Props;
    let at = out;
    for (const k of f.write.slice(0, -1)) {
      at[k] ??= {};
      at = at[k] as Props;
    }
    at[f.write.at(-1)!] = wired;
  }
  return out;
}

/** A kind's canonical form of an input's value (its `normalize`). */
export type Normalize = (key: string, value: unknown) => unknown;

/** How an input's values compare: an absent one as its default (else null), then in canonical form. */
export function comparable(inputs: AnyObject, normalize?: Normalize): Normalize {
  const shape = inputs.shape as Record<string, z.ZodType>;
  return (key, value) => {
    const v = value === undefined && shape[key] ? unwrap(shape[key]).absent?.() : value;
    return (normalize ? normalize(key, v) : v) ?? null;
  };
}

/** The wire mapping of a kind; `normalize` (the kind's) compares for `patch`, `kc` spells the API's names. */
export function wireOf<IS extends AnyObject, OS extends AnyObject, O = z.output<IS> & z.output<OS>>(
  inputs: IS,
  outputs: OS,
  normalize?: Normalize,
  kc: KeyCase = snakeKey,
) {
  type I = z.output<IS>;
  const fields = fieldsOf(inputs, kc);
  const updatable = fields.filter((f) => !f.meta.replaces).map((f) => f.key);
  const norm = comparable(inputs, normalize);
  return {
    /** The outputs of a service record (an input it lacks only if it has a default), `known` overlaid. */
    outputs: (record: unknown, known?: Partial<O>) =>
      ({ ...readObject(inputs, record, kc, true), ...readObject(outputs, record, kc), ...known }) as O,
    /** The inputs a record holds, each one it lacks as its type's empty value (to compare it with the inputs). */
    fields: (record: unknown) => readObject(inputs, record, kc) as I,
    /** A request body: the inputs (all but settings, or `keys`) set (not null), at their wire paths. */
    body: (values: Partial<I>, keys?: readonly (keyof I & string)[]) => writeObject(inputs, values, kc, keys),
    /** The PATCH of the updatable inputs `want` gives that differ from `have` (null clears); none when none does. */
    patch(have: Partial<O>, want: Partial<I>): Props | undefined {
      const w = want as Props;
      const changed = updatable.filter(
        (k) => w[k] !== undefined && !isDeepStrictEqual(norm(k, (have as Props)[k]), norm(k, w[k])),
      );
      const isChanged = (k: string) => changed.includes(k);
      // An input sent along with those its value as sent depends on (a date on its cadence).
      for (const f of fields)
        if (w[f.key] !== undefined && !isChanged(f.key) && f.meta.sentWith?.some(isChanged))
          changed.push(f.key);
      return changed.length ? writeObject(inputs, w, kc, changed, true) : undefined;
    },
    /** The body of an update that takes the object whole: every updatable input, at its wire path. */
    whole: (want: Partial<I>) => writeObject(inputs, want, kc, updatable, true),
    /** `values` with each one in the kind's canonical form (its `normalize`): as read back, or as sent. */
    canonical: <V extends object>(values: V) =>
      Object.fromEntries(Object.entries(values).map(([k, v]) => [k, normalize ? normalize(k, v) : v])) as V,
  };
}

/**
 * The input a service's error `field` points at: the longest tail of its path that is an input's wire path
 * (either spelling, any depth), else the camelCase of its last part (a wrapper such as `user.` is no input).
 */
export function inputOfField(inputs: AnyObject | undefined, field: string): string {
  const parts = field.split(".").filter((p) => !/^\d+$/.test(p));
  const known = new Map<string, string>();
  const walk = (schema: AnyObject, wire: string, prop: string) => {
    for (const f of [...fieldsOf(schema, asIs), ...fieldsOf(schema, snakeKey)]) {
      for (const path of [f.write, f.read]) {
        const w = `${wire}${path.filter((p) => !/^\d+$/.test(p)).join(".")}`;
        known.set(w, `${prop}${f.key}`);
        const { inner } = unwrap(f.schema);
        const def = defOf(inner);
        const object = def.type === "array" ? unwrap(def.element).inner : inner;
        if (defOf(object).type === "object") walk(object as AnyObject, w && `${w}.`, `${prop}${f.key}.`);
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
