/**
 * Generates the Pulumi package schema of the executable provider from the code, at build time
 * (`npm run build` writes `dist/provider/executable/schema.json`, which `GetSchema` serves):
 *
 * - input types, required inputs, defaults and enums from each resource's zod schema (`z.toJSONSchema`);
 * - outputs from the properties the resource class declares (`declare readonly x: pulumi.Output<T>`);
 * - lookups from their table (`provider/lookups/index.ts`, see `functions.ts`);
 * - descriptions from the doc comments, read with the TypeScript compiler. Why not zod `.describe()`:
 *   the code base documents every field with a one-line JSDoc (the style it follows), which editors show
 *   and reviewers read; a second copy of each sentence in `.describe()` would drift from it;
 * - secrets from each definition's `secrets` and the provider's `password`.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import type * as TS from "typescript";
import { z } from "zod";
import { CONFIG_KEYS } from "../core/config";
import type { Kind } from "../core/define";
import { functionSpecs } from "./functions";
import { PACKAGE, RESOURCES, resourceProvider, token } from "./registry";

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
      if (s.properties && Object.keys(s.properties).length) {
        const properties: Json = {};
        for (const [k, v] of Object.entries(s.properties))
          properties[k] = { ...fromJsonSchema(v, `${name}${pascal(k)}`, types), ...describe(v) };
        return types.ref(name, { type: "object", properties, required: s.required ?? [] });
      }
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

const PRIMITIVES = ["string", "boolean", "integer", "number"];

/** The schema of one resource kind, from its definition. */
export function resourceSpec(kind: Kind, types: Types): Json {
  const json = (schema: Kind["inputs"], io: "input" | "output") =>
    z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  const given = json(kind.inputs, "input");
  const stored = json(kind.inputs, "output");
  const computed = json(kind.outputs, "output");
  const secrets = new Set(kind.secrets ?? []);
  const property = (key: string, prop: JsonSchema, withDefault: boolean): Json => ({
    ...fromJsonSchema(prop, `${kind.kind}${pascal(key)}`, types),
    ...describe(prop),
    ...(withDefault && PRIMITIVES.includes(String(prop.type)) && prop.default != null
      ? { default: prop.default }
      : {}),
    ...(secrets.has(key) ? { secret: true } : {}),
    ...(withDefault && (prop as { replaces?: boolean }).replaces ? { replaceOnChanges: true } : {}),
  });
  const inputProperties: Json = {};
  for (const [key, prop] of Object.entries(given.properties ?? {}))
    inputProperties[key] = property(key, prop, true);
  const properties: Json = {};
  for (const [key, prop] of [
    ...Object.entries(stored.properties ?? {}),
    ...Object.entries(computed.properties ?? {}),
  ])
    properties[key] = property(key, prop, false);
  const importDoc =
    typeof kind.importId === "string"
      ? `\n\n## Import\n\n\`\`\`sh\npulumi import ${token(kind.kind)} <name> ${kind.importId}\n\`\`\``
      : `\n\nThis resource cannot be imported: ${kind.importId.none}`;
  return {
    description: `${kind.description}\n\nDelete: ${kind.deletes}${importDoc}`,
    inputProperties,
    requiredInputs: given.required ?? [],
    properties,
    required: [...new Set([...(stored.required ?? []), ...(computed.required ?? [])])],
  };
}

/** The doc comment of a declaration, as plain text (JSDoc tags such as `@example` dropped). */
function docOf(ts: typeof TS, checker: TS.TypeChecker, sym: TS.Symbol | undefined): string | undefined {
  if (!sym) return undefined;
  const text = ts.displayPartsToString(sym.getDocumentationComment(checker)).trim();
  return text || undefined;
}

/** A TypeScript type (a declared output, a lookup's result) as a Pulumi property type. */
function fromTsType(ts: typeof TS, checker: TS.TypeChecker, t: TS.Type, name: string, types: Types): Json {
  if (t.isUnion()) {
    const rest = t.types.filter((u) => !(u.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
    if (rest.every((u) => u.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (rest.every((u) => u.flags & ts.TypeFlags.StringLike)) return { type: "string" };
    if (rest.every((u) => u.flags & ts.TypeFlags.NumberLike)) return { type: "number" };
    return rest.length === 1 ? fromTsType(ts, checker, rest[0]!, name, types) : ANY;
  }
  if (t.flags & ts.TypeFlags.StringLike) return { type: "string" };
  if (t.flags & ts.TypeFlags.NumberLike) return { type: "number" };
  if (t.flags & ts.TypeFlags.BooleanLike) return { type: "boolean" };
  if (checker.isArrayType(t)) {
    const [item] = checker.getTypeArguments(t as TS.TypeReference);
    return { type: "array", items: item ? fromTsType(ts, checker, item, name, types) : ANY };
  }
  if (t.flags & ts.TypeFlags.Object) {
    const index = t.getStringIndexType();
    const props = checker.getPropertiesOfType(t);
    if (index && props.length === 0)
      return { type: "object", additionalProperties: fromTsType(ts, checker, index, name, types) };
    const symName = (t.aliasSymbol ?? t.getSymbol())?.getName();
    const typeName = symName && !symName.startsWith("__") ? symName : name;
    if (types.all[token(typeName)]) return { $ref: `#/types/${token(typeName)}` };
    const spec = objectOf(ts, checker, t, typeName, types);
    return types.ref(typeName, { type: "object", ...spec });
  }
  return ANY;
}

/** The properties and required keys of an object type. */
function objectOf(
  ts: typeof TS,
  checker: TS.TypeChecker,
  t: TS.Type,
  name: string,
  types: Types,
): { properties: Json; required: string[] } {
  // Registered first, so a type that refers to itself ends.
  types.all[token(name)] ??= { type: "object" };
  const properties: Json = {};
  const required: string[] = [];
  for (const p of checker.getPropertiesOfType(t)) {
    const pt = checker.getNonNullableType(checker.getTypeOfSymbol(p));
    properties[p.name] = {
      ...fromTsType(ts, checker, pt, `${name}${pascal(p.name)}`, types),
      ...(docOf(ts, checker, p) ? { description: docOf(ts, checker, p) } : {}),
    };
    if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
  }
  const spec = { properties, required };
  types.all[token(name)] = { type: "object", ...spec };
  return spec;
}

/** Generates the schema; `root` is the repository (the TypeScript sources are read from it). */
export function generateSchema(root: string, version: string): Json {
  const ts: typeof TS = require("typescript");
  const files = Object.keys(RESOURCES).map((k) => path.join(root, `provider/kinds/${k}.ts`));
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) => {
    const sf = program.getSourceFile(path.join(root, file));
    const mod = sf && checker.getSymbolAtLocation(sf);
    if (!mod) throw new Error(`schema: cannot read ${file}`);
    return new Map(checker.getExportsOfModule(mod).map((s) => [s.getName(), s]));
  };
  const types = new Types();
  const resources: Json = {};

  for (const kind of Object.keys(RESOURCES)) {
    const maybeKind = resourceProvider(kind).definition as Partial<Kind>;
    if (maybeKind.outputs) {
      resources[token(kind)] = resourceSpec(maybeKind as Kind, types);
      continue;
    }
    const exported = exportsOf(`provider/kinds/${kind}.ts`);
    const cls = exported.get(kind);
    const args = exported.get(`${kind}Args`);
    if (!cls || !args)
      throw new Error(`schema: provider/kinds/${kind}.ts exports no ${kind} class or ${kind}Args`);
    const instance = checker.getDeclaredTypeOfSymbol(cls);
    const argsType = checker.getDeclaredTypeOfSymbol(args);
    const { definition } = resourceProvider(kind);
    const secrets = new Set<string>(definition.secrets ?? []);
    const json = z.toJSONSchema(definition.schema, { io: "input", unrepresentable: "any" }) as JsonSchema;

    const inputProperties: Json = {};
    for (const [key, prop] of Object.entries(json.properties ?? {})) {
      const doc =
        docOf(ts, checker, argsType.getProperty(key)) ?? docOf(ts, checker, instance.getProperty(key));
      const isPrimitive = ["string", "boolean", "integer", "number"].includes(String(prop.type));
      inputProperties[key] = {
        ...fromJsonSchema(prop, `${kind}${pascal(key)}`, types),
        ...(doc ? { description: doc } : describe(prop)),
        ...(isPrimitive && prop.default !== undefined && prop.default !== null
          ? { default: prop.default }
          : {}),
        ...(secrets.has(key) ? { secret: true } : {}),
      };
    }
    const properties: Json = {};
    const required: string[] = [];
    for (const p of checker.getPropertiesOfType(instance)) {
      const decl = p.valueDeclaration;
      // Only the outputs this class declares (`urn`, `id` and the base class's members are the engine's).
      if (!decl || !ts.isPropertyDeclaration(decl) || decl.parent.name?.getText() !== kind) continue;
      const outputType = checker.getTypeOfSymbol(p);
      // `pulumi.Output<T>` is an alias of an intersection: T is the alias's type argument.
      const inner = outputType.aliasTypeArguments?.[0];
      const doc = docOf(ts, checker, p);
      properties[p.name] = {
        ...((inputProperties[p.name] as Json | undefined) ??
          (inner ? fromTsType(ts, checker, inner, `${kind}${pascal(p.name)}`, types) : ANY)),
        ...(doc ? { description: doc } : {}),
        ...(secrets.has(p.name) ? { secret: true } : {}),
      };
      delete (properties[p.name] as Json)["default"];
      if (
        inner &&
        !(inner.flags & ts.TypeFlags.Undefined) &&
        !(inner.isUnion() && inner.types.some((u) => u.flags & ts.TypeFlags.Undefined))
      )
        required.push(p.name);
    }
    const importId = RESOURCES[kind as keyof typeof RESOURCES];
    const importDoc = importId
      ? `\n\n## Import\n\n\`\`\`sh\npulumi import ${token(kind)} <name> ${importId}\n\`\`\``
      : "\n\nThis resource cannot be imported.";
    resources[token(kind)] = {
      description: `${docOf(ts, checker, cls) ?? kind}${importDoc}`,
      inputProperties,
      requiredInputs: json.required ?? [],
      properties,
      required,
    };
  }

  const functions = functionSpecs(types);

  const variables: Json = {};
  for (const [name, c] of Object.entries(CONFIG_KEYS)) {
    variables[name] = {
      type: "string",
      description: c.doc,
      defaultInfo: { environment: [c.env] },
      ...("secret" in c && c.secret ? { secret: true } : {}),
    };
  }
  return {
    name: PACKAGE,
    displayName: "WP Engine",
    version,
    description: "WP Engine hosting and application hosting (executable provider of pulumi-wpengine).",
    license: "Apache-2.0",
    keywords: ["pulumi", "wpengine", "category/cloud"],
    config: { variables },
    provider: {
      description: "The wpengine provider: one API user's credentials and the API URLs.",
      inputProperties: variables,
      properties: Object.fromEntries(Object.entries(variables).filter(([k]) => k !== "password")),
    },
    resources,
    functions,
    types: types.all,
    language: {
      python: { packageName: "pulumi_wpengine", requires: { pulumi: ">=3.0.0,<4.0.0" } },
      go: {
        importBasePath: "github.com/pulumi-wpengine/sdk/go/wpengine",
        generateResourceContainerTypes: true,
      },
      csharp: { rootNamespace: "PulumiWpEngine", packageReferences: { Pulumi: "3.*" } },
      nodejs: { packageName: "@pulumi-wpengine/wpengine" },
    },
  };
}

if (require.main === module) {
  // Run from dist/provider/executable/ by `npm run build`: the repository is three levels up.
  const root = path.resolve(__dirname, "..", "..", "..");
  const { version } = require(path.join(root, "package.json")) as { version: string };
  writeFileSync(
    path.join(__dirname, "schema.json"),
    `${JSON.stringify(generateSchema(root, version), null, 2)}\n`,
  );
}
