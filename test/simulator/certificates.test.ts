import { describe, expect, it } from "vitest";
import { selfSigned } from "../fixtures/self-signed";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I, domains: D } = SEED;
const b64 = (s: string) => Buffer.from(s).toString("base64");
const ORDER = {
  email_address: "jane@acme.example",
  given_name: "Jane",
  family_name: "Doe",
  region_code: "US",
};

describe("cache purge", () => {
  const sim = useSimulator();
  const purge = (type: unknown, install: string = I.acmeprod.id, user?: "partial") =>
    call(sim(), "POST", `/v1/installs/${install}/purge_cache`, { type }, { user });

  it("accepts each documented type (202) and refuses another, naming the field", async () => {
    for (const type of ["object", "page", "cdn", "all"]) expect((await purge(type)).status).toBe(202);
    const bad = await purge("disk");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("type");
    expect((await call(sim(), "POST", `/v1/installs/${I.acmeprod.id}/purge_cache`, {})).status).toBe(400);
  });

  it("allows one object-cache purge per 60 s per install on the simulator's clock (429 within the window)", async () => {
    expect((await purge("object")).status).toBe(202);
    const again = await purge("object");
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/one request every 60 seconds/);
    // Other types and other installs are not limited.
    expect((await purge("page")).status).toBe(202);
    expect((await purge("object", I.acmestg.id)).status).toBe(202);
    sim().advance(59);
    expect((await purge("object")).status).toBe(429);
    sim().advance(1);
    expect((await purge("object")).status).toBe(202);
  });

  it("answers 404 for an unknown install and 403 for one the caller may not touch", async () => {
    expect((await purge("page", "1e000000-0000-4000-8000-0000000000ff")).status).toBe(404);
    expect((await purge("page", I.acmestg.id, "partial")).status).toBe(403);
  });
});

describe("SSL certificates and Let's Encrypt orders", () => {
  const sim = useSimulator();
  const list = (install: string, query = "") =>
    call(sim(), "GET", `/v1/installs/${install}/ssl_certificates${query}`);
  const domainCert = (install: string, domain: string) =>
    call(sim(), "GET", `/v1/installs/${install}/domains/${domain}/ssl_certificate`);
  const order = (install: string, domain: string, body: unknown = ORDER) =>
    call(sim(), "POST", `/v1/installs/${install}/domains/${domain}/ssl_certificate`, body);

  it("answers 404 with the Swagger's message when an install has no certificate", async () => {
    const none = await list(I.acmedev.id);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe("No SSL certs found for environment 'acmedev'");
  });

  it("orders a Let's Encrypt certificate for a legacy-network domain: SUBMITTED, then ENABLED", async () => {
    const accepted = await order(I.acmeblog.id, D.blogAcmeExample.id);
    expect(accepted.status).toBe(202);
    const submitted = await domainCert(I.acmeblog.id, D.blogAcmeExample.id);
    expect(submitted.status).toBe(200);
    expect(submitted.body.certificate).toMatchObject({
      cert_source: "LETS_ENCRYPT",
      status: "SUBMITTED",
      common_name: "blog.acme.example",
      domains: ["blog.acme.example"],
    });
    sim().advance(5);
    const enabled = await list(I.acmeblog.id);
    expect(enabled.body.certificates).toHaveLength(1);
    expect(enabled.body.certificates[0]).toMatchObject({ status: "ENABLED", cert_source: "LETS_ENCRYPT" });
    expect(Date.parse(enabled.body.certificates[0].expires_time)).toBeGreaterThan(
      Date.now() + 80 * 86_400_000,
    );
  });

  it("refuses an order for a domain that is not on the legacy network, and an incomplete order", async () => {
    const an = await order(I.acmeprod.id, D.acmeExample.id);
    expect(an.status).toBe(400);
    expect(an.body.message).toMatch(/legacy-network/);
    const missing = await order(I.acmeblog.id, D.blogAcmeExample.id, { email_address: "jane@acme.example" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["given_name", "family_name", "region_code"]),
    );
    expect((await order(I.acmeblog.id, D.acmeExample.id)).status).toBe(404);
  });

  it("lists an imported third-party certificate and pages with next_page_token", async () => {
    const pair = selfSigned(["acme.example", "www.acme.example"]);
    const imported = await call(sim(), "POST", `/v1/installs/${I.acmeprod.id}/ssl_certificates/third_party`, {
      certificate: b64(pair.certificate),
      private_key: b64(pair.privateKey),
    });
    expect(imported.status).toBe(200);
    const all = await list(I.acmeprod.id);
    expect(all.body.certificates[0]).toMatchObject({
      cert_source: "THIRD_PARTY",
      common_name: "acme.example",
      domains: ["acme.example", "www.acme.example"],
      status: "ENABLED",
    });
    expect(all.body.next_page_token).toBeUndefined();
    const cert = await domainCert(I.acmeprod.id, D.wwwAcmeExample.id);
    expect(cert.body.certificate.cert_source).toBe("THIRD_PARTY");
    // The simulator never hands a private key back.
    expect(JSON.stringify(cert.body)).not.toContain("PRIVATE KEY");

    // Two certificates on acmeblog: a Let's Encrypt order, then a third-party import.
    await order(I.acmeblog.id, D.blogAcmeExample.id);
    await call(sim(), "POST", `/v1/installs/${I.acmeblog.id}/ssl_certificates/third_party`, {
      certificate: b64(pair.certificate),
      private_key: b64(pair.privateKey),
    });
    const first = await list(I.acmeblog.id, "?limit=1");
    expect(first.body.certificates).toHaveLength(1);
    expect(first.body.next_page_token).toBe("1");
    const second = await list(I.acmeblog.id, `?limit=1&offset=${first.body.next_page_token}`);
    expect(second.body.certificates).toHaveLength(1);
    expect(second.body.next_page_token).toBeUndefined();
    expect(second.body.certificates[0].id).not.toBe(first.body.certificates[0].id);
  });

  it("answers 404 for a domain without a certificate", async () => {
    expect((await domainCert(I.acmestg.id, D.stagingAcmeExample.id)).status).toBe(404);
  });
});

describe("domain status checks", () => {
  const sim = useSimulator();
  const check = (install: string, domain: string) =>
    call(sim(), "POST", `/v1/installs/${install}/domains/${domain}/check_status`);
  const report = (install: string, id: string) =>
    call(sim(), "GET", `/v1/installs/${install}/domains/check_status/${id}`);

  it("starts a report (202 {report_id}) that completes with the domain's status", async () => {
    const started = await check(I.acmeprod.id, D.acmeExample.id);
    expect(started.status).toBe(202);
    expect(started.body.report_id).toMatch(/^[0-9a-f-]{36}$/);
    const pending = await report(I.acmeprod.id, started.body.report_id);
    expect(pending.body.report).toMatchObject({ complete: false, install_name: "acmeprod" });
    sim().advance(2);
    const done = await report(I.acmeprod.id, started.body.report_id);
    expect(done.body.report.complete).toBe(true);
    expect(done.body.report.domains[0]).toMatchObject({
      name: "acme.example",
      complete: true,
      cname: "wp.wpenginepowered.com",
      dns_error: false,
    });
  });

  it("allows one check per 5 s per install on the simulator's clock (429 otherwise)", async () => {
    expect((await check(I.acmeprod.id, D.acmeExample.id)).status).toBe(202);
    const again = await check(I.acmeprod.id, D.wwwAcmeExample.id);
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/one request every 5 seconds/);
    expect((await check(I.acmestg.id, D.stagingAcmeExample.id)).status).toBe(202);
    sim().advance(5);
    expect((await check(I.acmeprod.id, D.wwwAcmeExample.id)).status).toBe(202);
  });

  it("answers 404 for a report of another install or an unknown one", async () => {
    const started = await check(I.acmeprod.id, D.acmeExample.id);
    expect((await report(I.acmestg.id, started.body.report_id)).status).toBe(404);
    expect((await report(I.acmeprod.id, "6a6d5dbd-5cac-41d5-8f3f-14a3e8ae6f76")).status).toBe(404);
  });
});
