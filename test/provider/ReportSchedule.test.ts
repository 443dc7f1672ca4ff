import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/ReportSchedule";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const MARKETING = SEED.sites.acmeMarketing.id;
const SITE_REPORT = SEED.templates.siteReport.uuid;
const SEEDED = SEED.reportSchedules.acmeMonthly;

const client = fixture.client;

/** A date `days` ahead of the simulator's clock (which tests move forward). */
const simDaysAhead = (days: number) => {
  const now = Date.parse(fixture.sim.advance(0));
  const d = new Date(now + days * 86_400_000);
  d.setUTCHours(9, 0, 0, 0);
  return d.toISOString().replace(".000Z", "Z");
};

const weekly = () => ({
  siteId: MARKETING,
  title: "Weekly health",
  nextScheduledDate: simDaysAhead(3),
  templateUuid: SITE_REPORT,
  frequency: { value: 7, unit: "DAYS" },
  recipients: [
    { name: "Zed Ops", email: "zed@acme.example" },
    { name: "Amy Ops", email: "amy@acme.example" },
  ],
  sections: [{ name: "usage" }, { name: "cover" }],
});

const listed = () => client().reportSchedules.list(MARKETING);

describe("ReportSchedule lifecycle", () => {
  it("creates, finds its id, reads back the same outputs, and a second diff shows no changes", async () => {
    const args = weekly();
    const { id, outs } = await createOk(provider, args);
    const mine = (await listed()).find((s) => s.uuid === id);
    expect(mine?.title).toBe("Weekly health");
    expect(outs).toMatchObject({
      scheduleId: id,
      createMatch: "exact",
      nextScheduledDate: new Date(args.nextScheduledDate).toISOString(),
      nextRunDate: new Date(args.nextScheduledDate).toISOString(),
      // Recipients are a set: the program's order is kept while the service holds the same set (it sorts
      // them by email); sections keep the report's order.
      recipients: args.recipients,
      sections: [{ name: "usage" }, { name: "cover" }],
    });

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({
      siteId: MARKETING,
      title: "Weekly health",
      nextScheduledDate: outs["nextScheduledDate"],
      templateUuid: SITE_REPORT,
      frequency: { value: 7, unit: "DAYS" },
      recipients: outs["recipients"],
      sections: outs["sections"],
    });
    expect(await diff(provider, id, outs, args)).toEqual({ changes: false });
    expect(
      await diff(provider, id, outs, {
        ...args,
        frequency: { value: 7, unit: "days" },
        recipients: [...args.recipients].reverse(),
      }),
    ).toEqual({ changes: false });
    // Section order is the report's order: a different order is a change.
    expect(
      await diff(provider, id, outs, { ...args, sections: [{ name: "cover" }, { name: "usage" }] }),
    ).toEqual({
      changes: true,
    });
  });

  it("finds exactly its own schedule when one with the same title is created concurrently", async () => {
    const args = weekly();
    // Hold the provider's POST so that another client creates a same-titled schedule in between.
    fixture.sim.setFaults([{ method: "POST", path: "/v1/site_reports/schedules", latencyMs: 800, count: 1 }]);
    // Checked first (its look ahead lists too): the create's own listing is the one held below.
    const checked = await checkOk(provider, args);
    fixture.sim.clearRequests();
    const creating = provider.create(checked);
    await fixture.sim.served((r) => r.method === "GET" && r.path === "/v1/site_reports/schedules");
    await client().reportSchedules.create({
      site_id: MARKETING,
      title: args.title,
      next_scheduled_date: args.nextScheduledDate,
      template_uuid: SITE_REPORT,
      frequency: { value: 7, unit: "DAYS" },
      recipients: [{ name: "Someone Else", email: "else@acme.example" }],
      sections: [{ name: "cover" }],
    });
    const { id, outs } = await creating;
    // The other create was answered right after the provider's snapshot, before its second listing
    // (the log is written as answers finish, so the provider's own POST may be logged last).
    const log = fixture.sim
      .requests()
      .filter((r) => r.path === "/v1/site_reports/schedules")
      .map((r) => r.method);
    expect(log.slice(0, 2)).toEqual(["GET", "POST"]);
    expect([...log].sort()).toEqual(["GET", "GET", "POST", "POST"]);
    const same = (await listed()).filter((s) => s.title === args.title);
    expect(same).toHaveLength(2);
    const other = same.find((s) => s.uuid !== id);
    expect(other?.recipients?.[0]?.email).toBe("else@acme.example");
    expect(outs["createMatch"]).toBe("exact");
    expect(outs["recipients"]).toEqual(args.recipients);
  });

  it("updates every field but the site in place, and a change of site replaces", async () => {
    const args = weekly();
    const { id, outs } = await createOk(provider, args);
    const changed = {
      ...args,
      title: "Monthly health",
      nextScheduledDate: simDaysAhead(10),
      frequency: { value: 15, unit: "MONTHLY" },
      recipients: [{ name: "Amy Ops", email: "amy@acme.example" }],
      sections: [{ name: "cover" }, { name: "themes" }, { name: "plugins" }],
    };
    const news = await checkOk(provider, changed, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, outs, news);
    expect(updated.outs).toMatchObject({
      scheduleId: id,
      title: "Monthly health",
      frequency: { value: 15, unit: "MONTHLY" },
      recipients: [{ name: "Amy Ops", email: "amy@acme.example" }],
      sections: changed.sections,
      nextScheduledDate: new Date(changed.nextScheduledDate).toISOString(),
      createMatch: "exact",
    });
    const live = (await listed()).find((s) => s.uuid === id);
    expect(live?.title).toBe("Monthly health");
    expect(await diff(provider, id, updated.outs!, changed)).toEqual({ changes: false });
    expect(await diff(provider, id, updated.outs!, { ...changed, siteId: SEED.sites.acmeBlog.id })).toEqual({
      changes: true,
      replaces: ["siteId"],
    });
  });

  it("does not count the service moving the next date on after a run as drift", async () => {
    const args = weekly();
    const { id, outs } = await createOk(provider, args);
    fixture.sim.advance(4 * 86_400); // the first run (3 days ahead) has happened
    const read = await provider.read!(id, outs);
    expect(read.props?.["nextScheduledDate"]).toBe(outs["nextScheduledDate"]);
    expect(read.props?.["nextRunDate"]).toBe(
      new Date(Date.parse(outs["nextScheduledDate"] as string) + 7 * 86_400_000).toISOString(),
    );
    expect(await diff(provider, id, read.props!, args)).toEqual({ changes: false });
  });

  it("sees an out-of-band change in read and diff", async () => {
    const args = weekly();
    const { id, outs } = await createOk(provider, args);
    const moved = simDaysAhead(5);
    await client().reportSchedules.update(id, { title: "Renamed by hand", next_scheduled_date: moved });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({
      title: "Renamed by hand",
      nextScheduledDate: new Date(moved).toISOString(),
    });
    expect(read.inputs).toMatchObject({ title: "Renamed by hand" });
    expect(await diff(provider, id, read.props!, args)).toEqual({ changes: true });
  });

  it("deletes the schedule; a read afterwards returns an empty id and a second delete succeeds", async () => {
    const { id, outs } = await createOk(provider, weekly());
    await provider.delete!(id, outs);
    expect((await listed()).some((s) => s.uuid === id)).toBe(false);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await provider.delete!(id, outs);
  });
});

describe("ReportSchedule check", () => {
  it("names every rule's failure", async () => {
    const args = weekly();
    expect(await checkFails(provider, { ...args, frequency: { value: 5, unit: "DAYS" } })).toEqual([
      "frequency.value: with unit DAYS the value must be 7 (weekly) or 14 (every two weeks), got 5",
    ]);
    expect(await checkFails(provider, { ...args, frequency: { value: 32, unit: "MONTHLY" } })).toEqual([
      "frequency.value: with unit MONTHLY the value is the day of the month, 1 to 31, got 32",
    ]);
    expect(await checkFails(provider, { ...args, frequency: { value: 0, unit: "monthly" } })).toEqual([
      "frequency.value: with unit MONTHLY the value is the day of the month, 1 to 31, got 0",
    ]);
    expect(await checkFails(provider, { ...args, frequency: { value: 1, unit: "WEEKLY" } })).toEqual([
      "frequency.unit: frequency.unit must be DAYS or MONTHLY",
    ]);
    expect(await checkFails(provider, { ...args, frequency: { value: 7.5, unit: "DAYS" } })).toEqual([
      "frequency.value: frequency.value must be an integer",
    ]);
    expect(await checkFails(provider, { ...args, nextScheduledDate: "next tuesday" })).toEqual([
      "nextScheduledDate: nextScheduledDate must be an ISO 8601 date-time with a zone, e.g. 2026-06-01T09:00:00Z",
    ]);
    expect(await checkFails(provider, { ...args, templateUuid: "site-report" })).toEqual([
      "templateUuid: templateUuid must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(
      await checkFails(provider, { ...args, recipients: [{ name: "X", email: "x-at-example" }] }),
    ).toEqual(["recipients[0].email: recipients[].email must be an email address"]);
    expect(await checkFails(provider, { ...args, recipients: [] })).toEqual([
      "recipients: recipients must list at least one {name, email}",
    ]);
    expect(await checkFails(provider, { ...args, sections: [] })).toEqual([
      "sections: sections must list at least one {name}",
    ]);
    expect(await checkFails(provider, { ...args, sections: [{ name: " " }] })).toEqual([
      "sections[0].name: sections[].name must not be empty",
    ]);
    expect(await checkFails(provider, { ...args, title: "" })).toEqual(["title: title must not be empty"]);
  });

  it("sends a past nextScheduledDate as its next run on the cadence, on create and when set back after drift", async () => {
    // Every 14 days, started ten runs ago: its next run is 13 days ahead (ahead of the simulator's clock too).
    const next = new Date(Date.now() + 13 * 86_400_000);
    next.setUTCHours(9, 0, 0, 0);
    const anchor = new Date(next.getTime() - 10 * 14 * 86_400_000).toISOString();
    const args = { ...weekly(), title: "Fortnightly", nextScheduledDate: anchor };
    args.frequency = { value: 14, unit: "DAYS" };
    const { id, outs } = await createOk(provider, args);
    // The program's date stays the recorded one (the live date is one of its runs): no drift.
    expect(outs).toMatchObject({
      nextScheduledDate: anchor,
      nextRunDate: next.toISOString(),
      createMatch: "exact",
    });
    expect(await diff(provider, id, outs, args)).toEqual({ changes: false });
    // A colleague moves it off its cadence: drift, and the update puts it back on its next run.
    const off = new Date(next.getTime() + 86_400_000).toISOString();
    await client().reportSchedules.update(id, { next_scheduled_date: off });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ nextScheduledDate: off });
    const news = await checkOk(provider, args, read.inputs!);
    expect(await provider.diff!(id, read.props!, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, read.props!, news);
    expect(updated.outs).toMatchObject({ nextScheduledDate: anchor, nextRunDate: next.toISOString() });
    const live = (await listed()).find((s) => s.uuid === id);
    expect(Date.parse(live!.next_scheduled_date!)).toBe(next.getTime());
  });

  it("passes unknown values through and skips the rules that read them", async () => {
    const args = weekly();
    const inputs = await checkOk(provider, {
      ...args,
      siteId: UNKNOWN,
      frequency: { value: UNKNOWN, unit: "DAYS" },
      recipients: [{ name: "Ops", email: UNKNOWN }],
    });
    expect(inputs).toMatchObject({
      siteId: UNKNOWN,
      frequency: { value: UNKNOWN, unit: "DAYS" },
      recipients: [{ name: "Ops", email: UNKNOWN }],
    });
  });
});

describe("ReportSchedule adoption and service errors", () => {
  const seeded = {
    siteId: MARKETING,
    title: SEEDED.title,
    nextScheduledDate: "2025-01-31T09:00:00Z",
    templateUuid: SITE_REPORT,
    frequency: { value: 31, unit: "MONTHLY" },
    recipients: [{ name: "Olive Owner", email: "owner@acme.example" }],
    sections: [{ name: "cover" }, { name: "overview" }, { name: "usage" }],
  };

  it("fails on an existing title without adopt, and takes the schedule over with it", async () => {
    // (Checked as adopting: preview refuses a past date that a create without adopt would send.)
    const { adopt: _adopt, ...checked } = await checkOk(provider, { ...seeded, adopt: true });
    await expect(provider.create(checked)).rejects.toThrow(
      `wpengine:ReportSchedule create failed: 1 report schedule(s) titled "${SEEDED.title}" already exist on site ${MARKETING} (${SEEDED.uuid}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true`,
    );
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, { ...seeded, adopt: true });
    expect(id).toBe(SEEDED.uuid);
    expect(outs["createMatch"]).toBe("adopted");
    // The listed date has moved on from the seeded first run: that is the same schedule, not drift.
    expect(outs["nextScheduledDate"]).toBe("2025-01-31T09:00:00.000Z");
    expect(Date.parse(outs["nextRunDate"] as string)).toBeGreaterThan(Date.parse("2025-01-31T09:00:00Z"));
    expect(fixture.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(await diff(provider, id, outs, { ...seeded, adopt: true })).toEqual({ changes: false });
  });

  it("brings an adopted schedule to the declared fields", async () => {
    const { outs } = await createOk(provider, { ...seeded, sections: [{ name: "cover" }], adopt: true });
    expect(outs["sections"]).toEqual([{ name: "cover" }]);
    expect((await listed()).find((s) => s.uuid === SEEDED.uuid)?.sections).toEqual([{ name: "cover" }]);
  });

  it("refuses to adopt when several schedules share the title, naming the count", async () => {
    await client().reportSchedules.create({
      site_id: MARKETING,
      title: SEEDED.title,
      next_scheduled_date: simDaysAhead(2),
      template_uuid: SITE_REPORT,
      frequency: { value: 14, unit: "DAYS" },
      recipients: [{ name: "Ops", email: "ops@acme.example" }],
      sections: [{ name: "cover" }],
    });
    // Refused at preview already; create, sent past the check, says the same.
    const refusal =
      /cannot adopt: 2 report schedules titled "Acme monthly report" exist on site .*adoption needs exactly one/;
    const inputs = await refusedAtCheck(provider, { ...seeded, adopt: true }, refusal);
    await expect(provider.create(inputs)).rejects.toThrow(refusal);
  });

  it("turns the service's refusal of a section into a message naming sections", async () => {
    // "performance" belongs to the Performance Report template, not the Site Report.
    const args = { ...weekly(), sections: [{ name: "cover" }, { name: "performance" }] };
    await expect(provider.create(await checkOk(provider, args))).rejects.toThrow(
      /wpengine:ReportSchedule create failed: .*performance is not a section of the template Site Report.*\(input "sections/,
    );
    expect((await listed()).some((s) => s.title === args.title)).toBe(false);
    const { id, outs } = await createOk(provider, weekly());
    const bad = await checkOk(provider, { ...weekly(), sections: [{ name: "performance" }] }, outs);
    await expect(provider.update!(id, outs, bad)).rejects.toThrow(/update failed: .*\(input "sections/);
  });
});
