/**
 * The client of the PROGRAM process (lookup functions run there, not in the plugin): built from the
 * program's `wpengine:*` stack configuration (`new pulumi.Config("wpengine")`), falling back to the
 * environment, through the same resolution as the plugin (`resolveProviderConfig`).
 *
 * The password is read as a secret would be and goes only into the client's transport: it never
 * reaches a result, an output or an error message.
 */
import * as pulumi from "@pulumi/pulumi";
import type { WpEngineClient } from "../../sdk";
import { cachedClient } from "./client";
import { type ResolvedProviderConfig, rawConfigOf, resolveProviderConfig } from "./config";

/** The program's resolved configuration (stack config, then environment). */
export function resolveProgramConfig(env: NodeJS.ProcessEnv = process.env): ResolvedProviderConfig {
  const config = new pulumi.Config("wpengine");
  // `get` returns the plaintext of a secret value too; it goes only into the client below.
  return resolveProviderConfig(
    env,
    rawConfigOf((key) => config.get(key.replace(/^wpengine:/, ""))),
  );
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
