/** zod's JSON Schemas as Pulumi schema property types, for the resources' schema and the functions'. */
import { token } from "./registry";

export type Json = Record<string, unknown>;
export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  default?: unknown;
  description?: string;
};

const ANY = { $ref: "pulumi.json#/Any" };
export const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Collects the named object and enum types the properties refer to. */
export class Types {
  readonly all: Record<string, Json> = {};
  ref(name: string, spec: Json): Json {
    this.all[token(name)] ??= spec;
    return { $ref: `#/types/${token(name)}` };
  }
}

/** A zod-generated JSON Schema as a Pulumi property type; `name` names the types it needs. */
export function fromJsonSchema(s: JsonSchema, name: string, types: Types): Json {
  if (Array.isArray(s.type)) {
    const rest = s.type.filter((t) => t !== "null");
    return rest.length === 1 ? fromJsonSchema({ ...s, type: rest[0]! }, name, types) : ANY;
  }
  if (s.anyOf) {
    const rest = s.anyOf.filter((b) => b.type !== "null");
    return rest.length === 1 ? fromJsonSchema(rest[0]!, name, types) : ANY;
  }
  if (s.enum && s.type === "string")
    return types.ref(name, { type: "string", enum: s.enum.map((value) => ({ value })) });
  if (s.const !== undefined) return { type: typeof s.const === "number" ? "number" : typeof s.const };
  switch (s.type) {
    case "string":
    case "boolean":
    case "integer":
    case "number":
      return { type: s.type };
    case "array":
      return { type: "array", items: s.items ? fromJsonSchema(s.items, name, types) : ANY };
    case "object": {
      if (s.properties && Object.keys(s.properties).length)
        return types.ref(name, { type: "object", ...propertiesOf(s, name, types) });
      const extra = s.additionalProperties;
      return {
        type: "object",
        additionalProperties: typeof extra === "object" ? fromJsonSchema(extra, name, types) : ANY,
      };
    }
    default:
      return ANY;
  }
}

export const describe = (s: JsonSchema): Json => (s.description ? { description: s.description } : {});

/** An object schema's properties as Pulumi properties (described), and its required ones. */
export function propertiesOf(
  s: JsonSchema,
  name: string,
  types: Types,
): { properties: Json; required: string[] } {
  const properties: Json = {};
  for (const [k, v] of Object.entries(s.properties ?? {}))
    properties[k] = { ...fromJsonSchema(v, `${name}${pascal(k)}`, types), ...describe(v) };
  return { properties, required: s.required ?? [] };
}
