/**
 * Errors as a user of the resources reads them: which resource, which step, what the service said,
 * and which input property that points at (the API speaks snake_case, programs speak camelCase).
 */

/** Request wrappers of the API that are not inputs of any resource (`domains`: the bulk create's list). */
const WRAPPERS = new Set(["user", "domains", "custom_options", "largefs_settings", "large_fs_config"]);

/** `bucket_region` → `bucketRegion`; `user.first_name` → `firstName` (the wrapper is not an input). */
export function inputPropertyOf(apiField: string): string {
  const last = apiField.split(".").filter((p) => !/^\d+$/.test(p) && !WRAPPERS.has(p));
  const path = last.length ? last : [apiField];
  return path.map((p) => p.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())).join(".");
}

interface DetailLike {
  field?: string;
}

/** Wraps any failure of a lifecycle step into an Error whose message names the resource and the inputs. */
export function explainError(kind: string, action: string, err: unknown): Error {
  const base = err instanceof Error ? err.message : String(err);
  const details = (err as { errors?: DetailLike[] } | null)?.errors;
  const fields = Array.isArray(details)
    ? [...new Set(details.map((d) => d?.field).filter((f): f is string => typeof f === "string" && f !== ""))]
    : [];
  const hint = fields.length ? ` (input ${fields.map((f) => `"${inputPropertyOf(f)}"`).join(", ")})` : "";
  const prefix = `wpengine:${kind} ${action} failed: `;
  const message = base.startsWith(prefix) ? base : `${prefix}${base}${hint}`;
  const wrapped = new Error(message);
  wrapped.name = "WpEngineResourceError";
  // Keep the status so callers (and the not-found rules) can branch; never the request itself.
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === "number") Object.assign(wrapped, { status });
  return wrapped;
}
