import { describe, expect, it } from "vitest";
import { canonicalTime } from "../../provider/core/inputs";
import { isCreating as creates } from "../../provider/core/lifecycle";
import {
  adoptionMismatch,
  definition,
  scheduledTimeFailure,
  transferOutputs,
} from "../../provider/kinds/SiteTransfer";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const H = 3_600_000;
const SITE = "5e000000-0000-4000-8000-000000000003";
const DEST = "ac000000-0000-4000-8000-000000000003";

describe("scheduledTimeFailure", () => {
  it("accepts 1 hour to 7 days ahead, inclusive", () => {
    expect(scheduledTimeFailure(new Date(NOW + H).toISOString(), NOW)).toBeUndefined();
    expect(scheduledTimeFailure(new Date(NOW + 7 * 24 * H).toISOString(), NOW)).toBeUndefined();
    expect(scheduledTimeFailure(null, NOW)).toBeUndefined();
  });

  it("refuses earlier and later times, naming scheduledTime", () => {
    for (const at of [NOW + H - 1000, NOW + 7 * 24 * H + 1000, NOW - H]) {
      expect(scheduledTimeFailure(new Date(at).toISOString(), NOW)?.property).toBe("scheduledTime");
    }
  });
});

describe("isCreating", () => {
  const isCreating = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    creates(definition, olds, news);
  const olds = {
    siteId: SITE,
    destinationAccountId: DEST,
    scheduledTime: "2026-06-01T14:00:00.000Z",
    maintenanceMode: false,
  };

  it("is true without old inputs and when any input changes", () => {
    expect(isCreating({}, olds)).toBe(true);
    expect(isCreating(olds, { ...olds, maintenanceMode: true })).toBe(true);
    expect(isCreating(olds, { ...olds, scheduledTime: null })).toBe(true);
  });

  it("is false for the same transfer written differently", () => {
    expect(
      isCreating(olds, { ...olds, scheduledTime: "2026-06-01T16:00:00+02:00", siteId: SITE.toUpperCase() }),
    ).toBe(false);
    expect(isCreating({ ...olds, maintenanceMode: undefined }, olds)).toBe(false);
  });
});

describe("canonicalTime", () => {
  it("gives one spelling per instant and leaves other values alone", () => {
    expect(canonicalTime("2026-06-01T16:00:00+02:00")).toBe("2026-06-01T14:00:00.000Z");
    expect(canonicalTime(undefined)).toBeNull();
    expect(canonicalTime("soon")).toBe("soon");
  });
});

describe("transferOutputs and adoptionMismatch", () => {
  const base = { siteId: SITE, destinationAccountId: DEST, maintenanceMode: true };

  it("maps the record; fields the record lacks keep the inputs' values", () => {
    expect(
      transferOutputs({ id: "t", status: "scheduled", scheduled_time: "2026-06-01T16:00:00+02:00" }, base),
    ).toEqual({
      siteId: SITE,
      destinationAccountId: DEST,
      scheduledTime: "2026-06-01T14:00:00.000Z",
      maintenanceMode: true,
      transferId: "t",
      status: "scheduled",
      createdAt: null,
      updatedAt: null,
      site: null,
      installs: [],
      originAccount: null,
      destinationAccount: null,
    });
  });

  it("lists every setting that differs from the inputs", () => {
    const outs = transferOutputs(
      {
        id: "t",
        status: "pending",
        destination_account_id: "other",
        maintenance_mode: false,
      },
      base,
    );
    expect(adoptionMismatch(outs, { ...base, scheduledTime: "2026-06-01T14:00:00.000Z" })).toEqual([
      "its destination account is other",
      "its scheduled time is none (immediate)",
      "its maintenance mode is false",
    ]);
    expect(
      adoptionMismatch(
        { ...outs, destinationAccountId: DEST, maintenanceMode: true },
        { ...base, scheduledTime: null },
      ),
    ).toEqual([]);
  });
});
