import { createHash, createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { DURATIONS, iso } from "../clock";
import { ApiError, badRequest } from "../errors";
import { callerOf, parseBody, queryParam, type Req } from "../http";
import type { Sim } from "../sim";
import type { CertificateOrderRecord, DomainRecord, InstallRecord, World } from "../store";
import { requireDomain } from "./domains";

const Base64 = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9+/=\s]+$/, "must be base64-encoded");

const ImportCertificate = z.strictObject({ certificate: Base64, private_key: Base64 });

/** Body of a Let's Encrypt order (the Swagger's `CertificateOrder`). */
const CertificateOrder = z.strictObject({
  email_address: z.email(),
  given_name: z.string().trim().min(1),
  family_name: z.string().trim().min(1),
  region_code: z.string().regex(/^[A-Z]{2}$/, "must be a two-letter ISO 3166-1 alpha-2 country code"),
  state: z.string().optional(),
  city: z.string().optional(),
  phone: z.string().optional(),
});

/** A Let's Encrypt certificate is valid for 90 days. */
const LETS_ENCRYPT_DAYS = 90;

/** A stable numeric certificate id (the Swagger's ids are integers) derived from a text. */
function numericId(text: string): number {
  return Number.parseInt(createHash("sha256").update(text).digest("hex").slice(0, 8), 16);
}

/** The Swagger's `Certificate` record of an imported third-party certificate. */
function thirdPartyView(world: World, install: InstallRecord): Record<string, unknown> | undefined {
  const stored = world.certificates[install.id];
  if (!stored) return undefined;
  const cert = new X509Certificate(Buffer.from(stored.certificate, "base64").toString("utf8"));
  const cn = /CN=([^\n,]+)/.exec(cert.subject)?.[1] ?? "";
  const sans = (cert.subjectAltName ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.startsWith("DNS:"))
    .map((s) => s.slice(4));
  const expires = Date.parse(cert.validTo);
  return {
    id: numericId(`${install.id}/third_party`),
    account: world.accounts[install.account_id]?.nickname ?? "",
    auto_renew: false,
    common_name: cn,
    cert_source: "THIRD_PARTY",
    ordered_time: stored.imported_at,
    approved_time: stored.imported_at,
    wildcard: cn.startsWith("*."),
    domains: sans.length ? sans : [cn],
    status: expires < Date.now() ? "EXPIRED" : "ENABLED",
    expires_time: iso(expires),
    serial_number: cert.serialNumber.toUpperCase(),
  };
}

/** The Swagger's `Certificate` record of a Let's Encrypt order at time `now`. */
function orderView(world: World, order: CertificateOrderRecord, now: number): Record<string, unknown> {
  const domain = world.domains[order.domain_id];
  const install = world.installs[order.install_id];
  const approved = now >= order.approved_at;
  const view: Record<string, unknown> = {
    id: order.id,
    account: (install && world.accounts[install.account_id]?.nickname) ?? "",
    auto_renew: true,
    approver_email: order.email_address,
    common_name: domain?.name ?? "",
    cert_source: "LETS_ENCRYPT",
    ordered_time: iso(order.ordered_at),
    wildcard: false,
    domains: domain ? [domain.name] : [],
    status: !approved ? "SUBMITTED" : now >= order.expires_at ? "EXPIRED" : "ENABLED",
    serial_number: order.id.toString(16).toUpperCase().padStart(32, "0"),
  };
  if (approved) {
    view["approved_time"] = iso(order.approved_at);
    view["expires_time"] = iso(order.expires_at);
  }
  return view;
}

/** Every certificate of an install: its third-party certificate, then the orders of its domains. */
function certificatesOf(sim: Sim, install: InstallRecord): Record<string, unknown>[] {
  const world = sim.world;
  const out: Record<string, unknown>[] = [];
  const thirdParty = thirdPartyView(world, install);
  if (thirdParty) out.push(thirdParty);
  for (const order of Object.values(world.certificate_orders)) {
    if (order.install_id === install.id) out.push(orderView(world, order, sim.now()));
  }
  return out;
}

/** Whether a certificate's names cover a domain (a wildcard covers one label). */
function covers(names: unknown, domain: DomainRecord): boolean {
  if (!Array.isArray(names)) return false;
  return names.some(
    (n) =>
      n === domain.name ||
      (typeof n === "string" && n.startsWith("*.") && domain.name.replace(/^[^.]+/, "*") === n),
  );
}

/** Non-negative integer query parameter, or a 400 naming it. */
function intQuery(req: Req, name: string, fallback: number, max: number): number {
  const raw = queryParam(req, name);
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw badRequest("pagination", name, `${name} must be an integer between 0 and ${max}`, "out_of_range");
  }
  return Number(raw);
}

/**
 * Certificates: third-party import; the certificates of an install (paged by `limit`/`offset`, the next
 * offset given as `next_page_token`; 404 when there is none, as the Swagger says); a domain's certificate;
 * Let's Encrypt orders for legacy-network domains (`SUBMITTED`, then `ENABLED` after a while).
 */
export function registerCertificates(app: FastifyInstance, sim: Sim): void {
  app.get("/v1/installs/:install_id/ssl_certificates", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const limit = intQuery(req, "limit", 100, 100);
    const offset = intQuery(req, "offset", 0, Number.MAX_SAFE_INTEGER);
    const all = certificatesOf(sim, install);
    if (all.length === 0) throw new ApiError(404, `No SSL certs found for environment '${install.name}'`);
    const end = offset + (limit || 100);
    return {
      certificates: all.slice(offset, end),
      ...(end < all.length ? { next_page_token: String(end) } : {}),
    };
  });

  app.get("/v1/installs/:install_id/domains/:domain_id/ssl_certificate", async (req: Req) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const domain = requireDomain(world, install, req.params["domain_id"]!);
    const thirdParty = [thirdPartyView(world, install)].find((c) => c && covers(c["domains"], domain));
    const stored = world.certificates[install.id];
    // The most recent of the two serves the domain: an import covering it replaces an earlier order.
    const order =
      thirdParty &&
      stored &&
      Date.parse(stored.imported_at) >= (world.certificate_orders[domain.id]?.ordered_at ?? 0)
        ? undefined
        : world.certificate_orders[domain.id];
    const certificate = order ? orderView(world, order, sim.now()) : thirdParty;
    if (!certificate) throw new ApiError(404, `No SSL certificate found for domain '${domain.name}'`);
    const view: Record<string, unknown> = {
      cert_name: certificate["common_name"],
      certificate,
      criteria: order ? "lets_encrypt" : "third_party",
    };
    // The service can include the private key in `cert_info`; the simulator never hands keys out.
    if (!order && stored) view["cert_info"] = { cert: stored.certificate };
    return view;
  });

  app.post("/v1/installs/:install_id/domains/:domain_id/ssl_certificate", async (req: Req, reply) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const domain = requireDomain(world, install, req.params["domain_id"]!);
    const body = parseBody(CertificateOrder, req.body, "certificate_order");
    if (domain.network_type !== "LEGACY") {
      // Not in the Swagger's statuses: the simulator's reading of "for domains on the legacy network".
      throw badRequest(
        "certificate_order",
        "domain_id",
        `${domain.name} is on the ${domain.network_type} network, whose certificates are managed automatically; ` +
          "Let's Encrypt orders are for legacy-network domains",
        "not_legacy_network",
      );
    }
    const now = sim.now();
    const approvedAt = sim.clock.after(DURATIONS.certificateIssue, now);
    world.certificate_orders[domain.id] = {
      id: numericId(`${domain.id}/${now}`),
      domain_id: domain.id,
      install_id: install.id,
      email_address: body.email_address,
      given_name: body.given_name,
      family_name: body.family_name,
      region_code: body.region_code,
      state: body.state ?? null,
      city: body.city ?? null,
      phone: body.phone ?? null,
      ordered_at: now,
      approved_at: approvedAt,
      expires_at: approvedAt + LETS_ENCRYPT_DAYS * 86_400_000,
    };
    sim.store.touch();
    return reply.code(202).send({ message: "Order has been accepted for processing" });
  });

  app.post("/v1/installs/:install_id/ssl_certificates/third_party", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const body = parseBody(ImportCertificate, req.body, "ssl_certificate");
    const certPem = Buffer.from(body.certificate, "base64").toString("utf8");
    const keyPem = Buffer.from(body.private_key, "base64").toString("utf8");
    let cert: X509Certificate;
    let key: KeyObject;
    try {
      if (!certPem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("no PEM certificate");
      cert = new X509Certificate(certPem);
    } catch (err) {
      throw badRequest(
        "ssl_certificate",
        "certificate",
        `certificate is not a base64-encoded PEM certificate chain (${(err as Error).message})`,
        "invalid_certificate",
      );
    }
    try {
      if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keyPem)) throw new Error("no PEM private key");
      key = createPrivateKey(keyPem);
    } catch (err) {
      throw badRequest(
        "ssl_certificate",
        "private_key",
        `private_key is not a base64-encoded PEM private key (${(err as Error).message})`,
        "invalid_private_key",
      );
    }
    if (!cert.checkPrivateKey(key)) {
      throw badRequest(
        "ssl_certificate",
        "private_key",
        "private_key does not match the certificate",
        "key_mismatch",
      );
    }
    sim.world.certificates[install.id] = {
      certificate: body.certificate,
      private_key: body.private_key,
      imported_at: sim.clock.iso(),
    };
    sim.store.touch();
    return { certificate: body.certificate, private_key: body.private_key };
  });
}
