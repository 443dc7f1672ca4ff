/** Lookup functions for programs (`docs/lookups.md`), one row of `LOOKUP_TABLE` per list and get of the service. */
import { z } from "zod";
import { DOMAIN_STATUS_CHECK_WINDOW_MS, pollUntil, type UsageRange, type WpEngineClient } from "../../sdk";
import { uuidString } from "../core/inputs";
import { PACING_CLOCK, paced } from "../core/pacing";
import { wireOf } from "../core/wire";
import { functionsOf, type Lookup, many, one, type PromiseForm } from "./common";
import * as V from "./views";

export type { LookupInputs, LookupOptions } from "./common";

const id = (description: string) => z.string().meta({ description });
/** An id the service gives as a UUID: a name given instead is refused before any call. */
const uuid = (description: string) => uuidString.meta({ description });
const ACCOUNT = uuid("The account's UUID.");
const INSTALL = uuid("The install's UUID.");
const SITE = uuid("The site's UUID.");
const DOMAIN = uuid("The domain's UUID.");
const APP = { accountId: ACCOUNT, appId: id("The app id.") };
const ENV = { ...APP, environmentId: id("The environment id.") };
const RANGE = {
  firstDate: z.string().optional().meta({ description: "First day, `YYYY-MM-DD` (at most 13 months ago)." }),
  lastDate: z.string().optional().meta({ description: "Last day, `YYYY-MM-DD`." }),
};
/** A range as the service takes it (`first_date`, `last_date`: the wire names core derives). */
const RANGE_WIRE = wireOf(z.object(RANGE), z.object({}));
const rangeOf = (a: object): UsageRange => RANGE_WIRE.body(a);

/** How often a domain's status report is read while incomplete (milliseconds). */
export const REPORT_POLL = { intervalMs: 1_000, maxIntervalMs: 5_000 };

/**
 * A domain's completed status report (its `id` the check's when the report has none); the service takes one
 * check per 5 s per install, so this process paces them and waits out a 429 from a check made elsewhere.
 */
async function checkDomainStatus(
  client: WpEngineClient,
  args: { installId: string; domainId: string; timeoutSeconds?: number },
) {
  const timeoutMs = (args.timeoutSeconds ?? 120) * 1000;
  const started = PACING_CLOCK.now();
  const { value: check } = await paced(
    `domain-check/${args.installId}`,
    DOMAIN_STATUS_CHECK_WINDOW_MS,
    timeoutMs,
    `install ${args.installId} to accept a domain status check`,
    () => client.domainStatus.check(args.installId, args.domainId),
  );
  const report = await pollUntil({
    deadlineMs: Math.max(0, timeoutMs - (PACING_CLOCK.now() - started)),
    ...REPORT_POLL,
    describe: `the status report ${check.report_id} of domain ${args.domainId} to complete`,
    now: PACING_CLOCK.now,
    sleep: PACING_CLOCK.sleep,
    check: async () => {
      const r = await client.domainStatus.report(args.installId, check.report_id);
      return r.complete ? { done: true, value: r } : { done: false, state: "incomplete" };
    },
  });
  return { ...report, id: report.id ?? check.report_id };
}

/** Every lookup: its description, arguments, result and service call. */
export const LOOKUP_TABLE = {
  getInstalls: many(V.Install, {
    description: "Every install, or every install of one account.",
    args: z.object({ accountId: ACCOUNT.optional() }),
    call: (c, a, p) => c.installs.iterate({ accountId: a.accountId, limit: p }),
  }),
  getInstall: one(V.Install, {
    description: "One install (with its WordPress version).",
    args: z.object({ installId: INSTALL }),
    call: (c, a) => c.installs.get(a.installId),
  }),
  getSites: many(V.Site, {
    description: "Every site, or every site of one account.",
    args: z.object({ accountId: ACCOUNT.optional() }),
    call: (c, a, p) => c.sites.iterate({ accountId: a.accountId, limit: p }),
  }),
  getSite: one(V.Site, {
    description: "One site.",
    args: z.object({ siteId: SITE }),
    call: (c, a) => c.sites.get(a.siteId),
  }),
  getDomains: many(V.Domain, {
    description: "Every domain of an install.",
    args: z.object({ installId: INSTALL }),
    call: (c, a, p) => c.domains.iterate(a.installId, { limit: p }),
  }),
  getDomain: one(V.Domain, {
    description: "One domain of an install.",
    args: z.object({ installId: INSTALL, domainId: DOMAIN }),
    call: (c, a) => c.domains.get(a.installId, a.domainId),
  }),
  getBackups: many(V.Backup, {
    description: "Every backup of an install, in all states.",
    args: z.object({ installId: INSTALL }),
    call: (c, a, p) => c.backups.iterate(a.installId, { limit: p }),
  }),
  getBackup: one(V.Backup, {
    description: "One backup of an install.",
    args: z.object({ installId: INSTALL, backupId: uuid("The backup's UUID.") }),
    call: (c, a) => c.backups.get(a.installId, a.backupId),
  }),
  getArchives: many(V.Archive, {
    description: "Every archive (a downloadable zip made from a backup) of an install.",
    args: z.object({ installId: INSTALL }),
    call: (c, a, p) => c.archives.iterate(a.installId, { limit: p }),
  }),
  getSiteTransfers: many(V.SiteTransfer, {
    description: "Every site transfer initiated from an account (needs Owner or Full with Billing on it).",
    args: z.object({ accountId: ACCOUNT }),
    call: (c, a, p) => c.siteTransfers.iterateForAccount(a.accountId, { limit: p }),
  }),
  getSiteTransfer: one(V.SiteTransfer, {
    description: "One site transfer of a site.",
    args: z.object({ siteId: SITE, transferId: uuid("The transfer's UUID.") }),
    call: (c, a) => c.siteTransfers.get(a.siteId, a.transferId),
  }),
  getReportTemplates: many(V.ReportTemplate, {
    description: "The report templates of an account and the sections each allows (one unpaged list).",
    args: z.object({ accountId: ACCOUNT }),
    call: (c, a) => c.reportTemplates.list(a.accountId),
  }),
  getReportSchedules: many(V.ReportSchedule, {
    description: "The report schedules of a site (one unpaged list).",
    args: z.object({ siteId: SITE }),
    call: (c, a) => c.reportSchedules.list(a.siteId),
  }),
  getAccountUsers: many(V.AccountUser, {
    description: "The users of an account (one unpaged list).",
    args: z.object({ accountId: ACCOUNT }),
    call: (c, a) => c.accountUsers.list(a.accountId),
  }),
  getAccountUser: one(V.AccountUser, {
    description: "One user of an account.",
    args: z.object({ accountId: ACCOUNT, userId: uuid("The user's UUID.") }),
    call: (c, a) => c.accountUsers.get(a.accountId, a.userId),
  }),
  getApps: many(V.App, {
    description: "Every app of an account.",
    args: z.object({ accountId: ACCOUNT }),
    call: (c, a, p) => c.apps.iterate(a.accountId, { pageSize: p }),
  }),
  getApp: one(V.App, {
    description: "One app.",
    args: z.object(APP),
    call: (c, a) => c.apps.get(a.accountId, a.appId),
  }),
  getEnvironments: many(V.Environment, {
    description: "Every environment of an app.",
    args: z.object(APP),
    call: (c, a, p) => c.environments.iterate(a.accountId, a.appId, { pageSize: p }),
  }),
  getEnvironment: one(V.Environment, {
    description: "One environment of an app.",
    args: z.object(ENV),
    call: (c, a) => c.environments.get(a.accountId, a.appId, a.environmentId),
  }),
  getBuilds: many(V.Build, {
    description: "Every build of an environment.",
    args: z.object(ENV),
    call: (c, a, p) => c.builds.iterate(a.accountId, a.appId, a.environmentId, { pageSize: p }),
  }),
  getBuild: one(V.Build, {
    description: "One build of an environment.",
    args: z.object({ ...ENV, buildId: id("The build id.") }),
    call: (c, a) => c.builds.get(a.accountId, a.appId, a.environmentId, a.buildId),
  }),
  getDomainMappings: many(V.DomainMapping, {
    description: "Every domain mapping of an environment (including those being created or deleted).",
    args: z.object(ENV),
    call: (c, a, p) => c.domainMappings.iterate(a.accountId, a.appId, a.environmentId, { pageSize: p }),
  }),
  getAccounts: many(V.Account, {
    description: "Every account the API user has a role on.",
    args: z.object({}),
    call: (c, _a, p) => c.accounts.iterate({ limit: p }),
  }),
  getAccount: one(V.Account, {
    description: "One account.",
    args: z.object({ accountId: ACCOUNT }),
    call: (c, a) => c.accounts.get(a.accountId),
  }),
  getCurrentUser: one(V.CurrentUser, {
    description: "The API user the provider authenticates as (whose SSH keys `SshKey` manages).",
    args: z.object({}),
    call: (c) => c.accounts.currentUser(),
  }),
  getSshKeys: many(V.SshKey, {
    description: "Every SSH key of the API user.",
    args: z.object({}),
    call: (c, _a, p) => c.sshKeys.iterate({ limit: p }),
  }),
  getInstallCertificates: many(V.Certificate, {
    description:
      "Every SSL certificate of an install, following `next_page_token`; an install without any gives an empty list.",
    args: z.object({ installId: INSTALL }),
    call: (c, a, p) => c.certificates.iterateForInstall(a.installId, { limit: p }),
  }),
  getDomainCertificate: one(V.DomainCertificate, {
    description:
      "The certificate of one domain of an install: the record, its name and the PEM certificate, never a private key (a 404 when it has none).",
    args: z.object({ installId: INSTALL, domainId: DOMAIN }),
    call: (c, a) => c.certificates.getForDomain(a.installId, a.domainId),
  }),
  getDomainStatus: one(V.DomainStatusReport, {
    description:
      "Checks a domain and returns its completed status report. Checks of one install are paced to one per 5 s in this process; `timeoutSeconds` bounds the whole wait.",
    args: z.object({
      installId: INSTALL,
      domainId: DOMAIN,
      timeoutSeconds: z
        .number()
        .optional()
        .meta({ description: "How long to wait in all, seconds (default 120)." }),
    }),
    call: checkDomainStatus,
  }),
  getOffloadValidationFile: one(V.OffloadValidationFile, {
    description:
      "The file LargeFS checks for at the root of the bucket before it serves an install's uploads from it: upload an object named `name` holding `content`.",
    args: z.object({ installId: INSTALL }),
    call: (c, a) => c.offloadSettings.validationFile(a.installId),
  }),
  getAccountLimits: one(V.AccountLimits, {
    description:
      "An account's limits (visitors, storage and bandwidth); null where the service reports none.",
    args: z.object({ accountId: ACCOUNT }),
    call: (c, a) => c.usage.accountLimits(a.accountId),
  }),
  getAccountUsage: one(V.AccountUsage, {
    description: "The daily usage of every install of an account, every page read (`pageSize` up to 1000).",
    args: z.object({ accountId: ACCOUNT, ...RANGE }),
    call: (c, a, p) => c.usage.accountUsage(a.accountId, rangeOf(a), { limit: p }),
  }),
  getInstallUsage: one(V.InstallUsage, {
    description: "The daily usage of one install.",
    args: z.object({ installId: INSTALL, ...RANGE }),
    call: (c, a) => c.usage.installUsage(a.installId, rangeOf(a)),
  }),
  getAccountUsageSummary: one(V.UsageRollups, {
    description:
      "An account's usage summed over a range of at most 31 days (default: the last 30), by metric.",
    args: z.object({ accountId: ACCOUNT, ...RANGE }),
    call: (c, a) => c.usage.accountUsageSummary(a.accountId, rangeOf(a)),
  }),
  getAccountUsageInsights: one(V.UsageInsights, {
    description:
      "An account's usage broken down by environment type and site type (at most 31 days), by metric.",
    args: z.object({ accountId: ACCOUNT, ...RANGE }),
    call: (c, a) => c.usage.accountUsageInsights(a.accountId, rangeOf(a)),
  }),
  getServiceStatus: one(V.ServiceStatus, {
    description: "The status of the Hosting Platform API itself.",
    args: z.object({}),
    call: (c) => c.usage.status(),
  }),
} satisfies Record<string, Lookup>;

/** What a lookup returns, e.g. `LookupResult<"getInstall">`. */
export type LookupResult<K extends keyof typeof LOOKUP_TABLE> = Awaited<
  ReturnType<PromiseForm<(typeof LOOKUP_TABLE)[K]>>
>;

// biome-ignore format: one line per row of the table, its Promise and its Output form.
export const {
  getInstalls, getInstallsOutput,
  getInstall, getInstallOutput,
  getSites, getSitesOutput,
  getSite, getSiteOutput,
  getDomains, getDomainsOutput,
  getDomain, getDomainOutput,
  getBackups, getBackupsOutput,
  getBackup, getBackupOutput,
  getArchives, getArchivesOutput,
  getSiteTransfers, getSiteTransfersOutput,
  getSiteTransfer, getSiteTransferOutput,
  getReportTemplates, getReportTemplatesOutput,
  getReportSchedules, getReportSchedulesOutput,
  getAccountUsers, getAccountUsersOutput,
  getAccountUser, getAccountUserOutput,
  getApps, getAppsOutput,
  getApp, getAppOutput,
  getEnvironments, getEnvironmentsOutput,
  getEnvironment, getEnvironmentOutput,
  getBuilds, getBuildsOutput,
  getBuild, getBuildOutput,
  getDomainMappings, getDomainMappingsOutput,
  getAccounts, getAccountsOutput,
  getAccount, getAccountOutput,
  getCurrentUser, getCurrentUserOutput,
  getSshKeys, getSshKeysOutput,
  getInstallCertificates, getInstallCertificatesOutput,
  getDomainCertificate, getDomainCertificateOutput,
  getDomainStatus, getDomainStatusOutput,
  getOffloadValidationFile, getOffloadValidationFileOutput,
  getAccountLimits, getAccountLimitsOutput,
  getAccountUsage, getAccountUsageOutput,
  getInstallUsage, getInstallUsageOutput,
  getAccountUsageSummary, getAccountUsageSummaryOutput,
  getAccountUsageInsights, getAccountUsageInsightsOutput,
  getServiceStatus, getServiceStatusOutput,
} = functionsOf(LOOKUP_TABLE);

// The record types of 0.1.0 that programs may name.
/** An install, as `getInstall` returns it. */
export type InstallInfo = LookupResult<"getInstall">;
/** A site, as `getSite` returns it. */
export type SiteInfo = LookupResult<"getSite">;
/** A site transfer, as `getSiteTransfer` returns it. */
export type SiteTransferInfo = LookupResult<"getSiteTransfer">;
