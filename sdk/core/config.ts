import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import * as path from "node:path";
import type { Dispatcher } from "undici";
import { WpEngineConfigError } from "./errors";

/** This package's version, from its package.json (the one place versions come from), found upward from here. */
function ownVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "pulumi-wpengine" && pkg.version) return pkg.version;
    } catch {
      // not here: one level up
    }
    if (path.dirname(dir) === dir) return "unknown";
  }
}

/** Version sent in the User-Agent header. */
export const SDK_VERSION = ownVersion();
/** Default base URL of the Hosting Platform API. */
export const DEFAULT_API_URL = "https://api.wpengineapi.com/v1";
/** Default base URL of the application-hosting (Headless Platform) API. */
export const DEFAULT_APP_HOSTING_URL = "https://js.wpengineapi.com";
/** Default per-request deadline. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default number of retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 4;
/** Default first backoff delay; each retry doubles it. */
export const DEFAULT_RETRY_BASE_MS = 500;
/** Default cap of one backoff delay. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
/** Longest `Retry-After` the client will wait for; a longer one ends the retries with the error. */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/** Options of {@link WpEngineClient}; everything not given falls back to a default. */
export interface ClientOptions {
  /** API user id (environment `WPE_API_USER_ID`). */
  username?: string | undefined;
  /** API password (environment `WPE_API_PASSWORD`). Never logged or included in errors. */
  password?: string | undefined;
  /** Hosting Platform base URL including `/v1` (environment `WPE_API_URL`). */
  apiUrl?: string | undefined;
  /** Application-hosting base URL, without `/v1` (environment `WPE_APP_HOSTING_URL`). */
  appHostingUrl?: string | undefined;
  /** Deadline of one HTTP attempt in milliseconds, response body included (default 30000). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt for retryable failures (default 4; 0 disables retries). */
  maxRetries?: number | undefined;
  /** Requests in flight for the whole process (default 8); setting it resizes the budget every client shares. */
  maxConcurrency?: number | undefined;
  /** First backoff delay in milliseconds, doubled on each retry (default 500). */
  retryBaseMs?: number | undefined;
  /** Cap of one backoff delay in milliseconds (default 8000). */
  retryMaxDelayMs?: number | undefined;
  /** Longest `Retry-After` honoured, in milliseconds (default 60000); longer ones are not waited for. */
  maxRetryAfterMs?: number | undefined;
  /** undici dispatcher to send requests through (tests inject a `MockAgent`); default: shared pools. */
  dispatcher?: Dispatcher | undefined;
  /** User-Agent header (default `pulumi-wpengine/<version> node/<version>`). */
  userAgent?: string | undefined;
  /** Sleep used between retries; tests inject one to observe delays without waiting. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Called before a request that may write (any method but GET) first leaves; the caller's own bookkeeping. */
  beforeWrite?: (() => void) | undefined;
}

/** Fully resolved configuration. */
export interface ResolvedClientConfig {
  /** API user id. */
  username: string;
  /** API password. */
  password: string;
  /** Hosting Platform base URL, without a trailing slash. */
  apiUrl: string;
  /** Application-hosting base URL, without a trailing slash. */
  appHostingUrl: string;
  /** Deadline of one HTTP attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Explicit budget of requests in flight for the process, or undefined to keep the current one. */
  maxConcurrency: number | undefined;
  /** First backoff delay. */
  retryBaseMs: number;
  /** Cap of one backoff delay. */
  retryMaxDelayMs: number;
  /** Longest `Retry-After` honoured. */
  maxRetryAfterMs: number;
  /** Injected dispatcher, if any. */
  dispatcher: Dispatcher | undefined;
  /** User-Agent header. */
  userAgent: string;
  /** Sleep between retries. */
  sleep: (ms: number) => Promise<void>;
  beforeWrite: (() => void) | undefined;
}

/** Environment variables read by {@link resolveClientConfig}. */
export const ENV = {
  username: "WPE_API_USER_ID",
  password: "WPE_API_PASSWORD",
  apiUrl: "WPE_API_URL",
  appHostingUrl: "WPE_APP_HOSTING_URL",
} as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1" || host.startsWith("::ffff:127.");
  return false;
}

/**
 * Checks a base URL: https anywhere, plain http only to a loopback address (the local simulator), no
 * embedded credentials, no query or fragment. Returns it without a trailing slash.
 */
export function checkBaseUrl(option: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WpEngineConfigError(`${option} is not a valid URL`);
  }
  if (url.username || url.password) {
    throw new WpEngineConfigError(`${option} must not contain credentials; use username and password`);
  }
  if (url.protocol === "http:") {
    if (!isLoopback(url.hostname)) {
      throw new WpEngineConfigError(
        `${option} uses plain http:// to ${url.hostname}; only https:// is allowed except to a loopback address`,
      );
    }
  } else if (url.protocol !== "https:") {
    throw new WpEngineConfigError(`${option} must be an https:// URL`);
  }
  if (url.search || url.hash) throw new WpEngineConfigError(`${option} must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function nonNegativeInt(option: string, value: number | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || !Number.isInteger(value) || value < min) {
    throw new WpEngineConfigError(`${option} must be an integer >= ${min}`);
  }
  return value;
}

function pick(explicit: string | undefined, env: NodeJS.ProcessEnv, name: string): string | undefined {
  if (explicit !== undefined && explicit !== "") return explicit;
  const fromEnv = env[name];
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
}

/**
 * Resolves client options: explicit options first, then the environment (`WPE_API_USER_ID`,
 * `WPE_API_PASSWORD`, `WPE_API_URL`, `WPE_APP_HOSTING_URL`), then defaults. Pass `env = {}` to ignore
 * the environment. Throws {@link WpEngineConfigError} naming the missing or invalid option.
 */
export function resolveClientConfig(
  options: ClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedClientConfig {
  const username = pick(options.username, env, ENV.username);
  const password = pick(options.password, env, ENV.password);
  if (!username) throw new WpEngineConfigError(`username is required (option username or ${ENV.username})`);
  if (!password) throw new WpEngineConfigError(`password is required (option password or ${ENV.password})`);
  if (username.includes(":")) throw new WpEngineConfigError("username must not contain ':'");
  return {
    username,
    password,
    apiUrl: checkBaseUrl("apiUrl", pick(options.apiUrl, env, ENV.apiUrl) ?? DEFAULT_API_URL),
    appHostingUrl: checkBaseUrl(
      "appHostingUrl",
      pick(options.appHostingUrl, env, ENV.appHostingUrl) ?? DEFAULT_APP_HOSTING_URL,
    ),
    timeoutMs: nonNegativeInt("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS, 1),
    maxRetries: nonNegativeInt("maxRetries", options.maxRetries, DEFAULT_MAX_RETRIES),
    maxConcurrency:
      options.maxConcurrency === undefined
        ? undefined
        : nonNegativeInt("maxConcurrency", options.maxConcurrency, 0, 1),
    retryBaseMs: nonNegativeInt("retryBaseMs", options.retryBaseMs, DEFAULT_RETRY_BASE_MS),
    retryMaxDelayMs: nonNegativeInt("retryMaxDelayMs", options.retryMaxDelayMs, DEFAULT_RETRY_MAX_DELAY_MS),
    maxRetryAfterMs: nonNegativeInt("maxRetryAfterMs", options.maxRetryAfterMs, DEFAULT_MAX_RETRY_AFTER_MS),
    dispatcher: options.dispatcher,
    userAgent: options.userAgent ?? `pulumi-wpengine/${SDK_VERSION} node/${process.versions.node}`,
    sleep: options.sleep ?? defaultSleep,
    beforeWrite: options.beforeWrite,
  };
}
