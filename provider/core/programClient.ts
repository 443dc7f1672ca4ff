/** The client of the program process (lookups): its `wpengine:*` config, then the environment. */
import * as pulumi from "@pulumi/pulumi";
import type { WpEngineClient } from "../../sdk";
import { cachedClient, forgetClient } from "./client";
import { rawConfigOf, resolveProviderConfig } from "./config";

const PROGRAM_CLIENT_KEY = Symbol.for("pulumi-wpengine.program-client");

/** The program process's client for the current configuration, created on first use. */
export function programClient(env: NodeJS.ProcessEnv = process.env): Promise<WpEngineClient> {
  // A secret's plaintext too (the program's `wpengine:*` config): it goes only into the client's transport.
  const raw = rawConfigOf(pulumi.runtime.getConfig, Object.keys(pulumi.runtime.allConfig()));
  return cachedClient(PROGRAM_CLIENT_KEY, resolveProviderConfig(env, raw));
}

/** Drops the cached program client (tests switch configuration between cases). */
export function resetProgramClient(): void {
  forgetClient(PROGRAM_CLIENT_KEY);
}
