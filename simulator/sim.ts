import type { Credential } from "./auth";
import { SimClock } from "./clock";
import { badRequest, notFound } from "./errors";
import { Faults } from "./faults";
import { transferStatus } from "./lifecycle";
import { RateLimit } from "./rate";
import { SEED } from "./seed";
import { Store, type World } from "./store";

/** Options of one simulator instance. */
export interface SimOptions {
  /** Keep the world in this JSON file (atomic writes, reloaded on start); in memory when absent. */
  stateFile?: string;
  /** Other processes keep the same `stateFile` (embedded simulators): each request sees what they wrote. */
  shared?: boolean;
  /** User name of the demo owner of every seeded account (default `demo`). */
  username?: string;
  /** Password of the demo owner (default `demo`). */
  password?: string;
  /** Simulated seconds of asynchronous work per real second (default 1). */
  pace?: number;
  /** Rate limit of the API requests, `N/s` or `N/m` (environment `WPE_SIM_RATE`); none when absent. */
  rate?: string | undefined;
  /** Shape of the bulk domain create's answer (environment `WPE_SIM_BULK_DOMAINS`; default `array`). */
  bulkDomains?: BulkShape | undefined;
  /** Milliseconds every API request waits before it is served (default 0): a far-away service. */
  latencyMs?: number | undefined;
}

/** `array`: a list of records (the service's recorded answers); `object`: one record (the Swagger's). */
export type BulkShape = "array" | "object";

/** The settings `/__sim/settings` reads and changes; `reset` returns to those of the start. */
export interface SimSettings {
  rate: string | null;
  bulkDomains: BulkShape;
  latencyMs: number;
}

/** One entry of the request log. */
export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  time: string;
  /** True when an injected fault closed the connection without an answer. */
  dropped?: boolean;
  /** The API user the request authenticated as (absent when it did not). */
  user?: string;
}

const LOG_LIMIT = 20_000;

/** The state of one running simulator: world, clock, faults, users and request log. */
export class Sim {
  readonly store: Store;
  readonly clock: SimClock;
  readonly faults = new Faults();
  readonly users = new Map<string, Credential>();
  rate: RateLimit | null = null;
  bulkDomains: BulkShape = "array";
  latencyMs = 0;
  readonly #started: SimSettings;
  readonly #startedUsers: [string, Credential][];
  private log: LoggedRequest[] = [];
  private waiters: { match: (r: LoggedRequest) => boolean; resolve: (r: LoggedRequest) => void }[] = [];

  constructor(options: SimOptions = {}) {
    this.store = new Store(options.stateFile, options.shared);
    this.clock = new SimClock(this.store.world.advanced_ms, options.pace ?? 1);
    const { demo, ...others } = SEED.users;
    this.users.set(options.username ?? demo.username, {
      userId: demo.userId,
      password: options.password ?? demo.password,
    });
    for (const u of Object.values(others))
      this.users.set(u.username, { userId: u.userId, password: u.password });
    this.#startedUsers = [...this.users].map(([name, c]) => [name, { ...c }]);
    const env = process.env;
    this.#started = {
      rate: options.rate ?? (env["WPE_SIM_RATE"] || null),
      bulkDomains: options.bulkDomains ?? ((env["WPE_SIM_BULK_DOMAINS"] || "array") as BulkShape),
      latencyMs: options.latencyMs ?? 0,
    };
    this.configure(this.#started);
  }

  /** The current settings. */
  get settings(): SimSettings {
    return { rate: this.rate?.spec ?? null, bulkDomains: this.bulkDomains, latencyMs: this.latencyMs };
  }

  /** Changes the settings given (a new rate starts with a full bucket); throws a 400 on a bad value. */
  configure(settings: Partial<SimSettings>): void {
    if (settings.bulkDomains !== undefined && !["array", "object"].includes(settings.bulkDomains)) {
      throw badRequest("settings", "bulkDomains", `bulkDomains must be "array" or "object"`);
    }
    const latency = settings.latencyMs;
    if (latency !== undefined && !(Number.isInteger(latency) && latency >= 0 && latency <= 600_000)) {
      throw badRequest("settings", "latencyMs", "latencyMs must be an integer from 0 to 600000");
    }
    if (latency !== undefined) this.latencyMs = latency;
    if (settings.rate !== undefined) this.rate = settings.rate === null ? null : new RateLimit(settings.rate);
    if (settings.bulkDomains !== undefined) this.bulkDomains = settings.bulkDomains;
  }

  /** The current world. */
  get world(): World {
    return this.store.world;
  }

  /** Current simulated time, epoch milliseconds. */
  now(): number {
    return this.clock.now();
  }

  /**
   * Applies the side effects of work that has come due: completed transfers move their site. Runs before
   * every request, so it looks only at transfers still open, never at the whole world.
   */
  settle(): void {
    const now = this.now();
    const world = this.world;
    const open = this.store.by.openTransfers;
    for (const id of open.ids("open")) {
      const t = world.site_transfers[id]!;
      const status = transferStatus(t, now);
      if (status === "cancelled" || status === "failed") open.removed(id);
      if (status !== "completed") continue;
      open.removed(id);
      t.applied = true;
      const site = world.sites[t.site_id];
      if (site) site.account_id = t.destination_account_id;
      for (const install of Object.values(world.installs)) {
        if (install.site_id === t.site_id) install.account_id = t.destination_account_id;
      }
    }
  }

  /** Returns to the seeded world, the settings and passwords of the start, and clears the injected faults. */
  reset(): void {
    this.store.reset();
    this.faults.set([]);
    this.configure(this.#started);
    this.users.clear();
    for (const [name, c] of this.#startedUsers) this.users.set(name, { ...c });
    this.store.flush();
  }

  /**
   * Changes an API user's password (a rotation): the old one is refused from now on. 404 for an unknown
   * user, unless `userId` is given: then the API user is made (or moved) for the account user of that id,
   * seeing what that user's roles give (a second agency's API user; `reset` removes it).
   */
  setPassword(username: string, password: string, userId?: string): void {
    const user = this.users.get(username);
    if (userId !== undefined) this.users.set(username, { userId, password });
    else if (!user) throw notFound("User");
    else user.password = password;
  }

  /** Moves the clock forward by `seconds` and applies what came due. */
  advance(seconds: number): string {
    this.clock.advance(seconds);
    this.world.advanced_ms = this.clock.advancedMs;
    this.settle();
    this.store.flush();
    return this.clock.iso();
  }

  /** Publishes a TXT record to the simulator's DNS. */
  publishTxt(name: string, value: string): void {
    const key = dnsName(name);
    const values = this.world.dns_txt[key] ?? [];
    if (!values.includes(value)) values.push(value);
    this.world.dns_txt[key] = values;
    this.store.flush();
  }

  /** Whether a TXT record `name` with `value` is published. */
  hasTxt(name: string, value: string): boolean {
    return this.world.dns_txt[dnsName(name)]?.includes(value) ?? false;
  }

  /** Appends to the request log. */
  record(entry: LoggedRequest): void {
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    const due = this.waiters.filter((w) => w.match(entry));
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due) w.resolve(entry);
  }

  /**
   * The first logged request matching, already logged or to come: tests wait on this event instead of
   * polling the log on a timer.
   */
  served(match: (r: LoggedRequest) => boolean): Promise<LoggedRequest> {
    const found = this.log.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The request log, oldest first. */
  requests(): LoggedRequest[] {
    return [...this.log];
  }

  /** Empties the request log. */
  clearRequests(): void {
    this.log = [];
  }
}

/** DNS names compare case-insensitively and without a trailing dot. */
export function dnsName(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}
