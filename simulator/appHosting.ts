import { z } from "zod";
import { requireAccount } from "./auth";
import { iso } from "./clock";
import { notFound } from "./errors";
import { callerOf, type Req } from "./http";
import { buildState, buildUpdatedAt, mappingState } from "./lifecycle";
import type { Sim } from "./sim";
import type { AppRecord, BuildRecord, DomainMappingRecord, EnvironmentRecord, World } from "./store";

// Shared lookups and record views of the application-hosting API (docs/wire-format.md).

/** Ids of apps and environments: lower-case letters, digits and hyphens, starting with a letter. */
export const RESOURCE_ID = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

export const appKey = (accountId: string, appId: string) => `${accountId}/${appId}`;
export const envKey = (accountId: string, appId: string, envId: string) => `${accountId}/${appId}/${envId}`;

export function appName(a: { account_id: string; app_id: string }): string {
  return `accounts/${a.account_id}/apps/${a.app_id}`;
}

export function envName(e: { account_id: string; app_id: string; environment_id: string }): string {
  return `${appName(e)}/environments/${e.environment_id}`;
}

export function buildName(b: BuildRecord): string {
  return `${envName(b)}/builds/${b.build_id}`;
}

/** Fields of each record that only the service sets: a body may carry them back (read, edit, send). */
export const OUTPUT_ONLY = {
  app: ["name", "appId", "createTime", "updateTime"],
  environment: ["name", "environmentId", "domains", "build", "createTime", "updateTime", "reconciling"],
  domainMapping: ["name", "state", "destinationDomainMappingState", "txtVerification"],
} as const;

/**
 * A create or patch body of a record: output-only fields sent back (a client that read the record,
 * changed a field and sent it whole) are accepted and ignored, as a resource-oriented service does;
 * any other unknown field is still refused by the strict schema.
 */
export function writable<S extends z.ZodType>(outputOnly: readonly string[], schema: S) {
  return z.preprocess(
    (raw) =>
      raw !== null && typeof raw === "object" && !Array.isArray(raw)
        ? Object.fromEntries(Object.entries(raw).filter(([k]) => !outputOnly.includes(k)))
        : raw,
    schema,
  );
}

/** The account and app of the path; the caller needs Owner or Full on the account. */
export function requireApp(sim: Sim, req: Req): AppRecord {
  const account = requireAccount(sim.world, callerOf(req), req.params["account"]!, "admin");
  const app = sim.world.apps[appKey(account.id, req.params["app"]!)];
  if (!app) throw notFound("App");
  return app;
}

/** The environment of the path. */
export function requireEnvironment(sim: Sim, req: Req): EnvironmentRecord {
  const app = requireApp(sim, req);
  const env = sim.world.environments[envKey(app.account_id, app.app_id, req.params["env"]!)];
  if (!env) throw notFound("Environment");
  return env;
}

/** Mappings of an environment that still exist at `now` (including ones being created or deleted). */
export function mappingsOf(sim: Sim, env: EnvironmentRecord, now: number): DomainMappingRecord[] {
  const key = envKey(env.account_id, env.app_id, env.environment_id);
  return sim.store.of(sim.store.by.mappingsOfEnvironment, key).filter((m) => mappingState(m, now) !== null);
}

export function appView(a: AppRecord): Record<string, unknown> {
  return {
    name: appName(a),
    appId: a.app_id,
    region: a.region,
    uploadable: {},
    createTime: a.create_time,
    updateTime: a.update_time,
  };
}

export function environmentView(sim: Sim, e: EnvironmentRecord): Record<string, unknown> {
  const now = sim.now();
  return {
    name: envName(e),
    environmentId: e.environment_id,
    displayName: e.display_name,
    branch: e.branch,
    rootDirectory: e.root_directory,
    domains: mappingsOf(sim, e, now)
      .filter((m) => mappingState(m, now) !== "DELETING")
      .map((m) => m.domain),
    build: e.build,
    createTime: e.create_time,
    updateTime: e.update_time,
    reconciling: now < e.reconcile_until,
  };
}

export function buildView(b: BuildRecord, now: number): Record<string, unknown> {
  return {
    name: buildName(b),
    buildId: b.build_id,
    state: buildState(b, now),
    createTime: iso(b.created_at),
    updateTime: iso(buildUpdatedAt(b, now)),
    source: "upload",
  };
}

export function mappingView(world: World, m: DomainMappingRecord, now: number): Record<string, unknown> {
  const view: Record<string, unknown> = {
    name: `${envName(m)}/domainMappings/${m.domain}`,
    domain: m.domain,
    primary: m.primary,
    state: mappingState(m, now) ?? "STATE_UNSPECIFIED",
  };
  if (m.destination) {
    view["destinationDomainMapping"] = m.destination;
    const target =
      world.domain_mappings[`${envKey(m.account_id, m.app_id, m.environment_id)}/${m.destination}`];
    view["destinationDomainMappingState"] = (target && mappingState(target, now)) ?? "STATE_UNSPECIFIED";
  }
  view["txtVerification"] = { name: m.txt_name, value: m.txt_value, verified: m.verified };
  return view;
}
