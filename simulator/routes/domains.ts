import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { ApiError, badRequest, notFound } from "../errors";
import { callerOf, paginate, parseBody, type Req } from "../http";
import type { Sim } from "../sim";
import type { DomainRecord, InstallRecord, World } from "../store";

const HOST = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** A domain name (lower-cased; a leading `*.` makes it a wildcard). */
export const HostName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(HOST, "must be a domain name such as example.com or *.example.com");

const CreateDomain = z.strictObject({
  name: HostName,
  primary: z.boolean().optional(),
  redirect_to: z.guid().optional(),
});

const BulkDomains = z.strictObject({
  domains: z
    .array(z.strictObject({ name: HostName, redirect_to: HostName.optional() }))
    .min(1, "must hold at least 1 domain")
    .max(20, "must hold at most 20 domains"),
});

const PatchDomain = z.strictObject({
  primary: z.boolean().optional(),
  redirect_to: z.union([z.literal("nil"), z.guid()]).optional(),
  secure_all_urls: z.boolean().optional(),
});

/** DNS targets the simulated network hands out. */
export const DNS_CONFIG = {
  cname: "wp.wpenginepowered.com",
  a_records: ["141.193.213.10", "141.193.213.11"],
};

function bareName(name: string): string {
  return name.replace(/^\*\./, "");
}

/** Whether another install has a domain of the same name (looked up by name, not by scanning). */
function isDuplicate(sim: Sim, d: DomainRecord): boolean {
  return sim.store.of(sim.store.by.domainsNamed, d.name).some((o) => o.install_id !== d.install_id);
}

/** The Domain record of spec section 2; `bulk` gives `redirects_to` as one object, as the bulk response does. */
export function domainView(sim: Sim, d: DomainRecord, bulk = false): Record<string, unknown> {
  const world = sim.world;
  const target = d.redirect_to_id ? world.domains[d.redirect_to_id] : undefined;
  const verified = d.txt_verified_time !== null;
  const redirect = target ? { id: target.id, name: target.name } : undefined;
  const view: Record<string, unknown> = {
    id: d.id,
    name: d.name,
    duplicate: isDuplicate(sim, d),
    primary: d.primary,
    network_type: d.network_type,
    network_details: {
      dns_config_info: DNS_CONFIG,
      network_info: {
        status: verified ? "ACTIVE" : "PENDING",
        ssl: { status: verified ? "active" : "pending" },
      },
    },
    redirects_to: bulk ? redirect : redirect ? [redirect] : [],
    secure_all_urls: d.secure_all_urls,
    txt_verified_time: d.txt_verified_time,
    txt_verified_domain: bareName(d.name),
    txt_verification_key: d.txt_verification_key,
    txt_verification_value: d.txt_verification_value,
    ownership_status: verified ? "TXT_VERIFIED" : "TXT_VERIFICATION_PENDING",
  };
  if (bulk && !redirect) delete view["redirects_to"];
  return view;
}

function newDomain(sim: Sim, install: InstallRecord, name: string): DomainRecord {
  return {
    id: randomUUID(),
    install_id: install.id,
    name,
    primary: false,
    redirect_to_id: null,
    secure_all_urls: false,
    network_type: "AN",
    txt_verified_time: null,
    txt_verification_key: `_wpe_verification.${bareName(name)}`,
    txt_verification_value: `wpe-verify-${randomBytes(16).toString("hex")}`,
    created_at: sim.clock.iso(),
  };
}

function domainsOf(sim: Sim, installId: string): DomainRecord[] {
  return sim.store.of(sim.store.by.domainsOfInstall, installId);
}

export function requireDomain(world: World, install: InstallRecord, domainId: string): DomainRecord {
  const d = world.domains[domainId];
  if (!d || d.install_id !== install.id) throw notFound("Domain");
  return d;
}

function rejectTaken(sim: Sim, install: InstallRecord, name: string, field: string): void {
  if (sim.store.of(sim.store.by.domainsNamed, name).some((d) => d.install_id === install.id)) {
    throw badRequest(
      "domain",
      field,
      `${name} already exists on this install`,
      "already_exists",
      "value_unavailable",
    );
  }
}

/** Why a domain cannot be made primary, or null when it can. */
function primaryObstacle(sim: Sim, d: DomainRecord, redirectTo: string | null): string | null {
  if (d.name.startsWith("*.")) return "A wildcard domain cannot be made primary";
  if (redirectTo) return "A redirected domain cannot be made primary";
  if (isDuplicate(sim, d)) return "A duplicate domain cannot be made primary";
  return null;
}

function makePrimary(sim: Sim, d: DomainRecord): void {
  for (const other of domainsOf(sim, d.install_id)) other.primary = false;
  d.primary = true;
}

/** Rejects a redirect target that is not another domain of the install, or that would loop. */
function checkRedirect(world: World, install: InstallRecord, self: DomainRecord, targetId: string): void {
  const target = world.domains[targetId];
  if (!target || target.install_id !== install.id || target.id === self.id) {
    throw badRequest(
      "domain",
      "redirect_to",
      "redirect_to must be the id of another domain of this install",
      "not_found",
    );
  }
  for (let hop: DomainRecord | undefined = target, n = 0; hop && n < 100; n++) {
    if (hop.id === self.id)
      throw badRequest("domain", "redirect_to", "The redirect would loop", "redirect_loop");
    hop = hop.redirect_to_id ? world.domains[hop.redirect_to_id] : undefined;
  }
}

/** Domains of an install: list, read, create, bulk create, update, delete, TXT verification, sharing link. */
export function registerDomains(app: FastifyInstance, sim: Sim): void {
  const base = "/v1/installs/:install_id/domains";

  app.get(base, async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    return paginate(req, domainsOf(sim, install.id), (d) => domainView(sim, d));
  });

  app.get(`${base}/:domain_id`, async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    return domainView(sim, requireDomain(sim.world, install, req.params["domain_id"]!));
  });

  app.post(base, async (req: Req, reply) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const body = parseBody(CreateDomain, req.body, "domain");
    rejectTaken(sim, install, body.name, "name");
    const d = newDomain(sim, install, body.name);
    if (body.redirect_to) checkRedirect(world, install, d, body.redirect_to);
    if (body.primary) {
      const obstacle = primaryObstacle(sim, d, body.redirect_to ?? null);
      if (obstacle) throw badRequest("domain", "primary", obstacle, "cannot_be_primary");
    }
    d.redirect_to_id = body.redirect_to ?? null;
    world.domains[d.id] = d;
    if (body.primary) makePrimary(sim, d);
    sim.store.touch();
    return reply.code(201).send(domainView(sim, d));
  });

  app.post(`${base}/bulk`, async (req: Req, reply) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const body = parseBody(BulkDomains, req.body, "domain");
    const names = new Set<string>();
    body.domains.forEach((item, i) => {
      if (names.has(item.name)) {
        throw badRequest("domain", `domains.${i}.name`, `${item.name} appears twice`, "duplicate_in_request");
      }
      names.add(item.name);
      rejectTaken(sim, install, item.name, `domains.${i}.name`);
    });
    const existing = new Map(domainsOf(sim, install.id).map((d) => [d.name, d]));
    body.domains.forEach((item, i) => {
      if (!item.redirect_to) return;
      if (
        item.redirect_to === item.name ||
        !(names.has(item.redirect_to) || existing.has(item.redirect_to))
      ) {
        throw badRequest(
          "domain",
          `domains.${i}.redirect_to`,
          `redirect_to must name another domain of the request or of the install (${item.redirect_to})`,
          "not_found",
        );
      }
    });
    const created = body.domains.map((item) => newDomain(sim, install, item.name));
    const byName = new Map([...existing, ...created.map((d) => [d.name, d] as const)]);
    body.domains.forEach((item, i) => {
      if (item.redirect_to) created[i]!.redirect_to_id = byName.get(item.redirect_to)!.id;
    });
    for (const d of created) world.domains[d.id] = d;
    sim.store.touch();
    const views = created.map((d) => domainView(sim, d, true));
    // `object`: the Swagger's one DomainOrRedirect, the record of the request's first domain.
    return reply.code(201).send(sim.bulkDomains === "object" ? views[0] : views);
  });

  app.patch(`${base}/:domain_id`, async (req: Req) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const d = requireDomain(world, install, req.params["domain_id"]!);
    const body = parseBody(PatchDomain, req.body, "domain");
    let redirectTo = d.redirect_to_id;
    if (body.redirect_to === "nil") redirectTo = null;
    else if (body.redirect_to !== undefined) {
      checkRedirect(world, install, d, body.redirect_to);
      redirectTo = body.redirect_to;
    }
    if (body.primary === true) {
      const obstacle = primaryObstacle(sim, d, redirectTo);
      if (obstacle) throw badRequest("domain", "primary", obstacle, "cannot_be_primary");
    } else if (body.primary === undefined && d.primary && redirectTo) {
      throw badRequest(
        "domain",
        "redirect_to",
        "The primary domain cannot redirect",
        "primary_cannot_redirect",
      );
    }
    d.redirect_to_id = redirectTo;
    if (body.secure_all_urls !== undefined) d.secure_all_urls = body.secure_all_urls;
    if (body.primary === true) makePrimary(sim, d);
    if (body.primary === false) d.primary = false;
    sim.store.touch();
    return domainView(sim, d);
  });

  app.delete(`${base}/:domain_id`, async (req: Req, reply) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const d = requireDomain(world, install, req.params["domain_id"]!);
    delete world.domains[d.id];
    // Only domains of the same install may redirect to it.
    for (const other of domainsOf(sim, install.id))
      if (other.redirect_to_id === d.id) other.redirect_to_id = null;
    sim.store.touch();
    return reply.code(204).send();
  });

  app.post(`${base}/:domain_id/verification`, async (req: Req) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const d = requireDomain(world, install, req.params["domain_id"]!);
    if (d.txt_verified_time === null) {
      const key = d.txt_verification_key!;
      const value = d.txt_verification_value!;
      if (!sim.hasTxt(key, value)) {
        throw new ApiError(400, `TXT record not found: no TXT record ${key} with value ${value}`, [
          {
            resource: "domain",
            field: "txt_verification_value",
            type: "value_unavailable",
            code: "txt_record_not_found",
            message: `The TXT record ${key} with value ${value} was not found`,
          },
        ]);
      }
      d.txt_verified_time = sim.clock.iso();
      d.txt_verification_key = null;
      d.txt_verification_value = null;
      sim.store.touch();
    }
    return {
      id: d.id,
      name: d.name,
      txt_verified_time: d.txt_verified_time,
      txt_verified_domain: bareName(d.name),
      txt_verification_key: d.txt_verification_key,
      txt_verification_value: d.txt_verification_value,
    };
  });

  // Beyond Swagger 1.17.0 (the live API docs): an Entri Connect link a client opens to set the domain's DNS.
  // AN and GES domains only; every call makes a new link (no idempotency): the caller keeps the one it got.
  app.post(`${base}/:domain_id/sharing_link`, async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const d = requireDomain(sim.world, install, req.params["domain_id"]!);
    if (d.network_type !== "AN" && d.network_type !== "GES")
      throw badRequest(
        "domain",
        "network_type",
        `A sharing link needs a domain on the Advanced Network (AN) or Global Edge Security (GES); ${d.name} is on ${d.network_type}`,
        "unsupported_network_type",
      );
    return { url: `https://app.goentri.com/share/${randomBytes(16).toString("hex")}` };
  });
}
