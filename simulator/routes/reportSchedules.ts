import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireAccount, requireSite } from "../auth";
import { badRequest, notFound } from "../errors";
import { callerOf, parseBody, queryParam, type Req } from "../http";
import { nextScheduledDate } from "../lifecycle";
import { SEED } from "../seed";
import type { Sim } from "../sim";
import type { ReportScheduleRecord } from "../store";

const Fields = {
  title: z.string().min(1).max(200),
  next_scheduled_date: z.iso.datetime({ offset: true }),
  template_uuid: z.guid(),
  frequency: z.strictObject({ value: z.number().int(), unit: z.enum(["DAYS", "MONTHLY"]) }),
  recipients: z
    .array(z.strictObject({ name: z.string().min(1), email: z.email() }))
    .min(1, "must hold at least one recipient"),
  sections: z.array(z.strictObject({ name: z.string().min(1) })).min(1, "must hold at least one section"),
};

const CreateSchedule = z.strictObject({ site_id: z.guid(), ...Fields });
const PatchSchedule = z.strictObject(Fields).partial();

/** Report templates; every account may use every template. */
export const TEMPLATES = Object.values(SEED.templates);

function templateView(t: (typeof TEMPLATES)[number]): Record<string, unknown> {
  return {
    uuid: t.uuid,
    name: t.name,
    sections: t.sections.map((name) => ({ name })),
    template_uuid: t.uuid,
    template_name: t.name,
    description: `${t.name} with sections ${t.sections.join(", ")}`,
    created_at: "2024-01-15T10:30:00.000Z",
    updated_at: "2024-01-15T10:30:00.000Z",
  };
}

/** The scheduling rules: DAYS 7 or 14, MONTHLY 1 to 31, sections valid for the template, a future date. */
function validateSchedule(
  s: Omit<ReportScheduleRecord, "uuid" | "created_at">,
  now: number,
  dateGiven: boolean,
): void {
  const template = TEMPLATES.find((t) => t.uuid === s.template_uuid);
  if (!template) throw badRequest("report_schedule", "template_uuid", "Unknown report template", "not_found");
  const { unit, value } = s.frequency;
  if (unit === "DAYS" && value !== 7 && value !== 14) {
    throw badRequest(
      "report_schedule",
      "frequency.value",
      "With unit DAYS the value must be 7 or 14",
      "invalid_frequency",
    );
  }
  if (unit === "MONTHLY" && (value < 1 || value > 31)) {
    throw badRequest(
      "report_schedule",
      "frequency.value",
      "With unit MONTHLY the value must be a day of the month from 1 to 31",
      "invalid_frequency",
    );
  }
  const seen = new Set<string>();
  s.sections.forEach((section, i) => {
    if (!(template.sections as readonly string[]).includes(section.name)) {
      throw badRequest(
        "report_schedule",
        `sections.${i}.name`,
        `${section.name} is not a section of the template ${template.name} (${template.sections.join(", ")})`,
        "invalid_section",
      );
    }
    if (seen.has(section.name)) {
      throw badRequest(
        "report_schedule",
        `sections.${i}.name`,
        `${section.name} appears twice`,
        "duplicate_section",
      );
    }
    seen.add(section.name);
  });
  if (dateGiven && Date.parse(s.next_scheduled_date) <= now) {
    throw badRequest(
      "report_schedule",
      "next_scheduled_date",
      "next_scheduled_date must be in the future",
      "in_the_past",
    );
  }
}

function scheduleView(s: ReportScheduleRecord, now: number): Record<string, unknown> {
  return { ...s, next_scheduled_date: nextScheduledDate(s, now) };
}

/** Report templates and schedules: list, create, update, delete. */
export function registerReportSchedules(app: FastifyInstance, sim: Sim): void {
  app.get("/v1/site_reports/templates", async (req: Req) => {
    const accountId = queryParam(req, "account_id");
    if (!accountId) throw badRequest("report_template", "account_id", "account_id is required", "required");
    requireAccount(sim.world, callerOf(req), accountId, "any");
    return { templates: TEMPLATES.map(templateView) };
  });

  app.get("/v1/site_reports/schedules", async (req: Req) => {
    const siteId = queryParam(req, "site_id");
    if (!siteId) throw badRequest("report_schedule", "site_id", "site_id is required", "required");
    const site = requireSite(sim.world, callerOf(req), siteId);
    const now = sim.now();
    return {
      schedules: Object.values(sim.world.report_schedules)
        .filter((s) => s.site_id === site.id)
        .map((s) => scheduleView(s, now)),
    };
  });

  app.post("/v1/site_reports/schedules", async (req: Req, reply) => {
    const body = parseBody(CreateSchedule, req.body, "report_schedule");
    const site = requireSite(sim.world, callerOf(req), body.site_id, "admin");
    const now = sim.now();
    validateSchedule(body, now, true);
    const record: ReportScheduleRecord = {
      uuid: randomUUID(),
      ...body,
      site_id: site.id,
      next_scheduled_date: new Date(body.next_scheduled_date).toISOString(),
      created_at: sim.clock.iso(),
    };
    sim.world.report_schedules[record.uuid] = record;
    sim.store.touch();
    return reply.code(201).send({ message: "Report schedule created" });
  });

  app.patch("/v1/site_reports/schedules/:schedule_id", async (req: Req) => {
    const schedule = sim.world.report_schedules[req.params["schedule_id"]!];
    if (!schedule) throw notFound("Report schedule");
    requireSite(sim.world, callerOf(req), schedule.site_id, "admin");
    const body = parseBody(PatchSchedule, req.body, "report_schedule");
    const now = sim.now();
    const merged = { ...schedule, ...body };
    validateSchedule(merged, now, body.next_scheduled_date !== undefined);
    if (body.next_scheduled_date)
      merged.next_scheduled_date = new Date(body.next_scheduled_date).toISOString();
    else merged.next_scheduled_date = nextScheduledDate(schedule, now);
    sim.world.report_schedules[schedule.uuid] = merged;
    sim.store.touch();
    return { message: "Report schedule updated" };
  });

  app.delete("/v1/site_reports/schedules/:schedule_id", async (req: Req, reply) => {
    const schedule = sim.world.report_schedules[req.params["schedule_id"]!];
    if (!schedule) throw notFound("Report schedule");
    requireSite(sim.world, callerOf(req), schedule.site_id, "admin");
    delete sim.world.report_schedules[schedule.uuid];
    sim.store.touch();
    return reply.code(204).send();
  });
}
