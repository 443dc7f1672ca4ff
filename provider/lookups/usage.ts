/**
 * Lookups of usage and limits: account limits, account and install daily usage, the account's usage
 * summary and insights, and the service status. Metrics the service sends as int64 strings come back as
 * numbers (exact up to 2^53, far beyond any byte count an install reaches).
 */
import type {
  AccountUsageInsights,
  DailyUsageMetrics,
  EnvironmentMetrics,
  UsageMetricsRollup,
  UsageRange,
} from "../../sdk";
import { clientOf, type LookupOptions, outputOf } from "./common";

/** A date range: both ends (`YYYY-MM-DD`, inclusive) or neither (the last 30 days). */
export interface UsageRangeArgs {
  /** First day, `YYYY-MM-DD` (at most 13 months ago). */
  firstDate?: string;
  /** Last day, `YYYY-MM-DD`. */
  lastDate?: string;
}

function rangeOf(a: UsageRangeArgs): UsageRange {
  return {
    ...(a.firstDate !== undefined ? { first_date: a.firstDate } : {}),
    ...(a.lastDate !== undefined ? { last_date: a.lastDate } : {}),
  };
}

const num = (v: string | null | undefined): number | null =>
  v === undefined || v === null || v === "" ? null : Number(v);

/** Usage of one install on one day. */
export interface DailyUsageInfo {
  /** The day, ISO 8601. */
  date: string | null;
  visitCount: number | null;
  billableVisits: number | null;
  networkOriginBytes: number | null;
  networkCdnBytes: number | null;
  networkTotalBytes: number | null;
  requestOriginCount: number | null;
  storageFileBytes: number | null;
  storageDatabaseBytes: number | null;
  /** When storage was last measured. */
  storageUpdateTime: string | null;
}

export function toDailyUsageInfo(m: DailyUsageMetrics): DailyUsageInfo {
  return {
    date: m.date ?? null,
    visitCount: num(m.visit_count),
    billableVisits: num(m.billable_visits),
    networkOriginBytes: num(m.network_origin_bytes),
    networkCdnBytes: num(m.network_cdn_bytes),
    networkTotalBytes: num(m.network_total_bytes),
    requestOriginCount: num(m.request_origin_count),
    storageFileBytes: num(m.storage_file_bytes),
    storageDatabaseBytes: num(m.storage_database_bytes),
    storageUpdateTime: m.storage_update_time ?? null,
  };
}

/** A rollup of one metric: sum and daily average (traffic), or the latest value (storage). */
export interface UsageRollupInfo {
  sum: number | null;
  average: number | null;
  latest: number | null;
  latestDate: string | null;
}

/** Rollups by metric name in camelCase (`visitCount`, `storageFileBytes`, ...). */
export type UsageRollupsInfo = Record<string, UsageRollupInfo>;

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

export function toRollupsInfo(r: UsageMetricsRollup | null | undefined): UsageRollupsInfo {
  const out: UsageRollupsInfo = {};
  for (const [key, v] of Object.entries(r ?? {})) {
    out[camel(key)] = {
      sum: num(v?.sum),
      average: num(v?.average),
      latest: num(v?.latest?.value),
      latestDate: v?.latest?.date ?? null,
    };
  }
  return out;
}

/** Usage of one install (environment) over the range. */
export interface InstallUsageInfo {
  /** The install's name. */
  installName: string | null;
  /** Daily metrics, most recent first. */
  days: DailyUsageInfo[];
  /** Rollups over the range. */
  rollups: UsageRollupsInfo;
  /** When a requested disk-usage refresh completes; null when none is running. */
  storageRefreshExpectedTime: string | null;
}

function toEnvironmentUsage(e: EnvironmentMetrics): InstallUsageInfo {
  return {
    installName: e.environment_name ?? null,
    days: (e.metrics ?? []).map(toDailyUsageInfo),
    rollups: toRollupsInfo(e.metrics_rollup),
    storageRefreshExpectedTime: e.storage_refresh_expected_time ?? null,
  };
}

/** The usage of every install of an account. */
export interface AccountUsageInfo {
  /** One entry per install the caller may see. */
  installs: InstallUsageInfo[];
  /** Number of installs the service counted. */
  totalSize: number | null;
  /** False when the caller's permissions hide some installs. */
  allEnvironmentsIncluded: boolean | null;
  lastAccountStorageRefreshTime: string | null;
  accountStorageRefreshExpectedTime: string | null;
}

/** An account's plan limits; null where the service reports none. */
export interface AccountLimitsInfo {
  /** Maximum visitors. */
  visitors: number | null;
  /** Maximum storage, GB. */
  storageGb: number | null;
  /** Maximum bandwidth, GB. */
  bandwidthGb: number | null;
}

/** One metric broken down by environment type and site type. */
export interface UsageBreakdownInfo {
  total: number | null;
  environmentTypes: Record<string, number | null>;
  siteTypes: Record<string, number | null>;
}

/** Breakdowns by metric name in camelCase. */
export type UsageInsightsInfo = Record<string, UsageBreakdownInfo>;

function toInsightsInfo(i: AccountUsageInsights): UsageInsightsInfo {
  const map = (r: Record<string, string | null | undefined> | null | undefined) =>
    Object.fromEntries(Object.entries(r ?? {}).map(([k, v]) => [k, num(v)]));
  const out: UsageInsightsInfo = {};
  for (const [key, v] of Object.entries(i)) {
    out[camel(key)] = {
      total: num(v?.total),
      environmentTypes: map(v?.environment_types),
      siteTypes: map(v?.site_types),
    };
  }
  return out;
}

/** The service status. */
export interface ServiceStatusInfo {
  /** Whether the API reports itself healthy. */
  success: boolean;
  /** When the status was produced. */
  createdOn: string | null;
}

/** An account's limits (visitors, storage and bandwidth). */
export async function getAccountLimits(
  args: { accountId: string },
  options?: LookupOptions,
): Promise<AccountLimitsInfo> {
  const l = await (await clientOf(options)).usage.accountLimits(args.accountId);
  return { visitors: l.visitors ?? null, storageGb: l.storage ?? null, bandwidthGb: l.bandwidth ?? null };
}
export const getAccountLimitsOutput = outputOf(getAccountLimits);

/** The daily usage of every install of an account, every page read (`pageSize` up to 1000). */
export async function getAccountUsage(
  args: { accountId: string } & UsageRangeArgs,
  options?: LookupOptions,
): Promise<AccountUsageInfo> {
  const client = await clientOf(options);
  const page = options?.pageSize !== undefined ? { limit: options.pageSize } : {};
  const u = await client.usage.accountUsage(args.accountId, rangeOf(args), page);
  return {
    installs: u.environment_metrics.map(toEnvironmentUsage),
    totalSize: u.total_size ?? null,
    allEnvironmentsIncluded: u.all_environments_included ?? null,
    lastAccountStorageRefreshTime: u.last_account_storage_refresh_time ?? null,
    accountStorageRefreshExpectedTime: u.account_storage_refresh_expected_time ?? null,
  };
}
export const getAccountUsageOutput = outputOf(getAccountUsage);

/** The daily usage of one install. */
export async function getInstallUsage(
  args: { installId: string } & UsageRangeArgs,
  options?: LookupOptions,
): Promise<InstallUsageInfo> {
  const u = await (await clientOf(options)).usage.installUsage(args.installId, rangeOf(args));
  return {
    installName: u.install_name ?? null,
    days: (u.metrics ?? []).map(toDailyUsageInfo),
    rollups: toRollupsInfo(u.metrics_rollup),
    storageRefreshExpectedTime: u.storage_refresh_expected_time ?? null,
  };
}
export const getInstallUsageOutput = outputOf(getInstallUsage);

/** An account's usage summed over a range of at most 31 days (default: the last 30). */
export async function getAccountUsageSummary(
  args: { accountId: string } & UsageRangeArgs,
  options?: LookupOptions,
): Promise<UsageRollupsInfo> {
  return toRollupsInfo(
    await (await clientOf(options)).usage.accountUsageSummary(args.accountId, rangeOf(args)),
  );
}
export const getAccountUsageSummaryOutput = outputOf(getAccountUsageSummary);

/** An account's usage broken down by environment type and site type (at most 31 days). */
export async function getAccountUsageInsights(
  args: { accountId: string } & UsageRangeArgs,
  options?: LookupOptions,
): Promise<UsageInsightsInfo> {
  return toInsightsInfo(
    await (await clientOf(options)).usage.accountUsageInsights(args.accountId, rangeOf(args)),
  );
}
export const getAccountUsageInsightsOutput = outputOf(getAccountUsageInsights);

/** The status of the Hosting Platform API itself. */
export async function getServiceStatus(
  _args: object = {},
  options?: LookupOptions,
): Promise<ServiceStatusInfo> {
  const s = await (await clientOf(options)).usage.status();
  return { success: s.success ?? false, createdOn: s.created_on ?? null };
}
export const getServiceStatusOutput = outputOf(getServiceStatus);
