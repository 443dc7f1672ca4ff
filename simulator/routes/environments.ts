import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  environmentView,
  envKey,
  OUTPUT_ONLY,
  RESOURCE_ID,
  requireApp,
  requireEnvironment,
  writable,
} from "../appHosting";
import { DURATIONS } from "../clock";
import { ApiError, badRequest } from "../errors";
import { page, parseBody, queryParam, type Req } from "../http";
import type { Sim } from "../sim";
import type { EnvironmentRecord } from "../store";

const Fields = {
  displayName: z.string().min(1).max(100),
  branch: z.string().min(1).max(255),
  rootDirectory: z.string().max(255),
};

const CreateEnvironment = writable(
  OUTPUT_ONLY.environment,
  z.strictObject({ ...Fields, rootDirectory: Fields.rootDirectory.optional() }),
);
const PatchEnvironment = writable(OUTPUT_ONLY.environment, z.strictObject(Fields).partial());
const MUTABLE = ["displayName", "branch", "rootDirectory"] as const;
type Mutable = (typeof MUTABLE)[number];

const FILTER = /^\s*parentEnvironment\s*=\s*"([^"]*)"\s*$/;

function apply(env: EnvironmentRecord, field: Mutable, value: string | undefined): void {
  if (field === "displayName" || field === "branch") {
    if (!value) throw badRequest("environment", field, `${field} cannot be empty`, "required");
    if (field === "displayName") env.display_name = value;
    else env.branch = value;
  } else {
    env.root_directory = value ?? "";
  }
}

/** Environments of an app: list (with `filter`), create, read, update (`updateMask`, `validateOnly`), delete, clear cache. */
export function registerEnvironments(app: FastifyInstance, sim: Sim): void {
  const base = "/v1/accounts/:account/apps/:app/environments";

  app.get(base, async (req: Req) => {
    const found = requireApp(sim, req);
    const filter = queryParam(req, "filter");
    let parent: string | null = null;
    if (filter) {
      const match = FILTER.exec(filter);
      if (!match) throw badRequest("environment", "filter", 'filter must look like parentEnvironment="..."');
      parent = match[1]!;
    }
    // Environments made here have no parent environment.
    const envs = Object.values(sim.world.environments).filter(
      (e) =>
        e.account_id === found.account_id && e.app_id === found.app_id && (parent === null || parent === ""),
    );
    const { items, nextPageToken } = page(
      req,
      envs.map((e) => environmentView(sim, e)),
    );
    return nextPageToken ? { environments: items, nextPageToken } : { environments: items };
  });

  app.post(base, async (req: Req) => {
    const found = requireApp(sim, req);
    const environmentId = queryParam(req, "environmentId");
    if (!environmentId)
      throw badRequest("environment", "environmentId", "environmentId is required", "required");
    if (!RESOURCE_ID.test(environmentId)) {
      throw badRequest(
        "environment",
        "environmentId",
        "environmentId must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter",
      );
    }
    const body = parseBody(CreateEnvironment, req.body, "environment");
    const key = envKey(found.account_id, found.app_id, environmentId);
    if (sim.world.environments[key]) {
      throw new ApiError(409, `Environment ${environmentId} already exists`, [
        {
          resource: "environment",
          field: "environmentId",
          type: "value_unavailable",
          code: "already_exists",
        },
      ]);
    }
    const now = sim.now();
    const env: EnvironmentRecord = {
      account_id: found.account_id,
      app_id: found.app_id,
      environment_id: environmentId,
      display_name: body.displayName,
      branch: body.branch,
      root_directory: body.rootDirectory ?? "",
      build: "",
      create_time: new Date(now).toISOString(),
      update_time: new Date(now).toISOString(),
      reconcile_until: sim.clock.after(DURATIONS.environmentReconcile, now),
      cache_cleared_at: null,
    };
    sim.world.environments[key] = env;
    sim.store.touch();
    return environmentView(sim, env);
  });

  // The colon verbs are literal suffixes after a parameter that cannot itself hold a colon.
  const one = `${base}/:env(^[^:/]+)`;

  app.get(one, async (req: Req) => environmentView(sim, requireEnvironment(sim, req)));

  app.patch(one, async (req: Req) => {
    const env = requireEnvironment(sim, req);
    const body = parseBody(PatchEnvironment, req.body, "environment");
    const mask = queryParam(req, "updateMask");
    const validateOnly = queryParam(req, "validateOnly");
    if (validateOnly !== undefined && validateOnly !== "true" && validateOnly !== "false") {
      throw badRequest("environment", "validateOnly", "validateOnly must be true or false");
    }
    let fields: Mutable[];
    if (mask) {
      fields = mask.split(",").map((f) => f.trim()) as Mutable[];
      for (const f of fields) {
        if (!(MUTABLE as readonly string[]).includes(f)) {
          throw badRequest("environment", "updateMask", `${f} cannot be updated (use ${MUTABLE.join(", ")})`);
        }
      }
    } else {
      fields = MUTABLE.filter((f) => body[f] !== undefined);
    }
    const next: EnvironmentRecord = { ...env };
    for (const f of fields) apply(next, f, body[f]);
    if (validateOnly === "true") return environmentView(sim, next);
    const now = sim.now();
    next.update_time = new Date(now).toISOString();
    next.reconcile_until = sim.clock.after(DURATIONS.environmentReconcile, now);
    sim.world.environments[envKey(env.account_id, env.app_id, env.environment_id)] = next;
    sim.store.touch();
    return environmentView(sim, next);
  });

  app.delete(one, async (req: Req) => {
    const env = requireEnvironment(sim, req);
    const world = sim.world;
    const key = envKey(env.account_id, env.app_id, env.environment_id);
    delete world.environments[key];
    for (const table of [world.builds, world.domain_mappings]) {
      for (const k of Object.keys(table)) if (k.startsWith(`${key}/`)) delete table[k];
    }
    sim.store.touch();
    return {};
  });

  app.post(`${one}::clearCache`, async (req: Req) => {
    const env = requireEnvironment(sim, req);
    parseBody(z.strictObject({}), req.body, "environment");
    env.cache_cleared_at = sim.clock.iso();
    sim.store.touch();
    return {};
  });
}
