import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I, accounts: A } = SEED;

describe("usage, limits, status and the offload validation file", () => {
  const sim = useSimulator();
  const get = (path: string, user?: "partial") => call(sim(), "GET", `/v1${path}`, undefined, { user });

  it("serves GET /status without credentials", async () => {
    const r = await call(sim(), "GET", "/v1/status", undefined, { user: null });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.created_on).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
  });

  it("answers an account's limits (nullable when the plan has none)", async () => {
    expect((await get(`/accounts/${A.acme.id}/limits`)).body).toEqual({
      visitors: 25_000,
      storage: 150,
      bandwidth: 1_000,
    });
    expect((await get(`/accounts/${A.initech.id}/limits`)).body.visitors).toBeNull();
    expect((await get("/accounts/ac000000-0000-4000-8000-0000000000ff/limits")).status).toBe(404);
  });

  it("answers 30 days of install usage, most recent first, int64 values as strings", async () => {
    const r = await get(`/installs/${I.acmeprod.id}/usage`);
    expect(r.status).toBe(200);
    expect(r.body.install_name).toBe("acmeprod");
    expect(r.body.metrics).toHaveLength(30);
    expect(r.body.metrics[0].date > r.body.metrics[29].date).toBe(true);
    expect(r.body.metrics[0].visit_count).toMatch(/^\d+$/);
    const sum = r.body.metrics.reduce(
      (s: number, m: { visit_count: string }) => s + Number(m.visit_count),
      0,
    );
    expect(r.body.metrics_rollup.visit_count.sum).toBe(String(sum));
    // The same install and day always give the same figures.
    expect((await get(`/installs/${I.acmeprod.id}/usage`)).body.metrics[3]).toEqual(r.body.metrics[3]);
  });

  it("takes a date range, both ends or none, and refuses a bad one", async () => {
    const r = await get(`/installs/${I.acmeprod.id}/usage?first_date=2026-01-01&last_date=2026-01-03`);
    expect(r.body.metrics.map((m: { date: string }) => m.date)).toEqual([
      "2026-01-03",
      "2026-01-02",
      "2026-01-01",
    ]);
    const half = await get(`/installs/${I.acmeprod.id}/usage?first_date=2026-01-01`);
    expect(half.status).toBe(400);
    expect(half.body.message).toBe("Must provide or omit both first_date and last_date.");
    const long = await get(`/accounts/${A.acme.id}/usage/summary?first_date=2026-01-01&last_date=2026-02-15`);
    expect(long.status).toBe(400);
    // A day the calendar does not have (Date.parse takes 2026-11-31 as December 1), as the sdk refuses it.
    const none = await get(`/installs/${I.acmeprod.id}/usage?first_date=2026-11-31&last_date=2026-12-01`);
    expect([none.status, none.body.message]).toEqual([400, "first_date must be a date formatted YYYY-mm-dd"]);
  });

  it("pages account usage with next_page_token and says when a partial user sees only some installs", async () => {
    const first = await get(`/accounts/${A.acme.id}/usage?limit=2`);
    expect(first.body.environment_metrics).toHaveLength(2);
    expect(first.body.total_size).toBe(5);
    expect(first.body.all_environments_included).toBe(true);
    const names: string[] = first.body.environment_metrics.map(
      (e: { environment_name: string }) => e.environment_name,
    );
    let token = first.body.next_page_token;
    while (token) {
      const next = await get(`/accounts/${A.acme.id}/usage?limit=2&offset=${token}`);
      names.push(
        ...next.body.environment_metrics.map((e: { environment_name: string }) => e.environment_name),
      );
      token = next.body.next_page_token;
    }
    expect(names.sort()).toEqual(["acmeblog", "acmedev", "acmeprod", "acmesandbox", "acmestg"]);
    const partial = await get(`/accounts/${A.acme.id}/usage`, "partial");
    expect(partial.body.all_environments_included).toBe(false);
    expect(
      partial.body.environment_metrics.map((e: { environment_name: string }) => e.environment_name),
    ).toEqual(["acmeprod"]);
  });

  it("summarises and breaks down account usage by environment and site type", async () => {
    const summary = await get(`/accounts/${A.acme.id}/usage/summary`);
    expect(summary.body.visit_count.sum).toMatch(/^\d+$/);
    expect(summary.body.storage_file_bytes.latest.value).toMatch(/^\d+$/);
    const insights = await get(`/accounts/${A.acme.id}/usage/insights`);
    const v = insights.body.visit_count;
    expect(v.total).toBe(summary.body.visit_count.sum);
    const byEnv =
      Number(v.environment_types.production) +
      Number(v.environment_types.staging) +
      Number(v.environment_types.development);
    expect(String(byEnv)).toBe(v.total);
    expect(Number(v.site_types.sandbox)).toBeGreaterThan(0);
  });

  it("refreshes disk usage: null body, an expected time until done on the simulator's clock", async () => {
    const r = await call(sim(), "POST", `/v1/installs/${I.acmeprod.id}/usage/refresh_disk_usage`);
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    expect((await get(`/installs/${I.acmeprod.id}/usage`)).body.storage_refresh_expected_time).not.toBeNull();
    sim().advance(2);
    expect((await get(`/installs/${I.acmeprod.id}/usage`)).body.storage_refresh_expected_time).toBeNull();
    const account = await call(sim(), "POST", `/v1/accounts/${A.acme.id}/usage/refresh_disk_usage`);
    expect(account.status).toBe(200);
    expect(
      (await get(`/accounts/${A.acme.id}/usage`)).body.account_storage_refresh_expected_time,
    ).not.toBeNull();
  });

  it("gives the offload validation file of an install: a name and content, stable per install", async () => {
    const path = `/installs/${I.acmeprod.id}/offload_settings/largefs_validation_file`;
    const r = await get(path);
    expect(r.status).toBe(200);
    expect(r.body.name).toMatch(/^[0-9a-f]{8}\.largefs$/);
    expect(r.body.content).toMatch(/^[0-9a-f]{16}$/);
    expect((await get(path)).body).toEqual(r.body);
    expect(
      (await get(`/installs/${I.acmestg.id}/offload_settings/largefs_validation_file`)).body.name,
    ).not.toBe(r.body.name);
  });
});
