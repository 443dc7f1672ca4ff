import { afterEach, describe, expect, it } from "vitest";
import { isRateLimited, type WpEngineValidationError } from "../../sdk";
import { DOMAIN_ID, INSTALL, rejection, setup } from "./sdk-support";

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

const I = `/v1/installs/${INSTALL.id}`;
const ACCOUNT = "ac000000-0000-4000-8000-000000000009";
const LIMITED = { status: 429, body: { message: "Object cache purges are rate-limited" } };

describe("cache purge", () => {
  it("POSTs {type} and hands a 429 back at once instead of retrying inside the window", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/purge_cache`, { status: 202 }, LIMITED);
    await ctx.client.cachePurge.purge(INSTALL.id, "object");
    expect(ctx.json()).toEqual({ type: "object" });
    const err = await rejection(ctx.client.cachePurge.purge(INSTALL.id, "object"));
    expect(isRateLimited(err)).toBe(true);
    expect(ctx.sleeps).toEqual([]);
  });

  it("still retries a 503 and refuses an unknown type before sending", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/purge_cache`, { status: 503 }, { status: 202, body: { message: "ok" } });
    expect((await ctx.client.cachePurge.purge(INSTALL.id, "cdn")).message).toBe("ok");
    // @ts-expect-error: not a cache type
    const err = await rejection(ctx.client.cachePurge.purge(INSTALL.id, "disk"));
    expect((err as WpEngineValidationError).field).toBe("type");
  });
});

describe("certificates", () => {
  it("follows next_page_token as offset and reads the 'none found' 404 as an empty list", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/ssl_certificates?limit=1`, {
      status: 200,
      body: { certificates: [{ id: 1, cert_source: "LETS_ENCRYPT", extra: true }], next_page_token: "1" },
    });
    ctx.api("GET", `${I}/ssl_certificates?limit=1&offset=1`, {
      status: 200,
      body: { certificates: [{ id: 2, cert_source: "THIRD_PARTY" }] },
    });
    const all = [];
    for await (const c of ctx.client.certificates.iterateForInstall(INSTALL.id, { limit: 1 })) all.push(c);
    expect(all.map((c) => c.id)).toEqual([1, 2]);
    expect(all[0]?.["extra"]).toBe(true);

    ctx.api("GET", `${I}/ssl_certificates`, {
      status: 404,
      body: { message: "No SSL certs found for environment 'mysite'" },
    });
    expect((await ctx.client.certificates.page(INSTALL.id)).items).toEqual([]);
  });

  it("keeps an unknown install's 404 an error", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/ssl_certificates`, { status: 404, body: { message: "Install not found" } });
    expect(((await rejection(ctx.client.certificates.page(INSTALL.id))) as { status: number }).status).toBe(
      404,
    );
  });

  it("drops the private key the service may put in a domain's cert_info", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/domains/${DOMAIN_ID}/ssl_certificate`, {
      status: 200,
      body: { cert_name: "example.com", cert_info: { key: "-----BEGIN PRIVATE KEY-----x", cert: "C" } },
    });
    const cert = await ctx.client.certificates.getForDomain(INSTALL.id, DOMAIN_ID);
    expect(cert.cert_info).toEqual({ cert: "C" });
    expect(JSON.stringify(cert)).not.toContain("PRIVATE KEY");
  });

  it("sends a Let's Encrypt order once and checks it before sending", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/domains/${DOMAIN_ID}/ssl_certificate`, { status: 202 });
    const order = {
      email_address: "jane@example.com",
      given_name: "Jane",
      family_name: "Doe",
      region_code: "US",
    };
    await ctx.client.certificates.orderLetsEncrypt(INSTALL.id, DOMAIN_ID, order);
    expect(ctx.json()).toEqual(order);
    const err = await rejection(
      ctx.client.certificates.orderLetsEncrypt(INSTALL.id, DOMAIN_ID, { ...order, region_code: "usa" }),
    );
    expect((err as WpEngineValidationError).field).toBe("region_code");
  });
});

describe("domain status", () => {
  it("hands a check's 429 back without retrying and reads a report wrapped or bare", async () => {
    ctx = setup();
    ctx.api(
      "POST",
      `${I}/domains/${DOMAIN_ID}/check_status`,
      { status: 202, body: { report_id: "r1" } },
      LIMITED,
    );
    expect((await ctx.client.domainStatus.check(INSTALL.id, DOMAIN_ID)).report_id).toBe("r1");
    expect(isRateLimited(await rejection(ctx.client.domainStatus.check(INSTALL.id, DOMAIN_ID)))).toBe(true);
    expect(ctx.sleeps).toEqual([]);
    ctx.api("GET", `${I}/domains/check_status/r1`, {
      status: 200,
      body: { report: { id: "r1", complete: true } },
    });
    ctx.api("GET", `${I}/domains/check_status/r1`, { status: 200, body: { id: "r1", complete: false } });
    expect((await ctx.client.domainStatus.report(INSTALL.id, "r1")).complete).toBe(true);
    expect((await ctx.client.domainStatus.report(INSTALL.id, "r1")).complete).toBe(false);
  });
});

describe("usage", () => {
  it("reads int64 metrics given as numbers as strings, and sends a range only with both ends", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/usage?first_date=2026-01-01&last_date=2026-01-02`, {
      status: 200,
      body: { install_name: "mysite", metrics: [{ date: "2026-01-02", visit_count: 12 }] },
    });
    const usage = await ctx.client.usage.installUsage(INSTALL.id, {
      first_date: "2026-01-01",
      last_date: "2026-01-02",
    });
    expect(usage.metrics?.[0]?.visit_count).toBe("12");
    const err = await rejection(ctx.client.usage.installUsage(INSTALL.id, { first_date: "2026-01-01" }));
    expect((err as WpEngineValidationError).field).toBe("last_date");
    // The calendar is checked, not the shape alone, and the range's limit where the service has one.
    await expect(
      ctx.client.usage.installUsage(INSTALL.id, { first_date: "2026-02-29", last_date: "2026-03-01" }),
    ).rejects.toThrow(
      "usage.installUsage: invalid input: first_date: 2026-02-29 is not a date (February 2026 has 28 days)",
    );
    await expect(
      ctx.client.usage.accountUsageSummary(ACCOUNT, { first_date: "2026-01-01", last_date: "2026-02-01" }),
    ).rejects.toThrow(
      "last_date: the range is at most 31 days, both counted (2026-01-01 to 2026-02-01 is 32)",
    );
  });

  it("reads every page of the account usage and refuses a token that does not advance", async () => {
    ctx = setup();
    const path = `/v1/accounts/${ACCOUNT}/usage`;
    ctx.api("GET", path, {
      status: 200,
      body: { environment_metrics: [{ environment_name: "a" }], next_page_token: "1", total_size: 2 },
    });
    ctx.api("GET", `${path}?offset=1`, {
      status: 200,
      body: { environment_metrics: [{ environment_name: "b" }], next_page_token: null, total_size: 2 },
    });
    const all = await ctx.client.usage.accountUsage(ACCOUNT);
    expect(all.environment_metrics.map((e) => e.environment_name)).toEqual(["a", "b"]);
    expect(all.total_size).toBe(2);

    ctx.api("GET", path, { status: 200, body: { environment_metrics: [], next_page_token: "1" } });
    ctx.api("GET", `${path}?offset=1`, {
      status: 200,
      body: { environment_metrics: [], next_page_token: "1" },
    });
    expect(String(await rejection(ctx.client.usage.accountUsage(ACCOUNT)))).toMatch(/does not advance/);
  });

  it("refreshes disk usage (200 null) and reads the status", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/usage/refresh_disk_usage`, { status: 200, body: "null" });
    await ctx.client.usage.refreshInstallDiskUsage(INSTALL.id);
    ctx.api("GET", "/v1/status", {
      status: 200,
      body: { success: true, created_on: "2026-01-01T00:00:00+00:00" },
    });
    expect((await ctx.client.usage.status()).success).toBe(true);
  });
});
