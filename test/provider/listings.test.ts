/**
 * `pulumi do ... wpengine:<Kind> list` for every kind that has one: each object it finds has an import id
 * that `pulumi import` takes, and that object reads back by it.
 */
import { describe, expect, it } from "vitest";
import { importIdOf, parseImportId } from "../../provider/executable/registry";
import { KINDS } from "../../provider/registry";
import { SEED } from "../../simulator";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
const { acme } = SEED.accounts;
const { acmeFrontend } = SEED.apps;

/** The query of each listing, on the seeded account, and how many objects it finds at least (the seed holds
 * no certificate and no offload settings: those two only show that the listing takes the query). */
const QUERIES: Record<string, [query: Record<string, string>, atLeast: number]> = {
  AccountUser: [{ accountId: acme.id }, 1],
  App: [{ accountId: acme.id }, 1],
  Backup: [{ installId: SEED.installs.acmeprod.id }, 1],
  CacheExclusions: [{ installId: SEED.installs.acmeprod.id }, 1],
  Domain: [{ installId: SEED.installs.acmeprod.id }, 1],
  DomainMappings: [{ accountId: acme.id, appId: acmeFrontend.appId, environmentId: "production" }, 1],
  Environment: [{ accountId: acme.id, appId: acmeFrontend.appId }, 1],
  Install: [{ accountId: acme.id }, 3],
  InstallPlacement: [{ installId: SEED.installs.acmeprod.id }, 1],
  LetsEncryptCertificate: [{ installId: SEED.installs.acmeprod.id }, 0],
  OffloadSettings: [{ installId: SEED.installs.acmeprod.id }, 0],
  ReportSchedule: [{ siteId: SEED.sites.acmeMarketing.id }, 1],
  Site: [{ accountId: acme.id }, 1],
  // The seeded transfer of Acme Blog is cancelled: gone, so not listed.
  SiteTransfer: [{ siteId: SEED.sites.acmeBlog.id }, 0],
};

describe("every kind's listing", () => {
  it("has a query here for every kind that lists", () => {
    const listing = Object.keys(KINDS).filter((k) => KINDS[k]!.list);
    expect(Object.keys(QUERIES).sort()).toEqual(listing.sort());
  });

  for (const [kind, [query, atLeast]] of Object.entries(QUERIES))
    it(`${kind}: each object found reads back by its import id`, async () => {
      const found = await KINDS[kind]!.list!.items(query, fixture.client());
      expect(found.length).toBeGreaterThanOrEqual(atLeast);
      for (const { fields } of found) {
        const { id, olds } = parseImportId(kind, importIdOf(kind, fields));
        const read = await KINDS[kind]!.provider.read!(id, olds);
        expect(read.id, `${kind} ${JSON.stringify(fields)}`).toBe(id);
      }
    });
});
