/**
 * What the quickstart (examples/quickstart) leaves on the service: empty after its destroy. Shared by
 * the demo (tools/demo.ts) and the CLI tier's quickstart test.
 */
import type { WpEngineClient } from "../sdk";
import { SEED } from "../simulator/seed";

/** The quickstart's objects still on the service, by the `baseDomain` the stack was given. */
export async function quickstartLeftovers(client: WpEngineClient, baseDomain: string): Promise<string[]> {
  const left: string[] = [];
  for await (const d of client.domains.iterate(SEED.installs.acmeprod.id)) {
    if (d.name.endsWith(baseDomain)) left.push(`domain ${d.name}`);
  }
  for (const u of await client.accountUsers.list(SEED.accounts.acme.id)) {
    if (u.email?.endsWith(`@${baseDomain}`)) left.push(`account user ${u.email}`);
  }
  for (const s of await client.reportSchedules.list(SEED.sites.acmeMarketing.id)) {
    if (s.title === "Quickstart monthly report") left.push(`report schedule ${s.title}`);
  }
  for await (const a of client.apps.iterate(SEED.accounts.acme.id)) {
    if (String(a.name).endsWith("/quickstart-frontend")) left.push(`app ${a.name}`);
  }
  const writable = (await client.cacheExclusions.get(SEED.installs.acmeprod.id)).filter(
    (e) => e.type !== "cookie",
  );
  if (writable.length) left.push(`${writable.length} cache exclusions`);
  return left;
}
