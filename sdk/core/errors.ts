/**
 * Errors thrown by the client. Every error extends {@link WpEngineError}; HTTP failures are one
 * {@link WpEngineApiError} carrying the status and the kind of spec section 7, while connection and
 * timeout failures are apart so callers can tell "the server said no" from "we never heard back".
 *
 * No error ever holds the credentials: messages and causes are scrubbed by the transport, and no
 * enumerable field carries request headers.
 */

/** One entry of the `errors[]` array of an error body (spec section 7). */
export interface ApiErrorDetail {
  /** Name of the resource being processed, e.g. `Site`. */
  resource?: string;
  /** Field the error is about, e.g. `name`. */
  field?: string;
  /** `invalid_value`, `access_error` or `value_unavailable`. */
  type?: string;
  /** Machine code, e.g. `too_long`. */
  code?: string;
  /** Human-readable message. */
  message?: string;
}

/** The response kinds of spec section 7, plus the two the spec does not name. */
export type ApiErrorKind =
  | "Bad Request"
  | "Authentication Error"
  | "Not authorized"
  | "Not found"
  | "Conflict"
  | "Unprocessable Entity"
  | "Too many requests"
  | "Internal Server Error"
  | "Invalid response from an upstream server"
  | "Service unavailable"
  | "Gateway Timeout"
  | "Unexpected status";

const KINDS: Record<number, ApiErrorKind> = {
  400: "Bad Request",
  401: "Authentication Error",
  403: "Not authorized",
  404: "Not found",
  409: "Conflict",
  422: "Unprocessable Entity",
  429: "Too many requests",
  500: "Internal Server Error",
  502: "Invalid response from an upstream server",
  503: "Service unavailable",
  504: "Gateway Timeout",
};

/** Maps an HTTP status to its section-7 kind. */
export function kindOfStatus(status: number): ApiErrorKind {
  return KINDS[status] ?? "Unexpected status";
}

/** Defines a non-enumerable property, so JSON.stringify and spreads do not carry it. */
function hidden(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, writable: true, configurable: true });
}

/** Base class of every error this package throws. */
export class WpEngineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message);
    hidden(this, "name", new.target.name);
    if (options?.cause !== undefined) hidden(this, "cause", options.cause);
  }
}

/** Raised when the client is misconfigured (missing credentials, a plain-http URL to a remote host...). */
export class WpEngineConfigError extends WpEngineError {}

/** One problem found while validating a request before sending it. */
export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `domains[0].name` (empty for the whole value). */
  path: string;
  /** Why the value was refused. */
  message: string;
}

/** A request refused by the client before any HTTP was made; the message names the field and the reason. */
export class WpEngineValidationError extends WpEngineError {
  /** The operation whose input was refused, e.g. `domains.create`. */
  readonly operation: string;
  /** Path of the first offending field. */
  readonly field: string;
  /** Every problem found. */
  readonly issues: ValidationIssue[];
  constructor(operation: string, issues: ValidationIssue[]) {
    const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    super(`${operation}: invalid input: ${text}`);
    this.operation = operation;
    this.field = issues[0]?.path ?? "";
    this.issues = issues;
  }
}

/** Fields shared by errors about one HTTP exchange. */
interface RequestInfo {
  /** HTTP method. */
  method: string;
  /** URL path of the request, without the query string (e.g. `/v1/installs/abc/domains`). */
  path: string;
}

/** Formats one `errors[]` entry as `field: type - message`. */
export function formatDetail(d: ApiErrorDetail): string {
  const subject = d.field ?? d.resource;
  const what = d.type ?? d.code;
  let out = subject ?? "";
  if (what) out = out ? `${out}: ${what}` : what;
  if (d.message) out = out ? `${out} - ${d.message}` : d.message;
  return out;
}

/** The service answered with a non-2xx status. */
export class WpEngineApiError extends WpEngineError {
  /** HTTP status code. */
  readonly status: number;
  /** Section-7 kind of the status (`Not found`, `Conflict`, ...). */
  readonly kind: ApiErrorKind;
  /** The `message` of the error body, when there was one. */
  readonly serverMessage: string | undefined;
  /** The `errors[]` details of the error body (empty when none). */
  readonly errors: ApiErrorDetail[];
  /** HTTP method of the request. */
  readonly method: string;
  /** URL path of the request, without the query string. */
  readonly path: string;
  /** Request id echoed by the service (`x-request-id`), when present. */
  readonly requestId: string | undefined;
  /** Documentation URL of the error body, when present. */
  readonly documentationUrl: string | undefined;
  /** Milliseconds the server asked us to wait (`Retry-After`), when present. */
  readonly retryAfterMs: number | undefined;
  /** The parsed error body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    method: string;
    path: string;
    serverMessage?: string | undefined;
    errors?: ApiErrorDetail[];
    requestId?: string | undefined;
    documentationUrl?: string | undefined;
    retryAfterMs?: number | undefined;
    body?: unknown;
  }) {
    const kind = kindOfStatus(init.status);
    const errors = init.errors ?? [];
    const parts = errors.map(formatDetail).filter((s) => s.length > 0);
    const msg = init.serverMessage?.trim();
    if (msg && !errors.some((e) => e.message === msg)) parts.push(msg);
    const tail = parts.length > 0 ? `: ${parts.join("; ")}` : "";
    super(`${init.method} ${init.path}: ${init.status} ${kind}${tail}`);
    this.status = init.status;
    this.kind = kind;
    this.serverMessage = msg;
    this.errors = errors;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.documentationUrl = init.documentationUrl;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
  }
}

/** The connection failed (refused, reset, DNS...) before a response arrived. */
export class WpEngineConnectionError extends WpEngineError {
  /** HTTP method of the request. */
  readonly method: string;
  /** URL path of the request, without the query string. */
  readonly path: string;
  /** System or undici error code, e.g. `ECONNREFUSED`. */
  readonly code: string | undefined;
  /** The base URL the request went to (`apiUrl`, or `appHostingUrl` for `api: "appHosting"`), when known. */
  readonly baseUrl: string | undefined;
  /** Which of the two APIs it was: the hosting API (`apiUrl`) or application hosting (`appHostingUrl`). */
  readonly api: "hosting" | "appHosting";
  constructor(
    info: RequestInfo & {
      code?: string | undefined;
      detail: string;
      baseUrl?: string | undefined;
      api?: "hosting" | "appHosting" | undefined;
    },
    options?: { cause?: unknown },
  ) {
    super(`${info.method} ${info.path}: connection failed: ${info.detail}`, options);
    this.method = info.method;
    this.path = info.path;
    this.code = info.code;
    this.baseUrl = info.baseUrl;
    this.api = info.api ?? "hosting";
  }
}

/** No complete response arrived within the per-request deadline. */
export class WpEngineTimeoutError extends WpEngineError {
  /** HTTP method of the request. */
  readonly method: string;
  /** URL path of the request, without the query string. */
  readonly path: string;
  /** The deadline that expired, in milliseconds. */
  readonly timeoutMs: number;
  /** The base URL the request went to, when known (as {@link WpEngineConnectionError}'s). */
  readonly baseUrl: string | undefined;
  /** Which of the two APIs it was (as {@link WpEngineConnectionError}'s). */
  readonly api: "hosting" | "appHosting";
  constructor(
    info: RequestInfo & {
      timeoutMs: number;
      baseUrl?: string | undefined;
      api?: "hosting" | "appHosting" | undefined;
    },
  ) {
    super(`${info.method} ${info.path}: no response within ${info.timeoutMs} ms`);
    this.method = info.method;
    this.path = info.path;
    this.timeoutMs = info.timeoutMs;
    this.baseUrl = info.baseUrl;
    this.api = info.api ?? "hosting";
  }
}

/** A 2xx response whose body could not be read as the expected record. */
export class WpEngineResponseError extends WpEngineError {
  /** HTTP method of the request. */
  readonly method: string;
  /** URL path of the request, without the query string. */
  readonly path: string;
  /** HTTP status of the response. */
  readonly status: number;
  /** What did not match, field by field. */
  readonly issues: ValidationIssue[];
  constructor(info: RequestInfo & { status: number; reason: string; issues?: ValidationIssue[] }) {
    super(`${info.method} ${info.path}: ${info.status} response not understood: ${info.reason}`);
    this.method = info.method;
    this.path = info.path;
    this.status = info.status;
    this.issues = info.issues ?? [];
  }
}

/** A list response whose next-page pointer does not advance or leaves the configured service. */
export class WpEnginePaginationError extends WpEngineError {}

/** {@link pollUntil} ran out of time before its condition held. */
export class WpEngineWaitTimeoutError extends WpEngineError {
  /** What was being waited for. */
  readonly waitingFor: string;
  /** Milliseconds spent waiting. */
  readonly elapsedMs: number;
  /** Last state reported by the check, when it gave one. */
  readonly lastState: string | undefined;
  constructor(waitingFor: string, elapsedMs: number, lastState?: string) {
    const last = lastState ? ` (last state: ${lastState})` : "";
    super(`timed out after ${elapsedMs} ms waiting for ${waitingFor}${last}`);
    this.waitingFor = waitingFor;
    this.elapsedMs = elapsedMs;
    this.lastState = lastState;
  }
}

/** True for any error thrown by this package. */
export function isWpEngineError(err: unknown): err is WpEngineError {
  return err instanceof WpEngineError;
}

/** True when the service answered with a non-2xx status. */
export function isApiError(err: unknown): err is WpEngineApiError {
  return err instanceof WpEngineApiError;
}

function hasStatus(err: unknown, ...statuses: number[]): err is WpEngineApiError {
  return err instanceof WpEngineApiError && statuses.includes(err.status);
}

/** 400 Bad Request. */
export const isBadRequest = (err: unknown): err is WpEngineApiError => hasStatus(err, 400);
/** 401 Authentication Error (missing or wrong credentials). */
export const isAuthenticationError = (err: unknown): err is WpEngineApiError => hasStatus(err, 401);
/** 403 Not authorized (credentials fine, permission missing). */
export const isNotAuthorized = (err: unknown): err is WpEngineApiError => hasStatus(err, 403);
/** 404 Not found: the resource is gone (a Pulumi read treats it as deleted). */
export const isNotFound = (err: unknown): err is WpEngineApiError => hasStatus(err, 404);
/** 409 Conflict. */
export const isConflict = (err: unknown): err is WpEngineApiError => hasStatus(err, 409);
/** 422 Unprocessable Entity. */
export const isUnprocessable = (err: unknown): err is WpEngineApiError => hasStatus(err, 422);
/** 429 Too many requests (after the client's own retries ran out). */
export const isRateLimited = (err: unknown): err is WpEngineApiError => hasStatus(err, 429);
/** Any 5xx answer. */
export const isServerError = (err: unknown): err is WpEngineApiError =>
  err instanceof WpEngineApiError && err.status >= 500;
/** The connection failed before a response arrived. */
export const isConnectionError = (err: unknown): err is WpEngineConnectionError =>
  err instanceof WpEngineConnectionError;
/** The per-request deadline expired. */
export const isTimeoutError = (err: unknown): err is WpEngineTimeoutError =>
  err instanceof WpEngineTimeoutError;
/** The request was refused by the client before sending. */
export const isValidationError = (err: unknown): err is WpEngineValidationError =>
  err instanceof WpEngineValidationError;

/**
 * Connection errors raised before any byte of the request was written (refused, DNS, no route, connect
 * timeout): the service never saw the request.
 */
export const PRE_SEND_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Errors of a request an earlier try of which may have acted: a later 429 or refusal does not undo that. */
const ACTED_BEFORE = new WeakSet<object>();

/** `err`, the last try's, marked as a request an earlier try of which may have acted (the transport's). */
export function actedBefore<E>(err: E): E {
  if (typeof err === "object" && err !== null) ACTED_BEFORE.add(err);
  return err;
}

/**
 * The one rule of "may the service have acted" on a request that failed; the transport's retries, the
 * lifecycle's lost-answer resolution and the bulk creates all ask it.
 *
 * Only an answer that proves nothing happened counts as "not acted": a 429 (the rate limit turned the
 * request away before any work) and any other 4xx refusal (400, 401, 403, 404, 409, 422...), a request
 * the client refused before sending, and a connection that failed before the request was sent. Anything
 * else may have acted: any 5xx - a 503 included, which the Swagger lists on writes without saying that
 * nothing happened -, a timeout, a connection dropped after the request was sent, or a 2xx whose body
 * could not be understood (that one certainly acted).
 */
export function mayHaveActed(err: unknown): boolean {
  if (ACTED_BEFORE.has(err as object)) return true;
  if (err instanceof WpEngineValidationError || err instanceof WpEngineConfigError) return false;
  if (err instanceof WpEngineConnectionError) return err.code === undefined || !PRE_SEND_CODES.has(err.code);
  if (err instanceof WpEngineTimeoutError || err instanceof WpEngineResponseError) return true;
  // Any error with an HTTP status (the provider's wrapped errors keep it): a 4xx proves a refusal.
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === "number") return status < 400 || status >= 500;
  // An error that never reached the service (a bug, a bad argument): nothing was sent.
  return false;
}

/**
 * Nothing was done, and the same request may pass later: a 429 (the rate limit turned it away before any
 * work) or a connection that failed before the request was sent (see {@link mayHaveActed}).
 */
export function wasTurnedAway(err: unknown): boolean {
  return !mayHaveActed(err) && (isRateLimited(err) || err instanceof WpEngineConnectionError);
}

/**
 * The service refused what the request holds (400, 409 or 422, on any error that keeps its status): nothing
 * was done, the same request is refused again, and a request of several items is refused for all of them by
 * the one at fault.
 */
export function isRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return status === 400 || status === 409 || status === 422;
}

/** A failed write whose answer was lost: it {@link mayHaveActed}, and it was not a read (GET). */
export function isLostWrite(err: unknown): boolean {
  const method = (err as { method?: unknown } | null)?.method;
  return method !== "GET" && mayHaveActed(err);
}
