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

/**
 * What a 401 means once `preview` has proved the credentials: most often a rotation, where `refresh`,
 * `preview --refresh` and `destroy` still run with the provider configuration stored by the last deployment (README, "Where
 * credentials are stored").
 */
export const STALE_CREDENTIALS =
  "The API refused the credentials. After a change of wpengine:username or wpengine:password, " +
  "`pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` use the configuration stored by the last " +
  "deployment: run them with --run-program (or one `pulumi up` first), or keep the credentials in WPE_API_USER_ID " +
  "and WPE_API_PASSWORD";

/**
 * The one way back after a run killed mid-apply (docs/recover.md; test/cli/crash.test.ts runs exactly this):
 * it adopts only what the killed run created, for the messages a user meets after a crash.
 */
export const AFTER_A_CRASH = "pulumi-wpengine recover";

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
  const status = (err as { status?: unknown } | null)?.status;
  const hint = fields.length
    ? ` (input ${fields.map((f) => `"${inputPropertyOf(f)}"`).join(", ")})`
    : status === 401
      ? `. ${STALE_CREDENTIALS}`
      : "";
  const prefix = `wpengine:${kind} ${action} failed: `;
  const message = base.startsWith(prefix) ? base : `${prefix}${base}${hint}`;
  const wrapped = new Error(message);
  wrapped.name = "WpEngineResourceError";
  // Keep the status so callers (and the not-found rules) can branch; never the request itself.
  if (typeof status === "number") Object.assign(wrapped, { status });
  return wrapped;
}

/**
 * A create that found its object already on the service: what it found, how to take this one over, and
 * the step that recovers a whole stack after an interrupted run (it adopts what that run created, and
 * nothing else). Marked `alreadyExists` (the create journal records that nothing was made).
 */
export function alreadyExists(found: string, takeOver = "set adopt: true to take it over"): Error {
  return Object.assign(
    new Error(
      `${found}; ${takeOver}, or, after an interrupted run of this stack, run \`${AFTER_A_CRASH}\` ` +
        "(it adopts only what that run created)",
    ),
    { alreadyExists: true },
  );
}
