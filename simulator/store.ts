import {
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { alive } from "../sdk/core/process";
import { seedWorld } from "./seed";
import { type Changes, Grouping, trackWorld } from "./tracked";

/** Install environments a site can hold one install of. */
export type InstallEnvironment = "production" | "staging" | "development";

export interface AccountRecord {
  id: string;
  name: string;
  nickname: string;
  /** Site transfers need a destination with a preferred data center (transfer rule 3). */
  preferred_data_center: string | null;
  /** Cache exclusion changes need an eligible account (cache exclusion rule 5). */
  cache_exclusions_eligible: boolean;
}

export interface SiteRecord {
  id: string;
  name: string;
  account_id: string;
  group_name: string | null;
  tags: string[];
  created_at: string;
  sandbox: boolean;
  transferable: boolean;
}

export interface InstallRecord {
  id: string;
  name: string;
  account_id: string;
  site_id: string | null;
  environment: InstallEnvironment | null;
  php_version: string;
  cms_version: string;
  defer_cms_upgrades_until: string | null;
  is_multisite: boolean;
  stable_ips: string[] | null;
  created_at: string;
  /** `status` is `pending` until this time (provisioning, restore in progress). */
  busy_until: number;
}

export interface DomainRecord {
  id: string;
  install_id: string;
  name: string;
  primary: boolean;
  redirect_to_id: string | null;
  secure_all_urls: boolean;
  network_type: "AN" | "GES" | "LEGACY";
  txt_verified_time: string | null;
  txt_verification_key: string | null;
  txt_verification_value: string | null;
  created_at: string;
}

export interface BackupRecord {
  id: string;
  install_id: string;
  description: string;
  notification_emails: string[];
  cms_version: string;
  requested_at: number;
  started_at: number;
  completed_at: number;
  /** Seeded aborted backups never complete. */
  aborted: boolean;
}

export interface ArchiveRecord {
  id: string;
  install_id: string;
  backup_id: string;
  notification_emails: string[];
  /** The archive appears once its backup has completed. */
  created_at: number;
  started_at: number;
  completed_at: number;
  aborted: boolean;
}

export interface CacheExclusion {
  type: "query arg" | "url path" | "cookie";
  value: string;
}

export interface LargeFsSettings {
  cloud?: "s3";
  bucket?: string;
  bucket_region?: string;
  path_settings?: { path: string; excluded_paths: string[]; redirect_type: "break" | "permanent" }[];
}

export interface OffloadRecord {
  settings: LargeFsSettings;
  applied_at: number;
}

export interface SiteTransferRecord {
  id: string;
  site_id: string;
  site_name: string;
  install_ids: string[];
  install_names: string[];
  origin_account_id: string;
  origin_account_name: string;
  destination_account_id: string;
  destination_account_name: string;
  scheduled_time: string | null;
  maintenance_mode: boolean;
  created_at: number;
  started_at: number;
  completed_at: number;
  cancelled_at: number | null;
  /** Whether the site has been moved to the destination account. */
  applied: boolean;
}

export interface AccountUserRecord {
  user_id: string;
  account_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  invite_accepted: boolean;
  mfa_enabled: boolean;
  /** Canonical role set, sorted and comma-joined without spaces, e.g. `billing,partial`. */
  roles: string;
  install_ids: string[];
}

export interface ReportScheduleRecord {
  uuid: string;
  site_id: string;
  title: string;
  next_scheduled_date: string;
  template_uuid: string;
  frequency: { value: number; unit: "DAYS" | "MONTHLY" };
  recipients: { name: string; email: string }[];
  sections: { name: string }[];
  created_at: string;
}

export interface SshKeyRecord {
  uuid: string;
  /** The API user the key belongs to. */
  user_id: string;
  public_key: string;
  comment: string;
  fingerprint: string;
  created_at: string;
}

export interface AppRecord {
  account_id: string;
  app_id: string;
  region: string;
  create_time: string;
  update_time: string;
}

export interface EnvironmentRecord {
  account_id: string;
  app_id: string;
  environment_id: string;
  display_name: string;
  branch: string;
  root_directory: string;
  build: string;
  create_time: string;
  update_time: string;
  reconcile_until: number;
  cache_cleared_at: string | null;
}

export interface BuildRecord {
  account_id: string;
  app_id: string;
  environment_id: string;
  build_id: string;
  created_at: number;
  started_at: number;
  finished_at: number;
  outcome: "SUCCEEDED" | "FAILED";
  cancelled_at: number | null;
  size_bytes: number;
}

export interface DomainMappingRecord {
  account_id: string;
  app_id: string;
  environment_id: string;
  domain: string;
  primary: boolean;
  destination: string | null;
  created_at: number;
  active_at: number;
  deleting_at: number | null;
  gone_at: number | null;
  txt_name: string;
  txt_value: string;
  verified: boolean;
}

/** The caches of an install that `purge_cache` clears. */
export type CacheType = "object" | "page" | "cdn" | "all";

/** A Let's Encrypt order for a legacy-network domain. */
export interface CertificateOrderRecord {
  /** The certificate's numeric id (the Swagger's `Certificate.id`). */
  id: number;
  domain_id: string;
  install_id: string;
  email_address: string;
  given_name: string;
  family_name: string;
  region_code: string;
  state: string | null;
  city: string | null;
  phone: string | null;
  ordered_at: number;
  /** The certificate is `SUBMITTED` until this time, then `ENABLED`. */
  approved_at: number;
  expires_at: number;
}

/** A domain status report started by `check_status`. */
export interface DomainReportRecord {
  id: string;
  install_id: string;
  domain_id: string;
  created_at: number;
  /** The report is incomplete until this time. */
  complete_at: number;
}

/** Everything the simulator knows; serialised as-is to the state file. */
export interface World {
  version: 1;
  /** Clock offset from `advance()`, kept so a restart never moves time backwards. */
  advanced_ms: number;
  accounts: Record<string, AccountRecord>;
  sites: Record<string, SiteRecord>;
  installs: Record<string, InstallRecord>;
  domains: Record<string, DomainRecord>;
  backups: Record<string, BackupRecord>;
  archives: Record<string, ArchiveRecord>;
  cache_exclusions: Record<string, CacheExclusion[]>;
  offload_settings: Record<string, OffloadRecord>;
  certificates: Record<string, { certificate: string; private_key: string; imported_at: string }>;
  site_transfers: Record<string, SiteTransferRecord>;
  account_users: AccountUserRecord[];
  report_schedules: Record<string, ReportScheduleRecord>;
  install_copies: {
    id: string;
    source_environment_id: string;
    destination_environment_id: string;
    include_files: boolean;
    include_db: boolean;
    db_tables: string[] | null;
    notification_emails: string[];
    requested_at: string;
  }[];
  restores: {
    install_id: string;
    backup_id: string;
    restore_database: boolean;
    create_checkpoint: boolean;
    requested_at: string;
  }[];
  /** Published TXT records: lower-case name without trailing dot → values. */
  dns_txt: Record<string, string[]>;
  ssh_keys: Record<string, SshKeyRecord>;
  apps: Record<string, AppRecord>;
  environments: Record<string, EnvironmentRecord>;
  builds: Record<string, BuildRecord>;
  domain_mappings: Record<string, DomainMappingRecord>;
  /** Install id → cache type → time of its last purge (epoch ms); the object cache allows one per 60 s. */
  cache_purges: Record<string, Partial<Record<CacheType, number>>>;
  /** Domain id → its Let's Encrypt order. */
  certificate_orders: Record<string, CertificateOrderRecord>;
  /** Report id → domain status report. */
  domain_reports: Record<string, DomainReportRecord>;
  /** Install id → time of its last domain status check (epoch ms); one per 5 s per install. */
  domain_checks: Record<string, number>;
  /** Install id → when its requested disk-usage refresh completes (epoch ms). */
  storage_refreshes: Record<string, number>;
}

/** A world with no records. */
export function emptyWorld(): World {
  return {
    version: 1,
    advanced_ms: 0,
    accounts: {},
    sites: {},
    installs: {},
    domains: {},
    backups: {},
    archives: {},
    cache_exclusions: {},
    offload_settings: {},
    certificates: {},
    site_transfers: {},
    account_users: [],
    report_schedules: {},
    install_copies: [],
    restores: [],
    dns_txt: {},
    ssh_keys: {},
    apps: {},
    environments: {},
    builds: {},
    domain_mappings: {},
    cache_purges: {},
    certificate_orders: {},
    domain_reports: {},
    domain_checks: {},
    storage_refreshes: {},
  };
}

/** Lookups by fields that never change once a record is stored, kept current by the world's proxies. */
function groupings() {
  return {
    domainsOfInstall: new Grouping<DomainRecord>("domains", (d) => d.install_id),
    domainsNamed: new Grouping<DomainRecord>("domains", (d) => d.name),
    backupsOfInstall: new Grouping<BackupRecord>("backups", (b) => b.install_id),
    archivesOfInstall: new Grouping<ArchiveRecord>("archives", (a) => a.install_id),
    installsNamed: new Grouping<InstallRecord>("installs", (i) => i.name),
    transfersOfSite: new Grouping<SiteTransferRecord>("site_transfers", (t) => t.site_id),
    transfersFromAccount: new Grouping<SiteTransferRecord>("site_transfers", (t) => t.origin_account_id),
    /** Transfers whose outcome is still to come (settled and dropped by `Sim.settle`). */
    openTransfers: new Grouping<SiteTransferRecord>("site_transfers", (t) =>
      t.applied || t.cancelled_at !== null ? null : "open",
    ),
    mappingsOfEnvironment: new Grouping<DomainMappingRecord>(
      "domain_mappings",
      (m) => `${m.account_id}/${m.app_id}/${m.environment_id}`,
    ),
    mappingsNamed: new Grouping<DomainMappingRecord>("domain_mappings", (m) => m.domain),
  };
}

/** Past this many journal bytes (and at least the snapshot's size), the journal is folded into the snapshot. */
const JOURNAL_COMPACT_BYTES = 4 * 1024 * 1024;

/**
 * The world plus its persistence. With a state file, the file is a snapshot and `FILE.journal` holds one
 * line per answered change (the records it touched, whole), appended and fsynced before the answer
 * leaves: an acknowledged write survives kill -9, and a write costs the size of what it changed, not of
 * the world. On start the journal is replayed (a torn last line, never acknowledged, is dropped), then
 * folded into a fresh snapshot; it is folded again once it outgrows the snapshot.
 */
export class Store {
  world!: World;
  private raw!: World;
  private changes: Changes = new Map();
  /** Lookups by immutable fields: `store.by.domainsOfInstall.ids(installId)`. */
  readonly by = groupings();
  private journalFd: number | null = null;
  private syncing: Promise<void> | null = null;
  private nextSync: Promise<void> | null = null;
  private journalBytes = 0;
  private snapshotBytes = 0;
  /** Shared: the files as this process last took them in (a stamp), `""` once another process wrote. */
  private seen = "";

  /**
   * `shared`: other processes keep the same file (the embedded simulator of each provider and program).
   * Each write, snapshot and load then holds the file's lock, and each request first takes in (`catchUp`)
   * what the others wrote.
   */
  constructor(
    readonly stateFile?: string,
    private readonly shared = false,
  ) {
    if (!stateFile) {
      this.use(seedWorld());
      return;
    }
    mkdirSync(dirname(stateFile), { recursive: true });
    this.load(() => {
      removeLeftovers(stateFile);
      this.use(
        existsSync(stateFile) || existsSync(journalOf(stateFile)) ? loadState(stateFile) : seedWorld(),
      );
      this.compact();
    });
  }

  /** Shared: the world again from the files when another process wrote since, unless a change is unwritten. */
  catchUp(): void {
    if (!this.shared || this.changes.size || this.syncing || this.nextSync || this.seen === this.stamp())
      return;
    this.load(() => this.use(loadState(this.stateFile!)));
  }

  /** Runs `load`, which leaves this process's world as the files hold it (under the lock when shared). */
  private load(load: () => void): void {
    if (!this.shared) {
      load();
      return;
    }
    withLock(this.stateFile!, () => {
      load();
      this.seen = this.stamp();
    });
  }

  /** The snapshot's identity and the journal's length: what changes when any process writes. */
  private stamp(): string {
    const snapshot = statSync(this.stateFile!, { throwIfNoEntry: false });
    const journal = statSync(journalOf(this.stateFile!), { throwIfNoEntry: false });
    return `${snapshot?.ino}:${snapshot?.mtimeMs}:${snapshot?.size}:${journal?.size ?? 0}`;
  }

  /** Runs `write` on the files: shared, under the lock, noting whether this process still saw all of them. */
  private locked<T>(write: () => T): T {
    if (!this.shared) return write();
    return withLock(this.stateFile!, () => {
      const current = this.seen === this.stamp();
      const result = write();
      this.seen = current ? this.stamp() : "";
      return result;
    });
  }

  private use(world: World): void {
    this.raw = world;
    const tracked = trackWorld(world, Object.values(this.by), this.stateFile !== undefined);
    this.world = tracked.world;
    this.changes = tracked.changes;
  }

  /** Returns to the seeded world, keeping the clock offset (time never goes back). */
  reset(): void {
    const advanced = this.world.advanced_ms;
    this.use(seedWorld());
    this.raw.advanced_ms = advanced;
    if (this.stateFile) this.locked(() => this.compact());
  }

  /** The records of one group, read through the world (so that changes to them are noted). */
  of<T>(grouping: Grouping<T>, key: string): T[] {
    const table = (this.world as unknown as Record<string, Record<string, T>>)[grouping.table]!;
    return grouping.ids(key).map((id) => table[id]!);
  }

  /**
   * Kept for the routes' call sites, which mark where they change the world: the proxies already note
   * every change, so nothing is left to do here.
   */
  touch(): void {}

  /** Appends what changed to the journal and fsyncs it before returning (control calls, stop). */
  flush(): void {
    if (!this.append()) return;
    fdatasyncSync(this.journalFd!);
    this.maybeCompact();
  }

  /**
   * Appends what changed to the journal and resolves once it is on disk (the server awaits this before an
   * answer leaves). Concurrent requests share one fdatasync, run off the event loop: a group commit, so a
   * write costs its own bytes and a share of one sync, and other requests proceed meanwhile.
   */
  async commit(): Promise<void> {
    if (!this.append()) {
      // This request's changes may have gone out in another request's line: wait for its sync too.
      await (this.nextSync ?? this.syncing);
      return;
    }
    await this.synced();
    this.maybeCompact();
  }

  /** Closes the journal (the simulator stops). */
  close(): void {
    this.flush();
    if (this.journalFd !== null) closeSync(this.journalFd);
    this.journalFd = null;
  }

  /** Writes one journal line of the records changed since the last one; false when nothing changed. */
  private append(): boolean {
    if (!this.stateFile || this.changes.size === 0) return false;
    const raw = this.raw as unknown as Record<string, unknown>;
    const ops: JournalOp[] = [];
    for (const [field, ids] of this.changes) {
      if (ids === true) {
        ops.push({ f: field, v: raw[field] });
        continue;
      }
      const table = raw[field] as Record<string, unknown>;
      for (const id of ids) ops.push(id in table ? { t: field, k: id, v: table[id] } : { t: field, k: id });
    }
    this.changes.clear();
    const line = `${JSON.stringify(ops)}\n`;
    this.locked(() => {
      this.journalFd ??= openSync(journalOf(this.stateFile!), "a");
      writeSync(this.journalFd, line);
    });
    this.journalBytes += Buffer.byteLength(line);
    return true;
  }

  /** Resolves after an fdatasync that started after every line appended so far. */
  private synced(): Promise<void> {
    if (this.nextSync) return this.nextSync;
    const after = this.syncing ?? Promise.resolve();
    const next = after.then(() => {
      // Lines appended from here on need a later sync.
      this.nextSync = null;
      const fd = this.journalFd!;
      const run = new Promise<void>((resolve, reject) =>
        fdatasync(fd, (err) => (err ? reject(err) : resolve())),
      );
      const syncing = run.finally(() => {
        if (this.syncing === syncing) this.syncing = null;
      });
      this.syncing = syncing;
      return run;
    });
    this.nextSync = next;
    return next;
  }

  /** Folds the journal into the snapshot once it outgrows it, when no sync is under way on it. */
  private maybeCompact(): void {
    if (this.syncing || this.nextSync) return;
    if (this.journalBytes > Math.max(JOURNAL_COMPACT_BYTES, this.snapshotBytes))
      this.locked(() => this.compact(this.shared ? loadState(this.stateFile!) : this.raw));
  }

  /**
   * Writes `world` as the snapshot (temp file, fsync, rename), then empties the journal. Shared, the journal
   * is folded from disk (what every process wrote), not from this process's world.
   */
  private compact(world: World = this.raw): void {
    const file = this.stateFile!;
    this.changes.clear();
    const text = JSON.stringify(world);
    writeAtomically(file, text);
    this.snapshotBytes = Buffer.byteLength(text);
    // Replaying a journal over a snapshot that already holds it gives the same world (every entry is a
    // whole record), so a kill between the rename and this truncation loses nothing.
    // Truncated in place rather than reopened: a sync of another request may still be under way on it.
    this.journalFd ??= openSync(journalOf(file), "a");
    ftruncateSync(this.journalFd, 0);
    fsyncSync(this.journalFd);
    this.journalBytes = 0;
  }
}

/** One change of a journal line: a record stored (`v`) or deleted (no `v`), or a top-level field. */
type JournalOp = { t: string; k: string; v?: unknown } | { f: string; v: unknown };

const journalOf = (stateFile: string) => `${stateFile}.journal`;
const tmpPrefix = (stateFile: string) => `.${basename(stateFile)}.`;

/** Reads a state file and its journal without changing either (also for tests that look at the disk). */
export function loadState(stateFile: string): World {
  let world: World = seedWorld();
  if (existsSync(stateFile)) {
    const parsed = JSON.parse(readFileSync(stateFile, "utf8")) as World;
    if (parsed.version !== 1)
      throw new Error(`${stateFile}: unsupported simulator state version ${parsed.version}`);
    // Tables added since the file was written start empty.
    world = { ...emptyWorld(), ...parsed };
  }
  const journal = journalOf(stateFile);
  if (!existsSync(journal)) return world;
  const raw = world as unknown as Record<string, Record<string, unknown>>;
  for (const line of readFileSync(journal, "utf8").split("\n")) {
    if (line === "") continue;
    let ops: JournalOp[];
    try {
      ops = JSON.parse(line);
    } catch {
      break; // torn by a kill mid-write: never acknowledged
    }
    for (const op of ops) {
      if ("f" in op) raw[op.f] = op.v as Record<string, unknown>;
      else {
        raw[op.t] ??= {};
        if ("v" in op) raw[op.t]![op.k] = op.v;
        else delete raw[op.t]![op.k];
      }
    }
  }
  return world;
}

/** A wait of `ms` that blocks the thread (the lock is taken in synchronous code). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `fn` holding the lock of a state file shared by processes: `FILE.lock`, made exclusively and holding
 * the owner's pid. It is held for a few writes, never across a wait; one a dead process left is taken over.
 */
function withLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let owner: number;
      let since: number;
      try {
        since = statSync(lock).mtimeMs;
        owner = Number(readFileSync(lock, "utf8")) || 0;
      } catch {
        continue; // released meanwhile
      }
      // Empty: its owner is writing its pid (or died doing so, long ago).
      if (owner ? !alive(owner) : Date.now() - since > 5_000) rmSync(lock, { force: true });
      else pause(1);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Temporary files a kill -9 left behind while a snapshot was being written. */
function removeLeftovers(stateFile: string): void {
  const dir = dirname(stateFile);
  if (!existsSync(dir)) return;
  const prefix = tmpPrefix(stateFile);
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && name.endsWith(".tmp")) rmSync(join(dir, name), { force: true });
  }
}

function writeAtomically(file: string, text: string): void {
  const dir = dirname(file);
  const tmp = join(dir, `${tmpPrefix(file)}${process.pid}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // Make the rename itself durable; not every platform lets a directory be opened for this.
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Best effort.
  }
}
