/**
 * From what discovery found to the program's model: each object read by its kind's own `read` (the
 * inputs that reproduce it are the read's inputs, as a refresh records them), named stably from its own
 * name, with references to the other resources of the program and config for ids outside it.
 */
import { compareStrings } from "../provider/core/define";
import { contextOf, toPlain } from "../provider/core/lifecycle";
import type { ReadOnlyClient } from "./client";
import type { Found, LeftOut, World } from "./discover";
import { COVERED, definitionOf, fieldsOf, importIdOf, keyOf, REFS } from "./kinds";

/** A value of the program: plain data, or one of the markers below. */
export type Value = unknown;

/** Another resource's output (`acmeprod.id`). */
export class Ref {
  constructor(
    readonly to: Resource,
    readonly prop: string,
  ) {}
}

/** An id outside the program, given by config (TypeScript) or a variable (YAML). */
export class External {
  constructor(
    readonly key: string,
    readonly value: string,
    readonly what: string,
    readonly label: string,
  ) {}
}

export interface Resource {
  kind: string;
  /** The resource name (`www-acme-example`). */
  name: string;
  /** The resource id. */
  id: string;
  /** The id `pulumi import` takes. */
  importId: string;
  label: string;
  inputs: Record<string, Value>;
  deps: Resource[];
}

export interface Model {
  resources: Resource[];
  externals: External[];
  leftOut: LeftOut[];
}

/** `www.example.com` → `www-example-com`; `*.example.com` → `wildcard-example-com`. */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/\*/g, "wildcard")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "object"
  );
}

/** The resource id and the `read` inputs an import id addresses (the executable provider's parse). */
export function addressOf(
  template: string,
  fields: Record<string, string>,
): { importId: string; id: string; olds: Record<string, string> } {
  const importId = template.replace(/\{(\w+)\}/g, (_m, k: string) => {
    const v = fields[k];
    if (v === undefined) throw new Error(`import id ${template}: no ${k}`);
    return v;
  });
  const { id = importId, ...olds } = fields;
  return { importId, id, olds };
}

const ORDER = new Map<string, number>(COVERED.map((k, i) => [k, i]));

/** Reads every object found (each kind's `read`, on the read-only client) into unresolved resources. */
export async function readAll(
  ro: ReadOnlyClient,
  found: readonly Found[],
  progress: (kind: string, count: number) => void = () => {},
): Promise<{ found: Found; id: string; importId: string; values: Record<string, unknown> }[]> {
  const counts = new Map<string, number>();
  const read = await Promise.all(
    found.map(async (f) => {
      const template = importIdOf(f.kind);
      if (!template) throw new Error(`${f.kind} has no import id`);
      const { importId, id, olds } = addressOf(template, f.fields);
      const def = definitionOf(f.kind);
      const live = await def.read(id, olds, contextOf(def, ro.client, olds));
      if (!live) return undefined;
      const merged: Record<string, unknown> = { ...olds, ...live.outs };
      const values: Record<string, unknown> = {};
      for (const field of fieldsOf(f.kind)) {
        if (field.setting) continue;
        const v = merged[field.key];
        if (v !== undefined) values[field.key] = toPlain(v);
        // A guard on by default (deletionProtection) is written out, so the program shows it; other
        // defaults (a timeout, an empty list) say nothing the program needs.
        else if (field.byDefault === true) values[field.key] = true;
      }
      const n = (counts.get(f.kind) ?? 0) + 1;
      counts.set(f.kind, n);
      progress(f.kind, n);
      return { found: f, id, importId, values: withoutNestedDefaults(def.schema, values) };
    }),
  );
  return read.filter((r) => r !== undefined);
}

function isEmpty(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === false ||
    v === "" ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === "object" && v !== null && Object.keys(v).length === 0)
  );
}

/**
 * `values` without the empty keys inside its lists and objects (`destinationDomainMapping: null`) when the
 * kind's schema gives the same inputs without them: a nested default says nothing the program needs.
 */
function withoutNestedDefaults(
  schema: { safeParse(v: unknown): { data?: unknown } },
  values: Record<string, unknown>,
): Record<string, unknown> {
  const prune = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(prune)
      : typeof v === "object" && v !== null
        ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (isEmpty(x) ? [] : [[k, prune(x)]])))
        : v;
  const pruned = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, prune(v)]));
  const parsed = (v: unknown) => JSON.stringify(schema.safeParse(v).data ?? null);
  return parsed(pruned) === parsed(values) ? pruned : values;
}

/** Whether an input equals its empty default (left out of the program: the default says the same). */
function isEmptyDefault(kind: string, key: string, v: unknown): boolean {
  const field = fieldsOf(kind).find((f) => f.key === key);
  return (
    field !== undefined &&
    isEmpty(field.byDefault) &&
    JSON.stringify(field.byDefault ?? null) === JSON.stringify(v ?? null)
  );
}

/** Names, references and config: the model of the program. */
export function buildModel(
  read: readonly { found: Found; id: string; importId: string; values: Record<string, unknown> }[],
  world: Pick<World, "names" | "leftOut">,
): Model {
  const sorted = [...read].sort(
    (a, b) =>
      (ORDER.get(a.found.kind) ?? 99) - (ORDER.get(b.found.kind) ?? 99) ||
      compareStrings(a.found.qualifier, b.found.qualifier) ||
      compareStrings(a.found.label, b.found.label) ||
      compareStrings(a.id, b.id),
  );
  const taken = new Set<string>();
  const byKey = new Map<string, Resource>();
  const resources: Resource[] = sorted.map((r) => {
    const base = slug(r.found.label);
    const candidates = [base, `${base}-${slug(r.found.qualifier)}`, `${base}-${slug(r.found.kind)}`];
    let name = candidates.find((c) => !taken.has(c));
    for (let n = 2; !name; n++) if (!taken.has(`${base}-${n}`)) name = `${base}-${n}`;
    taken.add(name);
    const res: Resource = {
      kind: r.found.kind,
      name,
      id: r.id,
      importId: r.importId,
      label: r.found.label,
      inputs: r.values,
      deps: [],
    };
    byKey.set(`${r.found.kind}:${keyOf(r.found.kind, r.id, r.values)}`, res);
    return res;
  });

  const externals = new Map<string, External>();
  const usedKeys = new Set<string>();
  const external = (what: string, value: string): External => {
    const known = world.names.get(value.toLowerCase()) ?? world.names.get(value);
    const id = `${what}:${value}`;
    let e = externals.get(id);
    if (!e) {
      const label = known?.label ?? value;
      const base = camel(
        `${known ? label : what} ${what === "report template" ? "template uuid" : `${what} id`}`,
      );
      let key = base;
      for (let n = 2; usedKeys.has(key); n++) key = `${base}${n}`;
      usedKeys.add(key);
      e = new External(key, value, what, label);
      externals.set(id, e);
    }
    return e;
  };

  for (const res of resources) {
    const raw = res.inputs;
    const out: Record<string, Value> = {};
    for (const [key, v] of Object.entries(raw)) {
      if (isEmptyDefault(res.kind, key, v)) continue;
      const rule = REFS[key];
      const one = (x: unknown): Value => {
        if (!rule || typeof x !== "string") return x;
        if (rule.prop === "") return external(rule.target, x);
        const to = byKey.get(`${rule.target}:${rule.key(x, raw)}`);
        if (to && to !== res) {
          if (!res.deps.includes(to)) res.deps.push(to);
          return new Ref(to, rule.prop);
        }
        return world.names.has(x.toLowerCase()) || world.names.has(x)
          ? external(world.names.get(x.toLowerCase())?.what ?? world.names.get(x)!.what, x)
          : x;
      };
      out[key] = Array.isArray(v) && rule ? v.map(one) : one(v);
    }
    res.inputs = out;
  }
  return {
    resources: topological(resources),
    externals: [...externals.values()].sort((a, b) => compareStrings(a.key, b.key)),
    leftOut: [...world.leftOut].sort(
      (a, b) => compareStrings(a.kind, b.kind) || compareStrings(a.label, b.label),
    ),
  };
}

/** Each resource after the ones it refers to, otherwise in the given order (stable). */
function topological(resources: readonly Resource[]): Resource[] {
  const out: Resource[] = [];
  const state = new Map<Resource, "visiting" | "done">();
  const visit = (r: Resource) => {
    if (state.get(r) === "done") return;
    if (state.get(r) === "visiting") throw new Error(`a cycle of references through ${r.kind} ${r.label}`);
    state.set(r, "visiting");
    for (const d of r.deps) visit(d);
    state.set(r, "done");
    out.push(r);
  };
  for (const r of resources) visit(r);
  return out;
}

/** `acme corp account id` → `acmeCorpAccountId`; a leading digit gets an underscore. */
export function camel(text: string): string {
  const words = slug(text).split("-");
  const s = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
  return /^[0-9]/.test(s) ? `_${s}` : s;
}
