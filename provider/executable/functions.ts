import { z } from "zod";
import { LOOKUP_TABLE } from "../lookups";
import type { Lookup } from "../lookups/common";
import { fromJsonSchema, type Json, type JsonSchema, pascal, propertiesOf, type Types } from "./jsonSchema";
import { resultShape } from "./registry";

const json = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;

/** The schema's `functions`, `wpengine:index:get<Thing>` for each row of the lookups' table. */
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
