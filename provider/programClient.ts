/**
 * The client of the PROGRAM process (lookup functions run there, not in the plugin): built from the
 * program's `wpengine:*` stack configuration (`new pulumi.Config("wpengine")`), falling back to the
 * environment, through the same resolution rules as the plugin (`resolveProviderConfig`).
 *
 * The password is read as a secret would be and goes only into the client's transport: it never
 * reaches a result, an output or an error message.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { WpEngineClient } from "../sdk";
import { MissingCredentialsError } from "./client";
import { CONFIG_KEYS, type ConfigName, type ResolvedProviderConfig, resolveProviderConfig } from "./config";

/**
 * The environment `resolveProviderConfig` should see in the program: the process environment with
 * every `wpengine:*` value of the program's stack config taking precedence over its variable.
 */
export function programConfigEnv(
  get: (name: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const [name, { env: variable }] of Object.entries(CONFIG_KEYS) as [ConfigName, { env: string }][]) {
    const value = get(name);
    if (value !== undefined && value !== "") out[variable] = value;
  }
  return out;
}

/** The program's resolved configuration (stack config, then environment). */
export function resolveProgramConfig(env: NodeJS.ProcessEnv = process.env): ResolvedProviderConfig {
  const config = new pulumi.Config("wpengine");
  // `get` returns the plaintext of a secret value too; it goes only into the client below.
  return resolveProviderConfig(programConfigEnv((name) => config.get(name), env));
}

const PROGRAM_CLIENT_KEY = Symbol.for("pulumi-wpengine.program-client");
type Cached = { fingerprint: string; client: Promise<WpEngineClient> };
type Holder = { [PROGRAM_CLIENT_KEY]?: Cached };

/** Builds a client from resolved settings (starting an embedded simulator in simulator mode). */
async function buildClient(config: ResolvedProviderConfig): Promise<WpEngineClient> {
  if (config.simulatorStateFile !== undefined) {
    // The same world file as the plugin's simulator: lookups see it as it was saved when this started.
    const { startSimulator } = await import("../simulator");
    const sim = await startSimulator({ port: 0, stateFile: config.simulatorStateFile, quiet: true });
    process.once("exit", () => void sim.stop());
    return new WpEngineClient({
      username: "demo",
      password: "demo",
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
  }
  const missing: string[] = [];
  if (config.username === undefined) missing.push("wpengine:username");
  if (config.password === undefined) missing.push("wpengine:password");
  if (missing.length > 0) throw new MissingCredentialsError(missing);
  return new WpEngineClient({
    username: config.username,
    password: config.password,
    ...(config.apiUrl !== undefined ? { apiUrl: config.apiUrl } : {}),
    ...(config.appHostingUrl !== undefined ? { appHostingUrl: config.appHostingUrl } : {}),
  });
}

/** The program process's client for the current configuration, created on first use. */
export function programClient(env: NodeJS.ProcessEnv = process.env): Promise<WpEngineClient> {
  const config = resolveProgramConfig(env);
  const fingerprint = JSON.stringify([
    config.username,
    // A digest, so a changed password gets a new client without the password being kept in clear.
    config.password === undefined ? null : createHash("sha256").update(config.password).digest("hex"),
    config.apiUrl,
    config.appHostingUrl,
    config.simulatorStateFile,
  ]);
  const holder = globalThis as Holder;
  const cached = holder[PROGRAM_CLIENT_KEY];
  if (cached && cached.fingerprint === fingerprint) return cached.client;
  const client = buildClient(config);
  client.catch(() => {
    if (holder[PROGRAM_CLIENT_KEY]?.client === client) delete holder[PROGRAM_CLIENT_KEY];
  });
  holder[PROGRAM_CLIENT_KEY] = { fingerprint, client };
  return client;
}

/** Drops the cached program client (tests switch configuration between cases). */
export function resetProgramClient(): void {
  delete (globalThis as Holder)[PROGRAM_CLIENT_KEY];
}
