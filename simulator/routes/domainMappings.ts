import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { envKey, mappingsOf, mappingView, OUTPUT_ONLY, requireEnvironment, writable } from "../appHosting";
import { DURATIONS } from "../clock";
import { ApiError, badRequest, notFound } from "../errors";
import { page, parseBody, type Req } from "../http";
import { mappingState } from "../lifecycle";
import type { Sim } from "../sim";
import type { DomainMappingRecord, EnvironmentRecord } from "../store";
import { HostName } from "./domains";

const Replace = z.strictObject({
  domainMappings: z.array(
    writable(
      OUTPUT_ONLY.domainMapping,
      z.strictObject({
        domain: HostName,
        primary: z.boolean().optional(),
        destinationDomainMapping: HostName.optional(),
      }),
    ),
  ),
  validateOnly: z.boolean().optional(),
});

const Empty = z.strictObject({});

/** Validates a requested set of mappings: unique domains, at most one primary, redirects inside the set. */
function validateSet(sim: Sim, env: EnvironmentRecord, set: z.infer<typeof Replace>["domainMappings"]): void {
  const domains = new Map(set.map((m) => [m.domain, m]));
  const seen = new Set<string>();
  set.forEach((m, i) => {
    const field = `domainMappings.${i}`;
    if (seen.has(m.domain))
      throw badRequest("domain_mapping", `${field}.domain`, `${m.domain} appears twice`, "duplicate");
    seen.add(m.domain);
    if (m.destinationDomainMapping !== undefined) {
      const target = domains.get(m.destinationDomainMapping);
      if (!target || m.destinationDomainMapping === m.domain) {
        throw badRequest(
          "domain_mapping",
          `${field}.destinationDomainMapping`,
          "destinationDomainMapping must name another domain of the request",
          "not_found",
        );
      }
      if (target.destinationDomainMapping !== undefined) {
        throw badRequest(
          "domain_mapping",
          `${field}.destinationDomainMapping`,
          "A mapping cannot redirect to a mapping that redirects",
          "redirect_chain",
        );
      }
      if (m.primary) {
        throw badRequest(
          "domain_mapping",
          `${field}.primary`,
          "A redirecting mapping cannot be primary",
          "cannot_be_primary",
        );
      }
    }
  });
  if (set.filter((m) => m.primary).length > 1) {
    throw badRequest(
      "domain_mapping",
      "domainMappings",
      "At most one mapping can be primary",
      "multiple_primary",
    );
  }
  const now = sim.now();
  const mine = envKey(env.account_id, env.app_id, env.environment_id);
  for (const [i, m] of set.entries()) {
    const elsewhere = sim.store
      .of(sim.store.by.mappingsNamed, m.domain)
      .find(
        (o) =>
          envKey(o.account_id, o.app_id, o.environment_id) !== mine &&
          mappingState(o, now) !== null &&
          mappingState(o, now) !== "DELETING",
      );
    if (elsewhere) {
      throw new ApiError(409, `${m.domain} is already mapped to another environment`, [
        {
          resource: "domain_mapping",
          field: `domainMappings.${i}.domain`,
          type: "value_unavailable",
          code: "already_exists",
        },
      ]);
    }
  }
}

/** Domain mappings of an environment: list, replace the whole set, mark primary, revalidate, verify TXT. */
export function registerDomainMappings(app: FastifyInstance, sim: Sim): void {
  const base = "/v1/accounts/:account/apps/:app/environments/:env(^[^:/]+)/domainMappings";

  const requireMapping = (req: Req): { env: EnvironmentRecord; mapping: DomainMappingRecord } => {
    const env = requireEnvironment(sim, req);
    const key = `${envKey(env.account_id, env.app_id, env.environment_id)}/${req.params["domain"]}`;
    const mapping = sim.world.domain_mappings[key];
    if (!mapping || mappingState(mapping, sim.now()) === null) throw notFound("Domain mapping");
    return { env, mapping };
  };

  app.get(base, async (req: Req) => {
    const env = requireEnvironment(sim, req);
    const now = sim.now();
    const { items, nextPageToken } = page(
      req,
      mappingsOf(sim, env, now).map((m) => mappingView(sim.world, m, now)),
    );
    return nextPageToken ? { domainMappings: items, nextPageToken } : { domainMappings: items };
  });

  app.post(`${base}::replace`, async (req: Req) => {
    const env = requireEnvironment(sim, req);
    const body = parseBody(Replace, req.body, "domain_mapping");
    validateSet(sim, env, body.domainMappings);
    const now = sim.now();
    const prefix = envKey(env.account_id, env.app_id, env.environment_id);
    // Mappings whose deletion has finished are dropped here, where the set is written, not on every request.
    for (const key of sim.store.by.mappingsOfEnvironment.ids(prefix)) {
      if (mappingState(sim.world.domain_mappings[key]!, now) === null) delete sim.world.domain_mappings[key];
    }
    const current = new Map(
      mappingsOf(sim, env, now)
        .filter((m) => mappingState(m, now) !== "DELETING")
        .map((m) => [m.domain, m]),
    );
    const result: DomainMappingRecord[] = body.domainMappings.map((m) => {
      const existing = current.get(m.domain);
      const base: DomainMappingRecord = existing
        ? { ...existing }
        : {
            account_id: env.account_id,
            app_id: env.app_id,
            environment_id: env.environment_id,
            domain: m.domain,
            primary: false,
            destination: null,
            created_at: now,
            active_at: sim.clock.after(DURATIONS.domainMappingActive, now),
            deleting_at: null,
            gone_at: null,
            txt_name: `_wpe_verification.${m.domain.replace(/^\*\./, "")}`,
            txt_value: `wpe-verify-${randomBytes(16).toString("hex")}`,
            verified: false,
          };
      return { ...base, primary: m.primary ?? false, destination: m.destinationDomainMapping ?? null };
    });
    if (!body.validateOnly) {
      const keep = new Set(result.map((m) => m.domain));
      for (const [domain, m] of current) {
        if (keep.has(domain)) continue;
        m.deleting_at = now;
        m.gone_at = sim.clock.after(DURATIONS.domainMappingDelete, now);
        m.primary = false;
      }
      for (const m of result) sim.world.domain_mappings[`${prefix}/${m.domain}`] = m;
      env.update_time = new Date(now).toISOString();
      sim.store.touch();
    }
    return { domainMappings: result.map((m) => mappingView(sim.world, m, now)) };
  });

  const one = `${base}/:domain(^[^:/]+)`;

  app.post(`${one}::markPrimary`, async (req: Req) => {
    const { env, mapping } = requireMapping(req);
    parseBody(Empty, req.body, "domain_mapping");
    const now = sim.now();
    if (mappingState(mapping, now) === "DELETING") {
      throw badRequest(
        "domain_mapping",
        "domain",
        "The mapping is being deleted",
        "deleting",
        "value_unavailable",
      );
    }
    if (mapping.destination) {
      throw badRequest(
        "domain_mapping",
        "domain",
        "A redirecting mapping cannot be primary",
        "cannot_be_primary",
      );
    }
    for (const m of mappingsOf(sim, env, now)) m.primary = false;
    mapping.primary = true;
    sim.store.touch();
    return mappingView(sim.world, mapping, now);
  });

  app.post(`${one}::revalidate`, async (req: Req) => {
    const { mapping } = requireMapping(req);
    parseBody(Empty, req.body, "domain_mapping");
    return mappingView(sim.world, mapping, sim.now());
  });

  app.post(`${one}::verifyTxtRecord`, async (req: Req) => {
    const { mapping } = requireMapping(req);
    parseBody(Empty, req.body, "domain_mapping");
    if (!mapping.verified) {
      if (!sim.hasTxt(mapping.txt_name, mapping.txt_value)) {
        throw new ApiError(
          400,
          `TXT record not found: no TXT record ${mapping.txt_name} with value ${mapping.txt_value}`,
          [
            {
              resource: "domain_mapping",
              field: "txtVerification",
              type: "value_unavailable",
              code: "txt_record_not_found",
              message: `The TXT record ${mapping.txt_name} with value ${mapping.txt_value} was not found`,
            },
          ],
        );
      }
      mapping.verified = true;
      sim.store.touch();
    }
    return { domainMapping: mappingView(sim.world, mapping, sim.now()) };
  });
}
