/** TXT ownership verification (`DomainVerification`, `DomainMappingVerification`), asked until seen. */
import { z } from "zod";
import { isBadRequest, isRateLimited, pollUntil, WpEngineWaitTimeoutError } from "../../sdk";

/** How long create waits for the TXT record to be seen, by default (seconds). */
export const DEFAULT_TIMEOUT_SECONDS = 600;

/** The `retryIntervalSeconds` input: seconds between attempts (default 10, 1 to 3600). */
export const retryIntervalSecondsInput = z
  .number({ error: "must be a number of seconds" })
  .int("must be a whole number of seconds")
  .min(1, "must be at least 1 (the real service allows one check per 5 s)")
  .max(3600, "must be at most 3600")
  .default(10);

/**
 * Calls `attempt` while answered 400 (the record not seen yet) or 429, until `timeoutSeconds`; a timeout says
 * what to publish (the record `record` reads now, else `fallback`) and what the service last answered.
 */
export async function verifyUntilSeen<T>(opts: {
  timeoutSeconds: number;
  retryIntervalSeconds: number;
  attempt: () => Promise<T>;
  subject: string;
  record: () => Promise<{ name?: string | null; value?: string | null }>;
  fallback: string;
}): Promise<T> {
  const intervalMs = opts.retryIntervalSeconds * 1000;
  try {
    return await pollUntil({
      deadlineMs: opts.timeoutSeconds * 1000,
      intervalMs,
      maxIntervalMs: intervalMs,
      // Never shown: the timeout is worded below.
      describe: "the TXT record to be seen",
      check: async () => {
        try {
          return { done: true, value: await opts.attempt() };
        } catch (err) {
          if (isBadRequest(err) || isRateLimited(err))
            return { done: false, state: err.serverMessage ?? err.message };
          throw err;
        }
      },
    });
  } catch (err) {
    if (!(err instanceof WpEngineWaitTimeoutError)) throw err;
    const { name, value } = await opts.record();
    const publish =
      name && value ? `publish a DNS TXT record named "${name}" with the value "${value}"` : opts.fallback;
    throw new Error(
      `${opts.subject} is not verified after timeoutSeconds (${opts.timeoutSeconds} s): ${publish}, ` +
        `wait for it to propagate, then run again (or raise timeoutSeconds).` +
        (err.lastState ? ` The service last answered: ${err.lastState}.` : ""),
    );
  }
}
