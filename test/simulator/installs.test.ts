import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I, sites: S, accounts: A } = SEED;

describe("installs and sites", () => {
  const sim = useSimulator();

  it("pages installs with limit, offset, previous, next and count", async () => {
    const first = await call(sim(), "GET", "/v1/installs?limit=3");
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(8);
    expect(first.body.results).toHaveLength(3);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${sim().url}/v1/installs?limit=3&offset=3`);
    const second = await call(
      sim(),
      "GET",
      new URL(first.body.next).pathname + new URL(first.body.next).search,
    );
    expect(second.body.previous).toBe(`${sim().url}/v1/installs?limit=3&offset=0`);
    const last = await call(sim(), "GET", "/v1/installs?limit=3&offset=6");
    expect(last.body.results).toHaveLength(2);
    expect(last.body.next).toBeNull();
  });

  it("rejects a limit above 100 or a negative offset with 400", async () => {
    expect((await call(sim(), "GET", "/v1/installs?limit=101")).status).toBe(400);
    const r = await call(sim(), "GET", "/v1/sites?offset=-1");
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("offset");
  });

  it("filters installs and sites by account_id and keeps the filter in next", async () => {
    const r = await call(sim(), "GET", `/v1/installs?account_id=${A.globex.id}&limit=1`);
    expect(r.body.count).toBe(2);
    expect(r.body.next).toContain(`account_id=${A.globex.id}`);
    const sites = await call(sim(), "GET", `/v1/sites?account_id=${A.acme.id}`);
    expect(sites.body.results.map((s: { name: string }) => s.name)).toEqual([
      "Acme Marketing",
      "Acme Sandbox",
      "Acme Blog",
    ]);
  });

  it("returns cms_version and defer_cms_upgrades_until only on an individual install", async () => {
    const one = await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}`);
    expect(one.body).toMatchObject({
      id: I.acmeprod.id,
      name: "acmeprod",
      account: { id: A.acme.id },
      site: { id: S.acmeMarketing.id },
      environment: "production",
      cname: "acmeprod.wpengine.com",
      primary_domain: "acme.example",
      cms_version: "6.8.1",
      defer_cms_upgrades_until: null,
    });
    const list = await call(sim(), "GET", "/v1/installs");
    expect(list.body.results[0]).not.toHaveProperty("cms_version");
  });

  it("answers 404 for an unknown install or site", async () => {
    expect((await call(sim(), "GET", "/v1/installs/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await call(sim(), "GET", "/v1/sites/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("returns sites with sandbox, transferable and their installs", async () => {
    const blog = await call(sim(), "GET", `/v1/sites/${S.acmeBlog.id}`);
    expect(blog.body).toMatchObject({ sandbox: false, transferable: true, account: { id: A.acme.id } });
    expect(blog.body.installs).toEqual([
      expect.objectContaining({ id: I.acmeblog.id, name: "acmeblog", environment: "production" }),
    ]);
    expect((await call(sim(), "GET", `/v1/sites/${S.acmeSandbox.id}`)).body.sandbox).toBe(true);
  });

  it("moves an install to another site and environment with PATCH (200)", async () => {
    const r = await call(sim(), "PATCH", `/v1/installs/${I.acmedev.id}`, {
      site_id: S.acmeBlog.id,
      environment: "staging",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ site: { id: S.acmeBlog.id }, environment: "staging" });
  });

  it("rejects a PATCH into a filled environment, another account's site, or an unknown field", async () => {
    const taken = await call(sim(), "PATCH", `/v1/installs/${I.acmedev.id}`, { environment: "production" });
    expect(taken.status).toBe(400);
    expect(taken.body.errors[0]).toMatchObject({ resource: "install", field: "environment" });
    const foreign = await call(sim(), "PATCH", `/v1/installs/${I.acmedev.id}`, {
      site_id: S.initechPortal.id,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].field).toBe("site_id");
    const unknown = await call(sim(), "PATCH", `/v1/installs/${I.acmedev.id}`, { environmnet: "staging" });
    expect(unknown.status).toBe(400);
  });

  it("creates an install that is pending until provisioned, then deletes it (204)", async () => {
    const site = await call(sim(), "POST", "/v1/sites", { name: "New site", account_id: A.acme.id });
    expect(site.status).toBe(201);
    const created = await call(sim(), "POST", "/v1/installs", {
      name: "acmenew",
      account_id: A.acme.id,
      site_id: site.body.id,
      environment: "production",
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("pending");
    sim().advance(5);
    expect((await call(sim(), "GET", `/v1/installs/${created.body.id}`)).body.status).toBe("active");
    expect((await call(sim(), "DELETE", `/v1/installs/${created.body.id}`)).status).toBe(204);
    expect((await call(sim(), "GET", `/v1/installs/${created.body.id}`)).status).toBe(404);
    expect((await call(sim(), "GET", `/v1/sites/${site.body.id}`)).body.installs).toEqual([]);
  });

  it("deletes a site with every install in it and what lives on them (204)", async () => {
    const domains = await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}/domains`);
    expect(domains.body.count).toBeGreaterThan(0);
    expect((await call(sim(), "DELETE", `/v1/sites/${S.acmeMarketing.id}`)).status).toBe(204);
    expect((await call(sim(), "GET", `/v1/sites/${S.acmeMarketing.id}`)).status).toBe(404);
    for (const install of [I.acmeprod, I.acmestg, I.acmedev])
      expect((await call(sim(), "GET", `/v1/installs/${install.id}`)).status).toBe(404);
    expect((await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}/domains`)).status).toBe(404);
    const left = await call(sim(), "GET", `/v1/installs?account_id=${A.acme.id}`);
    expect(left.body.results.map((i: { name: string }) => i.name).sort()).toEqual([
      "acmeblog",
      "acmesandbox",
    ]);
    expect((await call(sim(), "DELETE", `/v1/sites/${S.acmeMarketing.id}`)).status).toBe(404);
  });

  it("creates a site (201), renames it (200), and names the field of a bad name (400)", async () => {
    const site = await call(sim(), "POST", "/v1/sites", { name: "Fresh", account_id: A.globex.id });
    expect(site.status).toBe(201);
    expect(site.body).toMatchObject({ name: "Fresh", account: { id: A.globex.id }, installs: [] });
    const renamed = await call(sim(), "PATCH", `/v1/sites/${site.body.id}`, { name: "Renamed" });
    expect([renamed.status, renamed.body.name]).toEqual([200, "Renamed"]);
    const long = await call(sim(), "PATCH", `/v1/sites/${site.body.id}`, { name: "x".repeat(41) });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({ resource: "site", field: "name" });
    const nameless = await call(sim(), "POST", "/v1/sites", { account_id: A.globex.id });
    expect(nameless.body.errors[0]).toMatchObject({ field: "name", code: "required" });
    expect((await call(sim(), "PATCH", "/v1/sites/00000000-0000-4000-8000-000000000000", {})).status).toBe(
      404,
    );
  });

  it("refuses an install name outside ^[a-z][a-z0-9]{2,13}$ or already taken (400 naming name)", async () => {
    for (const name of ["ab", "1abc", "Acme", "acme-prod", "a234567890123456"]) {
      const r = await call(sim(), "POST", "/v1/installs", { name, account_id: A.acme.id });
      expect(r.status, name).toBe(400);
      expect(r.body.errors[0].field, name).toBe("name");
    }
    const taken = await call(sim(), "POST", "/v1/installs", { name: "acmeprod", account_id: A.globex.id });
    expect(taken.status).toBe(400);
    expect(taken.body.errors[0]).toMatchObject({
      field: "name",
      code: "name_taken",
      type: "value_unavailable",
    });
  });

  it("keeps a new install pending until the clock has passed its provisioning", async () => {
    const created = await call(sim(), "POST", "/v1/installs", { name: "slowone", account_id: A.acme.id });
    const read = async () => (await call(sim(), "GET", `/v1/installs/${created.body.id}`)).body.status;
    expect(await read()).toBe("pending");
    sim().advance(0.1);
    expect(await read()).toBe("pending");
    sim().advance(2);
    expect(await read()).toBe("active");
  });

  it("names the missing field of a create with 400 invalid_value", async () => {
    const r = await call(sim(), "POST", "/v1/installs", { account_id: A.acme.id });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ resource: "install", field: "name", type: "invalid_value" }),
    ]);
  });
});

describe("ssh keys", () => {
  const sim = useSimulator();
  const KEY =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICnAIfGfcJtep8uc/0V6Yc5MTs43XnHSKX1s6m1/9oTW joe@example.com";

  it("adds a key of the caller (201 with a fingerprint), lists it, refuses it twice, deletes it (204)", async () => {
    const r = await call(sim(), "POST", "/v1/ssh_keys", { public_key: KEY });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      uuid: expect.any(String),
      comment: "joe@example.com",
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/),
    });
    expect((await call(sim(), "GET", "/v1/ssh_keys")).body.count).toBe(1);
    expect((await call(sim(), "GET", "/v1/ssh_keys", undefined, { user: "owner" })).body.count).toBe(0);
    expect((await call(sim(), "POST", "/v1/ssh_keys", { public_key: KEY })).status).toBe(400);
    expect((await call(sim(), "POST", "/v1/ssh_keys", { public_key: "ssh-rsa notakey" })).status).toBe(400);
    expect((await call(sim(), "DELETE", `/v1/ssh_keys/${r.body.uuid}`)).status).toBe(204);
    expect((await call(sim(), "DELETE", `/v1/ssh_keys/${r.body.uuid}`)).status).toBe(404);
  });

  it("refuses a delete of another user's key (404) or of an id that is not a UUID (400)", async () => {
    const r = await call(sim(), "POST", "/v1/ssh_keys", { public_key: KEY });
    expect(
      (await call(sim(), "DELETE", `/v1/ssh_keys/${r.body.uuid}`, undefined, { user: "owner" })).status,
    ).toBe(404);
    const bad = await call(sim(), "DELETE", "/v1/ssh_keys/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("ssh_key_id");
    expect((await call(sim(), "GET", "/v1/ssh_keys")).body.count).toBe(1);
  });
});

describe("accounts and the current user", () => {
  const sim = useSimulator();

  it("lists the accounts the caller has a role on, pages them, and reads one", async () => {
    const all = await call(sim(), "GET", "/v1/accounts?limit=2");
    expect(all.body.count).toBe(3);
    expect(all.body.results).toHaveLength(2);
    expect(all.body.next).toContain("offset=2");
    const mine = await call(sim(), "GET", "/v1/accounts", undefined, { user: "owner" });
    expect(mine.body.results).toEqual([{ id: A.acme.id, name: "Acme Corp", nickname: "acme" }]);
    expect((await call(sim(), "GET", `/v1/accounts/${A.globex.id}`)).body.name).toBe("Globex Inc");
    expect(
      (await call(sim(), "GET", `/v1/accounts/${A.globex.id}`, undefined, { user: "owner" })).status,
    ).toBe(403);
    expect((await call(sim(), "GET", "/v1/accounts/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("answers the calling user with id and email", async () => {
    const me = await call(sim(), "GET", "/v1/user", undefined, { user: "owner" });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: SEED.users.owner.userId, email: expect.stringContaining("@") });
  });
});
