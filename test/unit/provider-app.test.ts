import { describe, expect, it } from "vitest";
import { appOutputs, definition, normalizeRegion, regionMismatch } from "../../provider/kinds/App";

const { provider } = definition;

const AppInputsSchema = definition.inputs;

const ACCOUNT = "ac000000-0000-4000-8000-000000000001";

describe("App helpers", () => {
  it("normalises every accepted spelling of a region to its short form", () => {
    expect(normalizeRegion("regions/EU-W")).toBe("EU-W");
    expect(normalizeRegion(" us-c ")).toBe("US-C");
    expect(normalizeRegion("Regions/aus-se")).toBe("AUS-SE");
    expect(normalizeRegion(42)).toBe(42);
  });

  it("accepts region resource names and stores the short form", () => {
    const parsed = AppInputsSchema.parse({ accountId: ACCOUNT, name: "shop", region: "regions/UK" });
    expect(parsed.region).toBe("UK");
  });

  it("refuses app ids the service does not accept", () => {
    for (const name of ["Shop", "1shop", "shop-", "sh_op", "a".repeat(64), ""]) {
      const r = AppInputsSchema.safeParse({ accountId: ACCOUNT, name, region: "US-C" });
      expect(r.success, name).toBe(false);
    }
    expect(AppInputsSchema.safeParse({ accountId: ACCOUNT, name: "a", region: "US-C" }).success).toBe(true);
    expect(
      AppInputsSchema.safeParse({ accountId: ACCOUNT, name: "a".repeat(63), region: "US-C" }).success,
    ).toBe(true);
  });

  it("maps a service record to outputs in the input's terms", () => {
    const ctx = { parents: [ACCOUNT], key: "shop" };
    const outs = appOutputs(
      {
        name: `accounts/${ACCOUNT}/apps/shop`,
        appId: "shop",
        region: "regions/AUS-SE",
        createTime: "2025-01-01T00:00:00Z",
      },
      ctx,
    );
    // The account, an input the record lacks, is the lifecycle's to keep (from the inputs or the state).
    expect(outs).toEqual({
      name: "shop",
      region: "AUS-SE",
      resourceName: `accounts/${ACCOUNT}/apps/shop`,
      createTime: "2025-01-01T00:00:00Z",
      updateTime: null,
    });
  });

  it("explains a region mismatch on adoption with both regions and the way out", () => {
    const msg = regionMismatch({ parent: ACCOUNT, key: "shop" }, "US-C", "EU-W").message;
    expect(msg).toContain("region EU-W, not US-C");
    expect(msg).toContain("set region to EU-W");
  });
});

describe("App diff", () => {
  const olds = { accountId: ACCOUNT, name: "shop", region: "US-C", resourceName: "x" };

  it("shows no change for another spelling of the same region", async () => {
    expect(
      await provider.diff!("id", olds, { accountId: ACCOUNT, name: "shop", region: "regions/US-C" }),
    ).toEqual({
      changes: false,
    });
  });

  it("replaces on a region change, deleting first because the id stays the same", async () => {
    expect(await provider.diff!("id", olds, { accountId: ACCOUNT, name: "shop", region: "EU-W" })).toEqual({
      changes: true,
      replaces: ["region"],
      deleteBeforeReplace: true,
    });
  });

  it("replaces on a new id without deleting first (both can exist at once)", async () => {
    expect(await provider.diff!("id", olds, { accountId: ACCOUNT, name: "shop2", region: "EU-W" })).toEqual({
      changes: true,
      replaces: ["name", "region"],
    });
  });
});
