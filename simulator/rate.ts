import { badRequest } from "./errors";

const UNITS = { s: 1000, m: 60_000 } as const;

/**
 * The service's rate limit, as the simulator plays it: `N/s` or `N/m` requests (`20/s`), a token bucket
 * holding one unit's worth, so a burst of N passes and then N per unit. Real time, not the simulated
 * clock (advancing the clock does not refill it).
 */
export class RateLimit {
  readonly spec: string;
  readonly #perMs: number;
  readonly #capacity: number;
  #tokens: number;
  #at = performance.now();

  constructor(spec: string) {
    const m = /^(\d+(?:\.\d+)?)\/([sm])$/.exec(spec.trim());
    const count = m ? Number(m[1]) : 0;
    if (!m || !(count > 0)) {
      throw badRequest(
        "settings",
        "rate",
        `rate must be N/s or N/m with N > 0 (got ${JSON.stringify(spec)})`,
      );
    }
    this.spec = spec.trim();
    this.#capacity = Math.max(1, count);
    this.#perMs = count / UNITS[m[2] as keyof typeof UNITS];
    this.#tokens = this.#capacity;
  }

  /** Takes one request's token: null when it may pass, otherwise the whole seconds until one is back. */
  take(): number | null {
    const now = performance.now();
    this.#tokens = Math.min(this.#capacity, this.#tokens + (now - this.#at) * this.#perMs);
    this.#at = now;
    // Within rounding of a whole token counts as one (a refill over 1000.0000000001 ms is 2.9999999999 tokens).
    if (this.#tokens >= 1 - 1e-9) {
      this.#tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.#perMs / 1000));
  }
}
