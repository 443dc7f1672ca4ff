import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I, domains: D } = SEED;
const domains = (installId: string) => `/v1/installs/${installId}/domains`;

describe("domains and TXT verification", () => {
  const sim = useSimulator();

  it("creates a domain (201) pending TXT verification with a key and a value", async () => {
    const r = await call(sim(), "POST", domains(I.acmeprod.id), { name: "shop.acme.example" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: "shop.acme.example",
      primary: false,
      duplicate: false,
      ownership_status: "TXT_VERIFICATION_PENDING",
      txt_verified_time: null,
      txt_verification_key: expect.any(String),
      txt_verification_value: expect.any(String),
      redirects_to: [],
      secure_all_urls: false,
      network_details: { dns_config_info: { cname: expect.any(String), a_records: expect.any(Array) } },
    });
  });

  it("fails verification with a 400 saying the record was not found until the TXT record is published", async () => {
    const d = (await call(sim(), "POST", domains(I.acmeprod.id), { name: "shop.acme.example" })).body;
    const before = await call(sim(), "POST", `${domains(I.acmeprod.id)}/${d.id}/verification`);
    expect(before.status).toBe(400);
    expect(before.body.message).toMatch(/not found/i);
    expect(before.body.errors[0]).toMatchObject({ resource: "domain", code: "txt_record_not_found" });
    // A record with the right name but the wrong value does not count.
    sim().publishTxt(d.txt_verification_key, "something-else");
    expect((await call(sim(), "POST", `${domains(I.acmeprod.id)}/${d.id}/verification`)).status).toBe(400);
    const published = await call(sim(), "POST", "/__sim/dns/txt", {
      name: d.txt_verification_key,
      value: d.txt_verification_value,
    });
    expect(published.status).toBe(201);
    const after = await call(sim(), "POST", `${domains(I.acmeprod.id)}/${d.id}/verification`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      id: d.id,
      name: "shop.acme.example",
      txt_verified_time: expect.any(String),
      txt_verification_key: null,
      txt_verification_value: null,
    });
    const read = await call(sim(), "GET", `${domains(I.acmeprod.id)}/${d.id}`);
    expect(read.body.ownership_status).toBe("TXT_VERIFIED");
    expect(read.body.txt_verification_key).toBeNull();
  });

  it("accepts bulk creation of 1 to 20 domains and rejects 0 or 21 with 400", async () => {
    const none = await call(sim(), "POST", `${domains(I.acmedev.id)}/bulk`, { domains: [] });
    expect(none.status).toBe(400);
    expect(none.body.errors[0].field).toBe("domains");
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `d${i}.example.com` }));
    expect((await call(sim(), "POST", `${domains(I.acmedev.id)}/bulk`, { domains: many })).status).toBe(400);
    expect((await call(sim(), "GET", domains(I.acmedev.id))).body.count).toBe(0);
    const twenty = await call(sim(), "POST", `${domains(I.acmedev.id)}/bulk`, { domains: many.slice(0, 20) });
    expect(twenty.status).toBe(201);
    expect(twenty.body).toHaveLength(20);
    const one = await call(sim(), "POST", `${domains(I.acmesandbox.id)}/bulk`, {
      domains: [{ name: "one.example" }],
    });
    expect(one.status).toBe(201);
  });

  it("resolves bulk redirect_to by name and returns redirects_to as one object with the verification fields", async () => {
    const r = await call(sim(), "POST", `${domains(I.acmedev.id)}/bulk`, {
      domains: [{ name: "example.com" }, { name: "www.example.com", redirect_to: "example.com" }],
    });
    expect(r.status).toBe(201);
    const [apex, www] = r.body;
    expect(apex.ownership_status).toBe("TXT_VERIFICATION_PENDING");
    expect(www.redirects_to).toEqual({ id: apex.id, name: "example.com" });
    expect(www.txt_verification_value).toEqual(expect.any(String));
    const bad = await call(sim(), "POST", `${domains(I.acmedev.id)}/bulk`, {
      domains: [{ name: "a.example.org", redirect_to: "missing.example.org" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("domains.0.redirect_to");
  });

  it("refuses to make a duplicate, wildcard or redirected domain primary", async () => {
    // globex.example exists on globexprod: the same name on acmedev is a duplicate.
    const dup = await call(sim(), "POST", domains(I.acmedev.id), { name: "globex.example" });
    expect(dup.body.duplicate).toBe(true);
    const r1 = await call(sim(), "PATCH", `${domains(I.acmedev.id)}/${dup.body.id}`, { primary: true });
    expect(r1.status).toBe(400);
    expect(r1.body.errors[0]).toMatchObject({ resource: "domain", field: "primary" });
    const wildcard = await call(sim(), "POST", domains(I.acmedev.id), {
      name: "*.acme.example",
      primary: true,
    });
    expect(wildcard.status).toBe(400);
    const r2 = await call(sim(), "PATCH", `${domains(I.acmeprod.id)}/${D.wwwAcmeExample.id}`, {
      primary: true,
    });
    expect(r2.status).toBe(400);
    expect(r2.body.message).toMatch(/redirect/i);
  });

  it("makes a plain domain primary, moving primary_domain of the install", async () => {
    const d = (await call(sim(), "POST", domains(I.acmeprod.id), { name: "new.acme.example" })).body;
    const r = await call(sim(), "PATCH", `${domains(I.acmeprod.id)}/${d.id}`, {
      primary: true,
      secure_all_urls: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ primary: true, secure_all_urls: true });
    expect((await call(sim(), "GET", `${domains(I.acmeprod.id)}/${D.acmeExample.id}`)).body.primary).toBe(
      false,
    );
    expect((await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}`)).body.primary_domain).toBe(
      "new.acme.example",
    );
  });

  it("sets a redirect by id, removes it with nil, and rejects a redirect to an unknown domain", async () => {
    const d = (await call(sim(), "POST", domains(I.acmeprod.id), { name: "old.acme.example" })).body;
    const set = await call(sim(), "PATCH", `${domains(I.acmeprod.id)}/${d.id}`, {
      redirect_to: D.acmeExample.id,
    });
    expect(set.body.redirects_to).toEqual([{ id: D.acmeExample.id, name: "acme.example" }]);
    const cleared = await call(sim(), "PATCH", `${domains(I.acmeprod.id)}/${d.id}`, { redirect_to: "nil" });
    expect(cleared.body.redirects_to).toEqual([]);
    const primaryRedirect = await call(sim(), "PATCH", `${domains(I.acmeprod.id)}/${D.acmeExample.id}`, {
      redirect_to: d.id,
    });
    expect(primaryRedirect.status).toBe(400);
    const bad = await call(sim(), "PATCH", `${domains(I.acmeprod.id)}/${d.id}`, {
      redirect_to: "00000000-0000-4000-8000-000000000000",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("redirect_to");
  });

  it("rejects an invalid domain name and a name already on the install with 400", async () => {
    const bad = await call(sim(), "POST", domains(I.acmeprod.id), { name: "not a domain" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ resource: "domain", field: "name", type: "invalid_value" });
    const taken = await call(sim(), "POST", domains(I.acmeprod.id), { name: "acme.example" });
    expect(taken.status).toBe(400);
    expect(taken.body.errors[0].type).toBe("value_unavailable");
  });

  it("deletes a domain with 204 and then answers 404", async () => {
    const path = `${domains(I.acmeprod.id)}/${D.wwwAcmeExample.id}`;
    expect((await call(sim(), "DELETE", path)).status).toBe(204);
    expect((await call(sim(), "GET", path)).status).toBe(404);
    expect((await call(sim(), "DELETE", path)).status).toBe(404);
  });

  it("accepts a bodiless verification POST that still says application/json", async () => {
    const r = await call(
      sim(),
      "POST",
      `${domains(I.acmeprod.id)}/${D.acmeExample.id}/verification`,
      undefined,
      {
        headers: { "content-type": "application/json" },
      },
    );
    expect(r.status).toBe(200);
  });
});

describe("domain sharing links (beyond Swagger 1.17.0)", () => {
  const sim = useSimulator();
  const link = (installId: string, domainId: string) =>
    `/v1/installs/${installId}/domains/${domainId}/sharing_link`;

  it("answers a new Entri Connect link on every call for an AN domain", async () => {
    const a = await call(sim(), "POST", link(SEED.installs.acmeprod.id, SEED.domains.acmeExample.id));
    const b = await call(sim(), "POST", link(SEED.installs.acmeprod.id, SEED.domains.acmeExample.id));
    expect(a.status).toBe(200);
    expect(a.body.url).toMatch(/^https:\/\/app\.goentri\.com\/share\/[0-9a-f]{32}$/);
    expect(b.body.url).not.toBe(a.body.url);
  });

  it("refuses a LEGACY domain (400 on network_type), another install's domain (404), an unseen install (403)", async () => {
    const legacy = await call(
      sim(),
      "POST",
      link(SEED.installs.acmeblog.id, SEED.domains.blogAcmeExample.id),
    );
    expect(legacy.status).toBe(400);
    expect(legacy.body.errors[0]).toMatchObject({ field: "network_type", code: "unsupported_network_type" });
    expect(
      (await call(sim(), "POST", link(SEED.installs.acmestg.id, SEED.domains.acmeExample.id))).status,
    ).toBe(404);
    const partial = await call(
      sim(),
      "POST",
      link(SEED.installs.globexprod.id, SEED.domains.globexExample.id),
      undefined,
      {
        user: "owner",
      },
    );
    expect(partial.status).toBe(403);
  });
});
