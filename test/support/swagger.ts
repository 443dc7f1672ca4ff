import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";

/**
 * The real service's published Swagger 2.0 document. It is reference data kept beside the repository
 * (`../shared/reference`, where CI clones shared/ too) and never copied into it: a missing file is an
 * error, not a reason to skip.
 */
export const SWAGGER_FILE = resolve(
  __dirname,
  "../../../shared/reference/hosting-platform-api-v1.17.0.swagger.json",
);

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

// biome-ignore lint/suspicious/noExplicitAny: the Swagger document is walked as plain JSON.
type Json = any;

/** One validation failure: where in the body and which schema keyword failed. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message: string;
}

/** What checking one answer against its operation found. */
export interface Verdict {
  /** False when the operation does not document the status (nor a `default` answer). */
  documented: boolean;
  /** False when the documented answer has no schema (429 and 503 are described only). */
  hasSchema: boolean;
  errors: SchemaError[];
}

/** The Swagger's operations and a draft-04 validator of their response schemas. */
export class Swagger {
  readonly doc: Json;
  /** `METHOD /path/{param}` of every operation, in document order. */
  readonly operations: string[] = [];
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(file = SWAGGER_FILE) {
    if (!existsSync(file)) {
      throw new Error(
        `The Swagger reference ${file} is missing: the tests validate the simulator against it. ` +
          "Clone the shared/ folder beside the repository.",
      );
    }
    this.doc = JSON.parse(readFileSync(file, "utf8"));
    for (const [path, item] of Object.entries<Json>(this.doc.paths)) {
      for (const m of METHODS) if (item[m]) this.operations.push(`${m.toUpperCase()} ${path}`);
    }
    // Swagger 2.0 schemas are JSON Schema draft-04 plus annotations: ajv-draft-04 keeps draft-04's
    // semantics (boolean exclusiveMinimum, `id`), ajv-formats checks uuid/date/date-time/uri, and
    // strictSchema stays on so a schema keyword ajv does not know fails loudly instead of being ignored
    // (strictTypes is off: the Swagger writes `properties` without `type: object`, valid JSON Schema).
    this.ajv = new Ajv({ allErrors: true, strictSchema: true, strictTypes: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addKeyword("example");
    this.ajv.addSchema({ id: "swagger.json", definitions: openApi2(this.doc.definitions) });
  }

  /**
   * Checks one answer of `METHOD /template` with `status` and `body` against the document; with
   * `arrayOf`, the body must be an array whose every element validates against the documented schema.
   */
  check(operation: string, status: number, body: unknown, arrayOf = false): Verdict {
    const response = this.response(operation, status);
    if (!response) return { documented: false, hasSchema: false, errors: [] };
    if (!response.schema) return { documented: true, hasSchema: false, errors: [] };
    const key = `${operation} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rebase(openApi2(response.schema)));
      this.validators.set(key, validate);
    }
    if (!arrayOf) {
      validate(body);
      return { documented: true, hasSchema: true, errors: (validate.errors ?? []).map(simplify) };
    }
    if (!Array.isArray(body)) {
      return {
        documented: true,
        hasSchema: true,
        errors: [{ instancePath: "", keyword: "type", message: "must be array" }],
      };
    }
    const errors = body.flatMap((item, i) => {
      validate(item);
      return (validate.errors ?? [])
        .map(simplify)
        .map((e) => ({ ...e, instancePath: `/${i}${e.instancePath}` }));
    });
    return { documented: true, hasSchema: true, errors };
  }

  /** The response object documented for `status` (or `default`), `$ref`s to definitions followed. */
  private response(operation: string, status: number): Json | undefined {
    const [method, path] = operation.split(" ") as [string, string];
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${operation} is not an operation of the Swagger`);
    const r = op.responses[String(status)] ?? op.responses.default;
    if (!r?.$ref) return r;
    return this.doc.definitions[String(r.$ref).replace("#/definitions/", "")];
  }
}

/**
 * Rewrites OpenAPI 2 extensions into plain JSON Schema: `x-nullable: true` admits null (a sibling of
 * `$ref` is ignored by draft-04, so the reference is wrapped), and the other `x-` annotations go.
 */
function openApi2(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(openApi2);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith("x-")) continue;
    // `properties` maps names to schemas: a property may itself be called like a keyword.
    out[k] =
      k === "properties" || k === "definitions"
        ? Object.fromEntries(Object.entries<Json>(v as Json).map(([n, s]) => [n, openApi2(s)]))
        : k === "example"
          ? v
          : openApi2(v);
  }
  if (schema["x-nullable"] !== true) return out;
  if (out.$ref) return { anyOf: [out, { type: "null" }] };
  if (typeof out.type === "string") out.type = [out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** Points `#/definitions/...` references of an operation's schema at the shared definitions. */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/definitions/', '"swagger.json#/definitions/'));
}

function simplify(e: ErrorObject): SchemaError {
  return { instancePath: e.instancePath, keyword: e.keyword, message: e.message ?? "" };
}
