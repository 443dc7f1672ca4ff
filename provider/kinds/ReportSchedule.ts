import { z } from "zod";
import type {
  ReportSchedule as ApiSchedule,
  CreateReportScheduleRequest,
  UpdateReportScheduleRequest,
} from "../../sdk";
import { defineKind, listedUnder, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import {
  type CheckFailure,
  COMMON_INPUTS,
  canonicalTime,
  out,
  parentInput,
  requiredString,
  ruled,
  stringInput,
  uuidString,
  whole,
} from "../core/inputs";
import { afterCreate, type Context } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const UNIT_ERROR = whole("frequency.unit must be DAYS or MONTHLY");

const frequencyInput = z
  .object(
    {
      value: z
        .number()
        .int(whole("frequency.value must be an integer"))
        .meta({ description: "7 or 14 with DAYS; the day of the month (1 to 31) with MONTHLY." }),
      unit: z
        .string({ error: UNIT_ERROR })
        .trim()
        .toUpperCase()
        // A string check, not a z.enum: the output stays a plain string, as 0.1.0's schema declared it.
        .refine((u): boolean => u === "DAYS" || u === "MONTHLY", { error: UNIT_ERROR })
        .meta({ description: "DAYS or MONTHLY (any case), stored upper case." }),
    },
    { error: "is required: {value, unit}" },
  )
  .strict();

type Frequency = z.output<typeof frequencyInput>;

/** Scheduling rules 1 and 2: DAYS takes 7 or 14, MONTHLY a day of the month 1 to 31. */
function frequencyFailures({ unit, value }: Frequency): CheckFailure | undefined {
  const reason =
    unit === "DAYS" && value !== 7 && value !== 14
      ? `with unit DAYS the value must be 7 (weekly) or 14 (every two weeks), got ${value}`
      : unit === "MONTHLY" && (value < 1 || value > 31)
        ? `with unit MONTHLY the value is the day of the month, 1 to 31, got ${value}`
        : undefined;
  return reason === undefined ? undefined : { property: "frequency.value", reason: whole(reason) };
}

/** A date as sent: one already past (which the service refuses) as its first run after now on the cadence. */
function upcoming(date: unknown, values: Record<string, unknown>): unknown {
  const frequency = values["frequency"] as Frequency | undefined;
  if (typeof date !== "string" || !frequency || Date.parse(date) > Date.now()) return date;
  return runUntil(new Date(date), frequency, (ms) => ms > Date.now()).toISOString();
}

const recipientInput = z
  .object({
    name: requiredString.meta({ description: "The recipient's display name." }),
    email: stringInput
      .trim()
      .pipe(z.email(whole("recipients[].email must be an email address")))
      .meta({ description: "The recipient's email address, compared without case." }),
  })
  .strict();

const sectionInput = z
  .object({
    name: stringInput.trim().min(1, whole("sections[].name must not be empty")).meta({
      description: "The section name, one the template offers (e.g. cover, overview, usage, themes).",
    }),
  })
  .strict();

const inputs = z.object({
  siteId: parentInput("The site the report is about. Changing it replaces the schedule."),
  title: requiredString.trim().meta({
    key: true,
    description:
      "The report title. Create refuses a title the site's schedules already use unless `adopt` is set, and adoption needs exactly one schedule with it.",
  }),
  nextScheduledDate: z.iso
    .datetime({
      offset: true,
      error: "must be an ISO 8601 date-time with a zone, e.g. 2026-06-01T09:00:00Z",
    })
    .overwrite(canonicalTime)
    .meta({
      description:
        "The first (on create) or next (on update) generation, an ISO 8601 date-time with a zone, stored in UTC. It keeps this value while the service moves the schedule on through its runs; see `nextRunDate` for the live one. A date already past is sent as its next run on the cadence (the service refuses a past date).",
      sent: upcoming,
      sentWith: ["frequency"],
    }),
  templateUuid: uuidString
    .toLowerCase()
    .meta({ description: "The report template's UUID, stored lower case." }),
  frequency: ruled(frequencyInput, frequencyFailures).meta({
    description:
      'How often the report runs: `{value: 7 | 14, unit: "DAYS"}` or `{value: 1..31, unit: "MONTHLY"}` (the day of the month).',
  }),
  recipients: z
    .array(recipientInput, { error: "must be a list of {name, email}" })
    .min(1, "must list at least one {name, email}")
    .meta({
      description:
        "Who receives the report (at least one): a set, whose order and email case never show as a change.",
    }),
  sections: z
    .array(sectionInput, { error: "must be a list of {name}" })
    .min(1, "must list at least one {name}")
    .meta({ description: "The report's sections, in order; valid names depend on the template." }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  scheduleId: out.string("The schedule's UUID (also the resource id).", { stable: true, wire: "uuid" }),
  createdAt: out.stringOrNull("When the schedule was created, or null."),
  nextRunDate: out.stringOrNull(
    "The next generation as the service lists it now (moves on after every run), or null.",
    { wire: "next_scheduled_date" },
  ),
  createMatch: z
    .templateLiteral([z.enum(["exact", "only-new-schedule", "adopted"])])
    .optional()
    .meta({
      description:
        "How the id was established on create (the service's create does not return it): `exact` (the one new schedule with the requested fields), `only-new-schedule` (the only new schedule, whose fields the service adjusted) or `adopted`. Absent on an imported schedule.",
    }),
});

type ReportScheduleInputs = z.output<typeof inputs>;
type ReportScheduleOutputs = OutputsOf<typeof inputs, typeof outputs>;
/** The fields a user sets (all but the site). */
export type ScheduleFields = Omit<ReportScheduleInputs, "siteId" | "adopt" | "profile">;

/** A field in canonical form: ids lower case, the date in UTC, the unit upper case, recipients sorted. */
function canonical(key: string, v: unknown): unknown {
  if (key === "siteId" || key === "templateUuid") return typeof v === "string" ? v.toLowerCase() : v;
  if (key === "nextScheduledDate") return typeof v === "string" ? canonicalTime(v) : (v ?? "");
  if (key === "recipients") return Array.isArray(v) ? sortRecipients(v) : v;
  if (key !== "frequency") return v;
  const f = v as { value?: unknown; unit?: unknown };
  return { value: f.value, unit: typeof f.unit === "string" ? f.unit.toUpperCase() : f.unit };
}

/** The form of a value for comparison (`defineKind`'s `normalize`): canonical, emails without case. */
function normalize(key: string, v: unknown): unknown {
  const c = v == null ? null : canonical(key, v);
  return key === "recipients" && Array.isArray(c)
    ? c.map((r) => ({ name: r.name, email: typeof r.email === "string" ? r.email.toLowerCase() : r.email }))
    : c;
}

const WIRE = wireOf(inputs, outputs, normalize);

/** Recipients (a set on the service) in a stable order: by email, case-insensitive, then name. */
export const sortRecipients = (list: readonly { name: string; email: string }[]) =>
  list
    .map((r) => ({ name: r.name, email: r.email }))
    .sort(
      (a, b) => a.email.toLowerCase().localeCompare(b.email.toLowerCase()) || a.name.localeCompare(b.name),
    );

const uuids = (l: readonly ApiSchedule[]) => l.map((s) => s.uuid).join(", ");

/** Create's refusal of a title the site's schedules hold already (check says it at preview, by the first). */
const titled = ({ key, parent }: Pick<Context, "key" | "parent">, n: number, ids: string) =>
  alreadyExists(
    `${n} report schedule(s) titled "${key}" already exist on site ${parent} (${ids})`,
    "set adopt: true to take it over (possible when exactly one has the title), or choose another title",
  );

/** The schedule a create made, of those not in `before`: the one with the requested fields, else the only new one. */
export function pickCreated(
  before: ReadonlySet<string>,
  after: readonly ApiSchedule[],
  wanted: ScheduleFields,
): { ok: true; schedule: ApiSchedule; match: "exact" | "only-new-schedule" } | { ok: false; reason: string } {
  const fresh = after.filter((s) => !before.has(s.uuid));
  // Equal: a PATCH to the requested fields would change none of them (a same-titled schedule is no match;
  // a date that is a run of the requested one, as a past date is sent, is the requested date).
  const equal = fresh.filter((s) => !WIRE.patch(scheduleOutputs(s, wanted), wanted));
  if (equal.length === 1) return { ok: true, schedule: equal[0]!, match: "exact" };
  if (equal.length > 1)
    return {
      ok: false,
      reason: `${equal.length} new schedules with exactly these fields appeared (${uuids(equal)}); cannot tell which one this create made`,
    };
  if (fresh.length === 1) return { ok: true, schedule: fresh[0]!, match: "only-new-schedule" };
  return {
    ok: false,
    reason: fresh.length
      ? `${fresh.length} new schedules appeared (${uuids(fresh)}) and none has exactly the requested fields`
      : "the service accepted the create but no new schedule appears in the site's listing",
  };
}

/** The run after `at`: 7 or 14 days later, or the frequency's day (capped at the last) of the next month. */
export function nextRun(at: Date, f: Frequency): Date {
  if (f.unit.toUpperCase() === "DAYS") return new Date(at.getTime() + f.value * 86_400_000);
  const next = new Date(at);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(f.value, lastDay));
  return next;
}

/** The first run from `at` on (`at` itself or a later one) at whose time `done` holds. */
function runUntil(at: Date, frequency: Frequency, done: (ms: number) => boolean): Date {
  for (let guard = 0; !done(at.getTime()) && guard < 5_000; guard++) at = nextRun(at, frequency);
  return at;
}

/** Whether `live` is `anchor` or a later run of it: the service moves the next date on after every run. */
export function isRunOf(anchor: string, live: string, frequency: Frequency): boolean {
  const a = Date.parse(anchor);
  const l = Date.parse(live);
  if (Number.isNaN(a) || Number.isNaN(l) || l < a || !(frequency.value > 0)) return false;
  return runUntil(new Date(a), frequency, (ms) => ms >= l).getTime() === l;
}

/** Maps a listed schedule to outputs: the listed next date is `nextRunDate`, `given` anchors the recorded one. */
export function scheduleOutputs(s: ApiSchedule, given: Partial<ReportScheduleInputs>): ReportScheduleOutputs {
  const read = WIRE.fields(s);
  const fields = Object.fromEntries(
    definition.updatable.map((k) => [k, canonical(k, read[k])]),
  ) as ScheduleFields;
  const live = WIRE.outputs(s);
  const anchor = given.nextScheduledDate;
  // The recorded date stays the anchor while the listed one is it or a later run (the service moves it on).
  const ran = anchor !== undefined && isRunOf(anchor, fields.nextScheduledDate, fields.frequency);
  return {
    ...live,
    ...fields,
    nextScheduledDate: ran ? canonicalTime(anchor) : fields.nextScheduledDate,
    nextRunDate: live.nextRunDate ? canonicalTime(live.nextRunDate) : null,
  };
}

/** The PATCH body of the fields that differ; `undefined` when the schedule already matches. */
export const schedulePatch = (have: ScheduleFields, want: ReportScheduleInputs) =>
  WIRE.patch(have, want) as UpdateReportScheduleRequest | undefined;

/** The schedule as listed under its site (the service has no single-schedule read), or `undefined`. */
const findById = async (ctx: Context, id: string) =>
  (await ctx.client.reportSchedules.list(ctx.parent)).find((s) => s.uuid.toLowerCase() === id.toLowerCase());

/** Applies the PATCH of the fields that differ, if any (it answers only `{message}`), and reads the schedule back. */
async function patchAndRead(ctx: Context, id: string, have: ScheduleFields, given: ReportScheduleInputs) {
  const patch = schedulePatch(have, given);
  if (patch) await ctx.client.reportSchedules.update(id, patch);
  const live = await findById(ctx, id);
  if (!live)
    throw new Error(
      `schedule ${id} ${patch ? "was updated but " : ""}is no longer listed for site ${ctx.parent}`,
    );
  return scheduleOutputs(live, given);
}

/** Create's refusal of the schedules titled as this one: any without `adopt`, more than one with it. */
function refusal(ctx: Context, sameTitle: readonly ApiSchedule[], adopt: boolean | undefined) {
  if (!adopt) return sameTitle.length ? titled(ctx, sameTitle.length, uuids(sameTitle)) : undefined;
  if (sameTitle.length <= 1) return undefined;
  return new Error(
    `cannot adopt: ${sameTitle.length} report schedules titled "${ctx.key}" exist on site ${ctx.parent} (${uuids(sameTitle)}); adoption needs exactly one`,
  );
}

export const definition = defineKind({
  kind: "ReportSchedule",
  description:
    "A scheduled report of a site: generated from a template every 7 or 14 days or on a day of every month, and emailed to its recipients. The id is the schedule's UUID (the service's create does not return it: it is found in the site's schedule listing).",
  deletes: "Deletes the schedule on the service. A schedule already gone counts as deleted.",
  gone: "A schedule deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "{siteId}/{id}",
  identity: {
    what: "the schedule's title on its site",
    find: async (_i, ctx) =>
      (await ctx.client.reportSchedules.list(ctx.parent)).find((s) => s.title === ctx.key)?.uuid,
    refusal: (id, ctx) => titled(ctx, 1, id),
  },
  list: listedUnder(
    "siteId",
    "The site whose report schedules are listed.",
    (client, siteId) => client.reportSchedules.list(siteId),
    (r) => [r.uuid, r.title ?? r.uuid],
  ),
  inputs,
  outputs,
  normalize,
  // Check's look under adopt: the schedules create would refuse to choose among.
  async takeover(inputs, ctx) {
    if (!inputs.adopt) return undefined;
    const sameTitle = (await ctx.client.reportSchedules.list(ctx.parent)).filter((s) => s.title === ctx.key);
    return refusal(ctx, sameTitle, true);
  },
  async create(inputs, ctx) {
    const { parent: siteId, key: title } = ctx;
    const existing = await ctx.client.reportSchedules.list(siteId);
    const sameTitle = existing.filter((s) => s.title === title);
    const refused = refusal(ctx, sameTitle, inputs.adopt);
    if (refused) throw refused;
    const found = sameTitle[0];
    if (found) {
      const outs = { ...scheduleOutputs(found, inputs), createMatch: "adopted" as const };
      const patched =
        schedulePatch(outs, inputs) &&
        (await afterCreate(found.uuid, outs, () => patchAndRead(ctx, found.uuid, outs, inputs)));
      const adopted = `report schedule "${title}" of site ${siteId}`;
      const kept = { ...(patched || outs), createMatch: outs.createMatch };
      return { id: found.uuid, outs: kept, adopted, found: outs };
    }
    const before = new Set(existing.map((s) => s.uuid));
    await ctx.client.reportSchedules.create(WIRE.body(inputs) as CreateReportScheduleRequest);
    const picked = pickCreated(before, await ctx.client.reportSchedules.list(siteId), inputs);
    if (!picked.ok)
      throw new Error(
        `the schedule was created but its id could not be established: ${picked.reason}. Check the schedules of site ${siteId}: if another stack declares this title too (two runs created it at once), keep one for that stack, delete the other and give this resource another title; else delete the extra one(s), then re-run with adopt: true`,
      );
    const outs = scheduleOutputs(picked.schedule, inputs);
    return { id: picked.schedule.uuid, outs: { ...outs, createMatch: picked.match } };
  },
  async read(id, olds, ctx) {
    const live = await findById(ctx, id);
    return live && { outs: scheduleOutputs(live, olds) };
  },
  async update(id, olds, news, ctx) {
    const outs = await patchAndRead(ctx, id, olds, news);
    return olds.createMatch ? { ...outs, createMatch: olds.createMatch } : outs;
  },
  delete: (id, _olds, ctx) => ctx.client.reportSchedules.delete(id),
});
