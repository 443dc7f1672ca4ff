import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { canTouchInstall, requireAccount, requireInstall, requireSite } from "../auth";
import { DURATIONS } from "../clock";
import { badRequest, notFound } from "../errors";
import { callerOf, paginate, parseBody, queryParam, type Req } from "../http";
import type { Sim } from "../sim";
import type { InstallEnvironment, InstallRecord, World } from "../store";

const Environment = z.enum(["production", "staging", "development"]);

const CreateInstall = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9]{2,13}$/, "must be 3 to 14 lower-case letters or digits, starting with a letter"),
  account_id: z.guid(),
  site_id: z.guid().nullable().optional(),
  environment: Environment.nullable().optional(),
});

const PatchInstall = z.strictObject({
  site_id: z.guid().optional(),
  environment: Environment.nullable().optional(),
});

/** The CNAME of an install. */
export function cnameOf(install: InstallRecord): string {
  return `${install.name}.wpengine.com`;
}

/** The Install record of spec section 2; `detail` adds the fields only an individual GET returns. */
export function installView(sim: Sim, install: InstallRecord, detail: boolean): Record<string, unknown> {
  const primary = sim.store.of(sim.store.by.domainsOfInstall, install.id).find((d) => d.primary);
  const view: Record<string, unknown> = {
    id: install.id,
    name: install.name,
    account: { id: install.account_id },
    php_version: install.php_version,
    status: sim.now() < install.busy_until ? "pending" : "active",
    site: install.site_id ? { id: install.site_id } : null,
    cname: cnameOf(install),
    stable_ips: install.stable_ips,
    environment: install.environment,
    primary_domain: primary?.name ?? cnameOf(install),
    is_multisite: install.is_multisite,
    created_at: install.created_at,
  };
  if (detail) {
    view["cms_version"] = install.cms_version;
    view["defer_cms_upgrades_until"] = install.defer_cms_upgrades_until;
  }
  return view;
}

/** Rejects placing an install where its site already has one in that environment. */
function checkSlot(
  world: World,
  siteId: string,
  environment: InstallEnvironment | null,
  self?: string,
): void {
  if (!environment) return;
  const taken = Object.values(world.installs).find(
    (i) => i.site_id === siteId && i.environment === environment && i.id !== self,
  );
  if (taken) {
    throw badRequest(
      "install",
      "environment",
      `The site already has a ${environment} install (${taken.name})`,
      "environment_taken",
      "value_unavailable",
    );
  }
}

/** Removes an install and everything that lives on it (its domains, backups, settings, user grants). */
export function removeInstall(world: World, installId: string): void {
  delete world.installs[installId];
  for (const [id, d] of Object.entries(world.domains))
    if (d.install_id === installId) delete world.domains[id];
  for (const [id, b] of Object.entries(world.backups))
    if (b.install_id === installId) delete world.backups[id];
  for (const [id, a] of Object.entries(world.archives))
    if (a.install_id === installId) delete world.archives[id];
  delete world.cache_exclusions[installId];
  delete world.offload_settings[installId];
  delete world.certificates[installId];
  for (const u of world.account_users) u.install_ids = u.install_ids.filter((id) => id !== installId);
}

/** Installs: list, read, create, move to a site/environment, delete. */
export function registerInstalls(app: FastifyInstance, sim: Sim): void {
  app.get("/v1/installs", async (req: Req) => {
    const caller = callerOf(req);
    const accountId = queryParam(req, "account_id");
    if (accountId !== undefined && !z.guid().safeParse(accountId).success) {
      throw badRequest("install", "account_id", "account_id must be a UUID");
    }
    const installs = Object.values(sim.world.installs).filter(
      (i) => (accountId === undefined || i.account_id === accountId) && canTouchInstall(sim.world, caller, i),
    );
    return paginate(req, installs, (i) => installView(sim, i, false));
  });

  app.get("/v1/installs/:install_id", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    return installView(sim, install, true);
  });

  app.post("/v1/installs", async (req: Req, reply) => {
    const body = parseBody(CreateInstall, req.body, "install");
    const world = sim.world;
    requireAccount(world, callerOf(req), body.account_id, "admin");
    if (sim.store.by.installsNamed.size(body.name) > 0) {
      throw badRequest(
        "install",
        "name",
        `The install name ${body.name} is taken`,
        "name_taken",
        "value_unavailable",
      );
    }
    if (body.site_id) {
      const site = world.sites[body.site_id];
      if (!site || site.account_id !== body.account_id) {
        throw badRequest("install", "site_id", "site_id must be a site of the account", "invalid_site");
      }
      checkSlot(world, site.id, body.environment ?? null);
    }
    const now = sim.now();
    const install: InstallRecord = {
      id: randomUUID(),
      name: body.name,
      account_id: body.account_id,
      site_id: body.site_id ?? null,
      environment: body.environment ?? null,
      php_version: "8.2",
      cms_version: "6.8.1",
      defer_cms_upgrades_until: null,
      is_multisite: false,
      stable_ips: null,
      created_at: new Date(now).toISOString(),
      busy_until: sim.clock.after(DURATIONS.installProvision, now),
    };
    world.installs[install.id] = install;
    sim.store.touch();
    return reply.code(201).send(installView(sim, install, true));
  });

  app.patch("/v1/installs/:install_id", async (req: Req) => {
    const world = sim.world;
    const caller = callerOf(req);
    const install = world.installs[req.params["install_id"]!];
    if (!install) throw notFound("Install");
    requireAccount(world, caller, install.account_id, "admin");
    const body = parseBody(PatchInstall, req.body, "install");
    const siteId = body.site_id ?? install.site_id;
    const environment = body.environment === undefined ? install.environment : body.environment;
    if (body.site_id !== undefined) {
      const site = world.sites[body.site_id];
      if (!site || site.account_id !== install.account_id) {
        throw badRequest(
          "install",
          "site_id",
          "site_id must be a site of the install's account",
          "invalid_site",
        );
      }
      requireSite(world, caller, site.id, "admin");
    }
    if (siteId) checkSlot(world, siteId, environment, install.id);
    install.site_id = siteId;
    install.environment = environment;
    sim.store.touch();
    return installView(sim, install, true);
  });

  app.delete("/v1/installs/:install_id", async (req: Req, reply) => {
    const world = sim.world;
    const install = world.installs[req.params["install_id"]!];
    if (!install) throw notFound("Install");
    requireAccount(world, callerOf(req), install.account_id, "admin");
    removeInstall(world, install.id);
    sim.store.touch();
    return reply.code(204).send();
  });
}
