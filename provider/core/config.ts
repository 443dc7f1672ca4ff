/**
 * Provider configuration, resolved inside the plugin process: `wpengine:*` stack config (delivered by
 * `configure`), then the environment, then defaults. Nothing here is ever a resource input, so
 * credentials never enter the serialized provider or the state.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ENV } from "../../sdk/core/config";
import { sharedWorldFile } from "../../simulator/home";

/** The stack configuration keys this provider reads, with their environment fallbacks. */
export const CONFIG_KEYS = {
  username: {
    key: "wpengine:username",
    env: ENV.username,
    doc: "The API user id (WP Engine user portal, API access).",
  },
  password: {
    key: "wpengine:password",
    env: ENV.password,
    doc: "The API user's password.",
    secret: true,
  },
  apiUrl: {
    key: "wpengine:apiUrl",
    env: ENV.apiUrl,
    doc: "Base URL of the hosting API (https://api.wpengineapi.com/v1 unless set).",
  },
  appHostingUrl: {
    key: "wpengine:appHostingUrl",
    env: ENV.appHostingUrl,
    doc: "Base URL of the application-hosting API (https://js.wpengineapi.com unless set).",
  },
  simulator: {
    key: "wpengine:simulator",
    env: "WPE_SIMULATOR",
    doc: "`true` (or a state file name) runs against the bundled simulator instead of the service.",
  },
  maxConcurrency: {
    key: "wpengine:maxConcurrency",
    env: "WPE_MAX_CONCURRENCY",
    doc: "Requests in flight at once across the whole provider process (default 8); raise it together with `pulumi up --parallel`.",
  },
  skipCredentialsCheck: {
    key: "wpengine:skipCredentialsCheck",
    env: "WPE_SKIP_CREDENTIALS_CHECK",
    doc: "`true` skips the one authenticated call (`GET /user`) by which `pulumi preview` proves the credentials.",
  },
  adoptExisting: {
    key: "wpengine:adoptExisting",
    env: "WPE_ADOPT_EXISTING",
    doc: "`true` makes every create take over an object that already exists (the way back after a crashed up).",
  },
} as const;

export type ConfigName = keyof typeof CONFIG_KEYS;

/** What `configure` received, as plain strings (secret config arrives there as plaintext). */
export type RawProviderConfig = Partial<Record<ConfigName, string>>;

/** The resolved settings the client is built from. */
export interface ResolvedProviderConfig {
  username?: string;
  password?: string;
  apiUrl?: string;
  appHostingUrl?: string;
  /**
   * Run against an embedded simulator started inside the plugin process instead of the service:
   * `true` keeps its world in one file for every folder (`sharedWorldFile`: under PULUMI_HOME), a string
   * names the file. Off unless asked for: a missing credential must never silently send a program to a fake.
   */
  simulatorStateFile?: string;
  /**
   * Every create takes over an object that already exists with its identity, as if `adopt: true` were
   * set on each resource: the one step back after a `pulumi up` killed mid-apply (README).
   */
  adoptExisting?: boolean;
  /** Requests in flight at once across the provider process (the sdk's shared pace). */
  maxConcurrency?: number;
  /** Do not prove the credentials with `GET /user` before the first check (offline previews). */
  skipCredentialsCheck?: boolean;
}

/**
 * One provider's configuration and the slot its client is cached under: the one channel by which
 * configuration reaches the client. The dynamic plugin has one per process (the stack's `wpengine:*`
 * config, set by `configure`); the executable front door runs each call as the explicit provider it
 * belongs to (two API users in one program); a program's lookups run as the program's own config.
 */
export interface ProviderInstance {
  config: RawProviderConfig;
  clientSlot: symbol;
}

/**
 * The process's default instance, on `globalThis`: a checkout used in place and an installed copy of the
 * package may both be loaded in one plugin process, and must see the same configuration.
 */
const STACK_KEY = Symbol.for("pulumi-wpengine.provider-config");
const STACK_SLOT = Symbol.for("pulumi-wpengine.provider-client");
type Holder = { [STACK_KEY]?: ProviderInstance };

const instanceScope = new AsyncLocalStorage<ProviderInstance>();

/** Runs `fn` (a lifecycle method or a lookup) as `instance`: its config and client, not the stack's. */
export function withProviderInstance<T>(instance: ProviderInstance, fn: () => T): T {
  return instanceScope.run(instance, fn);
}

/** The instance the current call runs as: the scope's, else the process's stack config. */
export function currentProviderInstance(): ProviderInstance {
  return (
    instanceScope.getStore() ?? (globalThis as Holder)[STACK_KEY] ?? { config: {}, clientSlot: STACK_SLOT }
  );
}

/** The raw config of a `wpengine:*` getter (stack config in the plugin, `pulumi.Config` in a program). */
export function rawConfigOf(get: (key: string) => string | undefined): RawProviderConfig {
  const raw: RawProviderConfig = {};
  for (const [name, { key }] of Object.entries(CONFIG_KEYS) as [ConfigName, { key: string }][]) {
    const value = get(key);
    if (value !== undefined && value !== "") raw[name] = value;
  }
  return raw;
}

/** Called by `configure`: keeps the stack config for this process (one plugin process per stack). */
export function setStackConfig(get: (key: string) => string | undefined): void {
  (globalThis as Holder)[STACK_KEY] = { config: rawConfigOf(get), clientSlot: STACK_SLOT };
}

/** Forgets the stack config (tests). */
export function clearStackConfig(): void {
  delete (globalThis as Holder)[STACK_KEY];
}

/** The most requests in flight `PULUMI_PARALLEL` alone can ask for: two full bulk creates (20 domains each). */
export const FOLLOWED_PARALLEL_MAX = 40;

/**
 * Without `wpengine:maxConcurrency`, the provider keeps as many requests in flight as the engine runs
 * operations when `PULUMI_PARALLEL` says so (the CLI's default for `--parallel`, which its plugins inherit),
 * up to {@link FOLLOWED_PARALLEL_MAX}: one setting raises both. Unset (or not a whole number), the sdk's
 * default (8, the engine's own default on 2 cores).
 */
function followedParallel(env: NodeJS.ProcessEnv): string | undefined {
  const parallel = Number(env["PULUMI_PARALLEL"]);
  return Number.isInteger(parallel) && parallel >= 1
    ? String(Math.min(parallel, FOLLOWED_PARALLEL_MAX))
    : undefined;
}

/** The current instance's config (or `raw`) first, then the environment. */
export function resolveProviderConfig(
  env: NodeJS.ProcessEnv = process.env,
  raw: RawProviderConfig = currentProviderInstance().config,
): ResolvedProviderConfig {
  const pick = (name: ConfigName): string | undefined => {
    const value = raw[name] ?? env[CONFIG_KEYS[name].env];
    return value === undefined || value === "" ? undefined : value;
  };
  const simulator = pick("simulator");
  const resolved: ResolvedProviderConfig = {};
  const username = pick("username");
  const password = pick("password");
  const apiUrl = pick("apiUrl");
  const appHostingUrl = pick("appHostingUrl");
  if (username !== undefined) resolved.username = username;
  if (password !== undefined) resolved.password = password;
  if (apiUrl !== undefined) resolved.apiUrl = apiUrl;
  if (appHostingUrl !== undefined) resolved.appHostingUrl = appHostingUrl;
  const yes = (name: ConfigName) => ["true", "1", "yes"].includes(pick(name)?.toLowerCase() ?? "");
  if (yes("adoptExisting")) resolved.adoptExisting = true;
  if (yes("skipCredentialsCheck")) resolved.skipCredentialsCheck = true;
  const maxConcurrency = pick("maxConcurrency") ?? followedParallel(env);
  if (maxConcurrency !== undefined) resolved.maxConcurrency = Number(maxConcurrency);
  if (simulator !== undefined && !["false", "0", "no"].includes(simulator.toLowerCase())) {
    resolved.simulatorStateFile = ["true", "1", "yes"].includes(simulator.toLowerCase())
      ? sharedWorldFile(env)
      : simulator;
  }
  return resolved;
}
