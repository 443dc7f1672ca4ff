/**
 * Errors as a user of the resources reads them: which resource, which step, what the service said,
 * and which input property that points at (the API speaks snake_case, programs speak camelCase).
 */

import type { z } from "zod";
import { WpEngineConnectionError } from "../../sdk";
import { inputOfField } from "./wire";

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

/** How many times a step was sent before it failed for good, by its final error (see {@link noteSends}). */
const SENDS = new WeakMap<object, number>();

/** Records that the step whose final error is `err` was sent `n` times: the message says it once, counted. */
export function noteSends(err: unknown, n: number): void {
  if (n > 1 && typeof err === "object" && err !== null) SENDS.set(err, n);
}

/**
 * What the user does next after a step the service refused before acting (busy, or unreachable), by
 * action: nothing was made or changed, so the same command again is the whole recovery.
 */
const NOTHING_DONE: Record<string, string> = {
  create: "Nothing was created: run `pulumi up` again",
  update: "Nothing was changed: run `pulumi up` again",
  delete: "Nothing was deleted: run the same command again",
};

/**
 * The next step for a failure that certainly did nothing (the caller knows: a lost answer is said
 * otherwise), or `undefined` for an action without one. An unreachable service also names the setting.
 */
export function nothingDone(action: string, err: unknown): string | undefined {
  const next = NOTHING_DONE[action];
  if (!next) return undefined;
  return err instanceof WpEngineConnectionError
    ? `${next} once the API answers (check wpengine:apiUrl and wpengine:appHostingUrl, and the network)`
    : `${next} once the service answers`;
}

/**
 * Wraps any failure of a lifecycle step into an Error whose message names the resource and the inputs
 * (the service's fields named by the kind's `inputs`, see `inputOfField`), how many times the step was sent
 * when more than once, and `next` (the step that follows) when given.
 */
export function explainError(
  kind: string,
  action: string,
  err: unknown,
  next?: string,
  inputs?: z.ZodObject,
): Error {
  const base = err instanceof Error ? err.message : String(err);
  const details = (err as { errors?: DetailLike[] } | null)?.errors;
  const fields = Array.isArray(details)
    ? [...new Set(details.map((d) => d?.field).filter((f): f is string => typeof f === "string" && f !== ""))]
    : [];
  const status = (err as { status?: unknown } | null)?.status;
  const hint = fields.length
    ? ` (input ${fields.map((f) => `"${inputOfField(inputs, f)}"`).join(", ")})`
    : status === 401
      ? `. ${STALE_CREDENTIALS}`
      : "";
  const prefix = `wpengine:${kind} ${action} failed: `;
  const sends = typeof err === "object" && err !== null ? SENDS.get(err) : undefined;
  const counted = sends ? ` (sent ${sends} times)` : "";
  const message = base.startsWith(prefix)
    ? base
    : `${prefix}${base}${counted}${hint}${next ? `. ${next}.` : ""}`;
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

/**
 * The error with each `errors[].field` of the service renamed to the input it is about (the service
 * says `appId` where the input is `name`), so the message names the input to fix.
 */
export function withInputFields(err: unknown, rename: Record<string, string>): unknown {
  const details = (err as { errors?: unknown } | null)?.errors;
  if (!(err instanceof Error) || !Array.isArray(details)) return err;
  const errors = details.map((d: { field?: unknown }) => {
    if (typeof d?.field !== "string") return d;
    const [head, ...rest] = d.field.split(".");
    const to = rename[head ?? ""];
    return to ? { ...d, field: [to, ...rest].join(".") } : d;
  });
  const { status, method } = err as { status?: unknown; method?: unknown };
  return Object.assign(new Error(err.message), { status, method, errors });
}
