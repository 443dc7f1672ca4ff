/** Scheduled site reports and the report templates they use. */
import { z } from "zod";
import {
  dateTimeString,
  emailString,
  fillAlias,
  idString,
  type MessageResponse,
  MessageResponseSchema,
  unwrapList,
} from "./common";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** How often a report runs. */
export const ReportFrequencySchema = z.looseObject({
  /** Days (7 or 14) or day of month (1 to 31). */
  value: z.number(),
  /** `DAYS` or `MONTHLY`. */
  unit: z.string(),
});

/** A recipient of a report. */
export const ReportRecipientSchema = z.looseObject({
  /** Display name. */
  name: z.string().nullish(),
  /** Email address. */
  email: z.string(),
});

/** A section of a report. */
export const ReportSectionSchema = z.looseObject({
  /** Section name, e.g. `cover`, `overview`, `usage`, `themes`. */
  name: z.string(),
});

/** A report schedule as listed; `uuid` is filled from `id` when the service names it so. */
export const ReportScheduleSchema = z.preprocess(
  (raw) => fillAlias(raw, "uuid", "id", "schedule_uuid"),
  z.looseObject({
    /** The schedule's UUID (used by update and delete). */
    uuid: z.string(),
    /** The site reported on. */
    site_id: z.string().nullish(),
    /** Report title. */
    title: z.string().nullish(),
    /** Next generation time. */
    next_scheduled_date: z.string().nullish(),
    /** Template UUID. */
    template_uuid: z.string().nullish(),
    /** How often the report runs. */
    frequency: ReportFrequencySchema.nullish(),
    /** Who receives it. */
    recipients: z.array(ReportRecipientSchema).nullish(),
    /** Which sections it has. */
    sections: z.array(ReportSectionSchema).nullish(),
    /** Creation time. */
    created_at: z.string().nullish(),
  }),
);
/** A report schedule. */
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

/** A report template; `uuid`/`name` are filled from `template_uuid`/`template_name` when needed. */
export const ReportTemplateSchema = z.preprocess(
  (raw) => fillAlias(fillAlias(raw, "uuid", "template_uuid", "id"), "name", "template_name"),
  z.looseObject({
    /** The template's UUID (the `template_uuid` of a schedule). */
    uuid: z.string(),
    /** Display name. */
    name: z.string().nullish(),
    /** Sections valid for schedules using this template. */
    sections: z.array(ReportSectionSchema).nullish(),
  }),
);
/** A report template. */
export type ReportTemplate = z.infer<typeof ReportTemplateSchema>;

/** Frequency of a request: unit DAYS with 7 or 14, or MONTHLY with a day 1 to 31. */
export const ReportFrequencyInputSchema = z
  .strictObject({
    /** 7 or 14 with DAYS; day of month 1 to 31 with MONTHLY. */
    value: z.number().int(),
    /** `DAYS` or `MONTHLY`. */
    unit: z.enum(["DAYS", "MONTHLY"]),
  })
  .superRefine((f, ctx) => {
    if (f.unit === "DAYS" && f.value !== 7 && f.value !== 14) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "with unit DAYS the value must be 7 or 14" });
    }
    if (f.unit === "MONTHLY" && (f.value < 1 || f.value > 31)) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: "with unit MONTHLY the value must be 1 to 31",
      });
    }
  });

const scheduleFields = {
  /** Report title. */
  title: z.string().min(1, "must not be empty"),
  /** First (create) or next (update) generation time, ISO 8601. */
  next_scheduled_date: dateTimeString,
  /** Template UUID. */
  template_uuid: idString("template_uuid"),
  /** How often the report runs. */
  frequency: ReportFrequencyInputSchema,
  /** Who receives it. */
  recipients: z
    .array(z.strictObject({ name: z.string(), email: emailString }))
    .min(1, "at least one recipient is required"),
  /** Sections, valid for the template. */
  sections: z.array(z.strictObject({ name: z.string().min(1, "must not be empty") })),
};

/** Body of `POST /site_reports/schedules` (every field required). */
export const CreateReportScheduleRequestSchema = z.strictObject({
  /** The site to report on. */
  site_id: idString("site_id"),
  ...scheduleFields,
});
/** Body of `POST /site_reports/schedules`. */
export type CreateReportScheduleRequest = z.infer<typeof CreateReportScheduleRequestSchema>;

/** Body of `PATCH /site_reports/schedules/{uuid}` (every field optional, site_id not allowed). */
export const UpdateReportScheduleRequestSchema = z
  .strictObject(scheduleFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, "at least one field must be given");
/** Body of `PATCH /site_reports/schedules/{uuid}`. */
export type UpdateReportScheduleRequest = z.infer<typeof UpdateReportScheduleRequestSchema>;

const ScheduleListSchema = z.preprocess(
  unwrapList("schedules"),
  z.looseObject({ schedules: z.array(ReportScheduleSchema) }),
);
const TemplateListSchema = z.preprocess(
  unwrapList("templates"),
  z.looseObject({ templates: z.array(ReportTemplateSchema) }),
);

/** Operations on report schedules. */
export class ReportSchedules {
  constructor(private readonly transport: Transport) {}

  /** Creates a schedule (201 `{message}` only: find the new schedule with `list`). */
  async create(body: CreateReportScheduleRequest): Promise<MessageResponse> {
    const req = validateInput("reportSchedules.create", CreateReportScheduleRequestSchema, body);
    // Creates a schedule whose id is not returned: a duplicate could not even be told apart, so it is
    // not retried once the request may have reached the server.
    return this.transport.request(
      { method: "POST", path: "/site_reports/schedules", body: req, retry: "unsafe" },
      MessageResponseSchema,
    );
  }

  /** Updates a schedule (200 `{message}`). */
  async update(scheduleId: string, body: UpdateReportScheduleRequest): Promise<MessageResponse> {
    const req = validateInput("reportSchedules.update", UpdateReportScheduleRequestSchema, body);
    // PATCH sets absolute values: repeating it leaves the same state, so it is retried freely.
    return this.transport.request(
      { method: "PATCH", path: path`/site_reports/schedules/${scheduleId}`, body: req, retry: "safe" },
      MessageResponseSchema,
    );
  }

  /** Lists the schedules of a site (`{schedules}`; there is no single-schedule GET). */
  async list(siteId: string): Promise<ReportSchedule[]> {
    const query = { site_id: validateInput("reportSchedules.list", idString("siteId"), siteId) };
    const res = await this.transport.request(
      { method: "GET", path: "/site_reports/schedules", query },
      ScheduleListSchema,
    );
    return res.schedules;
  }

  /** Deletes a schedule (204). */
  async delete(scheduleId: string): Promise<void> {
    await this.transport.requestVoid({ method: "DELETE", path: path`/site_reports/schedules/${scheduleId}` });
  }
}

/** Operations on report templates. */
export class ReportTemplates {
  constructor(private readonly transport: Transport) {}

  /** Lists the templates of an account and the sections each allows (`{templates}`). */
  async list(accountId: string): Promise<ReportTemplate[]> {
    const query = { account_id: validateInput("reportTemplates.list", idString("accountId"), accountId) };
    const res = await this.transport.request(
      { method: "GET", path: "/site_reports/templates", query },
      TemplateListSchema,
    );
    return res.templates;
  }
}
