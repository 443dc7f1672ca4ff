import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { canTouchInstall } from "../auth";
import { ApiError, badRequest, conflict, forbidden, notFound } from "../errors";
import { callerOf, parseBody, type Req } from "../http";
import { PLATFORM_COOKIE_EXCLUSIONS } from "../seed";
import type { Sim } from "../sim";
import type { CacheExclusion, InstallRecord } from "../store";

const Exclusion = z.strictObject({
  type: z.enum(["query arg", "url path", "cookie"]),
  value: z.string().min(1),
});

const ReplaceExclusions = z.strictObject({ exclusions: z.array(Exclusion) });

function dedupe(list: CacheExclusion[]): CacheExclusion[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const key = `${e.type}\u0000${e.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Rule 5: an eligible account and a user who can update the install; 403 otherwise. */
function requireEditableInstall(sim: Sim, req: Req): InstallRecord {
  const install = sim.world.installs[req.params["install_id"]!];
  if (!install) throw notFound("Install");
  if (!canTouchInstall(sim.world, callerOf(req), install)) throw forbidden();
  if (!sim.world.accounts[install.account_id]?.cache_exclusions_eligible) {
    throw forbidden("The account is not eligible for cache exclusions");
  }
  return install;
}

/** Cache exclusions of an install: read, and full replacement under the six rules of the spec. */
export function registerCacheExclusions(app: FastifyInstance, sim: Sim): void {
  const path = "/v1/installs/:install_id/cache_exclusions";

  app.get(path, async (req: Req) => {
    const install = requireEditableInstall(sim, req);
    return { results: [...(sim.world.cache_exclusions[install.id] ?? []), ...PLATFORM_COOKIE_EXCLUSIONS] };
  });

  app.put(path, async (req: Req) => {
    const install = requireEditableInstall(sim, req);
    const body = parseBody(ReplaceExclusions, req.body, "cache_exclusion");
    const invalid: ApiError[] = [];
    body.exclusions.forEach((e, i) => {
      try {
        new RegExp(e.value);
      } catch (err) {
        invalid.push(
          badRequest(
            "cache_exclusion",
            `exclusions.${i}.value`,
            `${JSON.stringify(e.value)} is not a valid regular expression: ${(err as Error).message}`,
            "invalid_regex",
          ),
        );
      }
    });
    if (invalid.length > 0) {
      throw new ApiError(
        400,
        `Invalid cache_exclusion: ${invalid.length} value(s) are not valid regular expressions`,
        invalid.flatMap((e) => e.errors ?? []),
      );
    }
    if (sim.world.sites[install.site_id ?? ""]?.transferable) {
      throw conflict(
        "cache_exclusion",
        undefined,
        "Cache exclusions cannot be changed while the install is transferable",
        "install_transferable",
      );
    }
    const results = dedupe(body.exclusions);
    // Cookie entries are platform-managed: echoed in the answer, never saved (rule 3).
    sim.world.cache_exclusions[install.id] = results.filter((e) => e.type !== "cookie");
    sim.store.touch();
    return { results };
  });
}
