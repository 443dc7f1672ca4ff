import type { Dispatcher, FormData } from "undici";
import type { z } from "zod";
import type { ResolvedClientConfig } from "./config";
import {
  type ApiErrorDetail,
  actedBefore,
  isRateLimited,
  mayHaveActed,
  PRE_SEND_CODES,
  WpEngineApiError,
  WpEngineConnectionError,
  type WpEngineError,
  WpEngineResponseError,
  WpEngineTimeoutError,
} from "./errors";
import { type Pace, processPace } from "./pace";
import type { Query } from "./pagination";
import { perProcess } from "./process";
import { toIssues } from "./validate";

/**
 * undici, loaded on the first request: a Pulumi program that only declares resources never sends one (its
 * plugin does), and loading undici costs about 0.1-0.2 s of CPU in every program run.
 */
let undiciModule: typeof import("undici") | undefined;
export function undici(): typeof import("undici") {
  undiciModule ??= require("undici") as typeof import("undici");
  return undiciModule;
}

/**
 * Whether an operation may be sent again after it may have reached the server.
 * - `safe`: repeating it leaves the same state (reads, PUT/DELETE, PATCH that sets absolute values,
 *   POSTs that verify, clear or replace). Retried on 429/502/503/504, timeouts and any connection error.
 * - `unsafe`: repeating it could act twice (a POST that creates something). Retried only when the server
 *   certainly did not act (see {@link mayHaveActed}): a 429, and connection errors raised before the
 *   request was sent (refused, DNS, connect timeout). A 503, like any 5xx, may have acted: the caller
 *   resolves it (a create looks its object up by its natural key).
 * Each area file states its choice per operation.
 */
export type RetryPolicy = "safe" | "unsafe";

/**
 * Whether a failed request goes again: a failure that may pass (`transient`: a 429, 502, 503 or 504, a
 * timeout, a known connection error) of an operation that is safe to repeat, or that certainly did nothing
 * (the one rule, {@link mayHaveActed}: of these, a 429 and a connection never made).
 */
function sendAgain(policy: RetryPolicy, error: WpEngineError, transient: boolean): boolean {
  return transient && (policy === "safe" || !mayHaveActed(error));
}

/** HTTP methods used by the two APIs. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Which base URL a path is relative to. */
export type ApiBase = "hosting" | "appHosting";

/** One request as an area file describes it; the transport knows no endpoint. */
export interface RequestSpec {
  /** Base URL: `hosting` (apiUrl, paths without /v1) or `appHosting` (paths with /v1 or /fu/v1). */
  api?: ApiBase;
  /** HTTP method. */
  method: HttpMethod;
  /** Path built with the `path` tagged template. */
  path: string;
  /** Query parameters; undefined values are left out. */
  query?: Query | undefined;
  /** JSON body. */
  body?: unknown;
  /** Multipart body (mutually exclusive with `body`). */
  multipart?: FormData | undefined;
  /** Retry decision of the operation; default `safe` for GET/PUT/DELETE and `unsafe` otherwise. */
  retry?: RetryPolicy;
  /**
   * `false` hands a 429 straight to the caller instead of retrying it: for operations with a documented
   * per-object window (one object-cache purge per 60 s, one domain status check per 5 s) that the caller
   * waits out on its own clock rather than spending retries that cannot succeed inside the window.
   */
  retryRateLimited?: boolean;
}

/** A raw 2xx response: status, headers and the parsed JSON body (undefined when empty). */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const pools = perProcess("pools", () => new Map<string, Dispatcher>());

/**
 * Keep-alive pool of one origin, shared by every client of the process and created on first use:
 * nothing is constructed at module load, so a serialized dynamic provider never captures a live agent.
 */
export function sharedPool(origin: string): Dispatcher {
  let pool = pools.get().get(origin);
  if (!pool) {
    pool = new (undici().Pool)(origin, {
      connections: 32,
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      connect: { timeout: 10_000 },
    });
    pools.get().set(origin, pool);
  }
  return pool;
}

/** Closes every shared pool (for scripts that want the event loop to end at once). */
export async function closeSharedPools(): Promise<void> {
  const open = [...pools.get().values()];
  pools.clear();
  await Promise.all(open.map((p) => p.close()));
}

/** Connection errors that may happen after the request was sent: retried for safe operations only. */
const MID_FLIGHT_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> };
  for (const c of [e?.code, e?.cause?.code, e?.errors?.[0]?.code]) if (typeof c === "string") return c;
  return undefined;
}

/** Parses `Retry-After` (delta-seconds or HTTP-date) to milliseconds. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function header(headers: RawResponse["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
}

/** Reads an error body: spec section 7 `{message, errors[]}` or Google style `{error: {message, details}}`. */
export function parseErrorBody(body: unknown): {
  message?: string | undefined;
  errors: ApiErrorDetail[];
  documentationUrl?: string | undefined;
} {
  if (typeof body === "string") return { message: body.trim() || undefined, errors: [] };
  if (!body || typeof body !== "object") return { errors: [] };
  const b = body as Record<string, unknown>;
  const errors: ApiErrorDetail[] = [];
  const pushDetail = (d: unknown) => {
    if (!d || typeof d !== "object") {
      if (typeof d === "string") errors.push({ message: d });
      return;
    }
    const r = d as Record<string, unknown>;
    const detail: ApiErrorDetail = {};
    for (const k of ["resource", "field", "type", "code", "message"] as const) {
      const v = str(r[k]);
      if (v !== undefined) detail[k] = v;
    }
    if (Object.keys(detail).length > 0) errors.push(detail);
  };
  let message = str(b["message"]) ?? str(b["detail"]);
  if (Array.isArray(b["errors"])) b["errors"].forEach(pushDetail);
  const g = b["error"];
  if (g && typeof g === "object") {
    const ge = g as Record<string, unknown>;
    message ??= str(ge["message"]);
    if (Array.isArray(ge["details"])) {
      for (const d of ge["details"]) {
        const violations = (d as Record<string, unknown>)?.["fieldViolations"];
        if (Array.isArray(violations)) {
          for (const v of violations) {
            const fv = v as Record<string, unknown>;
            pushDetail({ field: fv["field"], type: "invalid_value", message: fv["description"] });
          }
        }
      }
    }
  } else if (typeof g === "string") {
    message ??= g;
  }
  return {
    message,
    errors,
    documentationUrl: str(b["documentation_url"]) ?? str(b["documentationUrl"]),
  };
}

type AttemptOutcome =
  | { ok: true; response: RawResponse }
  | { ok: false; error: WpEngineError; retry: boolean; retryAfterMs?: number | undefined };

/**
 * The HTTP core: Basic auth, JSON, deadlines, retries, the process's pace (its budget of requests in
 * flight and the back-off every caller of a service and API user shares after a 429) and error mapping.
 * It knows no endpoint: area files hand it {@link RequestSpec}s.
 *
 * Retries are written here rather than with undici's retry interceptor because the decision depends on
 * the operation (a create is retried only when the server certainly did not act), on whether a
 * connection error happened before the request was sent, and on holding a slot of the pace per attempt,
 * not across the backoff sleep; the interceptor decides by method alone and hides the final error body.
 */
export class Transport {
  readonly #authorization: string;
  readonly #secrets: string[];
  readonly #config: Omit<ResolvedClientConfig, "password">;
  readonly #pace: Pace;

  constructor(config: ResolvedClientConfig) {
    const { password, ...rest } = config;
    const token = Buffer.from(`${config.username}:${password}`, "utf8").toString("base64");
    this.#authorization = `Basic ${token}`;
    this.#secrets = [token, `${config.username}:${password}`];
    // A short password would match ordinary words; those are too weak to be worth hiding anyway.
    if (password.length >= 4) {
      this.#secrets.push(password, encodeURIComponent(password), JSON.stringify(password).slice(1, -1));
    }
    this.#config = rest;
    this.#pace = processPace(config.maxConcurrency);
  }

  /** Base URL of the Hosting Platform API (used to resolve next-page links). */
  get apiUrl(): string {
    return this.#config.apiUrl;
  }

  /** Base URL of the application-hosting API. */
  get appHostingUrl(): string {
    return this.#config.appHostingUrl;
  }

  /** Removes any trace of the credentials from a text. */
  scrub(text: string): string {
    let out = text;
    for (const s of this.#secrets) if (s) out = out.split(s).join("[redacted]");
    return out;
  }

  /** Sends a request and parses its 2xx body with `schema` (lenient response schemas). */
  async request<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.output<S>> {
    const { response, method, urlPath } = await this.#send(spec);
    const parsed = schema.safeParse(response.body);
    if (!parsed.success) {
      throw new WpEngineResponseError({
        method,
        path: urlPath,
        status: response.status,
        reason: "the body does not match the expected record",
        issues: toIssues(parsed.error),
      });
    }
    return parsed.data;
  }

  /** Sends a request whose response body is not needed (204, `{}`, `{message}`). */
  async requestVoid(spec: RequestSpec): Promise<void> {
    await this.#send(spec);
  }

  /** Sends a request and returns the raw 2xx response. */
  async requestRaw(spec: RequestSpec): Promise<RawResponse> {
    return (await this.#send(spec)).response;
  }

  async #send(spec: RequestSpec): Promise<{ response: RawResponse; method: string; urlPath: string }> {
    const base = new URL(spec.api === "appHosting" ? this.#config.appHostingUrl : this.#config.apiUrl);
    const urlPath = `${base.pathname.replace(/\/+$/, "")}${spec.path}`;
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) search.append(k, String(v));
    const qs = search.toString();
    const fullPath = qs ? `${urlPath}?${qs}` : urlPath;
    const method = spec.method;
    const policy: RetryPolicy =
      spec.retry ?? (method === "GET" || method === "PUT" || method === "DELETE" ? "safe" : "unsafe");

    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: "application/json",
      "user-agent": this.#config.userAgent,
    };
    let body: string | Buffer | undefined;
    if (spec.multipart) {
      // Serialised once with undici's own encoder so every attempt sends identical bytes.
      const encoded = new (undici().Response)(spec.multipart);
      body = Buffer.from(await encoded.arrayBuffer());
      headers["content-type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
    } else if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers["content-type"] = "application/json";
    }

    if (method !== "GET") this.#config.beforeWrite?.();
    const dispatcher = this.#config.dispatcher ?? sharedPool(base.origin);
    // The service limits an API user: a 429 holds back every request of this user to this service.
    const paceKey = `${base.origin} ${this.#config.username}`;
    // Retries counted against maxRetries: a 429 while the service went on serving this key since the
    // caller's previous 429 is a place in line (the pace lets through what the service takes), not a refusal.
    let counted = 0;
    let servedAt429: number | undefined;
    // Whether a failed try of this write may have acted: the error it ends with says so whatever it is.
    let acted = false;
    for (let attempt = 0; ; attempt++) {
      const release = await this.#pace.acquire(paceKey, attempt > 0);
      let outcome: AttemptOutcome;
      try {
        outcome = await this.#attempt(
          dispatcher,
          base.origin,
          method,
          fullPath,
          urlPath,
          headers,
          body,
          policy,
          spec.api ?? "hosting",
        );
      } finally {
        release();
      }
      if (outcome.ok) {
        this.#pace.served(paceKey, true);
        return { response: outcome.response, method, urlPath };
      }
      if (acted) actedBefore(outcome.error);
      acted ||= method !== "GET" && mayHaveActed(outcome.error);
      const rateLimited = isRateLimited(outcome.error);
      let inLine = false;
      if (rateLimited) {
        const served = this.#pace.served(paceKey);
        inLine = servedAt429 !== undefined && served > servedAt429;
        servedAt429 = served;
      }
      if (!outcome.retry || (!inLine && counted++ >= this.#config.maxRetries)) throw outcome.error;
      if (spec.retryRateLimited === false && rateLimited) throw outcome.error;
      let delay: number;
      if (outcome.retryAfterMs !== undefined) {
        // The server said when to come back: wait exactly that, or give up if it is beyond our cap.
        if (outcome.retryAfterMs > this.#config.maxRetryAfterMs) throw outcome.error;
        delay = outcome.retryAfterMs;
      } else {
        delay = this.backoff(attempt);
      }
      if (rateLimited) await this.#pace.pause(paceKey, delay, this.#config.sleep);
      else await this.#config.sleep(delay);
    }
  }

  /** Exponential backoff with "equal jitter": half fixed, half random, capped. */
  backoff(attempt: number): number {
    const exp = Math.min(this.#config.retryMaxDelayMs, this.#config.retryBaseMs * 2 ** attempt);
    return Math.round(exp / 2 + Math.random() * (exp / 2));
  }

  async #attempt(
    dispatcher: Dispatcher,
    origin: string,
    method: HttpMethod,
    fullPath: string,
    urlPath: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    policy: RetryPolicy,
    api: ApiBase,
  ): Promise<AttemptOutcome> {
    const timeoutMs = this.#config.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let status: number;
    let resHeaders: RawResponse["headers"];
    let text: string;
    try {
      const res = await dispatcher.request({
        origin,
        path: fullPath,
        method,
        headers,
        body: body ?? null,
        signal: controller.signal,
      });
      status = res.statusCode;
      resHeaders = res.headers;
      text = await res.body.text();
    } catch (err) {
      // Which base URL it was, so an error can say where that URL came from.
      const baseUrl = api === "appHosting" ? this.#config.appHostingUrl : this.#config.apiUrl;
      if (timedOut) {
        const error = new WpEngineTimeoutError({ method, path: urlPath, timeoutMs, api, baseUrl });
        return { ok: false, error, retry: sendAgain(policy, error, true) };
      }
      const code = errorCode(err);
      const known = code !== undefined && (PRE_SEND_CODES.has(code) || MID_FLIGHT_CODES.has(code));
      const detail = this.scrub(err instanceof Error ? err.message || code || err.name : String(err));
      const cause = new Error(detail);
      if (code) Object.defineProperty(cause, "code", { value: code, enumerable: false });
      const error = new WpEngineConnectionError(
        { method, path: urlPath, code, detail, api, baseUrl },
        { cause },
      );
      return { ok: false, error, retry: sendAgain(policy, error, known) };
    } finally {
      clearTimeout(timer);
    }

    const success = status >= 200 && status < 300;
    // An error body is scrubbed as text before parsing, so no field of the error can echo a secret.
    if (!success) text = this.scrub(text);
    let parsed: unknown;
    if (text.trim() !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = success ? Symbol.for("invalid-json") : text;
      }
    }
    if (success) {
      if (parsed === Symbol.for("invalid-json")) {
        return {
          ok: false,
          error: new WpEngineResponseError({ method, path: urlPath, status, reason: "the body is not JSON" }),
          retry: false,
        };
      }
      return { ok: true, response: { status, headers: resHeaders, body: parsed } };
    }

    const retryAfterMs = parseRetryAfter(resHeaders["retry-after"]);
    const info = parseErrorBody(parsed);
    const error = new WpEngineApiError({
      status,
      method,
      path: urlPath,
      serverMessage: info.message,
      errors: info.errors,
      requestId: header(resHeaders, "x-request-id") ?? header(resHeaders, "x-amzn-requestid"),
      documentationUrl: info.documentationUrl,
      retryAfterMs,
      body: parsed,
    });
    const transient = status === 429 || status === 502 || status === 503 || status === 504;
    return { ok: false, error, retry: sendAgain(policy, error, transient), retryAfterMs };
  }
}
