/** Provider configuration (`wpengine:*`, then the environment): never a resource input, nor in the state. */
import { AsyncLocalStorage } from "node:async_hooks";
import { availableParallelism } from "node:os";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { checkBaseUrl, DEFAULT_API_URL, DEFAULT_APP_HOSTING_URL, ENV } from "../../sdk/core/config";
import { WpEngineConfigError } from "../../sdk/core/errors";
import { perProcess } from "../../sdk/core/process";
import { sharedWorldFile } from "../../simulator/home";
import { jsonOf, underPulumiDo } from "./journal";
import { meant } from "./meant";

/** The settings this provider reads, each from stack config `wpengine:<name>`, else its environment variable. */
const SETTINGS = {
  username: { env: ENV.username, doc: "The API user id (WP Engine user portal, API access)." },
  password: { env: ENV.password, doc: "The API user's password.", secret: true },
  apiUrl: {
    env: ENV.apiUrl,
    doc: "Base URL of the hosting API (https://api.wpengineapi.com/v1 unless set).",
  },
  appHostingUrl: {
    env: ENV.appHostingUrl,
    doc: "Base URL of the application-hosting API (https://js.wpengineapi.com unless set).",
  },
  simulator: {
    env: "WPE_SIMULATOR",
    doc: "`true` runs against the bundled simulator instead of the service, on its shared world; a world file of its own is named as one (ending in `.json`, or a path with `/`: `./world.json`); `false` is off.",
  },
  maxConcurrency: {
    env: "WPE_MAX_CONCURRENCY",
    doc: "Requests in flight at once across the whole provider process (default: the engine's own `--parallel` default, up to 40: `PULUMI_PARALLEL` when set, else 4 × the CPUs); `PULUMI_PARALLEL=40` raises the engine's and the provider's limits together.",
  },
  maxRetries: {
    env: "WPE_MAX_RETRIES",
    doc: "Retries of one request after a failure that may pass (a 429, 502, 503 or 504, a timeout, a dropped connection) before the call fails (default 4, with backoff from 0.5 s doubling to 8 s); raise it for a service or network that fails often.",
  },
  skipCredentialsCheck: {
    env: "WPE_SKIP_CREDENTIALS_CHECK",
    doc: "`true` skips the one authenticated call (`GET /user`) by which `pulumi preview` proves the credentials.",
  },
  profile: {
    env: "WPE_PROFILE",
    doc: "The credential profile (see `profiles`) every resource of this provider uses unless it names its own `profile`.",
  },
  profiles: {
    env: "WPE_PROFILES",
    doc: 'Named credentials, a JSON object: `{"client-a": {"username": "<api user id>", "password": "<api password>"}}`; a profile the stack config does not list is read from `WPE_PROFILES`, then `WPE_API_USER_ID_<NAME>` and `WPE_API_PASSWORD_<NAME>`.',
    secret: true,
  },
  adoptExisting: {
    env: "WPE_ADOPT_EXISTING",
    doc: "`true` makes every create take over an object that already exists (an import's first up; after a crash, `pulumi-wpengine recover` adopts only what the killed run made).",
  },
} as const;

export const CONFIG_KEYS = Object.fromEntries(
  Object.entries(SETTINGS).map(([name, setting]) => [name, { key: `wpengine:${name}`, ...setting }]),
) as { [K in keyof typeof SETTINGS]: { readonly key: `wpengine:${K}` } & (typeof SETTINGS)[K] };

export type ConfigName = keyof typeof CONFIG_KEYS;

/** The settings the schema marks secret (`wpengine:password`, `wpengine:profiles`). */
export const SECRET_SETTINGS = (Object.keys(CONFIG_KEYS) as ConfigName[]).filter(
  (name) => "secret" in CONFIG_KEYS[name],
);

/** The one line for a secret setting set in clear text (`pulumi config set` without `--secret`): `where` it sits so. */
export const notSecretLine = (name: ConfigName, where: string): string =>
  `${CONFIG_KEYS[name].key} is not a secret: ${where}; set it with \`pulumi config set --secret ${CONFIG_KEYS[name].key} <value>\``;

/** What `configure` received, as plain strings (secret config arrives there as plaintext). */
export type RawProviderConfig = Partial<Record<ConfigName, string>>;

/** The resolved settings the client is built from, each as its setting's `doc` says (`SETTINGS`). */
export interface ResolvedProviderConfig
  extends Pick<RawProviderConfig, "username" | "password" | "apiUrl" | "appHostingUrl"> {
  /** The embedded simulator's state file; off unless asked for (a missing credential never means the fake). */
  simulatorStateFile?: string;
  adoptExisting?: boolean;
  maxConcurrency?: number;
  maxRetries?: number;
  skipCredentialsCheck?: boolean;
}

/** One provider's configuration and its client's cache slot (the stack's, or an explicit provider's). */
export interface ProviderInstance {
  config: RawProviderConfig;
  clientSlot: symbol;
  /** The credential profile the instance runs as, when one was chosen (errors name it). */
  profile?: string;
  /** Where the profile's credentials were read from, in words (`wpengine:profiles`, its variables). */
  credentialsFrom?: string;
  /** Its config is a provider resource's arguments (the executable provider), not the program's stack config. */
  fromArguments?: boolean;
}

const STACK_SLOT = Symbol.for("pulumi-wpengine.provider-client");
const stack = perProcess<ProviderInstance>("provider-config", () => ({ config: {}, clientSlot: STACK_SLOT }));

const instanceScope = new AsyncLocalStorage<ProviderInstance>();

/** Runs `fn` (a lifecycle method or a lookup) as `instance`: its config and client, not the stack's. */
export const withProviderInstance = <T>(instance: ProviderInstance, fn: () => T): T =>
  instanceScope.run(instance, fn);

/** The instance the current call runs as: the scope's, else the process's stack config. */
export const currentProviderInstance = (): ProviderInstance => instanceScope.getStore() ?? stack.get();

/** A setting's value: a non-empty string, else none (an empty config value or variable is unset). */
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

type Getter = (key: string) => string | undefined;

/** The raw config of a `wpengine:*` getter; `keys` (the stack's) adds its other `wpengine:*` keys (typos). */
export function rawConfigOf(get: Getter, keys: Iterable<string> = []): RawProviderConfig {
  const values = Object.entries(CONFIG_KEYS).map(([name, { key }]) => [name, text(get(key))]);
  for (const key of keys) {
    const name = key.startsWith("wpengine:") ? key.slice("wpengine:".length) : undefined;
    if (name !== undefined && !Object.hasOwn(CONFIG_KEYS, name)) values.push([name, String(get(key) ?? "")]);
  }
  return Object.fromEntries(values.filter(([, value]) => value !== undefined));
}

/** Called by `configure`: keeps the stack config for this process (one plugin process per stack). */
export function setStackConfig(get: Getter, keys?: Iterable<string>): void {
  stack.set({ config: rawConfigOf(get, keys), clientSlot: STACK_SLOT });
}

/** Forgets the stack config (tests). */
export const clearStackConfig = (): void => stack.clear();

/** The CPUs this process may use, asked once (the OS call cost 40 µs on every lifecycle call). */
let cpus: number | undefined;
const machineCpus = () => (cpus ??= availableParallelism());

/** `maxConcurrency`'s default, as its doc says (the CLI's: pulumi/pkg/cmd/pulumi/operations/up.go). */
export function defaultConcurrency(env: NodeJS.ProcessEnv, cpus = machineCpus()): number {
  const parallel = Number(env["PULUMI_PARALLEL"]);
  return Math.min(Number.isInteger(parallel) && parallel >= 1 ? parallel : 4 * cpus, 40);
}

/** The typos among `names`, each with its error; none in project wpengine, whose keys share the namespace. */
export function misspelt(names: string[], env: NodeJS.ProcessEnv = process.env) {
  if (env["PULUMI_PROJECT"] === "wpengine") return [];
  const settings = Object.keys(CONFIG_KEYS);
  return strays(names, settings).map(({ name, like }) => {
    const hint = like ? `did you mean wpengine:${like}?` : `the settings are ${settings.join(", ")}`;
    const reason = `wpengine:${name} is not a setting of this provider: ${hint} (remove it with \`pulumi config rm wpengine:${name}\`)`;
    return { name, reason };
  });
}

/** The `names` not among `known`, each with the known name it likely meant (`meant`). */
const strays = (names: string[], known: string[]) =>
  names.filter((name) => !known.includes(name)).map((name) => ({ name, like: meant(name, known) }));

/** Where a setting's value comes from, for its errors: its config key when set there, else its variable. */
export const originOf = (name: ConfigName, raw = currentProviderInstance().config): string =>
  text(raw[name]) !== undefined ? CONFIG_KEYS[name].key : CONFIG_KEYS[name].env;

/**
 * Where this provider instance's URL `name` came from and how to point it elsewhere, as a sentence. An explicit
 * provider takes its arguments and the environment, not the stack's `wpengine:*` (Pulumi's rule): a stack value
 * it did not take (`PULUMI_CONFIG`, which the engine hands every provider process) is named as not applying.
 */
export function urlSource(name: UrlName, instance = currentProviderInstance(), env = process.env): string {
  const { key, env: variable } = CONFIG_KEYS[name];
  const executable = instance.fromArguments === true;
  const doing = underPulumiDo();
  if (text(instance.config[name]) !== undefined)
    return doing
      ? `That URL is the one --${key} gave`
      : executable
        ? `That URL is this provider's ${name} (the stack's ${key} for the default provider, the ${name} argument of an explicit provider)`
        : `That URL is the stack's ${key}`;
  if (text(env[variable]) !== undefined)
    return `That URL is ${variable}'s (this provider has no ${name} of its own)`;
  if (doing)
    return `That URL is the default (no --${key}, and ${variable} is unset): pass --${key} <url> or set ${variable}`;
  if (!executable)
    return `That URL is the default (neither ${key} nor ${variable} is set): set ${key} or ${variable}`;
  const stack = (jsonOf(env["PULUMI_CONFIG"] ?? "{}") as Record<string, unknown> | undefined)?.[name];
  const unset = `That URL is the default: this provider has no ${name} argument and ${variable} is unset`;
  if (typeof stack === "string" && stack !== "")
    return `${unset}. The stack's ${key} (${stack}) configures the default provider only, not an explicit provider: pass ${name}: "${stack}" to this provider, or set ${variable}`;
  return `${unset}: set ${key} (the default provider), the ${name} argument of an explicit provider, or ${variable}`;
}

/** The service's base URLs, each URL setting's example in its errors. */
const URL_EXAMPLES = { apiUrl: DEFAULT_API_URL, appHostingUrl: DEFAULT_APP_HOSTING_URL } as const;
type UrlName = keyof typeof URL_EXAMPLES;

/**
 * What is wrong with the URLs among `config` (https, or plain http to loopback only), each in one line said of
 * its `origin`. One rule for every front door, the simulator on or off: a bad URL is refused even while the
 * simulator, which does not use it, is on, not found only when it is turned off.
 */
export function urlProblems(
  config: Partial<Record<UrlName, unknown>>,
  origin = (name: ConfigName): string => CONFIG_KEYS[name].key,
) {
  return (["apiUrl", "appHostingUrl"] as const).flatMap((name) => {
    const value = config[name];
    if (typeof value !== "string" || value === unknownValue) return [];
    const where = origin(name);
    try {
      checkBaseUrl(where, value);
      return [];
    } catch (err) {
      const unset = where === CONFIG_KEYS[name].key ? `pulumi config rm ${where}` : `unset ${where}`;
      const next = `give a base URL such as ${URL_EXAMPLES[name]}, the service's, or remove it (\`${unset}\`) to use that one`;
      return [{ name, reason: `${(err as Error).message}${shown(value)}: ${next}` }];
    }
  });
}

/** A value as errors show it, unless it holds a user or password (a URL; secrets are never checked here). */
const shown = (value: string) => (value.includes("@") ? "" : ` (it is ${JSON.stringify(value)})`);

const YES = ["true", "1", "yes"];
const NO = ["false", "0", "no"];

/** The instance's config (or `raw`), then the environment; a typo is refused naming its origin and value. */
export function resolveProviderConfig(env = process.env, raw = currentProviderInstance().config) {
  const [typo] = misspelt(Object.keys(raw), env);
  if (typo !== undefined) throw new WpEngineConfigError(typo.reason);
  const pick = (name: ConfigName) => text(raw[name] ?? env[CONFIG_KEYS[name].env]);
  const mustBe = (name: ConfigName, what: string): never => {
    throw new WpEngineConfigError(`${originOf(name, raw)} must be ${what}${shown(pick(name) ?? "")}`);
  };
  const flag = (name: ConfigName) => {
    const value = pick(name)?.toLowerCase();
    if (value !== undefined && !YES.includes(value) && !NO.includes(value)) mustBe(name, "true or false");
    return YES.includes(value ?? "");
  };
  const whole = (name: ConfigName, min: number) => {
    const value = pick(name);
    const number = Number(value);
    if (value !== undefined && !(Number.isInteger(number) && number >= min))
      mustBe(name, `a whole number of at least ${min}`);
    return value === undefined ? undefined : number;
  };
  const resolved: ResolvedProviderConfig = {};
  for (const name of ["username", "password", "apiUrl", "appHostingUrl"] as const) {
    const value = pick(name);
    if (value !== undefined) resolved[name] = value;
  }
  if (flag("adoptExisting")) resolved.adoptExisting = true;
  if (flag("skipCredentialsCheck")) resolved.skipCredentialsCheck = true;
  resolved.maxConcurrency = whole("maxConcurrency", 1) ?? defaultConcurrency(env);
  const retries = whole("maxRetries", 0);
  if (retries !== undefined) resolved.maxRetries = retries;
  const [bad] = urlProblems(resolved, (name) => originOf(name, raw));
  if (bad) throw new WpEngineConfigError(bad.reason);
  const simulator = pick("simulator");
  if (simulator === undefined || NO.includes(simulator.toLowerCase())) return resolved;
  if (YES.includes(simulator.toLowerCase())) resolved.simulatorStateFile = sharedWorldFile(env);
  // A world file is named as one: a typo of `true` is not a new world.
  else if (/\.json$/i.test(simulator) || /[\\/]/.test(simulator)) resolved.simulatorStateFile = simulator;
  else mustBe("simulator", "true, false or a world file (a name ending in .json, or a path with /)");
  return resolved;
}

/** A profile's name: what `WPE_API_USER_ID_<NAME>` can spell. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** The environment variables of a profile's credentials: `WPE_API_USER_ID_CLIENT_A` for `client-a`. */
export function profileEnv(name: string): { username: string; password: string } {
  const suffix = name.toUpperCase().replace(/[^A-Z0-9]/g, "_");
  return { username: `${ENV.username}_${suffix}`, password: `${ENV.password}_${suffix}` };
}

/** The credentials as the messages show them: a profile's entry, a command's value. */
export const PLACEHOLDERS = { username: "<api user id>", password: "<api password>" } as const;

/**
 * Where a profile's credentials are set, in words (the errors that name a profile say it); `standalone`:
 * for the commands that read no stack (import, report, the policy pack), the environment only.
 */
export function profileSources(name: string, standalone = false): string {
  const vars = profileEnv(name);
  const example = JSON.stringify({ [name]: PLACEHOLDERS });
  const env = `${vars.username} and ${vars.password}`;
  const inEnvironment = `${CONFIG_KEYS.profiles.env}='${example}' or ${env} in the environment`;
  if (standalone) return inEnvironment;
  // `pulumi do` reads no stack: the environment (a password on the command line would stay in the shell's
  // history and show in the process list).
  if (underPulumiDo())
    return `${inEnvironment}; to keep the password out of the shell history, read it with \`read -rs ${vars.password} && export ${vars.password}\``;
  return `${CONFIG_KEYS.profiles.key} (${example}, set with \`pulumi config set --secret ${CONFIG_KEYS.profiles.key} ...\`) or ${CONFIG_KEYS.profiles.env}, or ${env}`;
}

/**
 * Profile `name`'s entry in the stack's profiles, else the environment's (`where` names that source),
 * refused when the name is no profile name or the entry is malformed (a misspelt key: its credentials would
 * silently come from elsewhere, or be missing).
 */
function profileEntry(name: string, base: ProviderInstance, env: NodeJS.ProcessEnv, standalone: boolean) {
  if (!PROFILE_NAME.test(name))
    throw new WpEngineConfigError(
      `wpengine: profile ${JSON.stringify(name)} is not a profile name: use letters, digits, - and _, starting with a letter or digit (e.g. client-a)`,
    );
  /** The profile as the JSON object of profiles `json` lists it, if it does; `where` names that source. */
  const listedIn = (where: string, json: string | undefined) => {
    if (!json) return undefined;
    const profiles = jsonOf(json);
    if (!isObject(profiles))
      throw new WpEngineConfigError(
        `wpengine: ${where} must be a JSON object of profiles, e.g. ${JSON.stringify({ "client-a": PLACEHOLDERS })}`,
      );
    const entry = profiles[name];
    if (entry === undefined) return undefined;
    const known = Object.keys(PLACEHOLDERS);
    const held = strays(isObject(entry) ? Object.keys(entry) : [], known).map(({ name: key, like }) =>
      like ? `${key} (did you mean ${like}?)` : key,
    );
    if (!isObject(entry) || held.length)
      throw new WpEngineConfigError(
        `wpengine: profile ${name} in ${where} ${held.length ? `has ${held.join(", ")}, which a profile does not hold` : "is not an object"}: a profile is ${JSON.stringify(PLACEHOLDERS)}.`,
      );
    return entry as { username?: unknown; password?: unknown };
  };
  const fromEnv = env[CONFIG_KEYS.profiles.env];
  let where = standalone ? CONFIG_KEYS.profiles.env : CONFIG_KEYS.profiles.key;
  let listed = listedIn(where, base.config.profiles);
  if (listed === undefined && fromEnv !== base.config.profiles) {
    where = CONFIG_KEYS.profiles.env;
    listed = listedIn(where, fromEnv);
  }
  return { listed, where, fromEnv };
}

/** Profile `name`'s instance: `base`'s settings with its own API user and client (`standalone`: as above). */
export function profileInstance(
  name: string,
  base: ProviderInstance = currentProviderInstance(),
  env: NodeJS.ProcessEnv = process.env,
  standalone = false,
): ProviderInstance {
  const { listed, where, fromEnv } = profileEntry(name, base, env, standalone);
  const vars = profileEnv(name);
  const username = text(listed?.username) ?? text(env[vars.username]);
  const password = text(listed?.password) ?? text(env[vars.password]);
  if (username === undefined || password === undefined) {
    // A typo of a profile that is set (`acmee`) is the likely cause: named, with the profiles known here.
    // A profile that is listed but lacks a value is no typo: its entry is named.
    const known = knownProfiles(standalone ? [fromEnv] : [base.config.profiles, fromEnv], env);
    const like = listed === undefined && meant(name, known);
    const typo = like ? ` (did you mean ${like}? the profiles set here: ${known.join(", ")})` : "";
    const entry = listed === undefined ? "" : ` in ${where}`;
    throw new WpEngineConfigError(
      `wpengine: profile ${name}${entry} has no ${username === undefined ? "API user id" : "password"}${typo}: set it in ${profileSources(name, standalone)}.`,
    );
  }
  const from = (key: "username" | "password") => (text(listed?.[key]) !== undefined ? where : vars[key]);
  const { profile: _profile, profiles: _profiles, ...settings } = base.config;
  return {
    config: { ...settings, username, password },
    clientSlot: Symbol.for(`pulumi-wpengine.profile-client.${name}`),
    profile: name,
    credentialsFrom: [...new Set([from("username"), from("password")])].join(" and "),
    ...(base.fromArguments && { fromArguments: true }),
  };
}

/** The profiles `lists` name, and those whose `WPE_API_USER_ID_<NAME>` is set (as the name in lower case). */
function knownProfiles(lists: readonly (string | undefined)[], env: NodeJS.ProcessEnv): string[] {
  const prefix = `${ENV.username}_`;
  const set = Object.keys(env).filter(
    (k) => k.startsWith(prefix) && k.length > prefix.length && text(env[k]),
  );
  const listed = lists.map(jsonOf).filter(isObject).flatMap(Object.keys);
  return [...new Set([...listed, ...set.map((k) => k.slice(prefix.length).toLowerCase())])].sort();
}

/** The profile a resource's properties name (`profile`), if any and known. */
export function profileOf(props: unknown): string | undefined {
  const value = (props as Record<string, unknown> | undefined)?.["profile"];
  return value === unknownValue ? undefined : text(value);
}

/**
 * Runs `fn` as profile `name`, else the instance's own. The simulator's one user serves every profile; a
 * profile's name, and a profile that is set, are still checked (found while trying things out, not on the
 * first real run).
 */
export function withProfile<T>(name: string | undefined, fn: () => T): T {
  const base = currentProviderInstance();
  const chosen = name ?? base.config.profile ?? text(process.env[CONFIG_KEYS.profile.env]);
  if (chosen === undefined) return fn();
  if (resolveProviderConfig(process.env, base.config).simulatorStateFile === undefined)
    return withProviderInstance(profileInstance(chosen, base), fn);
  // A profile set here (an entry, or one of its variables) is checked whole, as against the service; so is
  // one set nowhere whose name is a likely typo of one set here (`initeck`), which fails naming that one.
  const vars = profileEnv(chosen);
  const set = [process.env[vars.username], process.env[vars.password]].some((v) => text(v) !== undefined);
  const { listed, fromEnv } = profileEntry(chosen, base, process.env, false);
  const typo = meant(chosen, knownProfiles([base.config.profiles, fromEnv], process.env));
  if (listed !== undefined || set || typo) profileInstance(chosen, base);
  return fn();
}
