/** The client of the program process (lookups): its `wpengine:*` config, then the environment. */
import * as pulumi from "@pulumi/pulumi";
import type { WpEngineClient } from "../../sdk";
import { forgetClient, getClient, proveCredentials } from "./client";
import { rawConfigOf, withProfile, withProviderInstance } from "./config";
import { accessHint, unreachable } from "./errors";

const PROGRAM_CLIENT_KEY = Symbol.for("pulumi-wpengine.program-client");

/** Runs `fn` with the program's client as {@link asLookup} does: as `profile`, else as its resources run. */
export function withProgramClient<T>(
  profile: string | undefined,
  fn: (client: WpEngineClient) => Promise<T>,
) {
  // A secret's plaintext too (the program's `wpengine:*` config): it goes only into the client's transport.
  const config = rawConfigOf(pulumi.runtime.getConfig, Object.keys(pulumi.runtime.allConfig()));
  return withProviderInstance({ config, clientSlot: PROGRAM_CLIENT_KEY }, () =>
    withProfile(profile, () => asLookup(fn)),
  );
}

/** Runs a lookup `fn` with the current instance's client: refused credentials fail first, naming whose. */
export async function asLookup<T>(fn: (client: WpEngineClient) => Promise<T>): Promise<T> {
  await proveCredentials();
  try {
    return await fn(await getClient());
  } catch (err) {
    // Credentials refused after all (a rotation, or the check skipped), or an API it could not reach.
    if (err instanceof Error)
      err.message += accessHint((err as { status?: unknown }).status) || unreachable(err);
    throw err;
  }
}

/** Drops the cached program client (tests switch configuration between cases). */
export const resetProgramClient = (): void => forgetClient(PROGRAM_CLIENT_KEY);
