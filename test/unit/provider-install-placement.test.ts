import { describe, expect, it } from "vitest";
import type { Context } from "../../provider/core/lifecycle";
import { definition, placementOutputs } from "../../provider/kinds/InstallPlacement";
import type { WpEngineClient } from "../../sdk";

const SITE = "5e000000-0000-4000-8000-000000000001";
const OTHER = "5e000000-0000-4000-8000-000000000002";

/** The PATCH an update sends to move the install, now at `at`, to `want` (`undefined` when none is sent). */
async function patchOf(
  at: { siteId?: string; environment?: string },
  want: { siteId: string; environment: string },
) {
  const install = {
    id: "i",
    name: "acmedev",
    site: at.siteId ? { id: at.siteId } : undefined,
    environment: at.environment,
  };
  const sent: unknown[] = [];
  const installs = {
    get: async () => install,
    update: async (_id: string, patch: unknown) => {
      sent.push(patch);
      return install;
    },
  };
  const ctx = { client: { installs } as unknown as WpEngineClient, parent: "i" } as Context;
  await definition.update!("i", placementOutputs(install), { installId: "i", ...want }, ctx);
  expect(sent.length).toBeLessThan(2);
  return sent[0];
}

describe("InstallPlacement update", () => {
  it("sends nothing when the install is already there (site id compared without case)", async () => {
    expect(
      await patchOf(
        { siteId: SITE.toUpperCase(), environment: "staging" },
        { siteId: SITE, environment: "staging" },
      ),
    ).toBeUndefined();
  });

  it("sends only what differs", async () => {
    expect(
      await patchOf({ siteId: SITE, environment: "staging" }, { siteId: OTHER, environment: "staging" }),
    ).toEqual({
      site_id: OTHER,
    });
    expect(
      await patchOf({ siteId: SITE, environment: "staging" }, { siteId: SITE, environment: "production" }),
    ).toEqual({
      environment: "production",
    });
    expect(await patchOf({}, { siteId: SITE, environment: "development" })).toEqual({
      site_id: SITE,
      environment: "development",
    });
  });
});

describe("placementOutputs", () => {
  it("maps the install record, with nulls for what it lacks", () => {
    expect(
      placementOutputs({ id: "i", name: "acmedev", site: { id: SITE }, environment: "Staging" }),
    ).toEqual({
      installId: "i",
      siteId: SITE,
      environment: "staging",
      installName: "acmedev",
      accountId: null,
      cname: null,
      primaryDomain: null,
      status: null,
    });
  });
});
