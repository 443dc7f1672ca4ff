import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { seedWorld } from "./seed";

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

/** The world plus its persistence: a JSON file written atomically after every change. */
export class Store {
  world: World;
  /** Set by every mutation; the server saves before answering when it is set. */
  dirty = false;

  constructor(readonly stateFile?: string) {
    this.world = stateFile && existsSync(stateFile) ? Store.load(stateFile) : seedWorld();
    if (stateFile && !existsSync(stateFile)) this.save();
  }

  private static load(file: string): World {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as World;
    if (parsed.version !== 1)
      throw new Error(`${file}: unsupported simulator state version ${parsed.version}`);
    // Tables added since the file was written start empty.
    return { ...emptyWorld(), ...parsed };
  }

  /** Returns to the seeded world, keeping the clock offset (time never goes back). */
  reset(): void {
    const advanced = this.world.advanced_ms;
    this.world = seedWorld();
    this.world.advanced_ms = advanced;
    this.dirty = true;
  }

  /** Marks the world changed. */
  touch(): void {
    this.dirty = true;
  }

  /** Writes the state file if anything changed: temp file in the same directory, fsync, rename. */
  flush(): void {
    if (!this.dirty) return;
    this.save();
  }

  private save(): void {
    this.dirty = false;
    if (!this.stateFile) return;
    const dir = dirname(this.stateFile);
    const tmp = join(dir, `.${basename(this.stateFile)}.${process.pid}.tmp`);
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, JSON.stringify(this.world));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.stateFile);
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
}
