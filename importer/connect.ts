/**
 * The importer's connection, configured as the provider is (`provider/core/config.ts`): the environment
 * (`WPE_API_USER_ID` / `WPE_API_PASSWORD`, `WPE_API_URL`, `WPE_APP_HOSTING_URL`) or the bundled simulator
 * (`WPE_SIMULATOR`); every request that reaches the service is counted by the dispatcher.
 */
import { Agent } from "undici";
import { assertUsableConfig } from "../provider/core/client";
import { type ResolvedProviderConfig, resolveProviderConfig } from "../provider/core/config";
import { WpEngineClient } from "../sdk";

export interface Connection {
  client: WpEngineClient;
  /** Requests sent so far (retries included). */
  calls(): number;
  /** Where the importer read from, for the summary and the generated README. */
  target: string;
  /** The resolved configuration (the generated project is configured the same way). */
  config: ResolvedProviderConfig;
  close(): Promise<void>;
}

export async function connect(env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  const config = resolveProviderConfig(env, {});
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
    assertUsableConfig(config);
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
    async close() {
      await stop();
      await dispatcher.close();
    },
  };
}
