/**
 * Reads the estate the credentials see into a {@link Fleet}: the importer's batched discovery (lists at
 * the largest page size, read only, every listing sent once), then each account's plan limits and usage.
 * Nothing here writes.
 */

import { type ReadOnlyClient, readOnlyClient } from "../importer/client";
import { type Connection, connect, connectionConfig, refusedCredentials } from "../importer/connect";
import {
  all,
  discover,
  HOSTING_PAGE,
  type Selection,
  shares,
  unlessRefused,
  visible,
} from "../importer/discover";
import { CONFIG_KEYS, resolveProviderConfig } from "../provider/core/config";
import type { WpEngineClient } from "../sdk";
import { ENV } from "../sdk/core/config";
import { type Fleet, type FleetAccount, type InstallUsageLine, kindOfType, type PlanMetric } from "./rules";

const GB = 1e9;

const num = (v: unknown): number => {
  const n = typeof v === "string" ? Number(v) : typeof v === "number" ? v : 0;
  return Number.isFinite(n) ? n : 0;
};

type Rollup = Record<string, { sum?: unknown; latest?: { value?: unknown } | null } | null | undefined>;

/** Visits, bytes served and bytes stored of a rollup (the last 30 days; storage the latest value). */
function usageOf(r: Rollup | null | undefined) {
  const m = r ?? {};
  return {
    visits: num(m["visit_count"]?.sum),
    bytes: num(m["network_total_bytes"]?.sum),
    stored: num(m["storage_file_bytes"]?.latest?.value) + num(m["storage_database_bytes"]?.latest?.value),
  };
}

/**
 * Reads every account the credentials see (or those of `selection.accounts`, each one they see), read only;
 * `ro`: the read-only client of `client` that has listed them already.
 */
export async function readFleet(
  client: WpEngineClient,
  selection: Selection = {},
  ro: ReadOnlyClient = readOnlyClient(client),
): Promise<Fleet> {
  const readAt = new Date().toISOString();
  // Discovery lists everything once; the reads below are answered from what it listed.
  await discover(ro, { ...(selection.accounts ? { accounts: selection.accounts } : {}) });
  const c = ro.client;
  const listed = await all(c.accounts.iterate({ limit: HOSTING_PAGE }));
  const wanted = selection.accounts?.map((a) => a.toLowerCase());
  const accounts = wanted ? listed.filter((a) => wanted.includes(a.id.toLowerCase())) : listed;

  const fleet: Fleet = {
    readAt,
    accounts: [],
    sites: [],
    installs: [],
    domains: [],
    certificates: [],
    users: [],
    installUsage: [],
  };
  await Promise.all(
    accounts.map(async (a) => {
      const name = a.name ?? a.nickname ?? a.id;
      const [sites, installs, users, limits, usage] = await Promise.all([
        all(c.sites.iterate({ accountId: a.id, limit: HOSTING_PAGE })),
        all(c.installs.iterate({ accountId: a.id, limit: HOSTING_PAGE })),
        unlessRefused(c.accountUsers.list(a.id)),
        // Limits and usage are reads the importer does not list: asked of the service directly.
        unlessRefused(client.usage.accountLimits(a.id)),
        unlessRefused(client.usage.accountUsage(a.id, {}, { limit: 1000 })),
      ]);
      for (const s of sites) fleet.sites.push({ id: s.id, name: s.name, accountId: a.id });
      let visits = 0;
      let bytes = 0;
      let stored = 0;
      for (const e of usage?.environment_metrics ?? []) {
        const u = usageOf(e.metrics_rollup as Rollup);
        visits += u.visits;
        bytes += u.bytes;
        stored += u.stored;
        const line: InstallUsageLine = {
          installName: e.environment_name ?? "?",
          accountId: a.id,
          visits: u.visits,
          bandwidthGb: u.bytes / GB,
          storageGb: u.stored / GB,
        };
        fleet.installUsage.push(line);
      }
      const plan: PlanMetric[] = usage
        ? [
            { metric: "visitors", used: visits, limit: limits?.visitors ?? null, unit: "visits" },
            { metric: "bandwidth", used: bytes / GB, limit: limits?.bandwidth ?? null, unit: "GB" },
            { metric: "storage", used: stored / GB, limit: limits?.storage ?? null, unit: "GB" },
          ]
        : [];
      const account: FleetAccount = { id: a.id, name, plan };
      fleet.accounts.push(account);
      for (const u of users ?? []) {
        fleet.users.push({
          userId: u.user_id,
          accountId: a.id,
          email: u.email ?? u.user_id,
          roles: u.roles,
          mfaEnabled: u.mfa_enabled ?? null,
          inviteAccepted: u.invite_accepted ?? null,
          installIds: (u.installs ?? []).map((i) => i.id),
        });
      }
      await Promise.all(
        installs.map(async (i) => {
          fleet.installs.push({
            id: i.id,
            name: i.name,
            accountId: a.id,
            siteId: i.site?.id ?? null,
            environment: i.environment?.toLowerCase() ?? null,
            phpVersion: i.php_version ?? null,
            createdAt: i.created_at ?? null,
          });
          const [domains, certificates] = await Promise.all([
            // The call discovery made (the remembering client answers it): each page read once.
            c.domains.listAll(i.id),
            unlessRefused(all(c.certificates.iterateForInstall(i.id, { limit: HOSTING_PAGE }))),
          ]);
          for (const d of domains)
            fleet.domains.push({
              id: d.id,
              name: d.name,
              installId: i.id,
              ownershipStatus: d.ownership_status ?? (d.txt_verified_time ? "TXT_VERIFIED" : null),
              sslStatus: d.network_details?.network_info?.ssl?.status ?? null,
            });
          for (const cert of certificates ?? [])
            fleet.certificates.push({
              installId: i.id,
              commonName: cert.common_name ?? (cert.domains ?? []).join(", "),
              source: cert.cert_source ?? "CERT_SOURCE_UNSPECIFIED",
              status: cert.status ?? null,
              expiresTime: cert.expires_time ?? null,
            });
        }),
      );
    }),
  );
  return sorted(fleet);
}

/**
 * What several API users see, as one fleet ({@link mergeFleets}): each of `users`, a credential profile or
 * undefined for the default credentials, read in turn from the environment (`importer/connect.ts`). Every
 * one's credentials are found before anything is read; a refused one is named, with where it is set.
 */
export async function readEstate(
  env: NodeJS.ProcessEnv,
  users: readonly (string | undefined)[],
  selection: Selection = {},
): Promise<{ fleet: Fleet; calls: number }> {
  for (const user of users) connectionConfig(env, user);
  const fleets: Fleet[] = [];
  const conns: Connection[] = [];
  let calls = 0;
  try {
    for (const user of users) conns.push(await connect(env, user));
    const read = async <T>(conn: Connection, p: Promise<T>) =>
      p.catch((err) => Promise.reject(refusedCredentials(err, conn)));
    const ros = conns.map((conn) => readOnlyClient(conn.client));
    // An `--account` is one that any of them sees; each reads those it sees.
    const share = shares(
      selection,
      await Promise.all(conns.map((conn, i) => read(conn, visible(ros[i]!, selection)))),
    );
    // Each reads all it sees: a partial user sees part of an account that another sees whole.
    for (const [i, conn] of conns.entries())
      if (share[i]) fleets.push(await read(conn, readFleet(conn.client, share[i], ros[i])));
  } finally {
    for (const conn of conns) {
      calls += conn.calls();
      await conn.close();
    }
  }
  return { fleet: mergeFleets(fleets), calls };
}

/** A program's resource as the policy pack sees it (its inputs plain: a value not known yet absent). */
export interface ProgramResource {
  type: string;
  props: Record<string, unknown>;
  provider?: { type: string; props: Record<string, unknown> } | undefined;
}

/** The type of this provider's own provider resources (the stack's default one, an explicit one). */
const PROVIDER_TYPE = "pulumi:providers:wpengine";

/**
 * The API users a program's resources run as, for the audit: each profile one of them names (its
 * `profile` input, or its wpengine provider's, which holds the stack's `wpengine:profile`), `WPE_PROFILE`'s,
 * and the default credentials (undefined) when the environment has them; in simulator mode, its one
 * user. None: nothing to read as. (The engine hands a policy pack no stack config: their credentials come
 * from the environment.)
 */
export function apiUsersOf(
  resources: readonly ProgramResource[],
  env: NodeJS.ProcessEnv,
): (string | undefined)[] {
  if (resolveProviderConfig(env, {}).simulatorStateFile !== undefined) return [undefined];
  const profiles = new Set<string>();
  const add = (profile: unknown) => {
    if (typeof profile === "string" && profile !== "") profiles.add(profile);
  };
  for (const r of resources) {
    if (kindOfType(r.type) || r.type === PROVIDER_TYPE) add(r.props["profile"]);
    if (r.provider?.type === PROVIDER_TYPE) add(r.provider.props["profile"]);
  }
  add(env[CONFIG_KEYS.profile.env]);
  const fallback = env[ENV.username] && env[ENV.password] ? [undefined] : [];
  return [...fallback, ...[...profiles].sort()];
}

/**
 * The fleets several API users see, as one: the union of what each sees (a partial user sees part of an
 * account, another all of it), an object two of them see taken once; an account's plan and usage as the one who
 * sees most of it read them.
 */
export function mergeFleets(fleets: readonly Fleet[]): Fleet {
  const union = <T>(pick: (f: Fleet) => T[], key: (x: T) => string, better = (_a: T, _b: T) => false) => {
    const byKey = new Map<string, T>();
    for (const x of fleets.flatMap(pick)) {
      const had = byKey.get(key(x));
      if (!had || better(x, had)) byKey.set(key(x), x);
    }
    return [...byKey.values()];
  };
  // An account's plan and usage as the API user who sees most of it read them (usage counts what it sees).
  const seen = new Map<object, number>();
  for (const f of fleets)
    for (const a of f.accounts) seen.set(a, f.installs.filter((i) => i.accountId === a.id).length);
  return sorted({
    readAt: fleets[0]!.readAt,
    accounts: union(
      (f) => f.accounts,
      (a) => a.id,
      (a, had) =>
        seen.get(a)! > seen.get(had)! || (seen.get(a) === seen.get(had) && a.plan.length > had.plan.length),
    ),
    sites: union(
      (f) => f.sites,
      (s) => s.id,
    ),
    installs: union(
      (f) => f.installs,
      (i) => i.id,
    ),
    domains: union(
      (f) => f.domains,
      (d) => d.id,
    ),
    certificates: union(
      (f) => f.certificates,
      (c) => JSON.stringify([c.installId, c.commonName, c.source]),
    ),
    users: union(
      (f) => f.users,
      (u) => `${u.accountId}/${u.userId}`,
    ),
    installUsage: union(
      (f) => f.installUsage,
      (u) => `${u.accountId}/${u.installName}`,
    ),
  });
}

/** Stable order whatever the order answers came in. */
function sorted(fleet: Fleet): Fleet {
  const by =
    <T>(key: (x: T) => string) =>
    (x: T, y: T) =>
      key(x).localeCompare(key(y));
  fleet.accounts.sort(by((a) => a.name));
  fleet.sites.sort(by((s) => s.name));
  fleet.installs.sort(by((i) => i.name));
  fleet.domains.sort(by((d) => d.name));
  fleet.certificates.sort(by((x) => `${x.expiresTime}/${x.commonName}`));
  fleet.users.sort(by((u) => `${u.accountId}/${u.email}`));
  fleet.installUsage.sort(by((u) => u.installName));
  return fleet;
}
