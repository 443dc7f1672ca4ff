import { WpEngineWaitTimeoutError } from "./errors";

/** First delay between two polls of asynchronous work; it grows by half each time up to {@link POLL_MAX_MS}. */
export const POLL_FIRST_MS = 250;
/** Longest delay between two polls of asynchronous work. */
export const POLL_MAX_MS = 10_000;

/** What one check of {@link pollUntil} reports. */
export type PollCheck<T> = { done: true; value: T } | { done: false; state?: string | undefined };

/** Options of {@link pollUntil}. */
export interface PollOptions<T> {
  /** Longest total wait in milliseconds, counted from the call. */
  deadlineMs: number;
  /** First delay between checks in milliseconds; it grows by half each time up to `maxIntervalMs`. */
  intervalMs: number;
  /** Cap of the delay between checks (default: 10 times `intervalMs`, at most 30 s). */
  maxIntervalMs?: number | undefined;
  /** Reads the current state; an exception ends the wait and propagates. */
  check: () => Promise<PollCheck<T>> | PollCheck<T>;
  /** What is being waited for, used in the timeout message, e.g. `environment prod to stop reconciling`. */
  describe: string;
  /** Sleep function (tests inject one). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Clock in milliseconds (tests inject one). */
  now?: (() => number) | undefined;
}

/**
 * Checks until `check` reports done, sleeping between checks with a capped backoff and never past the
 * deadline (one last check is made at the deadline). Throws {@link WpEngineWaitTimeoutError} naming what it
 * was waiting for and the last state seen.
 */
export async function pollUntil<T>(options: PollOptions<T>): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const start = now();
  const deadline = start + Math.max(0, options.deadlineMs);
  const maxInterval = options.maxIntervalMs ?? Math.min(30_000, options.intervalMs * 10);
  let interval = Math.max(0, options.intervalMs);
  let lastState: string | undefined;
  for (;;) {
    const result = await options.check();
    if (result.done) return result.value;
    if (result.state !== undefined) lastState = result.state;
    const remaining = deadline - now();
    if (remaining <= 0) throw new WpEngineWaitTimeoutError(options.describe, now() - start, lastState);
    await sleep(Math.min(interval, remaining));
    interval = Math.min(maxInterval, Math.max(1, Math.round(interval * 1.5)));
  }
}
