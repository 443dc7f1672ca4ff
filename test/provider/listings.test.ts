/**
 * `pulumi do ... wpengine:<Kind> list` for every kind that has one: each object it finds has an import id
 * that `pulumi import` takes, and that object reads back by it.
 */
import { describe, expect, it } from "vitest";
import { importIdOf, parseImportId } from "../../provider/executable/registry";
import { KINDS } from "../../provider/registry";
import { SEED } from "../../simulator";
import { CASES } from "../engine/cases";
import { createOk } from "../support/provider";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
const { acme } = SEED.accounts;
const { acmeFrontend } = SEED.apps;

/** The query of each listing on the seeded service; `undefined`: the seed holds none, one is created first. */
const QUERIES: Record<string, Record<string, string> | undefined> = {
  AccountUser: { accountId: acme.id },
  App: { accountId: acme.id },
  Backup: { installId: SEED.installs.acmeprod.id },
  CacheExclusions: { installId: SEED.installs.acmeprod.id },
  Domain: { installId: SEED.installs.acmeprod.id },
  DomainMappings: { accountId: acme.id, appId: acmeFrontend.appId, environmentId: "production" },
  Environment: { accountId: acme.id, appId: acmeFrontend.appId },
  Install: { accountId: acme.id },
  InstallPlacement: { installId: SEED.installs.acmeprod.id },
  LetsEncryptCertificate: undefined,
  OffloadSettings: undefined,
  ReportSchedule: { siteId: SEED.sites.acmeMarketing.id },
  Site: { accountId: acme.id },
  // The seeded transfer (of Acme Blog) is cancelled, which reads as gone: not listed.
  SiteTransfer: undefined,
};

/** One object of `kind`, made by its own create from its engine case; the listing's query, from its inputs. */
async function created(kind: string): Promise<Record<string, string>> {
  const args = CASES.find((c) => c.kind === kind)!.args(SEED);
  const { outs } = await createOk(KINDS[kind]!.provider, args);
  const fields = Object.keys(KINDS[kind]!.list!.inputs.shape);
  return Object.fromEntries(fields.map((f) => [f, String(outs[f])]));
}

describe("every kind's listing", () => {
  it("has a query here for every kind that lists", () => {
    const listing = Object.keys(KINDS).filter((k) => KINDS[k]!.list);
    expect(Object.keys(QUERIES).sort()).toEqual(listing.sort());
  });

  it("leaves out a cancelled site transfer (it reads as gone)", async () => {
    const found = await KINDS["SiteTransfer"]!.list!.items(
      { siteId: SEED.sites.acmeBlog.id },
      fixture.client(),
    );
    expect(found).toEqual([]);
  });

  for (const [kind, seeded] of Object.entries(QUERIES))
    it(`${kind}: each object found reads back by its import id`, async () => {
      const query = seeded ?? (await created(kind));
      const found = await KINDS[kind]!.list!.items(query, fixture.client());
      expect(found.length, JSON.stringify(query)).toBeGreaterThan(0);
      for (const { fields } of found) {
        const { id, olds } = parseImportId(kind, importIdOf(kind, fields));
        const read = await KINDS[kind]!.provider.read!(id, olds);
        expect(read.id, `${kind} ${JSON.stringify(fields)}`).toBe(id);
      }
    });
});
