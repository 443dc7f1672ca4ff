import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { appKey, appView, OUTPUT_ONLY, RESOURCE_ID, requireApp, writable } from "../appHosting";
import { requireAccount } from "../auth";
import { ApiError, badRequest } from "../errors";
import { callerOf, page, parseBody, queryParam, type Req } from "../http";
import type { Sim } from "../sim";

const CreateApp = writable(
  OUTPUT_ONLY.app,
  z.strictObject({
    region: z.enum(["regions/US-C", "regions/EU-W", "regions/AUS-SE", "regions/UK"]),
    uploadable: z.strictObject({}).optional(),
  }),
);

/** Applications of an account: list, create (`?appId=`), read, delete (with their environments). */
export function registerApps(app: FastifyInstance, sim: Sim): void {
  const base = "/v1/accounts/:account/apps";

  app.get(base, async (req: Req) => {
    const account = requireAccount(sim.world, callerOf(req), req.params["account"]!, "admin");
    const apps = Object.values(sim.world.apps).filter((a) => a.account_id === account.id);
    const { items, nextPageToken } = page(req, apps.map(appView));
    return nextPageToken ? { apps: items, nextPageToken } : { apps: items };
  });

  app.post(base, async (req: Req) => {
    const account = requireAccount(sim.world, callerOf(req), req.params["account"]!, "admin");
    const appId = queryParam(req, "appId");
    if (!appId) throw badRequest("app", "appId", "appId is required", "required");
    if (!RESOURCE_ID.test(appId)) {
      throw badRequest(
        "app",
        "appId",
        "appId must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter",
      );
    }
    const body = parseBody(CreateApp, req.body, "app");
    const key = appKey(account.id, appId);
    if (sim.world.apps[key]) {
      throw new ApiError(409, `App ${appId} already exists`, [
        { resource: "app", field: "appId", type: "value_unavailable", code: "already_exists" },
      ]);
    }
    const now = sim.clock.iso();
    sim.world.apps[key] = {
      account_id: account.id,
      app_id: appId,
      region: body.region,
      create_time: now,
      update_time: now,
    };
    sim.store.touch();
    return appView(sim.world.apps[key]);
  });

  app.get(`${base}/:app`, async (req: Req) => appView(requireApp(sim, req)));

  app.delete(`${base}/:app`, async (req: Req) => {
    const found = requireApp(sim, req);
    const world = sim.world;
    const owned = (r: { account_id: string; app_id: string }) =>
      r.account_id === found.account_id && r.app_id === found.app_id;
    delete world.apps[appKey(found.account_id, found.app_id)];
    for (const table of [world.environments, world.builds, world.domain_mappings] as Record<
      string,
      { account_id: string; app_id: string }
    >[]) {
      for (const [key, r] of Object.entries(table)) if (owned(r)) delete table[key];
    }
    sim.store.touch();
    return {};
  });
}
