/** Errors as a user reads them: which resource, which step, what the service said, and about which input. */
import type { z } from "zod";
import {
  type WpEngineApiError,
  WpEngineConnectionError,
  WpEngineTimeoutError,
  WpEngineValidationError,
} from "../../sdk";
import { isSea, PROGRAM } from "../../sdk/core/process";
import { CONFIG_KEYS, currentProviderInstance, originOf, profileSources, urlSource } from "./config";
import { underPulumiDo } from "./journal";
import { camelKey, inputOfField } from "./wire";

/** How `pulumi refresh` and the others take a change of credentials kept in stack config (README, credentials). */
const STORED =
  "`pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` use the configuration stored by the last " +
  "deployment: run them with --run-program (or one `pulumi up` first)";

/** A 401 once preview proved the credentials (most often a rotation): whose, where from, what next. */
function refused(): string {
  const instance = currentProviderInstance();
  if (instance.profile === undefined) {
    if (underPulumiDo())
      return "The API refused the credentials: check WPE_API_USER_ID and WPE_API_PASSWORD (or --wpengine:username and --wpengine:password)";
    // From the environment (read afresh by every command), the stored configuration has nothing to do with it.
    const origins = [originOf("username", instance.config), originOf("password", instance.config)];
    return origins[1] === CONFIG_KEYS.password.env && process.env[CONFIG_KEYS.password.env]
      ? `The API refused the credentials from ${origins.join(" and ")}: check them`
      : `The API refused the credentials. After a change of wpengine:username or wpengine:password, ${STORED}, or keep the credentials in WPE_API_USER_ID and WPE_API_PASSWORD`;
  }
  const from = instance.credentialsFrom ?? profileSources(instance.profile);
  const stored = !underPulumiDo() && from.startsWith(CONFIG_KEYS.profiles.key);
  return (
    `The API refused the credentials of ${ranAs(instance)}, from ${from}: check ${from.includes(" and ") ? "them" : "it"}` +
    (stored ? `. After a change of ${CONFIG_KEYS.profiles.key}, ${STORED}` : "")
  );
}

/** The one way back after a killed run (docs/recover.md); the self-contained plugin's by its path. */
export const AFTER_A_CRASH = `${isSea() ? process.execPath : PROGRAM} recover`;

/** How many times a step was sent before it failed for good, by its final error (see {@link noteSends}). */
const SENDS = new WeakMap<object, number>();

/** Records that the step whose final error is `err` was sent `n` times: the message says it once, counted. */
export function noteSends(err: unknown, n: number): void {
  if (n > 1 && typeof err === "object" && err !== null) SENDS.set(err, n);
}

/** What to do after a step the service refused before acting (busy, unreachable): the same command again. */
const NOTHING_DONE: Record<string, string> = {
  create: "Nothing was created: run `pulumi up` again",
  update: "Nothing was changed: run `pulumi up` again",
  delete: "Nothing was deleted: run the same command again",
};

/** The next step after a failure that certainly did nothing (an unreachable API's URL: {@link unreachable}). */
export function nothingDone(action: string, err: unknown): string | undefined {
  const when = err instanceof WpEngineConnectionError ? "once the API answers" : "once the service answers";
  return NOTHING_DONE[action] && `${NOTHING_DONE[action]} ${when}`;
}

/** Where the URL a request could not reach (or had no answer from) came from, for every step that sends. */
export const urlNote = (err: WpEngineConnectionError | WpEngineTimeoutError): string =>
  `${urlSource(err.api === "appHosting" ? "appHostingUrl" : "apiUrl")}. Check it and the network`;

/** What a connection failure or a timeout says of its URL, as a sentence to append ("" for any other error). */
export function unreachable(err: unknown): string {
  if (!(err instanceof WpEngineConnectionError || err instanceof WpEngineTimeoutError)) return "";
  const api = err.api === "appHosting" ? "App Hosting's API" : "the API";
  return `. It was sent to ${api} at ${err.baseUrl ?? "its URL"}. ${urlNote(err)}`;
}

/** A lifecycle step's failure as a message naming the resource, the inputs, how many sends, and `next`. */
export function explainError(
  kind: string,
  action: string,
  err: unknown,
  next?: string,
  inputs?: z.ZodObject,
): Error {
  const base = err instanceof Error ? err.message : String(err);
  const { errors: details, status } = (err ?? {}) as { errors?: { field?: string }[]; status?: unknown };
  const fields = Array.isArray(details)
    ? [...new Set(details.map((d) => d?.field).filter((f): f is string => typeof f === "string" && f !== ""))]
    : [];
  const hint = fields.length
    ? ` (input ${fields.map((f) => `"${inputOfField(inputs, f)}"`).join(", ")})`
    : status === 404
      ? notFoundHint(err, inputs)
      : accessHint(status) || unreachable(err);
  const sends = typeof err === "object" && err !== null ? SENDS.get(err) : undefined;
  const counted = sends ? ` (sent ${sends} times)` : "";
  const message = `wpengine:${kind} ${action} failed: ${base}${counted}${hint}${next ? `. ${next}.` : ""}`;
  // The status kept so callers (and the not-found rules) can branch; never the request itself.
  const kept = typeof status === "number" ? { status } : {};
  return Object.assign(new Error(message), { name: "WpEngineResourceError", ...kept });
}

/** What a 401 or 403 says of the credentials, as a sentence to append ("" for any other status). */
export const accessHint = (status: unknown): string =>
  status === 401 ? `. ${refused()}` : status === 403 ? `. ${forbidden()}` : "";

/** Whose credentials the calls run as: `profile acme (API user owner)`, or `the default credentials (...)`. */
export function ranAs(instance = currentProviderInstance()): string {
  const user = instance.config.username ?? process.env[CONFIG_KEYS.username.env];
  return `${instance.profile ? `profile ${instance.profile}` : "the default credentials"}${user ? ` (API user ${user})` : ""}`;
}

/** Why a list by account is empty: `?account_id=` has only what the API user sees (`seen`, its accounts). */
export function unreachableAccount(accountId: string, seen: readonly { id: string; name?: string | null }[]) {
  const sees = seen.length
    ? `it sees ${seen.map((a) => (a.name ? `${a.name} (${a.id})` : a.id)).join(", ")}`
    : "it sees no account";
  const how = underPulumiDo() ? "--wpengine:profile <name>" : "the profile of that account";
  return (
    `account ${accountId} is not reachable by ${ranAs()}: ${sees}. Check the id, or run as a profile ` +
    `whose API user has a role on that account (${how})`
  );
}

const forbidden = () =>
  `The call ran as ${ranAs()}, which has no access to it: run it as a profile whose API user can ` +
  "(the resource's or lookup's profile, or wpengine:profile), or grant that API user access in the User Portal";

/** The inputs a 404 names: by its message (`Account not found`: accountId), else by the request path (`/installs/{id}/...`). */
export function notFoundInputs(err: unknown, inputs?: z.ZodObject): string[] {
  const { serverMessage, path } = err as { serverMessage?: unknown; path?: unknown };
  const idOf = (noun: string) => `${camelKey(noun.toLowerCase().replace(/\s+/g, "_").replace(/s$/, ""))}Id`;
  const isInput = (key: string) => !!inputs && Object.hasOwn(inputs.shape, key);
  const said = /^(\w[\w ]*?) not found$/i.exec(typeof serverMessage === "string" ? serverMessage : "")?.[1];
  const inPath = typeof path === "string" ? path.split("/").slice(0, -1).map(idOf) : [];
  return said && isInput(idOf(said)) ? [idOf(said)] : [...new Set(inPath.filter(isInput))];
}

/**
 * Check's refusal of a resource whose parent `key` (`id`) the service does not show the API user: it has none
 * (a 404), or it refuses that user (`forbidden`: a 403, another account's, or a plan without the feature).
 */
export function noSuchParent(key: string, id: string, forbidden?: WpEngineApiError, action = "create") {
  const noun = key.replace(/Id$/, "").replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  const who = ranAs();
  if (forbidden)
    return (
      `${key} ${id}: the service refuses ${who} (403${forbidden.serverMessage ? `: ${forbidden.serverMessage}` : ""}` +
      `${noun === "account" ? "" : `; perhaps another account's ${noun}`}), so the ${action} would fail. If its ` +
      "reason is the account's (a plan or feature it lacks), no profile helps: enable it on the account or drop " +
      "the resource; else run the resource as a profile whose API user can reach it (its profile, or " +
      "wpengine:profile), or grant that API user access in the User Portal"
    );
  return (
    `${key} ${id} names no ${noun} on the service for ${who}: the ${action} would fail. Check the id (a typo, ` +
    `or ${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun} deleted since), or run the resource as a profile whose API ` +
    "user can reach it (its profile, or wpengine:profile)"
  );
}

function notFoundHint(err: unknown, inputs?: z.ZodObject): string {
  const keys = notFoundInputs(err, inputs);
  const which = keys.length ? ` (input ${keys.map((k) => `"${k}"`).join(" or ")})` : "";
  return (
    `${which}. Check the id${keys.length > 1 ? "s" : ""}: the service has no such object, or the API user ` +
    "the call ran as (the resource's or lookup's profile, else the default credentials) has no access to it"
  );
}

/** A create that found its object already there: how to take it over (`withinRecovery`: in a recovery). */
export function alreadyExists(found: string, takeOver = "set adopt: true to take it over"): Error {
  // The first next step: a resource renamed without aliases finds its own object.
  const renamed = "renamed a resource? give it `aliases` with its old name (docs/ownership.md)";
  const handover =
    "If another stack manages it, hand it over first (retainOnDelete there: docs/ownership.md), or both stacks would own it";
  return Object.assign(
    new Error(
      `${found}; ${renamed}; else ${takeOver}, or, after an interrupted run of this stack, run \`${AFTER_A_CRASH}\` ` +
        `(it adopts only what that run created). ${handover}`,
    ),
    { alreadyExists: true, withinRecovery: `${found}; ${takeOver}. ${handover}` },
  );
}

/** The error with each `errors[].field` renamed to the input it is about (`rename`: by its first part). */
export function withInputFields(err: unknown, rename: Record<string, string>): unknown {
  const details = (err as { errors?: unknown } | null)?.errors;
  if (!(err instanceof Error) || !Array.isArray(details)) return err;
  const errors = details.map((d: { field?: unknown }) =>
    typeof d?.field === "string"
      ? { ...d, field: d.field.replace(/^[^.]*/, (head) => rename[head] ?? head) }
      : d,
  );
  const { status, method } = err as { status?: unknown; method?: unknown };
  return Object.assign(new Error(err.message), { status, method, errors });
}

/** The sdk's refusal of a call's input (`usage.accountUsage`, `first_date`) in the program's names (`firstDate`). */
export function inProgramNames(err: WpEngineValidationError, operation: string, args: string[]): Error {
  const rename = (text: string) =>
    text.replace(/\b[a-z][a-z\d]*(?:_[a-z\d]+)+\b/g, (w) => (args.includes(camelKey(w)) ? camelKey(w) : w));
  const issues = err.issues.map((i) => ({ path: rename(i.path), message: rename(i.message) }));
  return new WpEngineValidationError(operation, issues);
}
