/** The client the lifecycle methods use, built from the resolved configuration and cached per process. */
import { createHash } from "node:crypto";
import { WpEngineClient } from "../../sdk";
import { DEFAULT_API_URL } from "../../sdk/core/config";
import { WpEngineConfigError, WpEngineConnectionError, WpEngineResponseError } from "../../sdk/core/errors";
import { perProcess } from "../../sdk/core/process";
import {
  CONFIG_KEYS,
  currentProviderInstance,
  originOf,
  PLACEHOLDERS,
  profileSources,
  type ResolvedProviderConfig,
  resolveProviderConfig,
} from "./config";
import { ranAs, urlNote } from "./errors";
import { beforeWrite, underPulumiDo } from "./journal";

/** The embedded simulators this process started (simulator mode), so they can be stopped. */
const embedded = perProcess("embedded-simulators", () => new Set<{ stop(): Promise<void> }>());
type Cached = { fingerprint: string; client: Promise<WpEngineClient> };
/** The clients of this process, by their instance's slot. */
const clients = perProcess("clients", () => new Map<symbol, Cached>());

/** Thrown when neither stack config nor the environment says where and as whom to connect; names only what is missing. */
export class MissingCredentialsError extends Error {
  constructor(missing: ("username" | "password")[]) {
    const each = (way: (name: "username" | "password") => string, join = " and ") =>
      missing.map(way).join(join);
    const setWith = (name: "username" | "password") =>
      `\`pulumi config set ${name === "password" ? "--secret " : ""}${CONFIG_KEYS[name].key} ${PLACEHOLDERS[name]}\``;
    const keys = each((name) => CONFIG_KEYS[name].key);
    const env = each((name) => CONFIG_KEYS[name].env);
    const one = missing.length === 1;
    super(
      underPulumiDo()
        ? `wpengine: missing ${keys}. \`pulumi do\` reads no stack: set ${env} in the environment, or pass ${each((name) => `--${CONFIG_KEYS[name].key} ${PLACEHOLDERS[name]}`, " ")} (--wpengine:simulator true for the bundled simulator).`
        : `wpengine: missing ${keys}. Set ${one ? "it" : "them"} with ${each(setWith)} (or the environment variable${one ? "" : "s"} ${env}), or try the program against the bundled simulator with \`pulumi config set wpengine:simulator true\`.`,
    );
    this.name = "MissingCredentialsError";
  }
}

/** Refuses a configuration no client can be built from, without an API call (`check`: preview fails). */
function assertUsableConfig(config: ResolvedProviderConfig): void {
  if (config.simulatorStateFile !== undefined) return;
  const missing = (["username", "password"] as const).filter((name) => config[name] === undefined);
  if (missing.length > 0) throw new MissingCredentialsError(missing);
}

/** A client of the embedded simulator in simulator mode, else of the service (never without credentials). */
async function buildClient(config: ResolvedProviderConfig): Promise<WpEngineClient> {
  const { username, password, apiUrl, appHostingUrl, maxConcurrency, maxRetries } = config;
  const options = { username, password, apiUrl, appHostingUrl, maxConcurrency, maxRetries, beforeWrite };
  const stateFile = config.simulatorStateFile;
  if (stateFile === undefined) {
    assertUsableConfig(config);
    return new WpEngineClient(options);
  }
  // Loaded only when asked for, so a provider talking to the real service never loads the server.
  const { startSimulator } = await import("../../simulator");
  // Unref'd: a program whose lookups started it ends when its own work does (the engine waits for that).
  // Shared: every provider process and the program's lookups keep one world, each seeing what the others wrote.
  const sim = await startSimulator({ port: 0, stateFile, shared: true, quiet: true, unref: true });
  embedded.get().add(sim);
  process.once("exit", () => void sim.stop());
  const demo = { username: "demo", password: "demo", apiUrl: sim.apiUrl, appHostingUrl: sim.appHostingUrl };
  return new WpEngineClient({ ...options, ...demo });
}

/** The client for `config`, cached under `slot` until its settings change (the password only as a digest). */
function cachedClient(slot: symbol, config: ResolvedProviderConfig): Promise<WpEngineClient> {
  const { adoptExisting: _adopt, skipCredentialsCheck: _skip, password, ...built } = config;
  const digest = password && createHash("sha256").update(password).digest("hex");
  const fingerprint = JSON.stringify([built, digest]);
  const cache = clients.get();
  const cached = cache.get(slot);
  if (cached && cached.fingerprint === fingerprint) return cached.client;
  const client = buildClient(config);
  // A failed construction is not kept: the next call tries again.
  client.catch(() => {
    if (cache.get(slot)?.client === client) cache.delete(slot);
  });
  cache.set(slot, { fingerprint, client });
  return client;
}

/** The client of the current provider instance and configuration, created on first use. */
export const getClient = (): Promise<WpEngineClient> =>
  cachedClient(currentProviderInstance().clientSlot, resolveProviderConfig());

/** Drops the client cached under `slot`. */
export const forgetClient = (slot: symbol): void => void clients.get().delete(slot);

/** Drops the cached client and stops the embedded simulators (tests: a listening one keeps workers up). */
export async function resetClient(): Promise<void> {
  forgetClient(currentProviderInstance().clientSlot);
  const sims = [...embedded.get()];
  embedded.get().clear();
  await Promise.all(sims.map((s) => s.stop()));
}

const PROVEN = Symbol.for("pulumi-wpengine.proven-credentials");

/**
 * Refuses missing credentials, then proves them once per client with `GET /user`, so preview fails on them:
 * a 401, 403, an unreachable API or a URL that is not the API fails; any other error is left to the calls
 * that follow (not a passing fault's preview).
 */
export async function proveCredentials(): Promise<void> {
  const config = resolveProviderConfig();
  assertUsableConfig(config);
  if (config.simulatorStateFile !== undefined || config.skipCredentialsCheck) return;
  const { clientSlot, profile } = currentProviderInstance();
  const client = await cachedClient(clientSlot, config);
  const holder = client as unknown as { [PROVEN]?: Promise<void> };
  holder[PROVEN] ??= client.accounts.currentUser().then(
    () => undefined,
    (err) => {
      if (err instanceof WpEngineConnectionError)
        throw new WpEngineConfigError(
          `wpengine: cannot reach the API at ${client.apiUrl} (${err.message}); nothing was sent. ${urlNote(err)}.`,
        );
      const status = (err as { status?: number }).status;
      // The service's GET /user answers 200, 401, 429 or 5xx (its Swagger): a 404, or a 2xx that is not
      // JSON (a web page), is another server's, at a URL that is not the API's base (its /v1 left out).
      const page = err instanceof WpEngineResponseError && err.issues.length === 0;
      if (status === 404 || page)
        throw new WpEngineConfigError(
          `wpengine: ${originOf("apiUrl")} is ${client.apiUrl}, which is not the hosting API (GET /user answered ${page ? `${status} with a body that is not JSON` : "404 Not Found"}): set it to the API's base URL, which ends in /v1 (e.g. ${DEFAULT_API_URL}).`,
        );
      if (status !== 401 && status !== 403) return;
      const refused = `${status} ${status === 401 ? "Unauthorized" : "Forbidden"} on GET /user`;
      const doing = underPulumiDo();
      const where = profile
        ? profileSources(profile)
        : doing
          ? `${CONFIG_KEYS.username.env} and ${CONFIG_KEYS.password.env} (or --${CONFIG_KEYS.username.key} and --${CONFIG_KEYS.password.key})`
          : `${CONFIG_KEYS.username.key} and ${CONFIG_KEYS.password.key} (or ${CONFIG_KEYS.username.env} and ${CONFIG_KEYS.password.env})`;
      const skip = doing ? "--wpengine:skip-credentials-check" : CONFIG_KEYS.skipCredentialsCheck.key;
      throw new WpEngineConfigError(
        `wpengine: the API refused the credentials of ${profile ? ranAs() : `API user ${config.username}`} (${refused}). Check ${where}; set ${skip} true to skip this check.`,
      );
    },
  );
  return holder[PROVEN];
}
