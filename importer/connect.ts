/**
 * The connection of the commands that read no stack (import, report, the policy pack), configured as the
 * provider is (`provider/core/config.ts`) from the environment alone: `WPE_API_USER_ID` /
 * `WPE_API_PASSWORD`, or a profile's (`WPE_PROFILES`, `WPE_API_USER_ID_<NAME>`), `WPE_API_URL`,
 * `WPE_APP_HOSTING_URL`, or the bundled simulator (`WPE_SIMULATOR`); every request that reaches the
 * service is counted by the dispatcher. Their errors name what they read, never stack config.
 */
import { Agent } from "undici";
import {
  profileInstance,
  profileSources,
  type ResolvedProviderConfig,
  resolveProviderConfig,
} from "../provider/core/config";
import { isAuthenticationError, WpEngineClient } from "../sdk";
import { DEFAULT_API_URL, DEFAULT_APP_HOSTING_URL, ENV } from "../sdk/core/config";
import { WpEngineConfigError, WpEngineConnectionError, WpEngineTimeoutError } from "../sdk/core/errors";

export interface Connection {
  client: WpEngineClient;
  /** Requests sent so far (retries included). */
  calls(): number;
  /** Where the importer read from, for the summary and the generated README. */
  target: string;
  /** The resolved configuration (the generated project is configured the same way). */
  config: ResolvedProviderConfig;
  /** The credential profile it reads as, if any. */
  profile?: string;
  close(): Promise<void>;
}

/**
 * The configuration a connection as `profile` (else as the default API user) is made of: refused, naming
 * the variables to set, when the credentials are missing (the simulator's one user serves every profile).
 */
export function connectionConfig(env: NodeJS.ProcessEnv, profile?: string): ResolvedProviderConfig {
  const config = resolveProviderConfig(env, {});
  if (config.simulatorStateFile !== undefined) return config;
  if (profile !== undefined) {
    // The profile's own API user (never the default one) as WPE_API_USER_ID/WPE_API_PASSWORD.
    const own = profileInstance(profile, { config: {}, clientSlot: Symbol(profile) }, env, true).config;
    return resolveProviderConfig({ ...env, [ENV.username]: own.username, [ENV.password]: own.password }, {});
  }
  if (config.username === undefined || config.password === undefined)
    throw new WpEngineConfigError(
      `no credentials: set ${ENV.username} and ${ENV.password} (an API user of the User Portal's API Access page), ` +
        "or WPE_SIMULATOR=true for the bundled simulator, in the environment",
    );
  return config;
}

/** A connection as `profile` when given, else as the default API user. */
export async function connect(env: NodeJS.ProcessEnv = process.env, profile?: string): Promise<Connection> {
  const config = connectionConfig(env, profile);
  let calls = 0;
  const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
    calls++;
    return dispatch(opts, handler);
  });
  let stop = async () => {};
  let options: ConstructorParameters<typeof WpEngineClient>[0];
  if (config.simulatorStateFile !== undefined) {
    const { startSimulator } = await import("../simulator");
    const sim = await startSimulator({ port: 0, stateFile: config.simulatorStateFile, quiet: true });
    stop = () => sim.stop();
    options = { username: "demo", password: "demo", apiUrl: sim.apiUrl, appHostingUrl: sim.appHostingUrl };
  } else {
    options = {
      username: config.username!,
      password: config.password!,
      ...(config.apiUrl !== undefined ? { apiUrl: config.apiUrl } : {}),
      ...(config.appHostingUrl !== undefined ? { appHostingUrl: config.appHostingUrl } : {}),
    };
  }
  // Requests in flight as the provider allows them (`wpengine:maxConcurrency` / WPE_MAX_CONCURRENCY): the
  // pages of a listing and the reads of every install go at once up to it.
  const client = new WpEngineClient({
    ...options,
    ...(config.maxConcurrency !== undefined ? { maxConcurrency: config.maxConcurrency } : {}),
    dispatcher,
  });
  return {
    client,
    calls: () => calls,
    target:
      config.simulatorStateFile !== undefined
        ? `the bundled simulator (${config.simulatorStateFile})`
        : client.apiUrl,
    config,
    ...(profile !== undefined ? { profile } : {}),
    async close() {
      await stop();
      await dispatcher.close();
    },
  };
}

/**
 * `err` as the standalone commands say it when the service refused `conn`'s credentials (401): whose (the
 * default API user's, or the profile's) and where they are set; when a request could not reach its API or
 * had no answer in time, which URL it used (the API's or App Hosting's), where that came from and the
 * variable to set ({@link unreachableUrl}); any other error as it is.
 */
export function refusedCredentials(err: unknown, conn: Connection): unknown {
  if (err instanceof WpEngineConnectionError || err instanceof WpEngineTimeoutError)
    return new Error(`${err.message}; ${unreachableUrl(err, conn.config)}`, { cause: err });
  if (!isAuthenticationError(err)) return err;
  const { profile, target } = conn;
  return new Error(
    profile !== undefined
      ? `the service refused the credentials of profile ${profile} (401) at ${target}: check ${profileSources(profile, true)}`
      : `the service refused the credentials (401) at ${target}: check ${ENV.username} and ${ENV.password} (an API user of the User Portal's API Access page)`,
  );
}

/**
 * Which URL a request of a command that reads no stack (import, report, the policy pack) could not reach
 * (or had no answer from in time), by the API it was for, and where that URL came from: its variable, or
 * the default, which the stack's `wpengine:*` never changes here. `config`: the connection's, resolved from
 * the environment alone.
 */
export function unreachableUrl(
  err: WpEngineConnectionError | WpEngineTimeoutError,
  config: Pick<ResolvedProviderConfig, "apiUrl" | "appHostingUrl">,
): string {
  const [name, what, fallback] =
    err.api === "appHosting"
      ? (["appHostingUrl", "the App Hosting URL", DEFAULT_APP_HOSTING_URL] as const)
      : (["apiUrl", "the API URL", DEFAULT_API_URL] as const);
  const url = err.baseUrl ?? config[name] ?? fallback;
  return config[name] !== undefined
    ? `${what} was ${url}, from ${ENV[name]}: check it and the network`
    : `${what} was the default ${url} (${ENV[name]} is unset, and the stack's wpengine:${name} is not read ` +
        `here): set ${ENV[name]} in the environment`;
}
