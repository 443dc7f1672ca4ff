/**
 * The service's documented per-install windows (one object-cache purge per 60 s, one domain status check
 * per 5 s): calls on one key are serialised and spaced by the window, and a 429 (another process used it)
 * is waited out (its `Retry-After`, else the whole window), never a failure.
 */
import { isRateLimited, perProcess, WpEngineWaitTimeoutError } from "../../sdk";

/** The clock of these waits; tests replace it with the simulator's so no test sleeps for real. */
export const PACING_CLOCK = {
  now: (): number => Date.now(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Process-wide (the plugin serves every resource of a stack from one process). */
const state = perProcess("pacing", () => ({
  last: new Map<string, number>(),
  tails: new Map<string, Promise<unknown>>(),
}));

/** Forgets every recorded use (tests start each case from a fresh process's view). */
export const resetPacing = (): void => state.clear();

/** Runs `work` `windowMs` after the last run on `key`, and again after each 429, until `timeoutMs`. */
export function paced<T>(
  key: string,
  windowMs: number,
  timeoutMs: number,
  describe: string,
  work: () => Promise<T>,
): Promise<{ value: T; waitedMs: number }> {
  const s = state.get();
  const run = (s.tails.get(key) ?? Promise.resolve())
    .catch(() => undefined)
    .then(async () => {
      const start = PACING_CLOCK.now();
      const last = s.last.get(key);
      const own = last === undefined ? 0 : last + windowMs - start;
      if (own > timeoutMs) throw new WpEngineWaitTimeoutError(describe, 0, "rate-limited");
      if (own > 0) await PACING_CLOCK.sleep(own);
      for (;;) {
        try {
          const value = await work();
          s.last.set(key, PACING_CLOCK.now());
          return { value, waitedMs: PACING_CLOCK.now() - start };
        } catch (err) {
          // Without a documented window, a 429 the transport's own retries could not clear is an error.
          if (!isRateLimited(err) || windowMs === 0) throw err;
          // The service's own word when it gives one; otherwise the whole window has surely passed then.
          const delay = err.retryAfterMs ?? windowMs;
          const waited = PACING_CLOCK.now() - start;
          if (waited + delay > timeoutMs)
            throw new WpEngineWaitTimeoutError(describe, waited, "rate-limited");
          await PACING_CLOCK.sleep(delay);
        }
      }
    });
  s.tails.set(key, run);
  return run;
}
