import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { sites: S, accounts: A, templates: T, reportSchedules: R } = SEED;
const DAY = 86_400_000;

async function simNow(sim: ReturnType<ReturnType<typeof useSimulator>>): Promise<number> {
  return Date.parse((await call(sim, "GET", "/__sim/clock")).body.now);
}

const schedule = (nextDate: string, extra: Record<string, unknown> = {}) => ({
  site_id: S.acmeMarketing.id,
  title: "Weekly report",
  next_scheduled_date: nextDate,
  template_uuid: T.siteReport.uuid,
  frequency: { value: 7, unit: "DAYS" },
  recipients: [{ name: "Olive", email: "owner@acme.example" }],
  sections: [{ name: "cover" }, { name: "usage" }],
  ...extra,
});

describe("report templates and schedules", () => {
  const sim = useSimulator();

  it("lists templates with their sections for an account ({templates})", async () => {
    const r = await call(sim(), "GET", `/v1/site_reports/templates?account_id=${A.acme.id}`);
    expect(r.status).toBe(200);
    expect(r.body.templates).toContainEqual(
      expect.objectContaining({
        uuid: T.siteReport.uuid,
        name: "Site Report",
        sections: T.siteReport.sections.map((name) => ({ name })),
      }),
    );
    expect((await call(sim(), "GET", "/v1/site_reports/templates")).status).toBe(400);
  });

  it("creates a schedule (201 {message} only) found afterwards in the listing", async () => {
    const next = new Date((await simNow(sim())) + 3 * DAY).toISOString();
    const r = await call(sim(), "POST", "/v1/site_reports/schedules", schedule(next));
    expect(r.status).toBe(201);
    expect(Object.keys(r.body)).toEqual(["message"]);
    const list = await call(sim(), "GET", `/v1/site_reports/schedules?site_id=${S.acmeMarketing.id}`);
    expect(list.body.schedules).toContainEqual(
      expect.objectContaining({
        title: "Weekly report",
        uuid: expect.any(String),
        next_scheduled_date: next,
      }),
    );
  });

  it("rule 2: DAYS takes 7 or 14 only", async () => {
    const next = new Date((await simNow(sim())) + DAY).toISOString();
    for (const value of [7, 14]) {
      expect(
        (
          await call(
            sim(),
            "POST",
            "/v1/site_reports/schedules",
            schedule(next, { frequency: { value, unit: "DAYS" } }),
          )
        ).status,
      ).toBe(201);
    }
    for (const value of [1, 10, 30]) {
      const r = await call(
        sim(),
        "POST",
        "/v1/site_reports/schedules",
        schedule(next, { frequency: { value, unit: "DAYS" } }),
      );
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ resource: "report_schedule", field: "frequency.value" });
    }
  });

  it("rule 1: MONTHLY takes 1 to 31", async () => {
    const next = new Date((await simNow(sim())) + DAY).toISOString();
    for (const value of [1, 31]) {
      expect(
        (
          await call(
            sim(),
            "POST",
            "/v1/site_reports/schedules",
            schedule(next, { frequency: { value, unit: "MONTHLY" } }),
          )
        ).status,
      ).toBe(201);
    }
    for (const value of [0, 32]) {
      expect(
        (
          await call(
            sim(),
            "POST",
            "/v1/site_reports/schedules",
            schedule(next, { frequency: { value, unit: "MONTHLY" } }),
          )
        ).status,
      ).toBe(400);
    }
    expect(
      (
        await call(
          sim(),
          "POST",
          "/v1/site_reports/schedules",
          schedule(next, { frequency: { value: 7, unit: "WEEKLY" } }),
        )
      ).status,
    ).toBe(400);
  });

  it("rule 1: a monthly report on the 31st runs on the last day of shorter months", async () => {
    // The seeded schedule runs MONTHLY on day 31; its next date always falls on the 31st or a month's last day.
    const list = await call(sim(), "GET", `/v1/site_reports/schedules?site_id=${S.acmeMarketing.id}`);
    const seeded = list.body.schedules.find((s: { uuid: string }) => s.uuid === R.acmeMonthly.uuid);
    const next = new Date(seeded.next_scheduled_date);
    const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
    expect(next.getUTCDate()).toBe(lastDay);
    expect(next.getTime()).toBeGreaterThan(await simNow(sim()));
  });

  it("rule 2: a weekly report moves on by 7 days on the same weekday once its date has passed", async () => {
    const next = new Date((await simNow(sim())) + DAY);
    await call(sim(), "POST", "/v1/site_reports/schedules", schedule(next.toISOString(), { title: "Moves" }));
    sim().advance(2 * 86_400);
    const list = await call(sim(), "GET", `/v1/site_reports/schedules?site_id=${S.acmeMarketing.id}`);
    const moved = new Date(
      list.body.schedules.find((s: { title: string }) => s.title === "Moves").next_scheduled_date,
    );
    expect(moved.getTime() - next.getTime()).toBe(7 * DAY);
    expect(moved.getUTCDay()).toBe(next.getUTCDay());
  });

  it("accepts only sections of the chosen template", async () => {
    const next = new Date((await simNow(sim())) + DAY).toISOString();
    const r = await call(
      sim(),
      "POST",
      "/v1/site_reports/schedules",
      schedule(next, { sections: [{ name: "performance" }] }),
    );
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ field: "sections.0.name", code: "invalid_section" });
    const ok = await call(
      sim(),
      "POST",
      "/v1/site_reports/schedules",
      schedule(next, { template_uuid: T.performanceReport.uuid, sections: [{ name: "performance" }] }),
    );
    expect(ok.status).toBe(201);
  });

  it("updates with PATCH (200 {message}) under the same rules, and deletes with 204", async () => {
    const path = `/v1/site_reports/schedules/${R.acmeMonthly.uuid}`;
    const ok = await call(sim(), "PATCH", path, { title: "Renamed", frequency: { value: 14, unit: "DAYS" } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toEqual(expect.any(String));
    expect((await call(sim(), "PATCH", path, { frequency: { value: 3, unit: "DAYS" } })).status).toBe(400);
    expect((await call(sim(), "PATCH", path, { site_id: S.acmeBlog.id })).status).toBe(400);
    expect(
      (
        await call(sim(), "PATCH", path, {
          template_uuid: T.performanceReport.uuid,
          sections: [{ name: "themes" }],
        })
      ).status,
    ).toBe(400);
    expect((await call(sim(), "DELETE", path)).status).toBe(204);
    expect((await call(sim(), "PATCH", path, { title: "x" })).status).toBe(404);
  });
});
