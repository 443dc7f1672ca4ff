/**
 * Lookup functions for programs: every list and get of the service, returning typed camelCase records.
 * Each list follows every page. They run in the program process with the client of `programClient.ts`
 * (stack config `wpengine:*`, then the environment); `options.client` replaces it (tests, or a program
 * that builds its own).
 *
 * Each `getX(args)` returns a Promise; each `getXOutput(args)` takes `pulumi.Input` arguments and
 * returns a `pulumi.Output`, the convention of Pulumi providers (`getInstall` / `getInstallOutput`).
 */
import type {
  AccountUser,
  App,
  Archive,
  Backup,
  Build,
  Domain,
  DomainMapping,
  Environment,
  Install,
  ReportSchedule,
  ReportTemplate,
  Site,
  SiteTransfer,
} from "../../sdk";
import { clientOf, collect, type LookupOptions, limitOf, outputOf, pageSizeOf } from "./common";

export type { LookupInputs, LookupOptions } from "./common";

// ---------------------------------------------------------------------------------------------------
// Result types and their conversion from the wire (pure, exported for unit tests).

/** An install. */
export interface InstallInfo {
  /** The install's UUID. */
  id: string;
  /** The install name (also its subdomain). */
  name: string;
  /** The owning account's UUID. */
  accountId: string | null;
  /** The site the install belongs to. */
  siteId: string | null;
  /** The environment it fills in its site: production, staging or development. */
  environment: string | null;
  /** `active`, or `pending` while provisioning or restoring. */
  status: string | null;
  /** PHP version. */
  phpVersion: string | null;
  /** CNAME of the install. */
  cname: string | null;
  /** Stable IPs (some premium plans only; empty otherwise). */
  stableIps: string[];
  /** The primary domain. */
  primaryDomain: string | null;
  /** Whether the install is a multisite. */
  isMultisite: boolean;
  /** Creation time (UTC). */
  createdAt: string | null;
  /** WordPress version (single-install lookups only). */
  cmsVersion: string | null;
  /** Automatic core major updates are deferred until this date (single-install lookups only). */
  deferCmsUpgradesUntil: string | null;
}

export function toInstallInfo(i: Install): InstallInfo {
  return {
    id: i.id,
    name: i.name,
    accountId: i.account?.id ?? null,
    siteId: i.site?.id ?? null,
    environment: i.environment ?? null,
    status: i.status ?? null,
    phpVersion: i.php_version ?? null,
    cname: i.cname ?? null,
    stableIps: i.stable_ips ?? [],
    primaryDomain: i.primary_domain ?? null,
    isMultisite: i.is_multisite ?? false,
    createdAt: i.created_at ?? null,
    cmsVersion: i.cms_version ?? null,
    deferCmsUpgradesUntil: i.defer_cms_upgrades_until ?? null,
  };
}

/** An install as summarised inside a site. */
export interface SiteInstallInfo {
  id: string;
  name: string | null;
  environment: string | null;
  cname: string | null;
  phpVersion: string | null;
  isMultisite: boolean;
}

/** A site. */
export interface SiteInfo {
  /** The site's UUID. */
  id: string;
  /** The site name. */
  name: string;
  /** The owning account's UUID. */
  accountId: string | null;
  /** Group name. */
  groupName: string | null;
  /** Tags. */
  tags: string[];
  /** Creation time (UTC). */
  createdAt: string | null;
  /** Whether the site is a sandbox (sandboxes cannot be transferred). */
  sandbox: boolean;
  /** Whether the site can be transferred. */
  transferable: boolean;
  /** The site's installs. */
  installs: SiteInstallInfo[];
}

export function toSiteInfo(s: Site): SiteInfo {
  return {
    id: s.id,
    name: s.name,
    accountId: s.account?.id ?? null,
    groupName: s.group_name ?? null,
    tags: s.tags ?? [],
    createdAt: s.created_at ?? null,
    sandbox: s.sandbox ?? false,
    transferable: s.transferable ?? false,
    installs: (s.installs ?? []).map((i) => ({
      id: i.id,
      name: i.name ?? null,
      environment: i.environment ?? null,
      cname: i.cname ?? null,
      phpVersion: i.php_version ?? null,
      isMultisite: i.is_multisite ?? false,
    })),
  };
}

/** A domain of an install. */
export interface DomainInfo {
  /** The domain's UUID. */
  id: string;
  /** The domain name. */
  name: string;
  /** Whether this is the install's primary domain. */
  primary: boolean;
  /** Whether the service marks it as a duplicate. */
  duplicate: boolean;
  /** AN, GES or LEGACY. */
  networkType: string | null;
  /** The domains this one redirects to. */
  redirectsTo: { id: string | null; name: string | null }[];
  /** Whether all URLs are forced to HTTPS. */
  secureAllUrls: boolean;
  /** TXT_VERIFIED or TXT_VERIFICATION_PENDING. */
  ownershipStatus: string | null;
  /** Name of the TXT record to publish; null once verified. */
  txtVerificationKey: string | null;
  /** Value of the TXT record to publish; null once verified. */
  txtVerificationValue: string | null;
  /** When ownership was verified. */
  txtVerifiedTime: string | null;
  /** The CNAME target to point the domain at. */
  cname: string | null;
  /** The A records to point the domain at. */
  aRecords: string[];
}

export function toDomainInfo(d: Domain): DomainInfo {
  const dns = d.network_details?.dns_config_info;
  return {
    id: d.id,
    name: d.name,
    primary: d.primary ?? false,
    duplicate: d.duplicate ?? false,
    networkType: d.network_type ?? null,
    redirectsTo: (d.redirects_to ?? []).map((r) => ({ id: r.id ?? null, name: r.name ?? null })),
    secureAllUrls: d.secure_all_urls ?? false,
    ownershipStatus: d.ownership_status ?? null,
    txtVerificationKey: d.txt_verification_key ?? null,
    txtVerificationValue: d.txt_verification_value ?? null,
    txtVerifiedTime: d.txt_verified_time ?? null,
    cname: dns?.cname ?? null,
    aRecords: dns?.a_records ?? [],
  };
}

/** A backup of an install. */
export interface BackupInfo {
  /** The backup's UUID. */
  id: string;
  /** requested, in_progress, completed or aborted. */
  status: string;
  /** Description given when it was requested. */
  description: string | null;
  /** When it was requested. */
  createTime: string | null;
  /** When it completed; null while in progress. */
  completeTime: string | null;
  /** WordPress version at backup time. */
  cmsVersion: string | null;
}

export function toBackupInfo(b: Backup): BackupInfo {
  return {
    id: b.id,
    status: b.status,
    description: b.description ?? null,
    createTime: b.create_time ?? null,
    completeTime: b.complete_time ?? null,
    cmsVersion: b.cms_version ?? null,
  };
}

/** An archive (a downloadable zip made from a backup). */
export interface ArchiveInfo {
  /** The archive's UUID. */
  id: string;
  /** The backup it was made from. */
  backupId: string | null;
  /** requested, in_progress, completed or aborted. */
  state: string;
  /** Addresses notified about it. */
  notificationEmails: string[];
  /** Creation time. */
  createTime: string | null;
  /** Start time. */
  startTime: string | null;
  /** Completion time (completed archives only). */
  completeTime: string | null;
  /** Abort time (aborted archives only). */
  abortTime: string | null;
  /** Download URL (completed archives only). */
  downloadUri: string | null;
}

export function toArchiveInfo(a: Archive): ArchiveInfo {
  return {
    id: a.id,
    backupId: a.backup?.id ?? null,
    state: a.state,
    notificationEmails: a.notification_emails ?? [],
    createTime: a.create_time ?? null,
    startTime: a.start_time ?? null,
    completeTime: a.complete_time ?? null,
    abortTime: a.abort_time ?? null,
    downloadUri: a.download_uri ?? null,
  };
}

/** A site transfer (names as they were at transfer time). */
export interface SiteTransferInfo {
  /** The transfer's UUID. */
  id: string;
  /** The site name at transfer time. */
  site: string | null;
  /** The transferred site's UUID, when the service reports it. */
  siteId: string | null;
  /** Install names at transfer time. */
  installs: string[];
  /** Name of the source account. */
  originAccount: string | null;
  /** Name of the destination account. */
  destinationAccount: string | null;
  /** The destination account's UUID, when the service reports it. */
  destinationAccountId: string | null;
  /** pending, scheduled, in_progress, completed, failed or cancelled. */
  status: string;
  /** Scheduled time; null for immediate transfers. */
  scheduledTime: string | null;
  /** Creation time. */
  createdAt: string | null;
  /** Last update time. */
  updatedAt: string | null;
}

export function toSiteTransferInfo(t: SiteTransfer): SiteTransferInfo {
  return {
    id: t.id,
    site: t.site ?? null,
    siteId: t.site_id ?? null,
    installs: t.installs ?? [],
    originAccount: t.origin_account ?? null,
    destinationAccount: t.destination_account ?? null,
    destinationAccountId: t.destination_account_id ?? null,
    status: t.status,
    scheduledTime: t.scheduled_time ?? null,
    createdAt: t.created_at ?? null,
    updatedAt: t.updated_at ?? null,
  };
}

/** A report template and the sections it allows. */
export interface ReportTemplateInfo {
  /** The template's UUID (a schedule's `templateUuid`). */
  uuid: string;
  /** Display name. */
  name: string | null;
  /** Names of the sections schedules using it may have. */
  sections: string[];
}

export function toReportTemplateInfo(t: ReportTemplate): ReportTemplateInfo {
  return { uuid: t.uuid, name: t.name ?? null, sections: (t.sections ?? []).map((s) => s.name) };
}

/** A report schedule of a site. */
export interface ReportScheduleInfo {
  /** The schedule's UUID. */
  uuid: string;
  /** The site reported on. */
  siteId: string | null;
  /** Report title. */
  title: string | null;
  /** Next generation time. */
  nextScheduledDate: string | null;
  /** Template UUID. */
  templateUuid: string | null;
  /** How often it runs: value 7 or 14 with unit DAYS, or day 1 to 31 with unit MONTHLY. */
  frequency: { value: number; unit: string } | null;
  /** Who receives it. */
  recipients: { name: string | null; email: string }[];
  /** Names of its sections, in order. */
  sections: string[];
  /** Creation time. */
  createdAt: string | null;
}

export function toReportScheduleInfo(s: ReportSchedule): ReportScheduleInfo {
  return {
    uuid: s.uuid,
    siteId: s.site_id ?? null,
    title: s.title ?? null,
    nextScheduledDate: s.next_scheduled_date ?? null,
    templateUuid: s.template_uuid ?? null,
    frequency: s.frequency ? { value: s.frequency.value, unit: s.frequency.unit } : null,
    recipients: (s.recipients ?? []).map((r) => ({ name: r.name ?? null, email: r.email })),
    sections: (s.sections ?? []).map((x) => x.name),
    createdAt: s.created_at ?? null,
  };
}

/** A user of an account. */
export interface AccountUserInfo {
  /** The user's UUID. */
  userId: string;
  /** The account's UUID. */
  accountId: string | null;
  /** First name. */
  firstName: string | null;
  /** Last name. */
  lastName: string | null;
  /** Email address. */
  email: string | null;
  /** Phone number. */
  phone: string | null;
  /** Whether the invitation was accepted. */
  inviteAccepted: boolean;
  /** Whether MFA is enabled. */
  mfaEnabled: boolean;
  /** Roles in canonical form: owner, full, full,billing, partial or partial,billing. */
  roles: string;
  /** True when this owner is the account's last one (owner-level users only). */
  lastOwner: boolean | null;
  /** Installs a partial user can access. */
  installs: { id: string; name: string | null }[];
}

export function toAccountUserInfo(u: AccountUser): AccountUserInfo {
  return {
    userId: u.user_id,
    accountId: u.account_id ?? null,
    firstName: u.first_name ?? null,
    lastName: u.last_name ?? null,
    email: u.email ?? null,
    phone: u.phone ?? null,
    inviteAccepted: u.invite_accepted ?? false,
    mfaEnabled: u.mfa_enabled ?? false,
    roles: u.roles,
    lastOwner: u.last_owner ?? null,
    installs: (u.installs ?? []).map((i) => ({ id: i.id, name: i.name ?? null })),
  };
}

/** An application-hosting app. */
export interface AppInfo {
  /** Resource name `accounts/{a}/apps/{app}`. */
  name: string;
  /** The app id. */
  appId: string;
  /** Region resource name, e.g. `regions/US-C`. */
  region: string | null;
  /** Whether the app takes zip uploads. */
  uploadable: boolean;
  /** Creation time. */
  createTime: string | null;
  /** Last update time. */
  updateTime: string | null;
}

export function toAppInfo(a: App): AppInfo {
  return {
    name: a.name,
    appId: a.appId,
    region: a.region ?? null,
    uploadable: a.uploadable !== undefined && a.uploadable !== null,
    createTime: a.createTime ?? null,
    updateTime: a.updateTime ?? null,
  };
}

/** An application-hosting environment. */
export interface EnvironmentInfo {
  /** Resource name `accounts/{a}/apps/{app}/environments/{env}`. */
  name: string;
  /** The environment id. */
  environmentId: string;
  /** Display name. */
  displayName: string | null;
  /** Git branch, or `uploadable` for zip uploads. */
  branch: string | null;
  /** Directory of the app inside the repository or zip. */
  rootDirectory: string | null;
  /** Domains served. */
  domains: string[];
  /** Resource name of the current build, or null. */
  build: string | null;
  /** Creation time. */
  createTime: string | null;
  /** Last update time. */
  updateTime: string | null;
  /** True while the platform is still applying the requested state. */
  reconciling: boolean;
}

export function toEnvironmentInfo(e: Environment): EnvironmentInfo {
  return {
    name: e.name,
    environmentId: e.environmentId,
    displayName: e.displayName ?? null,
    branch: e.branch ?? null,
    rootDirectory: e.rootDirectory ?? null,
    domains: e.domains ?? [],
    build: e.build ? e.build : null,
    createTime: e.createTime ?? null,
    updateTime: e.updateTime ?? null,
    reconciling: e.reconciling ?? false,
  };
}

/** A build of an application-hosting environment. */
export interface BuildInfo {
  /** Resource name. */
  name: string;
  /** The build id. */
  buildId: string;
  /** QUEUED, BUILDING, SUCCEEDED, FAILED or CANCELLED. */
  state: string | null;
  /** Creation time. */
  createTime: string | null;
  /** Last update time. */
  updateTime: string | null;
  /** What triggered it (`upload`). */
  source: string | null;
}

export function toBuildInfo(b: Build): BuildInfo {
  return {
    name: b.name,
    buildId: b.buildId,
    state: b.state ?? null,
    createTime: b.createTime ?? null,
    updateTime: b.updateTime ?? null,
    source: b.source ?? null,
  };
}

/** A domain mapping of an application-hosting environment. */
export interface DomainMappingInfo {
  /** Resource name. */
  name: string | null;
  /** The domain name. */
  domain: string;
  /** Whether it is the environment's primary domain. */
  primary: boolean;
  /** STATE_UNSPECIFIED, CREATING, ACTIVE or DELETING. */
  state: string | null;
  /** The domain it redirects to, if any. */
  destinationDomainMapping: string | null;
  /** State of the destination mapping. */
  destinationDomainMappingState: string | null;
  /** TXT record for ownership verification. */
  txtVerification: { name: string | null; value: string | null; verified: boolean } | null;
}

export function toDomainMappingInfo(m: DomainMapping): DomainMappingInfo {
  const txt = m.txtVerification;
  return {
    name: m.name ?? null,
    domain: m.domain,
    primary: m.primary ?? false,
    state: m.state ?? null,
    destinationDomainMapping: m.destinationDomainMapping ?? null,
    destinationDomainMappingState: m.destinationDomainMappingState ?? null,
    txtVerification: txt
      ? { name: txt.name ?? null, value: txt.value ?? null, verified: txt.verified ?? false }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Hosting Platform lookups.

/** Every install, or every install of one account. */
export async function getInstalls(
  args: { accountId?: string } = {},
  options?: LookupOptions,
): Promise<InstallInfo[]> {
  const client = await clientOf(options);
  const params = {
    ...(args.accountId !== undefined ? { accountId: args.accountId } : {}),
    ...limitOf(options),
  };
  return collect(client.installs.iterate(params), toInstallInfo);
}
export const getInstallsOutput = outputOf(getInstalls);

/** One install (with its WordPress version). */
export async function getInstall(args: { installId: string }, options?: LookupOptions): Promise<InstallInfo> {
  return toInstallInfo(await (await clientOf(options)).installs.get(args.installId));
}
export const getInstallOutput = outputOf(getInstall);

/** Every site, or every site of one account. */
export async function getSites(
  args: { accountId?: string } = {},
  options?: LookupOptions,
): Promise<SiteInfo[]> {
  const client = await clientOf(options);
  const params = {
    ...(args.accountId !== undefined ? { accountId: args.accountId } : {}),
    ...limitOf(options),
  };
  return collect(client.sites.iterate(params), toSiteInfo);
}
export const getSitesOutput = outputOf(getSites);

/** One site. */
export async function getSite(args: { siteId: string }, options?: LookupOptions): Promise<SiteInfo> {
  return toSiteInfo(await (await clientOf(options)).sites.get(args.siteId));
}
export const getSiteOutput = outputOf(getSite);

/** Every domain of an install. */
export async function getDomains(
  args: { installId: string },
  options?: LookupOptions,
): Promise<DomainInfo[]> {
  const client = await clientOf(options);
  return collect(client.domains.iterate(args.installId, limitOf(options)), toDomainInfo);
}
export const getDomainsOutput = outputOf(getDomains);

/** One domain of an install. */
export async function getDomain(
  args: { installId: string; domainId: string },
  options?: LookupOptions,
): Promise<DomainInfo> {
  return toDomainInfo(await (await clientOf(options)).domains.get(args.installId, args.domainId));
}
export const getDomainOutput = outputOf(getDomain);

/** Every backup of an install, in all states. */
export async function getBackups(
  args: { installId: string },
  options?: LookupOptions,
): Promise<BackupInfo[]> {
  const client = await clientOf(options);
  return collect(client.backups.iterate(args.installId, limitOf(options)), toBackupInfo);
}
export const getBackupsOutput = outputOf(getBackups);

/** One backup of an install. */
export async function getBackup(
  args: { installId: string; backupId: string },
  options?: LookupOptions,
): Promise<BackupInfo> {
  return toBackupInfo(await (await clientOf(options)).backups.get(args.installId, args.backupId));
}
export const getBackupOutput = outputOf(getBackup);

/** Every archive of an install. */
export async function getArchives(
  args: { installId: string },
  options?: LookupOptions,
): Promise<ArchiveInfo[]> {
  const client = await clientOf(options);
  return collect(client.archives.iterate(args.installId, limitOf(options)), toArchiveInfo);
}
export const getArchivesOutput = outputOf(getArchives);

/** Every site transfer initiated from an account (needs Owner or Full with Billing on it). */
export async function getSiteTransfers(
  args: { accountId: string },
  options?: LookupOptions,
): Promise<SiteTransferInfo[]> {
  const client = await clientOf(options);
  return collect(
    client.siteTransfers.iterateForAccount(args.accountId, limitOf(options)),
    toSiteTransferInfo,
  );
}
export const getSiteTransfersOutput = outputOf(getSiteTransfers);

/** One site transfer of a site. */
export async function getSiteTransfer(
  args: { siteId: string; transferId: string },
  options?: LookupOptions,
): Promise<SiteTransferInfo> {
  return toSiteTransferInfo(await (await clientOf(options)).siteTransfers.get(args.siteId, args.transferId));
}
export const getSiteTransferOutput = outputOf(getSiteTransfer);

/** The report templates of an account and the sections each allows (one unpaged list). */
export async function getReportTemplates(
  args: { accountId: string },
  options?: LookupOptions,
): Promise<ReportTemplateInfo[]> {
  return (await (await clientOf(options)).reportTemplates.list(args.accountId)).map(toReportTemplateInfo);
}
export const getReportTemplatesOutput = outputOf(getReportTemplates);

/** The report schedules of a site (one unpaged list). */
export async function getReportSchedules(
  args: { siteId: string },
  options?: LookupOptions,
): Promise<ReportScheduleInfo[]> {
  return (await (await clientOf(options)).reportSchedules.list(args.siteId)).map(toReportScheduleInfo);
}
export const getReportSchedulesOutput = outputOf(getReportSchedules);

/** The users of an account (one unpaged list). */
export async function getAccountUsers(
  args: { accountId: string },
  options?: LookupOptions,
): Promise<AccountUserInfo[]> {
  return (await (await clientOf(options)).accountUsers.list(args.accountId)).map(toAccountUserInfo);
}
export const getAccountUsersOutput = outputOf(getAccountUsers);

/** One user of an account. */
export async function getAccountUser(
  args: { accountId: string; userId: string },
  options?: LookupOptions,
): Promise<AccountUserInfo> {
  return toAccountUserInfo(await (await clientOf(options)).accountUsers.get(args.accountId, args.userId));
}
export const getAccountUserOutput = outputOf(getAccountUser);

// ---------------------------------------------------------------------------------------------------
// Application-hosting lookups.

/** Every app of an account. */
export async function getApps(args: { accountId: string }, options?: LookupOptions): Promise<AppInfo[]> {
  const client = await clientOf(options);
  return collect(client.apps.iterate(args.accountId, pageSizeOf(options)), toAppInfo);
}
export const getAppsOutput = outputOf(getApps);

/** One app. */
export async function getApp(
  args: { accountId: string; appId: string },
  options?: LookupOptions,
): Promise<AppInfo> {
  return toAppInfo(await (await clientOf(options)).apps.get(args.accountId, args.appId));
}
export const getAppOutput = outputOf(getApp);

/** Every environment of an app. */
export async function getEnvironments(
  args: { accountId: string; appId: string },
  options?: LookupOptions,
): Promise<EnvironmentInfo[]> {
  const client = await clientOf(options);
  return collect(
    client.environments.iterate(args.accountId, args.appId, pageSizeOf(options)),
    toEnvironmentInfo,
  );
}
export const getEnvironmentsOutput = outputOf(getEnvironments);

/** One environment of an app. */
export async function getEnvironment(
  args: { accountId: string; appId: string; environmentId: string },
  options?: LookupOptions,
): Promise<EnvironmentInfo> {
  const client = await clientOf(options);
  return toEnvironmentInfo(await client.environments.get(args.accountId, args.appId, args.environmentId));
}
export const getEnvironmentOutput = outputOf(getEnvironment);

/** Every build of an environment. */
export async function getBuilds(
  args: { accountId: string; appId: string; environmentId: string },
  options?: LookupOptions,
): Promise<BuildInfo[]> {
  const client = await clientOf(options);
  const builds = client.builds.iterate(args.accountId, args.appId, args.environmentId, pageSizeOf(options));
  return collect(builds, toBuildInfo);
}
export const getBuildsOutput = outputOf(getBuilds);

/** One build of an environment. */
export async function getBuild(
  args: { accountId: string; appId: string; environmentId: string; buildId: string },
  options?: LookupOptions,
): Promise<BuildInfo> {
  const client = await clientOf(options);
  return toBuildInfo(await client.builds.get(args.accountId, args.appId, args.environmentId, args.buildId));
}
export const getBuildOutput = outputOf(getBuild);

/** Every domain mapping of an environment (including those being created or deleted). */
export async function getDomainMappings(
  args: { accountId: string; appId: string; environmentId: string },
  options?: LookupOptions,
): Promise<DomainMappingInfo[]> {
  const client = await clientOf(options);
  const mappings = client.domainMappings.iterate(
    args.accountId,
    args.appId,
    args.environmentId,
    pageSizeOf(options),
  );
  return collect(mappings, toDomainMappingInfo);
}
export const getDomainMappingsOutput = outputOf(getDomainMappings);
