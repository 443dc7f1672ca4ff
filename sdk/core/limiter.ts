/**
 * Process-wide limit on concurrent HTTP requests. One Pulumi provider process serves every resource of a
 * stack, so the limit must hold across all clients, and across copies of this module (a dynamic provider
 * may load the package twice): the limiter lives on `globalThis` under a registered symbol.
 */

const LIMITER_KEY = Symbol.for("pulumi-wpengine.limiter");

/** A FIFO counting semaphore whose capacity can be changed at run time. */
export class ConcurrencyLimiter {
  #max: number;
  #active = 0;
  readonly #waiters: Array<() => void> = [];

  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** Capacity: how many requests may be in flight at once. */
  get max(): number {
    return this.#max;
  }

  /** Requests currently holding a slot. */
  get active(): number {
    return this.#active;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Changes the capacity; waiters are admitted at once if it grew. */
  resize(max: number): void {
    this.#max = Math.max(1, Math.floor(max));
    this.#drain();
  }

  /** Waits for a slot; resolves to a release function that must be called exactly once. */
  async acquire(): Promise<() => void> {
    if (this.#active >= this.#max) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    } else {
      this.#active++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#drain();
    };
  }

  /** Runs `fn` while holding a slot. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  #drain(): void {
    while (this.#active < this.#max && this.#waiters.length > 0) {
      this.#active++;
      this.#waiters.shift()?.();
    }
  }
}

/** Default capacity of the process-wide limiter. */
export const DEFAULT_MAX_CONCURRENCY = 8;

type LimiterHolder = { [LIMITER_KEY]?: ConcurrencyLimiter };

/**
 * The single limiter of this process, created on first use. A client that sets `maxConcurrency`
 * explicitly resizes it (the last explicit setting wins); clients that do not leave it as it is.
 */
export function processLimiter(maxConcurrency?: number): ConcurrencyLimiter {
  const holder = globalThis as LimiterHolder;
  let limiter = holder[LIMITER_KEY];
  if (!limiter) {
    limiter = new ConcurrencyLimiter(maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    holder[LIMITER_KEY] = limiter;
  } else if (maxConcurrency !== undefined && maxConcurrency !== limiter.max) {
    limiter.resize(maxConcurrency);
  }
  return limiter;
}
