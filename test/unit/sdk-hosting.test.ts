import { afterEach, describe, expect, it } from "vitest";
import { canonicalDomain, isDomainName, type WpEngineValidationError } from "../../sdk";
import { DOMAIN_ID, INSTALL, rejection, setup } from "./sdk-support";

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

const I = `/v1/installs/${INSTALL.id}`;

describe("installs", () => {
  it("reads wp_version as cms_version and keeps unknown fields", async () => {
    ctx = setup();
    ctx.api("GET", I, {
      status: 200,
      body: {
        ...INSTALL,
        wp_version: "6.8.1",
        defer_wordpress_upgrades_until: "2026-12-31T00:00:00Z",
        shiny_new: 1,
      },
    });
    const install = await ctx.client.installs.get(INSTALL.id);
    expect(install.cms_version).toBe("6.8.1");
    expect(install.defer_cms_upgrades_until).toBe("2026-12-31T00:00:00Z");
    expect(install["shiny_new"]).toBe(1);
  });

  it("prefers cms_version when both are present", async () => {
    ctx = setup();
    ctx.api("GET", I, { status: 200, body: { ...INSTALL, cms_version: "6.9", wp_version: "6.8.1" } });
    expect((await ctx.client.installs.get(INSTALL.id)).cms_version).toBe("6.9");
  });

  it("PATCHes site and environment, and refuses an unknown environment", async () => {
    ctx = setup();
    ctx.api("PATCH", I, { status: 200, body: { ...INSTALL, environment: "staging" } });
    const updated = await ctx.client.installs.update(INSTALL.id, {
      site_id: "site-1",
      environment: "staging",
    });
    expect(updated.environment).toBe("staging");
    expect(ctx.json()).toEqual({ site_id: "site-1", environment: "staging" });
    // @ts-expect-error: not an environment
    const err = await rejection(ctx.client.installs.update(INSTALL.id, { environment: "prod" }));
    expect((err as WpEngineValidationError).field).toBe("environment");
  });
});

describe("domains", () => {
  const base = { id: DOMAIN_ID, name: "www.example.com", primary: false, duplicate: false };
  const target = { id: "3b000000-0000-4000-8000-000000000003", name: "example.com" };

  it.each([
    ["redirects_to as an array", { redirects_to: [target] }, [target]],
    ["redirects_to as one object", { redirects_to: target }, [target]],
    ["redirect_to as an object", { redirect_to: target }, [target]],
    ["redirect_to as {} (none)", { redirect_to: {} }, []],
    ["no redirect field", {}, []],
    ["redirects_to null", { redirects_to: null }, []],
  ])("normalises %s to redirects_to: [{id, name}]", async (_label, drift, expected) => {
    ctx = setup();
    ctx.api("GET", `${I}/domains/${DOMAIN_ID}`, { status: 200, body: { ...base, ...drift } });
    const d = await ctx.client.domains.get(INSTALL.id, DOMAIN_ID);
    expect(d.redirects_to).toEqual(expected);
  });

  it("creates with name, primary and redirect id", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/domains`, {
      status: 201,
      body: {
        ...base,
        ownership_status: "TXT_VERIFICATION_PENDING",
        txt_verification_key: "_wpe",
        txt_verification_value: "v",
      },
    });
    const d = await ctx.client.domains.create(INSTALL.id, {
      name: "www.example.com",
      redirect_to: target.id,
    });
    expect(ctx.json()).toEqual({ name: "www.example.com", redirect_to: target.id });
    expect(d.ownership_status).toBe("TXT_VERIFICATION_PENDING");
    expect(d.txt_verification_key).toBe("_wpe");
  });

  it("bulk create returns a list when the service answers a list", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/domains/bulk`, {
      status: 201,
      body: [
        { id: "d1", name: "example.com" },
        { id: "d2", name: "www.example.com", redirects_to: { id: "d1", name: "example.com" } },
      ],
    });
    const list = await ctx.client.domains.createBulk(INSTALL.id, {
      domains: [{ name: "example.com" }, { name: "www.example.com", redirect_to: "example.com" }],
    });
    expect(ctx.json()).toEqual({
      domains: [{ name: "example.com" }, { name: "www.example.com", redirect_to: "example.com" }],
    });
    expect(list.map((d) => d.id)).toEqual(["d1", "d2"]);
    expect(list[1]?.redirects_to).toEqual([{ id: "d1", name: "example.com" }]);
  });

  it("bulk create returns a list when the service answers one object", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/domains/bulk`, {
      status: 201,
      body: { id: "d1", name: "example.com", primary: true },
    });
    const list = await ctx.client.domains.createBulk(INSTALL.id, { domains: [{ name: "example.com" }] });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: "d1", primary: true, redirects_to: [] });
  });

  it("bulk create refuses 0 or more than 20 domains", async () => {
    ctx = setup();
    await expect(ctx.client.domains.createBulk(INSTALL.id, { domains: [] })).rejects.toThrow(
      /domains: at least 1/,
    );
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `d${i}.example.com` }));
    await expect(ctx.client.domains.createBulk(INSTALL.id, { domains: many })).rejects.toThrow(/at most 20/);
  });

  it("update sends redirect_to nil to remove a redirect", async () => {
    ctx = setup();
    ctx.api("PATCH", `${I}/domains/${DOMAIN_ID}`, { status: 200, body: { ...base, redirect_to: {} } });
    const d = await ctx.client.domains.update(INSTALL.id, DOMAIN_ID, { redirect_to: "nil" });
    expect(ctx.json()).toEqual({ redirect_to: "nil" });
    expect(d.redirects_to).toEqual([]);
  });

  it("verify POSTs no body and returns the verification record", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/domains/${DOMAIN_ID}/verification`, {
      status: 200,
      body: {
        id: DOMAIN_ID,
        name: "www.example.com",
        txt_verified_time: "2026-04-20T16:00:00Z",
        txt_verification_key: null,
      },
    });
    const v = await ctx.client.domains.verify(INSTALL.id, DOMAIN_ID);
    expect(ctx.seen[0]?.body).toBeUndefined();
    expect(v.txt_verification_key).toBeNull();
    expect(v.txt_verified_time).toBe("2026-04-20T16:00:00Z");
  });

  it("delete sends DELETE and accepts 204", async () => {
    ctx = setup();
    ctx.api("DELETE", `${I}/domains/${DOMAIN_ID}`, { status: 204 });
    await expect(ctx.client.domains.delete(INSTALL.id, DOMAIN_ID)).resolves.toBeUndefined();
  });
});

describe("backups", () => {
  it("reads initiated as in_progress and wordpress_version as cms_version", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/backups/b1`, {
      status: 200,
      body: { id: "b1", status: "initiated", wordpress_version: "6.4.2" },
    });
    const b = await ctx.client.backups.get(INSTALL.id, "b1");
    expect(b.status).toBe("in_progress");
    expect(b.cms_version).toBe("6.4.2");
  });

  it("normalises initiated inside list pages too", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/backups?limit=10`, {
      status: 200,
      body: {
        next: null,
        results: [
          { id: "b1", status: "initiated" },
          { id: "b2", status: "completed" },
        ],
      },
    });
    const page = await ctx.client.backups.list(INSTALL.id, { limit: 10 });
    expect(page.items.map((b) => b.status)).toEqual(["in_progress", "completed"]);
  });

  it("creates with description and notification emails; refuses a bad email", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/backups`, {
      status: 202,
      body: { id: "b9", status: "requested", description: "pre-deploy" },
    });
    const b = await ctx.client.backups.create(INSTALL.id, {
      description: "pre-deploy",
      notification_emails: ["ops@example.com"],
    });
    expect(b.status).toBe("requested");
    expect(ctx.json()).toEqual({ description: "pre-deploy", notification_emails: ["ops@example.com"] });
    const err = await rejection(
      ctx.client.backups.create(INSTALL.id, { description: "x", notification_emails: ["nope"] }),
    );
    expect((err as WpEngineValidationError).field).toBe("notification_emails[0]");
  });

  it("restore sends its options and accepts a {message} answer", async () => {
    ctx = setup();
    ctx.api("POST", `${I}/backups/b1/restore`, { status: 202, body: { message: "Restore initiated" } });
    const res = await ctx.client.backups.restore(INSTALL.id, "b1", {
      notification_emails: ["ops@example.com"],
      restore_database: false,
    });
    expect(res.message).toBe("Restore initiated");
    expect(ctx.json()).toEqual({ notification_emails: ["ops@example.com"], restore_database: false });
  });
});

describe("archives", () => {
  it("lists archives with their state and download URL", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/archives`, {
      status: 200,
      body: {
        results: [{ id: "a1", backup: { id: "b1" }, state: "completed", download_uri: "https://dl/a1.zip" }],
      },
    });
    const page = await ctx.client.archives.list(INSTALL.id);
    expect(page.items[0]).toMatchObject({
      state: "completed",
      download_uri: "https://dl/a1.zip",
      backup: { id: "b1" },
    });
  });
});

describe("cache exclusions", () => {
  it("GET reads {results}; PUT sends {exclusions} and returns the resulting list", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/cache_exclusions`, {
      status: 200,
      body: { results: [{ type: "cookie", value: "^wp-" }] },
    });
    const current = await ctx.client.cacheExclusions.get(INSTALL.id);
    expect(current).toEqual([{ type: "cookie", value: "^wp-" }]);
    const wanted = [
      ...current.map((c) => ({ type: "cookie" as const, value: c.value })),
      { type: "url path" as const, value: "^/cart" },
    ];
    ctx.api("PUT", `${I}/cache_exclusions`, { status: 200, body: { results: wanted } });
    const result = await ctx.client.cacheExclusions.replace(INSTALL.id, wanted);
    expect(ctx.json(1)).toEqual({ exclusions: wanted });
    expect(result).toHaveLength(2);
  });

  it("refuses an unknown exclusion type", async () => {
    ctx = setup();
    const err = await rejection(
      ctx.client.cacheExclusions.replace(INSTALL.id, [{ type: "header" as never, value: "x" }]),
    );
    expect((err as WpEngineValidationError).field).toBe("exclusions[0].type");
  });
});

describe("offload settings", () => {
  const settings = {
    cloud: "s3",
    bucket: "media",
    bucket_region: "us-east-1",
    path_settings: [{ path: "wp-content/uploads/", excluded_paths: [], redirect_type: "permanent" }],
  };

  it.each(["largefs_settings", "large_fs_config"])("reads the wrapper %s", async (wrapper) => {
    ctx = setup();
    ctx.api("GET", `${I}/offload_settings/files`, {
      status: 200,
      body: { [wrapper]: settings, status: "applied" },
    });
    const got = await ctx.client.offloadSettings.get(INSTALL.id);
    expect(got.settings).toEqual(settings);
    expect(got.status).toBe("applied");
  });

  it("reads missing settings as null", async () => {
    ctx = setup();
    ctx.api("GET", `${I}/offload_settings/files`, { status: 200, body: {} });
    expect((await ctx.client.offloadSettings.get(INSTALL.id)).settings).toBeNull();
  });

  it("sends the update wrapped in largefs_settings with PATCH", async () => {
    ctx = setup();
    ctx.api("PATCH", `${I}/offload_settings/files`, { status: 202, body: { message: "accepted" } });
    await ctx.client.offloadSettings.update(INSTALL.id, settings as never);
    expect(ctx.json()).toEqual({ largefs_settings: settings });
  });

  it("refuses an unknown redirect_type", async () => {
    ctx = setup();
    const err = await rejection(
      ctx.client.offloadSettings.update(INSTALL.id, {
        path_settings: [{ path: "x", redirect_type: "temporary" as never }],
      }),
    );
    expect((err as WpEngineValidationError).field).toBe("path_settings[0].redirect_type");
  });
});

describe("third-party certificates", () => {
  it("sends base64 certificate and key", async () => {
    ctx = setup();
    const body = {
      certificate: Buffer.from("CERT").toString("base64"),
      private_key: Buffer.from("KEY").toString("base64"),
    };
    ctx.api("POST", `${I}/ssl_certificates/third_party`, { status: 200, body });
    const res = await ctx.client.certificates.importThirdParty(INSTALL.id, body);
    expect(ctx.json()).toEqual(body);
    expect(res.certificate).toBe(body.certificate);
  });

  it("refuses raw PEM with a message saying to base64-encode it", async () => {
    ctx = setup();
    const err = await rejection(
      ctx.client.certificates.importThirdParty(INSTALL.id, {
        certificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        private_key: "a2V5",
      }),
    );
    expect((err as Error).message).toMatch(
      /certificate: certificate must be the base64 encoding of the PEM text/,
    );
  });
});

describe("site transfers", () => {
  const transfer = {
    id: "t1",
    site: "blog",
    installs: ["blog"],
    origin_account: "A",
    destination_account: "B",
    status: "pending",
  };

  it("creates, reads and cancels", async () => {
    ctx = setup();
    ctx.api("POST", "/v1/sites/site-1/site_transfers", { status: 202, body: transfer });
    ctx.api("GET", "/v1/sites/site-1/site_transfers/t1", {
      status: 200,
      body: { ...transfer, status: "scheduled" },
    });
    ctx.api("DELETE", "/v1/sites/site-1/site_transfers/t1", { status: 204 });
    const created = await ctx.client.siteTransfers.create("site-1", {
      destination_account_id: "acc-2",
      scheduled_time: "2030-06-01T14:30:00Z",
      maintenance_mode: true,
    });
    expect(created.status).toBe("pending");
    expect(ctx.json()).toEqual({
      destination_account_id: "acc-2",
      scheduled_time: "2030-06-01T14:30:00Z",
      maintenance_mode: true,
    });
    expect((await ctx.client.siteTransfers.get("site-1", "t1")).status).toBe("scheduled");
    await ctx.client.siteTransfers.cancel("site-1", "t1");
  });

  it("refuses a scheduled_time that is not RFC 3339", async () => {
    ctx = setup();
    const err = await rejection(
      ctx.client.siteTransfers.create("site-1", {
        destination_account_id: "acc-2",
        scheduled_time: "next tuesday",
      }),
    );
    expect((err as WpEngineValidationError).field).toBe("scheduled_time");
  });

  it("lists the transfers of an account", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/accounts/acc-1/site_transfers", {
      status: 200,
      body: { next: null, count: 1, results: [transfer] },
    });
    const page = await ctx.client.siteTransfers.listForAccount("acc-1");
    expect(page.items[0]?.destination_account).toBe("B");
  });
});

describe("account users", () => {
  const user = {
    user_id: "u1",
    account_id: "acc-1",
    first_name: "Jo",
    last_name: "Doe",
    email: "jo@example.com",
  };

  it.each([
    ["billing, partial", "partial,billing"],
    ["partial,billing", "partial,billing"],
    ["billing,full", "full,billing"],
    [" Full , Billing ", "full,billing"],
    ["owner", "owner"],
  ])("normalises roles %j to %j", async (raw, canonical) => {
    ctx = setup();
    ctx.api("GET", "/v1/accounts/acc-1/account_users/u1", { status: 200, body: { ...user, roles: raw } });
    expect((await ctx.client.accountUsers.get("acc-1", "u1")).roles).toBe(canonical);
  });

  it("creates wrapped in user, sending roles in canonical form", async () => {
    ctx = setup();
    ctx.api("POST", "/v1/accounts/acc-1/account_users", {
      status: 201,
      body: {
        message: "Your change was successful.",
        account_user: { ...user, roles: "billing, partial", installs: [{ id: "i1", name: "blog" }] },
      },
    });
    const res = await ctx.client.accountUsers.create("acc-1", {
      user: {
        account_id: "acc-1",
        first_name: "Jo",
        last_name: "Doe",
        email: "jo@example.com",
        roles: "billing, partial",
        install_ids: ["i1"],
      },
    });
    expect(ctx.json()).toEqual({
      user: {
        account_id: "acc-1",
        first_name: "Jo",
        last_name: "Doe",
        email: "jo@example.com",
        roles: "partial,billing",
        install_ids: ["i1"],
      },
    });
    expect(res.account_user.roles).toBe("partial,billing");
    expect(res.message).toBe("Your change was successful.");
  });

  it("refuses an unknown role set and install_ids with a non-partial role", async () => {
    ctx = setup();
    const bad = await rejection(ctx.client.accountUsers.update("acc-1", "u1", { roles: "owner,billing" }));
    expect((bad as Error).message).toMatch(
      /^accountUsers\.update: invalid input: roles: roles must be one of/,
    );
    const ids = await rejection(
      ctx.client.accountUsers.update("acc-1", "u1", { roles: "full", install_ids: ["i1"] }),
    );
    expect((ids as WpEngineValidationError).field).toBe("install_ids");
  });

  it("updates unwrapped {roles, install_ids}, lists and deletes", async () => {
    ctx = setup();
    ctx.api("PATCH", "/v1/accounts/acc-1/account_users/u1", {
      status: 200,
      body: { account_user: { ...user, roles: "full" } },
    });
    ctx.api("GET", "/v1/accounts/acc-1/account_users", {
      status: 200,
      body: { results: [{ ...user, roles: "full" }] },
    });
    ctx.api("DELETE", "/v1/accounts/acc-1/account_users/u1", { status: 204 });
    await ctx.client.accountUsers.update("acc-1", "u1", { roles: "partial", install_ids: ["i1", "i2"] });
    expect(ctx.json()).toEqual({ roles: "partial", install_ids: ["i1", "i2"] });
    expect(await ctx.client.accountUsers.list("acc-1")).toHaveLength(1);
    await ctx.client.accountUsers.delete("acc-1", "u1");
  });
});

describe("install copy", () => {
  it("posts the copy and returns the accepted message", async () => {
    ctx = setup();
    ctx.api("POST", "/v1/install_copy", { status: 202, body: { message: "copy started" } });
    const res = await ctx.client.installCopy.create({
      source_environment_id: "src",
      destination_environment_id: "dst",
      custom_options: { include_files: false, db_tables: ["wp_posts"] },
    });
    expect(res.message).toBe("copy started");
    expect(ctx.json()).toEqual({
      source_environment_id: "src",
      destination_environment_id: "dst",
      custom_options: { include_files: false, db_tables: ["wp_posts"] },
    });
  });

  it("refuses db_tables when include_db is false", async () => {
    ctx = setup();
    const err = await rejection(
      ctx.client.installCopy.create({
        source_environment_id: "src",
        destination_environment_id: "dst",
        custom_options: { include_db: false, db_tables: ["wp_posts"] },
      }),
    );
    expect((err as WpEngineValidationError).field).toBe("custom_options.db_tables");
  });
});

describe("report schedules and templates", () => {
  const schedule = {
    site_id: "site-1",
    title: "Monthly report",
    next_scheduled_date: "2030-01-01T09:00:00Z",
    template_uuid: "tpl-1",
    frequency: { value: 1, unit: "MONTHLY" as const },
    recipients: [{ name: "Ops", email: "ops@example.com" }],
    sections: [{ name: "cover" }],
  };

  it("creates (201 {message}), updates (PATCH) and deletes by uuid", async () => {
    ctx = setup();
    ctx.api("POST", "/v1/site_reports/schedules", { status: 201, body: { message: "created" } });
    ctx.api("PATCH", "/v1/site_reports/schedules/sch-1", { status: 200, body: { message: "updated" } });
    ctx.api("DELETE", "/v1/site_reports/schedules/sch-1", { status: 204 });
    expect((await ctx.client.reportSchedules.create(schedule)).message).toBe("created");
    expect(ctx.json()).toEqual(schedule);
    await ctx.client.reportSchedules.update("sch-1", {
      title: "Weekly",
      frequency: { value: 7, unit: "DAYS" },
    });
    expect(ctx.json(1)).toEqual({ title: "Weekly", frequency: { value: 7, unit: "DAYS" } });
    await ctx.client.reportSchedules.delete("sch-1");
  });

  it("fills uuid from id when the service names it so", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/site_reports/schedules?site_id=site-1", {
      status: 200,
      body: { schedules: [{ id: "sch-9", title: "T" }] },
    });
    expect((await ctx.client.reportSchedules.list("site-1"))[0]?.uuid).toBe("sch-9");
  });

  it.each([
    [{ value: 10, unit: "DAYS" }, /value must be 7 or 14/],
    [{ value: 32, unit: "MONTHLY" }, /value must be 1 to 31/],
    [{ value: 7, unit: "WEEKS" }, /frequency\.unit/],
  ])("refuses frequency %j", async (frequency, message) => {
    ctx = setup();
    await expect(ctx.client.reportSchedules.create({ ...schedule, frequency } as never)).rejects.toThrow(
      message,
    );
  });

  it("refuses site_id on update", async () => {
    ctx = setup();
    // @ts-expect-error: site_id is create-only
    const err = await rejection(ctx.client.reportSchedules.update("sch-1", { site_id: "x" }));
    expect((err as Error).message).toMatch(/site_id: unknown field/);
  });

  it("reads templates named template_uuid/template_name", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/site_reports/templates?account_id=acc-1", {
      status: 200,
      body: {
        templates: [
          { template_uuid: "tpl-1", template_name: "Site Report", sections: [{ name: "overview" }] },
        ],
      },
    });
    const [tpl] = await ctx.client.reportTemplates.list("acc-1");
    expect(tpl).toMatchObject({ uuid: "tpl-1", name: "Site Report" });
  });
});

describe("the one domain-name rule", () => {
  it("takes a canonical name of labels with a top-level label of 2 or more, a wildcard only where allowed", () => {
    expect(canonicalDomain(" WWW.Example.COM. ")).toBe("www.example.com");
    for (const name of ["www.example.com", "a-b.example.co", "xn--bcher-kva.example"])
      expect(isDomainName(name), name).toBe(true);
    for (const name of [
      "localhost",
      "-a.example.com",
      "a_b.example.com",
      "https://x.example",
      "x.example/p",
      "x.c",
    ])
      expect(isDomainName(name), name).toBe(false);
    expect(isDomainName(`${"a".repeat(64)}.example`)).toBe(false);
    expect(isDomainName(`${"abc.".repeat(63)}com`)).toBe(false); // 255 characters
    expect(isDomainName("*.example.com")).toBe(false);
    expect(isDomainName("*.example.com", { wildcard: true })).toBe(true);
    expect(isDomainName("a.*.example.com", { wildcard: true })).toBe(false);
  });
});
