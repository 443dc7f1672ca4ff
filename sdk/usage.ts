/** Usage metrics, account limits, disk-usage refreshes and the service status. */
import { z } from "zod";
import { dayString } from "./common";
import { WpEnginePaginationError } from "./core/errors";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

declare const int64Brand: unique symbol;
/** An int64 metric as the sdk gives it: a decimal string, marked so that a mapping can tell it apart. */
export type Int64 = string & { readonly [int64Brand]: true };

/** An int64 metric: a string on the wire (proto3 JSON); a number is accepted and turned into one. */
export const Int64Schema = z
  .union([z.string(), z.number()])
  .transform((v) => String(v) as Int64)
  .nullish();
const int64 = Int64Schema;

const DAY = 86_400_000;

/**
 * A date range of a usage request: both ends (`YYYY-MM-DD`, inclusive) or neither (the last 30 days), in
 * order, and of at most `maxDays` days (both counted) where the service has a limit.
 */
function usageRange(maxDays?: number) {
  return z
    .strictObject({
      /** First day, `YYYY-MM-DD` (at most 13 months ago). */
      first_date: dayString.optional(),
      /** Last day, `YYYY-MM-DD`. */
      last_date: dayString.optional(),
    })
    .superRefine(({ first_date: first, last_date: last }, ctx) => {
      const bad = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      if ((first === undefined) !== (last === undefined))
        return bad(
          first === undefined ? "first_date" : "last_date",
          "give both first_date and last_date, or neither",
        );
      if (first === undefined || last === undefined) return;
      if (first > last) return bad("first_date", `must not be after last_date (${first} > ${last})`);
      const days = (Date.parse(last) - Date.parse(first)) / DAY + 1;
      if (maxDays !== undefined && days > maxDays)
        bad(
          "last_date",
          `the range is at most ${maxDays} days, both counted (${first} to ${last} is ${days}): split it into ranges of ${maxDays} days`,
        );
    });
}
/** A date range of a usage request, without a limit on its length. */
export const UsageRangeSchema = usageRange();
/** The range of the summary and the insights: at most 31 days. */
const MONTH_RANGE = usageRange(31);
/** A date range of a usage request. */
export type UsageRange = z.infer<typeof UsageRangeSchema>;

/** Usage of one install on one day (the Swagger's `DailyUsageMetrics`). */
export const DailyUsageMetricsSchema = z.looseObject({
  /** The day, ISO 8601. */
  date: z.string().nullish(),
  /** Total visits. */
  visit_count: int64,
  /** Billable visits. */
  billable_visits: int64,
  /** Bytes served by the origin (not the CDN). */
  network_origin_bytes: int64,
  /** Bytes served by the CDN. */
  network_cdn_bytes: int64,
  /** CDN plus origin bytes. */
  network_total_bytes: int64,
  /** Requests that reached the origin. */
  request_origin_count: int64,
  /** Storage used by files. */
  storage_file_bytes: int64,
  /** Storage used by the database. */
  storage_database_bytes: int64,
  /** When storage was last measured. */
  storage_update_time: z.string().nullish(),
});
/** Usage of one install on one day. */
export type DailyUsageMetrics = z.infer<typeof DailyUsageMetricsSchema>;

/** A rollup of one metric: `sum` and `average` for traffic, `latest` for storage. */
export const UsageRollupSchema = z.looseObject({
  /** Daily average. */
  average: int64,
  /** Sum over the range. */
  sum: int64,
  /** The latest value `{date, value}`. */
  latest: z.looseObject({ date: z.string().nullish(), value: int64 }).nullish(),
});

/** Rollups of every metric (the Swagger's `UsageMetricsRollup`). */
export const UsageMetricsRollupSchema = z.record(z.string(), UsageRollupSchema.nullish());
/** Rollups of every metric. */
export type UsageMetricsRollup = z.infer<typeof UsageMetricsRollupSchema>;

/** Usage of one install over a range (the Swagger's `InstallDailyUsageMetricsSeries`). */
export const InstallUsageSchema = z.looseObject({
  /** The install's name. */
  install_name: z.string().nullish(),
  /** Daily metrics, most recent first. */
  metrics: z.array(DailyUsageMetricsSchema).nullish(),
  /** Rollups over the range. */
  metrics_rollup: UsageMetricsRollupSchema.nullish(),
  /** When a requested disk-usage refresh completes; null when none is running. */
  storage_refresh_expected_time: z.string().nullish(),
});
/** Usage of one install over a range. */
export type InstallUsage = z.infer<typeof InstallUsageSchema>;

/** Usage of one environment inside the account usage (the Swagger's `EnvironmentMetrics`). */
export const EnvironmentMetricsSchema = z.looseObject({
  /** The environment (install) name. */
  environment_name: z.string().nullish(),
  /** Daily metrics. */
  metrics: z.array(DailyUsageMetricsSchema).nullish(),
  /** Rollups over the range. */
  metrics_rollup: UsageMetricsRollupSchema.nullish(),
  /** When a requested disk-usage refresh completes. */
  storage_refresh_expected_time: z.string().nullish(),
});
/** Usage of one environment inside the account usage. */
export type EnvironmentMetrics = z.infer<typeof EnvironmentMetricsSchema>;

/** One page of account usage (the Swagger's `AccountUsageMetricsResponse`). */
export const AccountUsagePageSchema = z.looseObject({
  /** The environments of the page. */
  environment_metrics: z.array(EnvironmentMetricsSchema).nullish(),
  /** Number of environments in all pages. */
  total_size: z.number().nullish(),
  /** The `offset` of the next page. */
  next_page_token: z.union([z.string(), z.number()]).nullish(),
  /** Whether the caller's permissions let every environment be returned. */
  all_environments_included: z.boolean().nullish(),
  /** When the account's storage was last refreshed. */
  last_account_storage_refresh_time: z.string().nullish(),
  /** When a requested account storage refresh completes. */
  account_storage_refresh_expected_time: z.string().nullish(),
});
/** One page of account usage. */
export type AccountUsagePage = z.infer<typeof AccountUsagePageSchema>;

/** Account usage with every page read: the environments of all pages and the last page's other fields. */
export interface AccountUsage {
  environment_metrics: EnvironmentMetrics[];
  total_size?: number | null | undefined;
  all_environments_included?: boolean | null | undefined;
  last_account_storage_refresh_time?: string | null | undefined;
  account_storage_refresh_expected_time?: string | null | undefined;
}

/** One metric broken down by environment and site type (the Swagger's `UsageMetricBreakdown`). */
export const UsageMetricBreakdownSchema = z.looseObject({
  /** Total. */
  total: int64,
  /** By environment type: production, staging, development. */
  environment_types: z.record(z.string(), int64).nullish(),
  /** By site type: standard, transferable, sandbox. */
  site_types: z.record(z.string(), int64).nullish(),
});

/** Account usage insights: each metric broken down (the Swagger's `AccountUsageInsights`). */
export const AccountUsageInsightsSchema = z.record(z.string(), UsageMetricBreakdownSchema.nullish());
/** Account usage insights. */
export type AccountUsageInsights = z.infer<typeof AccountUsageInsightsSchema>;

/** Account limits (the Swagger's `AccountLimits`); null means no limit is reported. */
export const AccountLimitsSchema = z.looseObject({
  /** Maximum visitors. */
  visitors: z.number().nullish(),
  /** Maximum storage, GB. */
  storage: z.number().nullish(),
  /** Maximum bandwidth, GB. */
  bandwidth: z.number().nullish(),
});
/** Account limits. */
export type AccountLimits = z.infer<typeof AccountLimitsSchema>;

/** The service status (the Swagger's `Status`). */
export const ServiceStatusSchema = z.looseObject({
  /** Whether the API reports itself healthy. */
  success: z.boolean().nullish(),
  /** When the status was produced, RFC 3339. */
  created_on: z.string().nullish(),
});
/** The service status. */
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

/** Operations on usage, limits and the service status. */
export class Usage {
  constructor(private readonly transport: Transport) {}

  /** An account's plan limits. */
  async accountLimits(accountId: string): Promise<AccountLimits> {
    return this.transport.request(
      { method: "GET", path: path`/accounts/${accountId}/limits` },
      AccountLimitsSchema,
    );
  }

  /** One page of an account's usage (`limit` up to 1000; `offset` is the previous `next_page_token`). */
  async accountUsagePage(
    accountId: string,
    range: UsageRange = {},
    page: { limit?: number; offset?: string } = {},
  ): Promise<AccountUsagePage> {
    const query = validateInput("usage.accountUsage", UsageRangeSchema, range);
    return this.transport.request(
      { method: "GET", path: path`/accounts/${accountId}/usage`, query: { ...query, ...page } },
      AccountUsagePageSchema,
    );
  }

  /** An account's usage, every page read (a token that does not advance is refused). */
  async accountUsage(
    accountId: string,
    range: UsageRange = {},
    page: { limit?: number } = {},
  ): Promise<AccountUsage> {
    const environments: EnvironmentMetrics[] = [];
    const seen = new Set<string>();
    let offset: string | undefined;
    for (;;) {
      const answer = await this.accountUsagePage(accountId, range, {
        ...page,
        ...(offset !== undefined ? { offset } : {}),
      });
      environments.push(...(answer.environment_metrics ?? []));
      const next = answer.next_page_token;
      if (next === undefined || next === null || next === "") {
        return {
          environment_metrics: environments,
          total_size: answer.total_size,
          all_environments_included: answer.all_environments_included,
          last_account_storage_refresh_time: answer.last_account_storage_refresh_time,
          account_storage_refresh_expected_time: answer.account_storage_refresh_expected_time,
        };
      }
      const token = String(next);
      if (seen.has(token) || token === offset) {
        throw new WpEnginePaginationError(
          `the next_page_token of the account usage does not advance (${token})`,
        );
      }
      seen.add(token);
      offset = token;
    }
  }

  /** An account's usage summed over a range (at most 31 days). */
  async accountUsageSummary(accountId: string, range: UsageRange = {}): Promise<UsageMetricsRollup> {
    const query = validateInput("usage.accountUsageSummary", MONTH_RANGE, range);
    return this.transport.request(
      { method: "GET", path: path`/accounts/${accountId}/usage/summary`, query },
      UsageMetricsRollupSchema,
    );
  }

  /** An account's usage broken down by environment and site type (at most 31 days). */
  async accountUsageInsights(accountId: string, range: UsageRange = {}): Promise<AccountUsageInsights> {
    const query = validateInput("usage.accountUsageInsights", MONTH_RANGE, range);
    return this.transport.request(
      { method: "GET", path: path`/accounts/${accountId}/usage/insights`, query },
      AccountUsageInsightsSchema,
    );
  }

  /** An install's daily usage. */
  async installUsage(installId: string, range: UsageRange = {}): Promise<InstallUsage> {
    const query = validateInput("usage.installUsage", UsageRangeSchema, range);
    return this.transport.request(
      { method: "GET", path: path`/installs/${installId}/usage`, query },
      InstallUsageSchema,
    );
  }

  /** Asks for a disk-usage recalculation of every install of an account (answers no data). */
  async refreshAccountDiskUsage(accountId: string): Promise<void> {
    // Several requests make a single recalculation: safe to repeat.
    await this.transport.requestVoid({
      method: "POST",
      path: path`/accounts/${accountId}/usage/refresh_disk_usage`,
      retry: "safe",
    });
  }

  /** Asks for a disk-usage recalculation of an install (answers no data). */
  async refreshInstallDiskUsage(installId: string): Promise<void> {
    await this.transport.requestVoid({
      method: "POST",
      path: path`/installs/${installId}/usage/refresh_disk_usage`,
      retry: "safe",
    });
  }

  /** The service's own status (`GET /status`). */
  async status(): Promise<ServiceStatus> {
    return this.transport.request({ method: "GET", path: "/status" }, ServiceStatusSchema);
  }
}
