/** The client of the program process (lookups): its `wpengine:*` config, then the environment. */
import * as pulumi from "@pulumi/pulumi";
import type { WpEngineClient } from "../../sdk";
import { forgetClient, getClient } from "./client";
import { rawConfigOf, withProfile, withProviderInstance } from "./config";

const PROGRAM_CLIENT_KEY = Symbol.for("pulumi-wpengine.program-client");

/**
 * The program process's client for the current configuration, created on first use: as `profile`, else
 * the profile the config or `WPE_PROFILE` names (as the program's resources run), else the default API user.
 */
export function programClient(profile?: string): Promise<WpEngineClient> {
  // A secret's plaintext too (the program's `wpengine:*` config): it goes only into the client's transport.
  const config = rawConfigOf(pulumi.runtime.getConfig, Object.keys(pulumi.runtime.allConfig()));
  return withProviderInstance({ config, clientSlot: PROGRAM_CLIENT_KEY }, () =>
    withProfile(profile, getClient),
  );
}

/** Drops the cached program client (tests switch configuration between cases). */
export function resetProgramClient(): void {
  forgetClient(PROGRAM_CLIENT_KEY);
}
