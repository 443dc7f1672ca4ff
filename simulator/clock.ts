/**
 * The simulator's clock: wall-clock time at start, plus real time elapsed, plus every `advance()`.
 * Asynchronous work is stored as due timestamps on this clock and read lazily, so a kill loses nothing.
 */
export class SimClock {
  private readonly wallAtStart = Date.now();
  private readonly monoAtStart = performance.now();

  /**
   * @param advancedMs time already jumped forward (restored from a state file so time never goes back)
   * @param pace how many simulated seconds of asynchronous work elapse per real second
   */
  constructor(
    public advancedMs = 0,
    readonly pace = 1,
  ) {
    if (!(pace > 0)) throw new Error("pace must be a positive number");
  }

  /** Current simulated time in epoch milliseconds. */
  now(): number {
    return Math.floor(this.wallAtStart + (performance.now() - this.monoAtStart) + this.advancedMs);
  }

  /** Current simulated time as an ISO 8601 string. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves the clock forward. */
  advance(seconds: number): void {
    this.advancedMs += Math.round(seconds * 1000);
  }

  /** When a piece of asynchronous work of `seconds` simulated seconds started now will be done. */
  after(seconds: number, from = this.now()): number {
    return from + Math.round((seconds * 1000) / this.pace);
  }
}

/** Simulated durations (seconds at pace 1) of the asynchronous work. */
export const DURATIONS = {
  backupStart: 0.3,
  backupComplete: 1,
  archiveStart: 0.3,
  archiveComplete: 1,
  restore: 1,
  installProvision: 1,
  transferStart: 0.5,
  transferComplete: 2,
  environmentReconcile: 1,
  domainMappingActive: 1,
  domainMappingDelete: 1,
  buildStart: 0.3,
  buildComplete: 1.5,
  offloadApply: 1,
  certificateIssue: 2,
  domainReport: 1,
  storageRefresh: 1,
} as const;

/** Documented rate limits of the Hosting Platform API (seconds, per install, on the simulator's clock). */
export const LIMITS = {
  /** One object-cache purge per 60 s per install. */
  objectCachePurge: 60,
  /** One domain status check per 5 s per install. */
  domainStatusCheck: 5,
} as const;

/** ISO string of an epoch-milliseconds time. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
