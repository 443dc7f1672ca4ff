import { z } from "zod";
import type { Kind } from "../core/define";
import type { Lookup } from "../lookups/common";
import { KINDS } from "../registry";

/** The package name of the Pulumi schema and the first segment of every type token. */
export const PACKAGE = "wpengine";

/** `wpengine:index:<Kind>` for a resource, `wpengine:index:get<Thing>` for a lookup. */
export const token = (name: string): string => `${PACKAGE}:index:${name}`;

/** The `<Kind>` or `get<Thing>` of a `wpengine:index:` token, "" for any other token. */
export const tokenName = (tok: string): string => (tok.startsWith(token("")) ? tok.split(":")[2]! : "");

/** The lifecycle methods of a kind (the registry's; the same its dynamic class uses). */
export function resourceProvider(kind: string): Kind["provider"] {
  if (!Object.hasOwn(KINDS, kind)) throw new Error(`wpengine: unknown resource type ${token(kind)}`);
  return KINDS[kind]!.provider;
}

/** Turns an import id into the resource id and the inputs `read` needs, or says what the id looks like. */
export function parseImportId(kind: string, importId: string): { id: string; olds: Record<string, string> } {
  resourceProvider(kind);
  const format = KINDS[kind]!.importId;
  if (typeof format !== "string")
    throw new Error(`wpengine: ${token(kind)} cannot be imported: ${format.none}`);
  const pattern = format.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)"); // each `{field}` a group of its name
  const match = new RegExp(`^${pattern}$`).exec(importId);
  if (!match) throw new Error(`wpengine: the import id of ${token(kind)} is ${format}, not ${importId}`);
  const { id = importId, ...olds } = { ...match.groups };
  return { id, olds };
}

/** The import id of an object a listing found: the kind's `importId` with its fields filled in. */
export const importIdOf = (kind: string, fields: Record<string, string>): string =>
  (KINDS[kind]!.importId as string).replace(/\{(\w+)\}/g, (_m, name: string) => fields[name] ?? "");

/**
 * How a lookup's result travels in an invoke's return, always an object (a Pulumi function returns one in
 * every language): a list as `{ items }`, a map (keyed by metric) as `{ value }`, a record as itself.
 */
export const resultShape = (lookup: Lookup): "items" | "value" | "record" =>
  lookup.list ? "items" : lookup.result.schema instanceof z.ZodRecord ? "value" : "record";
