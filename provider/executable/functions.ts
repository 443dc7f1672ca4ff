/**
 * The `functions` section of the executable provider's schema, from the lookups' table: each row's
 * description, its arguments and its result, through `z.toJSONSchema`. What an invoke returns is always
 * an object (a Pulumi function returns one in every language): see `resultShape` in `registry.ts`.
 */
import { z } from "zod";
import { LOOKUP_TABLE } from "../lookups";
import type { Lookup } from "../lookups/common";
import { describe, fromJsonSchema, type Json, type JsonSchema, pascal, type Types } from "./jsonSchema";
import { resultShape } from "./registry";

const json = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;

/** The properties of an object schema as Pulumi properties; `name` names the types they need. */
function propertiesOf(s: JsonSchema, name: string, types: Types): { properties: Json; required: string[] } {
  const properties: Json = {};
  for (const [key, prop] of Object.entries(s.properties ?? {}))
    properties[key] = { ...fromJsonSchema(prop, `${name}${pascal(key)}`, types), ...describe(prop) };
  return { properties, required: s.required ?? [] };
}

/** The schema's `functions`, token `wpengine:index:get<Thing>` for each row of the table. */
export function functionSpecs(types: Types): Json {
  const functions: Json = {};
  for (const [name, lookup] of Object.entries(LOOKUP_TABLE) as [string, Lookup][]) {
    // `getInstalls` and `getInstall` both give `InstallInfo` records.
    const record = `${(lookup.list ? name.replace(/s$/, "") : name).replace(/^get/, "")}Info`;
    const result = json(lookup.result.schema, "output");
    const shape = resultShape(lookup);
    const outputs =
      shape === "record"
        ? propertiesOf(result, record, types)
        : {
            properties: {
              [shape]: {
                ...(shape === "items"
                  ? { type: "array", items: fromJsonSchema(result, record, types) }
                  : fromJsonSchema(result, record, types)),
                description: shape === "items" ? "Every record, all pages read." : "By metric name.",
              },
            },
            required: [shape],
          };
    functions[`wpengine:index:${name}`] = {
      description: lookup.description,
      inputs: propertiesOf(json(lookup.args, "input"), `${pascal(name)}Args`, types),
      outputs,
    };
  }
  return functions;
}
