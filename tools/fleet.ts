/**
 * An agency's fleet in the simulator, made through the API as a user's account came to be: `sites` sites
 * of two installs each (production and staging), `domainsPerInstall` domains on each install (bulk adds of
 * 20), a cache exclusion on each production install. The importer's test and bench read it back.
 */
import type { WpEngineClient } from "../sdk";
import { SEED } from "../simulator";

export interface Fleet {
  installs: number;
  domains: number;
}

async function pool<T>(items: readonly T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function buildFleet(
  client: WpEngineClient,
  { sites = 25, domainsPerInstall = 20, accountId = SEED.accounts.acme.id } = {},
): Promise<Fleet> {
  let installs = 0;
  let domains = 0;
  await pool(
    Array.from({ length: sites }, (_, i) => i),
    8,
    async (i) => {
      const n = String(i + 1).padStart(2, "0");
      const site = await client.sites.create({ name: `Fleet client ${n}`, account_id: accountId });
      for (const environment of ["production", "staging"] as const) {
        const name = `fleet${n}${environment === "production" ? "prod" : "stg"}`;
        const install = await client.installs.create({
          name,
          account_id: accountId,
          site_id: site.id,
          environment,
        });
        installs++;
        const names = Array.from({ length: domainsPerInstall }, (_, d) => `d${d + 1}.${name}.example`);
        for (let k = 0; k < names.length; k += 20) {
          await client.domains.createBulk(install.id, {
            domains: names.slice(k, k + 20).map((x) => ({ name: x })),
          });
        }
        domains += names.length;
        if (environment === "production")
          await client.cacheExclusions.replace(install.id, [
            { type: "url path", value: `^/${name}/private/` },
          ]);
      }
    },
  );
  return { installs, domains };
}
