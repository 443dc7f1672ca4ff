import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { notADay } from "../../sdk/common";
import { canTouchInstall, requireAccount, requireInstall } from "../auth";
import { DURATIONS, iso } from "../clock";
import { ApiError } from "../errors";
import { callerOf, queryParam, type Req } from "../http";
import type { Sim } from "../sim";
import type { InstallRecord } from "../store";

const DAY = 86_400_000;

/** Plan limits per seeded account nickname; others get the first. */
const PLAN_LIMITS: Record<
  string,
  { visitors: number | null; storage: number | null; bandwidth: number | null }
> = {
  acme: { visitors: 25_000, storage: 150, bandwidth: 1_000 },
  globex: { visitors: 100_000, storage: 400, bandwidth: 4_000 },
  // A plan without a visitor limit: the Swagger's fields are nullable.
  initech: { visitors: null, storage: 50, bandwidth: 200 },
};

/** A 400 with the Swagger's `UsageErrorResponse` body. */
function usageError(message: string): ApiError {
  return new ApiError(400, message);
}

/** The days (`YYYY-MM-DD`, most recent first) a usage request covers: the last 30 days by default. */
function dateRange(req: Req, now: number, maxDays?: number): string[] {
  const first = queryParam(req, "first_date");
  const last = queryParam(req, "last_date");
  if ((first === undefined) !== (last === undefined)) {
    throw usageError("Must provide or omit both first_date and last_date.");
  }
  const today = Math.floor(now / DAY) * DAY;
  let from = today - 30 * DAY;
  let to = today - DAY;
  if (first !== undefined && last !== undefined) {
    for (const [name, value] of [
      ["first_date", first],
      ["last_date", last],
    ] as const) {
      // The sdk's calendar rule: 2026-11-31 is no date (Date.parse would take it as December 1).
      if (notADay(value)) {
        throw usageError(`${name} must be a date formatted YYYY-mm-dd`);
      }
    }
    from = Date.parse(`${first}T00:00:00Z`);
    to = Date.parse(`${last}T00:00:00Z`);
    if (from > to) throw usageError("first_date must not be after last_date.");
    if (from < today - 396 * DAY) throw usageError("first_date cannot be older than 13 months.");
    if (maxDays !== undefined && (to - from) / DAY + 1 > maxDays) {
      throw usageError(`The date range cannot exceed ${maxDays} days.`);
    }
  }
  const days: string[] = [];
  for (let t = to; t >= from; t -= DAY) days.push(iso(t).slice(0, 10));
  return days;
}

/** A stable pseudo-random number from a text (the same install and day always give the same metrics). */
function seeded(text: string): number {
  return Number.parseInt(createHash("sha256").update(text).digest("hex").slice(0, 8), 16);
}

type Daily = Record<string, string | null>;

/** The Swagger's `DailyUsageMetrics` of an install on a day (int64 values as strings, as proto3 JSON does). */
function daily(sim: Sim, install: InstallRecord, date: string): Daily {
  const visits = 100 + (seeded(`${install.id}/${date}`) % 900);
  const origin = visits * 48_000;
  const cdn = visits * 152_000;
  const files = 400_000_000 + (seeded(`${install.id}/files`) % 100_000_000);
  const db = 40_000_000 + (seeded(`${install.id}/db`) % 10_000_000);
  const refreshed = sim.world.storage_refreshes[install.id];
  const measured =
    refreshed !== undefined && refreshed <= sim.now() && iso(refreshed).slice(0, 10) === date
      ? iso(refreshed)
      : `${date}T00:00:00.000Z`;
  return {
    date,
    visit_count: String(visits),
    billable_visits: String(Math.round(visits * 0.9)),
    network_origin_bytes: String(origin),
    network_cdn_bytes: String(cdn),
    network_total_bytes: String(origin + cdn),
    request_origin_count: String(visits * 12),
    storage_file_bytes: String(files),
    storage_database_bytes: String(db),
    storage_update_time: measured,
    traffic_metrics_source: "BIGQUERY",
    database_tables_count: "12",
    database_sql_bytes: String(db),
    autoloaded_bytes: "800000",
  };
}

const SUMMED = [
  "visit_count",
  "billable_visits",
  "network_origin_bytes",
  "network_cdn_bytes",
  "network_total_bytes",
  "request_origin_count",
] as const;
const LATEST = ["storage_file_bytes", "storage_database_bytes"] as const;

/** The Swagger's `UsageMetricsRollup` of daily metrics (sums and daily averages; storage: the latest value). */
function rollup(days: Daily[][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const count = Math.max(1, days[0]?.length ?? 0);
  for (const key of SUMMED) {
    const sum = days.flat().reduce((s, d) => s + Number(d[key] ?? 0), 0);
    out[key] = { sum: String(sum), average: String(Math.round(sum / count)) };
  }
  for (const key of LATEST) {
    const latest = days.reduce((s, series) => s + Number(series[0]?.[key] ?? 0), 0);
    out[key] = { latest: { date: days[0]?.[0]?.["date"] ?? "", value: String(latest) } };
  }
  return out;
}

/** When an install's requested storage refresh completes, or null when none is running. */
function refreshExpected(sim: Sim, install: InstallRecord): string | null {
  const due = sim.world.storage_refreshes[install.id];
  return due !== undefined && due > sim.now() ? iso(due) : null;
}

/** The installs of an account the caller may see, and whether that is all of them. */
function accountInstalls(sim: Sim, req: Req): { installs: InstallRecord[]; all: boolean } {
  const caller = callerOf(req);
  const account = requireAccount(sim.world, caller, req.params["account_id"]!, "any");
  const every = Object.values(sim.world.installs).filter((i) => i.account_id === account.id);
  const installs = every.filter((i) => canTouchInstall(sim.world, caller, i));
  return { installs, all: installs.length === every.length };
}

/** `refresh_disk_usage` answers 200 with a `null` body. */
function nullBody(reply: FastifyReply) {
  return reply.code(200).type("application/json").send("null");
}

/**
 * Usage and limits: account limits; daily usage metrics of an account's installs (paged by `limit` up to
 * 1000 and a string `offset`, the next one given as `next_page_token`) and of one install; the account's
 * usage summary and insights (ranges up to 31 days); disk-usage refreshes; and `GET /status`.
 * Metrics are generated, stable per install and day; dates follow the simulator's clock.
 */
export function registerUsage(app: FastifyInstance, sim: Sim): void {
  app.get("/v1/status", async () => ({
    success: true,
    created_on: iso(sim.now()).replace(/\.\d{3}Z$/, "+00:00"),
  }));

  app.get("/v1/accounts/:account_id/limits", async (req: Req) => {
    const account = requireAccount(sim.world, callerOf(req), req.params["account_id"]!, "any");
    return PLAN_LIMITS[account.nickname] ?? PLAN_LIMITS["acme"];
  });

  app.get("/v1/accounts/:account_id/usage", async (req: Req) => {
    const { installs, all } = accountInstalls(sim, req);
    const days = dateRange(req, sim.now());
    const limitRaw = queryParam(req, "limit");
    const offsetRaw = queryParam(req, "offset");
    if (
      limitRaw !== undefined &&
      (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 1000)
    ) {
      throw usageError("limit must be an integer between 1 and 1000");
    }
    if (offsetRaw !== undefined && offsetRaw !== "" && !/^\d+$/.test(offsetRaw)) {
      throw usageError("offset must be a next_page_token of a previous answer");
    }
    const limit = Number(limitRaw ?? 100);
    const offset = Number(offsetRaw || 0);
    const page = installs.slice(offset, offset + limit);
    const refreshes = installs.map((i) => refreshExpected(sim, i)).filter((t): t is string => t !== null);
    const done = installs
      .map((i) => sim.world.storage_refreshes[i.id])
      .filter((t): t is number => t !== undefined && t <= sim.now());
    return {
      environment_metrics: page.map((install) => {
        const metrics = days.map((d) => daily(sim, install, d));
        return {
          environment_name: install.name,
          metrics,
          metrics_rollup: rollup([metrics]),
          storage_refresh_expected_time: refreshExpected(sim, install),
        };
      }),
      total_size: installs.length,
      next_page_token: offset + limit < installs.length ? String(offset + limit) : null,
      all_environments_included: all,
      last_account_storage_refresh_time: done.length ? iso(Math.max(...done)) : null,
      account_storage_refresh_expected_time: refreshes.length ? refreshes.sort().at(-1) : null,
    };
  });

  app.get("/v1/accounts/:account_id/usage/summary", async (req: Req) => {
    const { installs } = accountInstalls(sim, req);
    const days = dateRange(req, sim.now(), 31);
    return rollup(installs.map((i) => days.map((d) => daily(sim, i, d))));
  });

  app.get("/v1/accounts/:account_id/usage/insights", async (req: Req) => {
    const { installs } = accountInstalls(sim, req);
    const days = dateRange(req, sim.now(), 31);
    const series = installs.map((install) => {
      const site = install.site_id ? sim.world.sites[install.site_id] : undefined;
      const siteType = site?.sandbox ? "sandbox" : site?.transferable ? "transferable" : "standard";
      return { install, siteType, metrics: days.map((d) => daily(sim, install, d)) };
    });
    const out: Record<string, unknown> = {};
    for (const key of [...SUMMED, ...LATEST]) {
      const value = (m: Daily[]) =>
        (LATEST as readonly string[]).includes(key)
          ? Number(m[0]?.[key] ?? 0)
          : m.reduce((s, d) => s + Number(d[key] ?? 0), 0);
      const sum = (pick: (s: (typeof series)[number]) => boolean) =>
        String(series.filter(pick).reduce((s, x) => s + value(x.metrics), 0));
      out[key] = {
        total: sum(() => true),
        environment_types: {
          production: sum((s) => s.install.environment === "production"),
          staging: sum((s) => s.install.environment === "staging"),
          development: sum((s) => s.install.environment === "development"),
        },
        site_types: {
          standard: sum((s) => s.siteType === "standard"),
          transferable: sum((s) => s.siteType === "transferable"),
          sandbox: sum((s) => s.siteType === "sandbox"),
        },
      };
    }
    return out;
  });

  app.post("/v1/accounts/:account_id/usage/refresh_disk_usage", async (req: Req, reply) => {
    const { installs } = accountInstalls(sim, req);
    // Several requests for the same install make a single recalculation.
    for (const install of installs) {
      if (refreshExpected(sim, install) === null)
        sim.world.storage_refreshes[install.id] = sim.clock.after(DURATIONS.storageRefresh);
    }
    sim.store.touch();
    return nullBody(reply);
  });

  app.get("/v1/installs/:install_id/usage", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const metrics = dateRange(req, sim.now()).map((d) => daily(sim, install, d));
    return {
      install_name: install.name,
      metrics,
      metrics_rollup: rollup([metrics]),
      storage_refresh_expected_time: refreshExpected(sim, install),
    };
  });

  app.post("/v1/installs/:install_id/usage/refresh_disk_usage", async (req: Req, reply) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    if (refreshExpected(sim, install) === null) {
      sim.world.storage_refreshes[install.id] = sim.clock.after(DURATIONS.storageRefresh);
      sim.store.touch();
    }
    return nullBody(reply);
  });
}
