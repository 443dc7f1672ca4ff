/**
 * The client of the PROGRAM process (lookup functions run there, not in the plugin): built from the
 * program's `wpengine:*` stack configuration (`new pulumi.Config("wpengine")`), falling back to the
 * environment, through the same resolution rules as the plugin (`resolveProviderConfig`).
 *
 * The password is read as a secret would be and goes only into the client's transport: it never
 * reaches a result, an output or an error message.
 */
import * as pulumi from "@pulumi/pulumi";
import type { WpEngineClient } from "../../sdk";
import { cachedClient } from "./client";
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

/** The program process's client for the current configuration, created on first use. */
export function programClient(env: NodeJS.ProcessEnv = process.env): Promise<WpEngineClient> {
  return cachedClient(PROGRAM_CLIENT_KEY, resolveProgramConfig(env));
}

/** Drops the cached program client (tests switch configuration between cases). */
export function resetProgramClient(): void {
  delete (globalThis as Record<symbol, unknown>)[PROGRAM_CLIENT_KEY];
}
