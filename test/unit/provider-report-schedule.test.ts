import { afterEach, describe, expect, it, vi } from "vitest";
import {
  isRunOf,
  nextRun,
  pickCreated,
  type ScheduleFields,
  scheduleOutputs,
  schedulePatch,
  sortRecipients,
} from "../../provider/kinds/ReportSchedule";

const T = "7e000000-0000-4000-8000-000000000001";
const wanted: ScheduleFields = {
  title: "Weekly",
  nextScheduledDate: "2026-06-01T09:00:00.000Z",
  templateUuid: T,
  frequency: { value: 7, unit: "DAYS" },
  recipients: [{ name: "Amy", email: "amy@example.com" }],
  sections: [{ name: "cover" }],
};
const listed = (uuid: string, over: Record<string, unknown> = {}) => ({
  uuid,
  title: "Weekly",
  next_scheduled_date: "2026-06-01T09:00:00Z",
  template_uuid: T,
  frequency: { value: 7, unit: "DAYS" },
  recipients: [{ name: "Amy", email: "amy@example.com" }],
  sections: [{ name: "cover" }],
  ...over,
});

describe("pickCreated", () => {
  it("takes the one new schedule with exactly the requested fields, among same-titled ones", () => {
    const after = [
      listed("old"),
      listed("other-new", { recipients: [{ name: "Bo", email: "bo@example.com" }] }),
      listed("mine"),
    ];
    const r = pickCreated(new Set(["old"]), after, wanted);
    expect(r).toMatchObject({ ok: true, match: "exact" });
    expect(r.ok && r.schedule.uuid).toBe("mine");
  });

  it("takes the only new schedule even when the service adjusted a field, and marks it", () => {
    const r = pickCreated(new Set(["old"]), [listed("old"), listed("mine", { title: "Weekly (1)" })], wanted);
    expect(r).toMatchObject({ ok: true, match: "only-new-schedule" });
  });

  it("fails clearly with no new schedule, several equal ones, or several differing ones", () => {
    expect(pickCreated(new Set(["old"]), [listed("old")], wanted)).toEqual({
      ok: false,
      reason: "the service accepted the create but no new schedule appears in the site's listing",
    });
    const twins = pickCreated(new Set(), [listed("a"), listed("b")], wanted);
    expect(twins.ok).toBe(false);
    expect(!twins.ok && twins.reason).toMatch(/^2 new schedules with exactly these fields appeared \(a, b\)/);
    const others = pickCreated(new Set(), [listed("a", { title: "x" }), listed("b", { title: "y" })], wanted);
    expect(!others.ok && others.reason).toMatch(/^2 new schedules appeared \(a, b\) and none has exactly/);
  });
});

describe("nextRun and isRunOf", () => {
  it("steps 7 or 14 days, or to the day of the next month, clamped to its last day", () => {
    expect(nextRun(new Date("2026-06-01T09:00:00Z"), { value: 14, unit: "DAYS" }).toISOString()).toBe(
      "2026-06-15T09:00:00.000Z",
    );
    expect(nextRun(new Date("2026-01-31T09:00:00Z"), { value: 31, unit: "MONTHLY" }).toISOString()).toBe(
      "2026-02-28T09:00:00.000Z",
    );
    expect(nextRun(new Date("2026-02-28T09:00:00Z"), { value: 31, unit: "MONTHLY" }).toISOString()).toBe(
      "2026-03-31T09:00:00.000Z",
    );
    expect(nextRun(new Date("2026-12-15T09:00:00Z"), { value: 15, unit: "MONTHLY" }).toISOString()).toBe(
      "2027-01-15T09:00:00.000Z",
    );
  });

  it("recognises a later run of the configured date, and nothing else", () => {
    const f = { value: 31, unit: "MONTHLY" };
    expect(isRunOf("2025-01-31T09:00:00.000Z", "2025-01-31T09:00:00.000Z", f)).toBe(true);
    expect(isRunOf("2025-01-31T09:00:00.000Z", "2025-04-30T09:00:00.000Z", f)).toBe(true);
    expect(isRunOf("2025-01-31T09:00:00.000Z", "2025-04-29T09:00:00.000Z", f)).toBe(false);
    expect(isRunOf("2025-01-31T09:00:00.000Z", "2024-12-31T09:00:00.000Z", f)).toBe(false);
    expect(isRunOf("2026-06-01T09:00:00.000Z", "2026-06-22T09:00:00.000Z", { value: 7, unit: "DAYS" })).toBe(
      true,
    );
  });

  it("keeps the configured date in the outputs while the listed one is a later run", () => {
    const s = listed("id", { next_scheduled_date: "2026-06-15T09:00:00Z" });
    expect(scheduleOutputs(s, { nextScheduledDate: "2026-06-01T09:00:00Z" })).toMatchObject({
      nextScheduledDate: "2026-06-01T09:00:00.000Z",
      nextRunDate: "2026-06-15T09:00:00.000Z",
    });
    expect(scheduleOutputs(s, { nextScheduledDate: "2026-06-02T09:00:00Z" }).nextScheduledDate).toBe(
      "2026-06-15T09:00:00.000Z",
    );
  });
});

describe("schedulePatch and sortRecipients", () => {
  const inputs = { siteId: "s", ...wanted, frequency: { value: 7, unit: "DAYS" as const } };

  it("is undefined when only recipient order or email case differ", () => {
    const have = { ...wanted, recipients: [{ name: "Amy", email: "AMY@example.com" }] };
    expect(schedulePatch(have, inputs)).toBeUndefined();
  });

  it("sends only the changed fields, in snake_case", () => {
    expect(schedulePatch({ ...wanted, title: "Old", sections: [{ name: "usage" }] }, inputs)).toEqual({
      title: "Weekly",
      sections: [{ name: "cover" }],
    });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-05-20T00:00:00Z") });
    expect(schedulePatch({ ...wanted, nextScheduledDate: "2026-05-01T09:00:00Z" }, inputs)).toEqual({
      next_scheduled_date: "2026-06-01T09:00:00.000Z",
    });
  });

  afterEach(() => vi.useRealTimers());

  it("sends a past date as its next run on the cadence (the service refuses a past date)", () => {
    // A colleague moved the schedule off its weekly cadence after its first run (2026-06-01).
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-06-10T00:00:00Z") });
    const moved = { ...wanted, nextScheduledDate: "2026-06-12T15:00:00.000Z" };
    expect(schedulePatch(moved, inputs)).toEqual({ next_scheduled_date: "2026-06-15T09:00:00.000Z" });
    // Unchanged, it is not sent at all.
    expect(schedulePatch({ ...wanted, title: "Old" }, inputs)).toEqual({ title: "Weekly" });
    // A new cadence sends it along, as its next run on that cadence: 2026-06-01 + 14 days.
    const fortnightly = { ...inputs, frequency: { value: 14, unit: "DAYS" as const } };
    expect(schedulePatch(wanted, fortnightly)).toEqual({
      frequency: { value: 14, unit: "DAYS" },
      next_scheduled_date: "2026-06-15T09:00:00.000Z",
    });
  });

  it("orders recipients by email without case, then name", () => {
    expect(
      sortRecipients([
        { name: "Z", email: "b@x.io" },
        { name: "B", email: "A@x.io" },
        { name: "A", email: "a@x.io" },
      ]),
    ).toEqual([
      { name: "A", email: "a@x.io" },
      { name: "B", email: "A@x.io" },
      { name: "Z", email: "b@x.io" },
    ]);
    const amys = [
      { name: "Amy", email: "b@x.io" },
      { name: "Amy", email: "A@x.io" },
    ];
    expect(scheduleOutputs(listed("id", { recipients: amys }), {}).recipients).toEqual([amys[1], amys[0]]);
  });
});
