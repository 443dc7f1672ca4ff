/**
 * What the importer reads from the kinds' definitions: which kinds it brings in (each with an import id and
 * no `notImported`), in program order, why the others are left out (`notImported`, or `importId.none`), and
 * which inputs name another object (a reference when that object is in the program).
 */
import { z } from "zod";
import { fieldMeta, type Kind } from "../provider/core/define";
import { KINDS } from "../provider/registry";

/** The kind's definition. */
export function definitionOf(kind: string): Kind {
  const def = KINDS[kind];
  if (!def) throw new Error(`no kind ${kind}`);
  return def;
}

/** Every kind the provider serves. */
export function allKinds(): string[] {
  return Object.keys(KINDS).sort();
}

/** The kind's import id (`{installId}/{id}`), or `undefined` when it has none. */
export function importIdOf(kind: string): string | undefined {
  const own = definitionOf(kind).importId;
  return typeof own === "string" ? own : undefined;
}

/** Why the importer leaves a kind out, or `undefined` when it brings the kind's objects in. */
function leftOutBecause(kind: Kind): string | undefined {
  return typeof kind.importId === "string" ? kind.notImported : kind.importId.none;
}

/** The kinds left out, and why (the generated README repeats it). */
export const LEFT_OUT: Readonly<Record<string, string>> = Object.fromEntries(
  allKinds().flatMap((k) => {
    const why = leftOutBecause(definitionOf(k));
    return why === undefined ? [] : [[k, why]];
  }),
);

/** An input field as the importer renders it. */
export interface Field {
  key: string;
  /** A provider setting (adopt, timeoutSeconds): never written, its default stays. */
  setting: boolean;
  secret: boolean;
  /** The value check gives it when absent (`undefined`: required or optional without one). */
  byDefault: unknown;
  optional: boolean;
}

/** The input fields of a kind, from its zod inputs and their `.meta()` markers. */
export function fieldsOf(kind: string): Field[] {
  const { inputs } = definitionOf(kind);
  const meta = fieldMeta(inputs);
  return Object.entries(inputs.shape).map(([key, type]) => {
    const t = type as { safeParse(v: unknown): { success: boolean; data?: unknown } };
    const empty = t.safeParse(undefined);
    const m = meta[key] ?? {};
    return {
      key,
      setting: m.setting === true,
      secret: m.secret === true,
      byDefault: empty.success ? empty.data : undefined,
      optional: empty.success,
    };
  });
}

const inputSchemas = new Map<string, z.core.JSONSchema.JSONSchema>();

/** The kind's inputs as JSON Schema, as the executable provider's schema (and so the generated SDKs) reads them. */
export function inputSchemaOf(kind: string): z.core.JSONSchema.JSONSchema {
  let schema = inputSchemas.get(kind);
  if (!schema) {
    schema = z.toJSONSchema(definitionOf(kind).inputs, { io: "input", unrepresentable: "any" });
    inputSchemas.set(kind, schema);
  }
  return schema;
}

/** An input that names another object: of which kind, by which of its outputs, and how to find it. */
export interface RefRule {
  /** The kind referred to, or an outside thing (`account`, `report template`) given by config. */
  target: string;
  /** The output of the target resource that holds the value. */
  prop: string;
  /** The lookup key of the target from the referring object's values. */
  key(value: string, values: Record<string, unknown>): string;
}

const byId = (target: string): RefRule => ({ target, prop: "id", key: (v) => v.toLowerCase() });

/** The identity key of a `kind` object from `values`; `name`, when given, stands for its own (last) field. */
function identityKey(kind: string, values: Record<string, unknown>, name?: string): string {
  const fields = definitionOf(kind).identity?.fields ?? [];
  return fields
    .map((f, i) => (name !== undefined && i === fields.length - 1 ? name : String(values[f])))
    .join("/")
    .toLowerCase();
}

/**
 * A reference to a kind addressed by its name in its parent (an app, an environment: their ids are paths):
 * the referring object gives the parent with the same inputs.
 */
const byName = (target: string): RefRule => ({
  target,
  prop: "name",
  key: (v, o) => identityKey(target, o, v),
});

/** Inputs that refer to other objects, by input name (the same name means the same thing in every kind). */
export const REFS: Readonly<Record<string, RefRule>> = {
  accountId: { target: "account", prop: "", key: (v) => v.toLowerCase() },
  siteId: byId("Site"),
  installId: byId("Install"),
  installIds: byId("Install"),
  redirectTo: byId("Domain"),
  domainId: byId("Domain"),
  templateUuid: { target: "report template", prop: "", key: (v) => v.toLowerCase() },
  appId: byName("App"),
  environmentId: byName("Environment"),
};

/**
 * The kinds brought in, in the order the program declares them: what others refer to comes first (by the
 * depth of its references, then by name).
 */
export const COVERED: readonly string[] = (() => {
  const covered = allKinds().filter((k) => leftOutBecause(definitionOf(k)) === undefined);
  const depth = new Map<string, number>();
  const depthOf = (kind: string, seen: readonly string[]): number => {
    const known = depth.get(kind);
    if (known !== undefined) return known;
    const targets = fieldsOf(kind)
      .map((f) => REFS[f.key]?.target)
      .filter((t): t is string => t !== undefined && t !== kind && covered.includes(t) && !seen.includes(t));
    const d = Math.max(-1, ...targets.map((t) => depthOf(t, [...seen, kind]))) + 1;
    depth.set(kind, d);
    return d;
  };
  return covered.sort((a, b) => depthOf(a, []) - depthOf(b, []) || (a < b ? -1 : 1));
})();

/**
 * How other objects look a resource up (the counterpart of {@link REFS}' keys): by id, or, for a kind
 * others refer to by name (an app, an environment), by its identity.
 */
export function keyOf(kind: string, id: string, values: Record<string, unknown>): string {
  const named = Object.values(REFS).some((r) => r.target === kind && r.prop === "name");
  return named ? identityKey(kind, values) : id.toLowerCase();
}
