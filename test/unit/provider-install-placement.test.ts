import { describe, expect, it } from "vitest";
import { placementOutputs, placementPatch } from "../../provider/kinds/InstallPlacement";

const SITE = "5e000000-0000-4000-8000-000000000001";
const OTHER = "5e000000-0000-4000-8000-000000000002";

describe("placementPatch", () => {
  it("is undefined when the install is already there (site id compared without case)", () => {
    expect(
      placementPatch(
        { siteId: SITE.toUpperCase(), environment: "staging" },
        { siteId: SITE, environment: "staging" },
      ),
    ).toBeUndefined();
  });

  it("sends only what differs", () => {
    expect(
      placementPatch({ siteId: SITE, environment: "staging" }, { siteId: OTHER, environment: "staging" }),
    ).toEqual({
      site_id: OTHER,
    });
    expect(
      placementPatch({ siteId: SITE, environment: "staging" }, { siteId: SITE, environment: "production" }),
    ).toEqual({
      environment: "production",
    });
    expect(
      placementPatch({ siteId: null, environment: null }, { siteId: SITE, environment: "development" }),
    ).toEqual({
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
