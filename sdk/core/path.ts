import { WpEngineValidationError } from "./errors";

/**
 * Tagged template that builds a URL path with every interpolated parameter percent-encoded, so an id
 * can never add a segment, a query or a fragment: path`/installs/${id}/domains`.
 * Empty parameters and the dot segments `.`/`..` are refused (they would address another resource).
 */
export function path(strings: TemplateStringsArray, ...params: unknown[]): string {
  let out = strings[0] ?? "";
  params.forEach((param, i) => {
    if ((typeof param !== "string" && typeof param !== "number") || param === "") {
      throw new WpEngineValidationError("path", [
        { path: `param ${i}`, message: `expected a non-empty identifier in ${strings.join("{}")}` },
      ]);
    }
    const text = String(param);
    if (text === "." || text === "..") {
      throw new WpEngineValidationError("path", [
        { path: `param ${i}`, message: `"${text}" is not a valid identifier` },
      ]);
    }
    out += encodeURIComponent(text) + (strings[i + 1] ?? "");
  });
  return out;
}
