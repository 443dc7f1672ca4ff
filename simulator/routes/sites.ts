import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { canSeeSite, requireAccount, requireSite } from "../auth";
import { badRequest } from "../errors";
import { callerOf, paginate, parseBody, queryParam, type Req } from "../http";
import type { Sim } from "../sim";
import type { SiteRecord } from "../store";
import { cnameOf, removeInstall } from "./installs";

const CreateSite = z.strictObject({
  name: z.string().min(1).max(40),
  account_id: z.guid(),
  group_name: z.string().nullable().optional(),
  tags: z.array(z.string().min(1)).optional(),
});

const PatchSite = z.strictObject({
  name: z.string().min(1).max(40).optional(),
  group_name: z.string().nullable().optional(),
  tags: z.array(z.string().min(1)).optional(),
});

/** The Site record of spec section 2. */
export function siteView(sim: Sim, site: SiteRecord): Record<string, unknown> {
  return {
    id: site.id,
    name: site.name,
    account: { id: site.account_id },
    group_name: site.group_name,
    tags: site.tags,
    created_at: site.created_at,
    sandbox: site.sandbox,
    transferable: site.transferable,
    installs: Object.values(sim.world.installs)
      .filter((i) => i.site_id === site.id)
      .map((i) => ({
        id: i.id,
        name: i.name,
        environment: i.environment,
        cname: cnameOf(i),
        php_version: i.php_version,
        is_multisite: i.is_multisite,
      })),
  };
}

/** Sites: list, read, create, rename, delete (with their installs). */
export function registerSites(app: FastifyInstance, sim: Sim): void {
  app.get("/v1/sites", async (req: Req) => {
    const caller = callerOf(req);
    const accountId = queryParam(req, "account_id");
    if (accountId !== undefined && !z.guid().safeParse(accountId).success) {
      throw badRequest("site", "account_id", "account_id must be a UUID");
    }
    const sites = Object.values(sim.world.sites).filter(
      (s) => (accountId === undefined || s.account_id === accountId) && canSeeSite(sim.world, caller, s),
    );
    return paginate(req, sites, (s) => siteView(sim, s));
  });

  app.get("/v1/sites/:site_id", async (req: Req) => {
    return siteView(sim, requireSite(sim.world, callerOf(req), req.params["site_id"]!));
  });

  app.post("/v1/sites", async (req: Req, reply) => {
    const body = parseBody(CreateSite, req.body, "site");
    requireAccount(sim.world, callerOf(req), body.account_id, "admin");
    const site: SiteRecord = {
      id: randomUUID(),
      name: body.name,
      account_id: body.account_id,
      group_name: body.group_name ?? null,
      tags: body.tags ?? [],
      created_at: sim.clock.iso(),
      sandbox: false,
      transferable: false,
    };
    sim.world.sites[site.id] = site;
    sim.store.touch();
    return reply.code(201).send(siteView(sim, site));
  });

  app.patch("/v1/sites/:site_id", async (req: Req) => {
    const site = requireSite(sim.world, callerOf(req), req.params["site_id"]!, "admin");
    const body = parseBody(PatchSite, req.body, "site");
    if (body.name !== undefined) site.name = body.name;
    if (body.group_name !== undefined) site.group_name = body.group_name;
    if (body.tags !== undefined) site.tags = body.tags;
    sim.store.touch();
    return siteView(sim, site);
  });

  // The service deletes the site AND every install in it, at once and for good (Swagger: "This will
  // delete the site and any installs associated with this site").
  app.delete("/v1/sites/:site_id", async (req: Req, reply) => {
    const world = sim.world;
    const site = requireSite(world, callerOf(req), req.params["site_id"]!, "admin");
    for (const install of Object.values(world.installs))
      if (install.site_id === site.id) removeInstall(world, install.id);
    for (const [id, s] of Object.entries(world.report_schedules))
      if (s.site_id === site.id) delete world.report_schedules[id];
    delete world.sites[site.id];
    sim.store.touch();
    return reply.code(204).send();
  });
}
