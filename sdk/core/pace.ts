/**
 * The process's pace: one budget of HTTP requests in flight and a shared back-off. One Pulumi provider
 * process serves every resource of a stack, so both must hold across all clients, and across copies of
 * this module (a dynamic provider may load the package twice): the pace lives on `globalThis` under a
 * registered symbol.
 */

import { perProcess } from "./process";

/**
 * A FIFO counting semaphore whose capacity can be changed at run time, with pauses: after a 429 the whole
 * key (a service origin and API user) waits, every caller of it, not only the one that got the 429.
 */
export class Pace {
  #max: number;
  #active = 0;
  readonly #waiters: Array<{ key: string; admit: () => void }> = [];
  /** Keys held back, with the time (epoch ms) their pause ends. */
  readonly #pausedUntil = new Map<string, number>();
  /** Requests of each key that succeeded: whether the service is serving while a caller waits in line. */
  readonly #served = new Map<string, number>();

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

  /** Requests waiting for a slot or for a pause to end. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** How many requests of `key` have succeeded; `add` counts one more. */
  served(key: string, add = false): number {
    const n = (this.#served.get(key) ?? 0) + (add ? 1 : 0);
    if (add) this.#served.set(key, n);
    return n;
  }

  /** Changes the capacity; waiters are admitted at once if it grew. */
  resize(max: number): void {
    this.#max = Math.max(1, Math.floor(max));
    this.#drain();
  }

  /**
   * Waits for a slot, and for any pause of `key` to end; resolves to a release function that must be
   * called exactly once. `first` queues at the head: a retry has waited its turn already.
   */
  async acquire(key: string, first = false): Promise<() => void> {
    if (this.#active < this.#max && !this.#pausedUntil.has(key)) {
      this.#active++;
      this.#drain(); // a pause that just ended admits the callers it held, after this one
    } else {
      await new Promise<void>((admit) => {
        if (first) this.#waiters.unshift({ key, admit });
        else this.#waiters.push({ key, admit });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#drain();
    };
  }

  /**
   * Holds back every request of `key` for `ms` (unless a pause already lasts longer), the wait spent in
   * `sleep`; resolves when this pause is over. The caller must `acquire(key, true)` next: that ends it for
   * the others.
   */
  async pause(key: string, ms: number, sleep: (ms: number) => Promise<void>): Promise<void> {
    const until = Date.now() + ms;
    if ((this.#pausedUntil.get(key) ?? 0) >= until) return;
    this.#pausedUntil.set(key, until);
    sayWait(ms);
    await sleep(ms);
    // The caller acquires next, at the head of the queue, and admits the rest (unless a later 429 paused
    // the key for longer: that caller ends it).
    if (this.#pausedUntil.get(key) === until) this.#pausedUntil.delete(key);
  }

  #drain(): void {
    for (let i = 0; i < this.#waiters.length && this.#active < this.#max; ) {
      const waiter = this.#waiters[i]!;
      if (this.#pausedUntil.has(waiter.key)) {
        i++;
        continue;
      }
      this.#waiters.splice(i, 1);
      this.#active++;
      waiter.admit();
    }
  }
}

/** A wait shorter than this passes unsaid. */
export const SAY_WAITS_OVER_MS = 2_000;

/**
 * One line for a rate-limit wait long enough to notice: one per pause, not per request held by it (on the
 * provider's stderr, which the Pulumi CLI shows among the update's messages).
 */
export function sayWait(ms: number, write: (line: string) => void = (l) => process.stderr.write(l)): void {
  if (ms > SAY_WAITS_OVER_MS) write(`wpengine: waiting ${Math.ceil(ms / 1000)} s for the API's rate limit\n`);
}

/** Default capacity of the process's budget of requests in flight. */
export const DEFAULT_MAX_CONCURRENCY = 8;

const pace = perProcess<Pace | undefined>("pace", () => undefined);

/**
 * The single pace of this process, created on first use. A client that sets `maxConcurrency` explicitly
 * resizes it (the last explicit setting wins); clients that do not leave it as it is.
 */
export function processPace(maxConcurrency?: number): Pace {
  const current = pace.get();
  if (!current) {
    const made = new Pace(maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    pace.set(made);
    return made;
  }
  if (maxConcurrency !== undefined && maxConcurrency !== current.max) current.resize(maxConcurrency);
  return current;
}
