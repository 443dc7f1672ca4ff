/**
 * Writes `provider/kinds/generated.ts`: for every kind, the interface of its class's arguments and of its
 * output properties, each property with its description from the definition as a doc comment (an editor
 * shows it on hover, and the published `.d.ts` keeps it), and the class itself, built from the registry's
 * definition (`resourceClass`), its description and what its delete does as its doc comment. The types are
 * the definition's own (`ArgsOf`, `OutputPropertiesOf`), except a string input with a fixed set of values (a
 * `z.enum`, or a refinement marked with `values`), typed as the union of those values so `tsc` refuses any
 * other. The classes live here, apart from the definitions: the plugin side loads no class.
 *
 * `npm run types` writes the file; `test/unit/types.test.ts` fails when it is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { fieldMeta, type Kind } from "../provider/core/define";

type JsonSchema = { enum?: unknown[]; type?: unknown; description?: string; anyOf?: JsonSchema[] };

export const FILE = "provider/kinds/generated.ts";

const doc = (text: string, indent: string): string => {
  const lines = text.replace(/\*\//g, "*\\/").split("\n");
  return lines.length === 1
    ? `${indent}/** ${lines[0]} */\n`
    : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join("\n")}\n${indent} */\n`;
};

/** The union of a string input's values, or undefined when it takes any string. */
function valuesOf(prop: JsonSchema, marked: readonly string[] | undefined): string | undefined {
  const values = marked ?? (prop.type === "string" && Array.isArray(prop.enum) ? prop.enum : undefined);
  return values?.length ? values.map((v) => JSON.stringify(v)).join(" | ") : undefined;
}

/** The interfaces of one kind. */
export function renderKind(kind: Kind): string {
  const k = kind.kind;
  const json = (schema: Kind["inputs"], io: "input" | "output") =>
    z.toJSONSchema(schema, { io, unrepresentable: "any" }) as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
  const given = json(kind.inputs, "input");
  const meta = fieldMeta(kind.inputs);
  const required = new Set(given.required ?? []);
  let out = `type ${k}Definition = (typeof DEFINITIONS)["${k}"];\ntype ${k}In = ArgsOf<${k}Definition>;\ntype ${k}Out = OutputPropertiesOf<${k}Definition>;\n\n`;
  out += doc(`The arguments of {@link ${k}}: ${kind.description}`, "");
  out += `export interface ${k}Args {\n`;
  for (const [key, prop] of Object.entries(given.properties ?? {})) {
    if ((prop as { not?: unknown }).not !== undefined) continue; // an input the kind refuses (`adopt` of an action)
    if (prop.description) out += doc(prop.description, "  ");
    const union = valuesOf(prop, meta[key]?.values);
    out += `  ${key}${required.has(key) ? "" : "?"}: ${union ? `pulumi.Input<${union}>` : `${k}In["${key}"]`};\n`;
  }
  out += "}\n\n";
  out += doc(
    `The output properties of {@link ${k}}: every input, as stored, and what the service computes.`,
    "",
  );
  out += `export interface ${k}Properties {\n`;
  const stored = json(kind.inputs, "output").properties ?? {};
  const computed = json(kind.outputs, "output").properties ?? {};
  for (const [key, prop] of Object.entries({ ...stored, ...computed })) {
    if ((prop as { not?: unknown }).not !== undefined) continue;
    if (prop.description) out += doc(prop.description, "  ");
    out += `  readonly ${key}: ${k}Out["${key}"];\n`;
  }
  out += "}\n\n";
  out += doc(`${kind.description}\n\nDelete: ${kind.deletes}`, "");
  out += `export const ${k}: ResourceClass<${k}Definition, ${k}Args, ${k}Properties> = resourceClass(DEFINITIONS.${k});\n`;
  return `${out}export type ${k} = InstanceType<typeof ${k}>;\n`;
}

/** The whole file. */
export function renderTypes(kinds: readonly Kind[]): string {
  const sorted = [...kinds].sort((a, b) => (a.kind < b.kind ? -1 : 1));
  const head =
    "// Generated from the definitions by `npm run types` (tools/types.ts): edit provider/kinds/, not this file.\n" +
    'import type * as pulumi from "@pulumi/pulumi";\n' +
    'import { type ArgsOf, type OutputPropertiesOf, type ResourceClass, resourceClass } from "../dynamic/resource";\n' +
    'import { DEFINITIONS } from "../registry";\n';
  return `${head}\n${sorted.map(renderKind).join("\n")}`;
}

if (require.main === module) {
  const { KINDS } = require("../provider/registry") as { KINDS: Record<string, Kind> };
  const root = path.join(__dirname, "..", "..");
  const file = path.join(root, FILE);
  const text = renderTypes(Object.values(KINDS));
  const before = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  })();
  if (before !== text) writeFileSync(file, text);
  process.stdout.write(`types: ${before === text ? "unchanged" : "wrote"} ${FILE}\n`);
}
