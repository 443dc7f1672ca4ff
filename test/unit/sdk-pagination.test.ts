import { afterEach, describe, expect, it } from "vitest";
import { WpEnginePaginationError } from "../../sdk";
import { paginateToken } from "../../sdk/core/pagination";
import { API_ORIGIN, INSTALL, rejection, setup } from "./sdk-support";

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

const install = (n: number) => ({ id: `id-${n}`, name: `site${n}` });

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("offset lists (envelope)", () => {
  it("returns one page with its envelope fields", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/installs?account_id=acc-1&limit=2&offset=2", {
      status: 200,
      body: {
        previous: `${API_ORIGIN}/v1/installs?limit=2&offset=0`,
        next: `${API_ORIGIN}/v1/installs?limit=2&offset=4`,
        count: 5,
        results: [install(3), install(4)],
      },
    });
    const page = await ctx.client.installs.list({ accountId: "acc-1", limit: 2, offset: 2 });
    expect(page.items.map((i) => i.name)).toEqual(["site3", "site4"]);
    expect(page.count).toBe(5);
    expect(page.next).toBe(`${API_ORIGIN}/v1/installs?limit=2&offset=4`);
  });

  it("follows next links until null, keeping the filter", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/installs?account_id=acc-1&limit=2", {
      status: 200,
      body: {
        next: `${API_ORIGIN}/v1/installs?account_id=acc-1&limit=2&offset=2`,
        count: 5,
        results: [install(1), install(2)],
      },
    });
    ctx.api("GET", "/v1/installs?account_id=acc-1&limit=2&offset=2", {
      status: 200,
      body: {
        next: `${API_ORIGIN}/v1/installs?account_id=acc-1&limit=2&offset=4`,
        count: 5,
        results: [install(3), install(4)],
      },
    });
    ctx.api("GET", "/v1/installs?account_id=acc-1&limit=2&offset=4", {
      status: 200,
      body: { next: null, count: 5, results: [install(5)] },
    });
    const all = await collect(ctx.client.installs.iterate({ accountId: "acc-1", limit: 2 }));
    expect(all.map((i) => i.name)).toEqual(["site1", "site2", "site3", "site4", "site5"]);
  });

  it("accepts a relative next link", async () => {
    ctx = setup();
    const path = `/v1/installs/${INSTALL.id}/domains`;
    ctx.api("GET", path, {
      status: 200,
      body: { next: `${path}?limit=100&offset=100`, results: [{ id: "d1", name: "a.example.com" }] },
    });
    ctx.api("GET", `${path}?limit=100&offset=100`, {
      status: 200,
      body: { next: null, results: [{ id: "d2", name: "b.example.com" }] },
    });
    const all = await collect(ctx.client.domains.iterate(INSTALL.id));
    expect(all.map((d) => d.id)).toEqual(["d1", "d2"]);
  });

  it("falls back to limit/offset arithmetic when the envelope has count but no next field", async () => {
    ctx = setup();
    const path = `/v1/installs/${INSTALL.id}/backups`;
    ctx.api("GET", path, {
      status: 200,
      body: {
        count: 3,
        results: [
          { id: "b1", status: "completed" },
          { id: "b2", status: "completed" },
        ],
      },
    });
    ctx.api("GET", `${path}?offset=2`, {
      status: 200,
      body: { count: 3, results: [{ id: "b3", status: "requested" }] },
    });
    const all = await collect(ctx.client.backups.iterate(INSTALL.id));
    expect(all.map((b) => b.id)).toEqual(["b1", "b2", "b3"]);
  });

  it("refuses a next link that does not advance", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/sites?limit=1", {
      status: 200,
      body: { next: `${API_ORIGIN}/v1/sites?limit=1&offset=1`, results: [{ id: "s1", name: "one" }] },
    });
    ctx.api("GET", "/v1/sites?limit=1&offset=1", {
      status: 200,
      body: { next: `${API_ORIGIN}/v1/sites?limit=1&offset=1`, results: [{ id: "s2", name: "two" }] },
    });
    const seen: string[] = [];
    const err = await rejection(async () => {
      for await (const s of ctx!.client.sites.iterate({ limit: 1 })) seen.push(s.id);
    });
    expect(err).toBeInstanceOf(WpEnginePaginationError);
    expect((err as Error).message).toMatch(/does not advance \(offset 1 -> 1\)/);
    expect(seen).toEqual(["s1", "s2"]);
  });

  it("refuses a next link that cycles back to a page already read (A -> B -> A)", async () => {
    ctx = setup();
    // Links without an offset (a cursor): each one differs from the page it is on, yet they loop.
    const link = (cursor: string) => `${API_ORIGIN}/v1/sites?limit=1&cursor=${cursor}`;
    const page = (id: string, next: string) => ({ status: 200, body: { next, results: [{ id, name: id }] } });
    ctx.api("GET", "/v1/sites?limit=1", page("s1", link("a")));
    ctx.api("GET", "/v1/sites?cursor=a&limit=1", page("s2", link("b")));
    ctx.api("GET", "/v1/sites?cursor=b&limit=1", page("s3", link("a")));
    const seen: string[] = [];
    const err = await rejection(async () => {
      for await (const s of ctx!.client.sites.iterate({ limit: 1 })) seen.push(s.id);
    });
    expect(err).toBeInstanceOf(WpEnginePaginationError);
    expect((err as Error).message).toMatch(/revisits a page already read.*cursor.*"a"/);
    // Every page was read once, and page A was not read again.
    expect(seen).toEqual(["s1", "s2", "s3"]);
    expect(ctx.seen).toHaveLength(3);
  });

  it("refuses a next link to another origin (credentials stay with the configured service)", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/sites", {
      status: 200,
      body: { next: "https://evil.example/v1/sites?offset=100", results: [{ id: "s1", name: "one" }] },
    });
    const err = await rejection(collect(ctx.client.sites.iterate()));
    expect(err).toBeInstanceOf(WpEnginePaginationError);
    expect((err as Error).message).toMatch(/evil\.example.*refusing/);
  });

  it("validates limit before sending", async () => {
    ctx = setup();
    await expect(ctx.client.installs.list({ limit: 500 })).rejects.toThrow(/limit: Too big/i);
    expect(ctx.seen).toHaveLength(0);
  });
});

describe("other list shapes", () => {
  it("account users: {results} only, no paging", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/accounts/acc-1/account_users", {
      status: 200,
      body: {
        results: [
          { user_id: "u1", roles: "owner" },
          { user_id: "u2", roles: "billing, full" },
        ],
      },
    });
    const users = await collect(ctx.client.accountUsers.iterate("acc-1"));
    expect(users.map((u) => [u.user_id, u.roles])).toEqual([
      ["u1", "owner"],
      ["u2", "full,billing"],
    ]);
  });

  it("report schedules: {schedules} by site", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/site_reports/schedules?site_id=site-1", {
      status: 200,
      body: { schedules: [{ uuid: "sch-1", title: "Monthly" }] },
    });
    const schedules = await ctx.client.reportSchedules.list("site-1");
    expect(schedules.map((s) => s.uuid)).toEqual(["sch-1"]);
  });

  it("report templates: {templates} by account", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/site_reports/templates?account_id=acc-1", {
      status: 200,
      body: { templates: [{ uuid: "t1", name: "Site Report", sections: [{ name: "cover" }] }] },
    });
    const templates = await ctx.client.reportTemplates.list("acc-1");
    expect(templates[0]).toMatchObject({ uuid: "t1", name: "Site Report", sections: [{ name: "cover" }] });
  });

  it("apps: {apps} with pageToken until nextPageToken is absent", async () => {
    ctx = setup();
    const app = (id: string) => ({ name: `accounts/acc/apps/${id}`, appId: id, region: "regions/US-C" });
    ctx.apps("GET", "/v1/accounts/acc/apps?pageSize=2", {
      status: 200,
      body: { apps: [app("a"), app("b")], nextPageToken: "t2" },
    });
    ctx.apps("GET", "/v1/accounts/acc/apps?pageSize=2&pageToken=t2", {
      status: 200,
      body: { apps: [app("c")] },
    });
    const apps = await collect(ctx.client.apps.iterate("acc", { pageSize: 2 }));
    expect(apps.map((a) => a.appId)).toEqual(["a", "b", "c"]);
  });

  it("returns the nextPageToken of a single page", async () => {
    ctx = setup();
    ctx.apps("GET", "/v1/accounts/acc/apps?pageToken=t1", {
      status: 200,
      body: { apps: [], nextPageToken: "t2" },
    });
    const page = await ctx.client.apps.list("acc", { pageToken: "t1" });
    expect(page.nextPageToken).toBe("t2");
  });

  it("refuses a pageToken that repeats", async () => {
    ctx = setup();
    const base = "/v1/accounts/acc/apps/app/environments/prod/domainMappings";
    ctx.apps("GET", base, {
      status: 200,
      body: { domainMappings: [{ domain: "a.example.com" }], nextPageToken: "x" },
    });
    ctx.apps("GET", `${base}?pageToken=x`, {
      status: 200,
      body: { domainMappings: [{ domain: "b.example.com" }], nextPageToken: "x" },
    });
    const err = await rejection(collect(ctx.client.domainMappings.iterate("acc", "app", "prod")));
    expect(err).toBeInstanceOf(WpEnginePaginationError);
  });

  it("refuses a pageToken cycle (A -> B -> A), not only an immediate repeat", async () => {
    ctx = setup();
    const base = "/v1/accounts/acc/apps/app/environments/prod/domainMappings";
    const page = (domain: string, nextPageToken: string) => ({
      status: 200,
      body: { domainMappings: [{ domain }], nextPageToken },
    });
    ctx.apps("GET", base, page("first.example.com", "A"));
    ctx.apps("GET", `${base}?pageToken=A`, page("a.example.com", "B"));
    ctx.apps("GET", `${base}?pageToken=B`, page("b.example.com", "A"));
    const seen: string[] = [];
    const err = await rejection(async () => {
      for await (const m of ctx!.client.domainMappings.iterate("acc", "app", "prod")) seen.push(m.domain);
    });
    expect(err).toBeInstanceOf(WpEnginePaginationError);
    expect((err as Error).message).toMatch(/nextPageToken does not advance \(A\)/);
    expect(seen).toEqual(["first.example.com", "a.example.com", "b.example.com"]);
    expect(ctx.seen).toHaveLength(3);
  });

  it("refuses a pageToken that leads back to the token the listing started from", async () => {
    ctx = setup();
    const app = (id: string) => ({ name: `accounts/acc/apps/${id}`, appId: id, region: "regions/US-C" });
    ctx.apps("GET", "/v1/accounts/acc/apps?pageToken=start", {
      status: 200,
      body: { apps: [app("a")], nextPageToken: "next" },
    });
    ctx.apps("GET", "/v1/accounts/acc/apps?pageToken=next", {
      status: 200,
      body: { apps: [app("b")], nextPageToken: "start" },
    });
    const err = await rejection(
      collect(paginateToken((t) => ctx!.client.apps.list("acc", { pageToken: t! }), "start")),
    );
    expect(err).toBeInstanceOf(WpEnginePaginationError);
    expect(ctx.seen).toHaveLength(2);
  });

  it("environments: passes the filter and reads {environments}", async () => {
    ctx = setup();
    const filter = 'parentEnvironment="accounts/acc/apps/app/environments/prod"';
    ctx.apps(
      "GET",
      `/v1/accounts/acc/apps/app/environments?filter=${encodeURIComponent(filter).replace(/%20/g, "+")}`,
      {
        status: 200,
        body: { environments: [{ name: "accounts/acc/apps/app/environments/pr-1", displayName: "PR 1" }] },
      },
    );
    const envs = await collect(ctx.client.environments.iterate("acc", "app", { filter }));
    expect(envs[0]?.environmentId).toBe("pr-1");
  });
});
