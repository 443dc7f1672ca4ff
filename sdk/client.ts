/** The client: one object holding a typed API per area, sharing one transport. */
import { Accounts } from "./accounts";
import { AccountUsers } from "./accountUsers";
import { Apps } from "./apps";
import { Archives } from "./archives";
import { Backups } from "./backups";
import { Builds } from "./builds";
import { CacheExclusions } from "./cacheExclusions";
import { CachePurge } from "./cachePurge";
import { Certificates } from "./certificates";
import { type ClientOptions, resolveClientConfig } from "./core/config";
import { Transport } from "./core/transport";
import { DomainMappings } from "./domainMappings";
import { DomainStatus } from "./domainStatus";
import { Domains } from "./domains";
import { Environments } from "./environments";
import { InstallCopy } from "./installCopy";
import { Installs } from "./installs";
import { OffloadSettingsApi } from "./offloadSettings";
import { ReportSchedules, ReportTemplates } from "./reportSchedules";
import { Sites } from "./sites";
import { SiteTransfers } from "./siteTransfers";
import { SshKeys } from "./sshKeys";
import { Usage } from "./usage";

/**
 * Client of the WP Engine Hosting Platform API and the application-hosting API.
 *
 * The constructor uses only the options given (plus defaults); {@link WpEngineClient.fromEnv} also reads
 * `WPE_API_USER_ID`, `WPE_API_PASSWORD`, `WPE_API_URL` and `WPE_APP_HOSTING_URL`. Requests share the
 * process-wide keep-alive pools and concurrency limit, so creating several clients is cheap.
 * The password is held only inside the transport's private state: it never shows in `util.inspect`,
 * `JSON.stringify` or any error.
 */
export class WpEngineClient {
  /** Installs. */
  readonly installs: Installs;
  /** Sites. */
  readonly sites: Sites;
  /** Domains of installs and their verification. */
  readonly domains: Domains;
  /** Backups and restores. */
  readonly backups: Backups;
  /** Archives made from backups. */
  readonly archives: Archives;
  /** Cache exclusion rules. */
  readonly cacheExclusions: CacheExclusions;
  /** Offloaded storage settings. */
  readonly offloadSettings: OffloadSettingsApi;
  /** Third-party certificates. */
  readonly certificates: Certificates;
  /** Site transfers. */
  readonly siteTransfers: SiteTransfers;
  /** Account users. */
  readonly accountUsers: AccountUsers;
  /** Install copy. */
  readonly installCopy: InstallCopy;
  /** Report schedules. */
  readonly reportSchedules: ReportSchedules;
  /** Report templates. */
  readonly reportTemplates: ReportTemplates;
  /** Application-hosting apps. */
  readonly apps: Apps;
  /** Application-hosting environments (and zip uploads). */
  readonly environments: Environments;
  /** Application-hosting builds. */
  readonly builds: Builds;
  /** Application-hosting domain mappings. */
  readonly domainMappings: DomainMappings;
  /** Accounts and the current user. */
  readonly accounts: Accounts;
  /** The calling user's SSH keys. */
  readonly sshKeys: SshKeys;
  /** Cache purges of installs. */
  readonly cachePurge: CachePurge;
  /** Domain status checks and reports. */
  readonly domainStatus: DomainStatus;
  /** Usage metrics, account limits and the service status. */
  readonly usage: Usage;
  /** Hosting Platform base URL in use. */
  readonly apiUrl: string;
  /** Application-hosting base URL in use. */
  readonly appHostingUrl: string;

  constructor(options: ClientOptions = {}) {
    const transport = new Transport(resolveClientConfig(options, {}));
    this.apiUrl = transport.apiUrl;
    this.appHostingUrl = transport.appHostingUrl;
    this.installs = new Installs(transport);
    this.sites = new Sites(transport);
    this.domains = new Domains(transport);
    this.backups = new Backups(transport);
    this.archives = new Archives(transport);
    this.cacheExclusions = new CacheExclusions(transport);
    this.offloadSettings = new OffloadSettingsApi(transport);
    this.certificates = new Certificates(transport);
    this.siteTransfers = new SiteTransfers(transport);
    this.accountUsers = new AccountUsers(transport);
    this.installCopy = new InstallCopy(transport);
    this.reportSchedules = new ReportSchedules(transport);
    this.reportTemplates = new ReportTemplates(transport);
    this.apps = new Apps(transport);
    this.environments = new Environments(transport);
    this.builds = new Builds(transport);
    this.domainMappings = new DomainMappings(transport);
    this.accounts = new Accounts(transport);
    this.sshKeys = new SshKeys(transport);
    this.cachePurge = new CachePurge(transport);
    this.domainStatus = new DomainStatus(transport);
    this.usage = new Usage(transport);
  }

  /** A client configured from the environment, with `overrides` taking precedence. */
  static fromEnv(overrides: ClientOptions = {}, env: NodeJS.ProcessEnv = process.env): WpEngineClient {
    const resolved = resolveClientConfig(overrides, env);
    return new WpEngineClient({ ...overrides, ...resolved });
  }
}
