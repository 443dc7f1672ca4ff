/**
 * The Pulumi package schema of the executable provider, generated at build time from the definitions'
 * zod schemas (through `z.toJSONSchema`) and the lookups' table: `npm run build` writes
 * `dist/provider/executable/schema.json`, which the provider's `GetSchema` serves. A generator, as Pulumi's
 * providers keep theirs (`pulumi-gen-*`) apart from the provider: the package does not ship it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { CONFIG_KEYS } from "../provider/core/config";
import type { Kind } from "../provider/core/define";
import { homeOf, type PackageJson } from "../provider/executable/home";
import { PACKAGE, resultShape, token } from "../provider/executable/registry";
import { LOOKUP_TABLE } from "../provider/lookups";
import type { Lookup } from "../provider/lookups/common";
import { KINDS } from "../provider/registry";

type Json = Record<string, unknown>;
type JsonSchema = z.core.JSONSchema.JSONSchema;

const ANY = { $ref: "pulumi.json#/Any" };
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Collects the named object and enum types the properties refer to. */
class Types {
  readonly all: Record<string, Json> = {};
  ref(name: string, spec: Json): Json {
    this.all[token(name)] ??= spec;
    return { $ref: `#/types/${token(name)}` };
  }
}

/** A zod-generated JSON Schema as a Pulumi property type; `name` names the types it needs. */
function fromJsonSchema(s: JsonSchema["items"], name: string, types: Types): Json {
  // Boolean and tuple schemas (zod writes neither here) are any value.
  if (typeof s !== "object" || Array.isArray(s)) return ANY;
  // A nullable type (`["string", "null"]`, or an `anyOf` with a null branch) is its other one.
  const nonNull = Array.isArray(s.type)
    ? s.type.filter((t) => t !== "null").map((type) => ({ ...s, type }))
    : s.anyOf?.filter((b) => b.type !== "null");
  if (nonNull) return nonNull.length === 1 ? fromJsonSchema(nonNull[0]!, name, types) : ANY;
  if (s.enum && s.type === "string")
    return types.ref(name, { type: "string", enum: s.enum.map((value) => ({ value })) });
  if (s.const !== undefined) return { type: typeof s.const === "number" ? "number" : typeof s.const };
  if (["string", "boolean", "integer", "number"].includes(String(s.type))) return { type: s.type };
  if (s.type === "array") return { type: "array", items: fromJsonSchema(s.items, name, types) };
  if (s.type !== "object") return ANY;
  if (s.properties && Object.keys(s.properties).length)
    return types.ref(name, { type: "object", ...propertiesOf(s, name, types) });
  return { type: "object", additionalProperties: fromJsonSchema(s.additionalProperties, name, types) };
}

const describe = (s: JsonSchema): Json => (s.description ? { description: s.description } : {});

/** An object schema's properties as Pulumi properties (described, with `more` of each), and its required ones. */
function propertiesOf(
  s: JsonSchema,
  name: string,
  types: Types,
  more: (key: string, prop: JsonSchema) => Json = () => ({}),
): { properties: Json; required: string[] } {
  const properties: Json = {};
  for (const [k, v] of Object.entries(s.properties ?? {}) as [string, JsonSchema][])
    properties[k] = { ...fromJsonSchema(v, `${name}${pascal(k)}`, types), ...describe(v), ...more(k, v) };
  // A property that may be null is not required: Go and Python then type it as one that may be absent.
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  return { properties, required: (s.required ?? []).filter((k) => !nullable(props[k])) };
}

/** Whether a JSON Schema admits null (`["string", "null"]`, or an `anyOf` with a null branch). */
const nullable = (s: JsonSchema | undefined): boolean =>
  !!s && ((Array.isArray(s.type) && s.type.includes("null")) || !!s.anyOf?.some((b) => b.type === "null"));

const json = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" });

/** The schema's `functions`, `wpengine:index:get<Thing>` for each row of the lookups' table. */
function functionSpecs(types: Types): Json {
  const functions: Json = {};
  for (const [name, lookup] of Object.entries(LOOKUP_TABLE) as [string, Lookup][]) {
    // `getInstalls` and `getInstall` both give `InstallInfo` records.
    const record = `${(lookup.list ? name.replace(/s$/, "") : name).replace(/^get/, "")}Info`;
    const result = json(lookup.result.schema, "output");
    const shape = resultShape(lookup);
    const wrapped: JsonSchema = shape === "items" ? { type: "array", items: result } : result;
    const description = shape === "items" ? "Every record, all pages read." : "By metric name.";
    const outputs =
      shape === "record"
        ? propertiesOf(result, record, types)
        : {
            properties: { [shape]: { ...fromJsonSchema(wrapped, record, types), description } },
            required: [shape],
          };
    functions[token(name)] = {
      description: lookup.description,
      inputs: propertiesOf(json(lookup.args, "input"), `${pascal(name)}Args`, types),
      outputs,
    };
  }
  return functions;
}

function resourceSpec(kind: Kind, types: Types): Json {
  const secret = (key: string): Json => (kind.secrets?.includes(key) ? { secret: true } : {});
  // No input declares its `default` (check applies it): `pulumi do ... patch` fills every declared default
  // into the object it patches, so a patch of one input would reset the others (a domain's `primary`).
  const inputs = propertiesOf(json(kind.inputs, "input"), kind.kind, types, (key, prop) => ({
    ...secret(key),
    ...(prop["replaces"] ? { replaceOnChanges: true } : {}),
  }));
  // What state holds: the inputs as stored, then the computed outputs.
  const stored = propertiesOf(json(kind.inputs, "output"), kind.kind, types, secret);
  const computed = propertiesOf(json(kind.outputs, "output"), kind.kind, types, secret);
  const importDoc =
    typeof kind.importId === "string"
      ? `\n\n## Import\n\n\`\`\`sh\npulumi import ${token(kind.kind)} <name> ${kind.importId}\n\`\`\``
      : `\n\nThis resource cannot be imported: ${kind.importId.none}`;
  const listInputs = kind.list && {
    type: "object",
    ...propertiesOf(json(kind.list.inputs, "input"), `${kind.kind}List`, types),
  };
  return {
    description: `${kind.description}\n\nDelete: ${kind.deletes}${importDoc}`,
    ...(listInputs ? { listInputs } : {}),
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: { ...stored.properties, ...computed.properties },
    required: [...new Set([...stored.required, ...computed.required])],
  };
}

/** The repository: the nearest directory above this file with a package.json (this file runs from dist/ too). */
const root = (dir = __dirname): string =>
  existsSync(path.join(dir, "package.json")) ? dir : root(path.dirname(dir));

/** The Python package's README (its PyPI page): tools/sdkgen/python-readme.md with its `{placeholders}` filled. */
function pythonReadme(version: string, home: ReturnType<typeof homeOf>): string {
  const values: Record<string, string> = { ...home, version, releaseUrl: home.releaseUrl(version) };
  const template = readFileSync(path.join(root(), "tools", "sdkgen", "python-readme.md"), "utf8");
  return template.replace(/\{(\w+)\}/g, (all, key: string) => values[key] ?? all);
}

/** Generates the schema of the package as package.json describes it (its version and repository). */
export function generateSchema(pkg: PackageJson): Json {
  const home = homeOf(pkg);
  const types = new Types();
  const resources: Json = {};
  for (const kind of Object.values(KINDS)) resources[token(kind.kind)] = resourceSpec(kind, types);
  const functions = functionSpecs(types);
  const variables: Record<string, Json> = {};
  for (const [name, c] of Object.entries(CONFIG_KEYS))
    variables[name] = {
      type: "string",
      description: c.doc,
      defaultInfo: { environment: [c.env] },
      ...("secret" in c && c.secret ? { secret: true } : {}),
    };
  return {
    name: PACKAGE,
    displayName: "WP Engine",
    version: pkg.version,
    description: "WP Engine hosting and application hosting (executable provider of pulumi-wpengine).",
    // What a Pulumi Registry listing shows (pulumi/registry reads these from the schema).
    publisher: home.owner,
    homepage: pkg.homepage ?? home.url,
    repository: home.url,
    logoUrl: `https://raw.githubusercontent.com/${home.owner}/${home.repo}/main/docs/logo.svg`,
    license: pkg.license ?? "Apache-2.0",
    keywords: ["pulumi", "wpengine", "wordpress", "category/cloud", "kind/native"],
    // The engine downloads a missing plugin from the repository's releases (tools/release.js names the
    // tarballs as the engine asks for them: pulumi-resource-wpengine-v<version>-<os>-<arch>.tar.gz).
    pluginDownloadURL: home.pluginDownloadURL,
    // A go.mod and a pyproject.toml in the generated SDKs.
    meta: { supportPack: true },
    config: { variables },
    provider: {
      description: "The wpengine provider: one API user's credentials and the API URLs.",
      // Without the environment defaults: the SDKs would copy WPE_API_PASSWORD, WPE_PROFILES, ... into an
      // explicit provider's inputs, and so into the state; the plugin reads the environment itself.
      inputProperties: Object.fromEntries(
        Object.entries(variables).map(([k, { defaultInfo: _env, ...v }]) => [k, v]),
      ),
      properties: Object.fromEntries(Object.entries(variables).filter(([, v]) => !(v as Json)["secret"])),
    },
    resources,
    functions,
    types: types.all,
    // The SDKs' names and import paths (`npm run sdks`, `pulumi package gen-sdk`).
    language: {
      python: {
        packageName: "pulumi_wpengine",
        // No `requires`: the generator then asks for the pulumi its code needs (>=3.269.0: the generated
        // code calls pulumi.runtime.exists_resource); a lower bound here would let pip pick one that breaks.
        pythonRequires: ">=3.9",
        readme: pythonReadme(pkg.version, home),
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        inputTypes: "classes-and-dicts",
      },
      go: { importBasePath: home.goImport, generateResourceContainerTypes: true, respectSchemaVersion: true },
      csharp: { rootNamespace: "Pulumi", packageReferences: { Pulumi: "3.*" }, respectSchemaVersion: true },
      // Not generated (this package is the Node.js one); the name keeps clear of it.
      nodejs: { packageName: "@pulumi-wpengine/wpengine", respectSchemaVersion: true },
    },
  };
}

if (require.main === module) {
  // Run from dist/tools/ by `npm run build`.
  const pkg = require(path.join(root(), "package.json")) as PackageJson;
  const schema = path.join(__dirname, "..", "provider", "executable", "schema.json");
  writeFileSync(schema, `${JSON.stringify(generateSchema(pkg), null, 2)}\n`);
}
