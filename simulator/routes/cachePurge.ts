import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { LIMITS } from "../clock";
import { ApiError } from "../errors";
import { callerOf, parseBody, type Req } from "../http";
import type { Sim } from "../sim";

const PurgeCache = z.strictObject({ type: z.enum(["object", "page", "cdn", "all"]) });

/**
 * Cache purge of an install (202). The object cache takes one purge per 60 s per install, measured on the
 * simulator's clock: a second one within the window is a 429 with the Swagger's message and, like the
 * service as documented, no `Retry-After` header.
 */
export function registerCachePurge(app: FastifyInstance, sim: Sim): void {
  app.post("/v1/installs/:install_id/purge_cache", async (req: Req, reply) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const { type } = parseBody(PurgeCache, req.body, "purge_cache");
    const now = sim.now();
    const purges = sim.world.cache_purges[install.id] ?? {};
    const last = purges.object;
    if (type === "object" && last !== undefined && now - last < LIMITS.objectCachePurge * 1000) {
      throw new ApiError(
        429,
        "Object cache purges are rate-limited to one request every 60 seconds for each install",
      );
    }
    sim.world.cache_purges[install.id] = { ...purges, [type]: now };
    sim.store.touch();
    return reply.code(202).send({ message: `The ${type} cache purge has been accepted` });
  });
}
