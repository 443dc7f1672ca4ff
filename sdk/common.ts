/** Schemas and helpers shared by several API areas. */
import { z } from "zod";

/** A reference to another record by id, e.g. `{ id }` of an account or a site. */
export const IdRefSchema = z.looseObject({
  /** Id of the referenced record. */
  id: z.string(),
});
/** A reference to another record by id. */
export type IdRef = z.infer<typeof IdRefSchema>;

/** The `{message}` answer of accepted or updated operations (the body may also be empty). */
export const MessageResponseSchema = z.preprocess(
  (raw) => (raw === undefined || raw === null ? {} : raw),
  z.looseObject({
    /** Human-readable confirmation. */
    message: z.string().optional(),
  }),
);
/** The `{message}` answer of accepted or updated operations. */
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** A non-empty identifier used in a request body. */
export const idString = (what = "id") =>
  z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);

/** An email address (loosely checked: the service has the last word). */
export const emailString = z
  .string({ error: "expected an email address" })
  .regex(/^[^\s@]+@[^\s@]+$/, "expected an email address");

/** An RFC 3339 / ISO 8601 date-time with a zone, e.g. `2026-06-01T14:30:00Z`. */
export const dateTimeString = z.iso.datetime({
  offset: true,
  error: "expected an RFC 3339 date-time such as 2026-06-01T14:30:00Z",
});

const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);

/** Why `value` is not a calendar day `YYYY-MM-DD` (`2026-11-31` is not one), or undefined when it is one. */
export function notADay(value: string): string | undefined {
  const [, y, m, d] = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)?.map(Number) ?? [];
  if (y === undefined || m === undefined || d === undefined)
    return `must be a date formatted YYYY-MM-DD (it is ${JSON.stringify(value)})`;
  const month = MONTHS[m - 1];
  if (month === undefined) return `${value} is not a date (there is no month ${m})`;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d < 1 || d > days) return `${value} is not a date (${month}${m === 2 ? ` ${y}` : ""} has ${days} days)`;
  return undefined;
}

/** A calendar day, `YYYY-MM-DD`. */
export const dayString = z.string().superRefine((v, ctx) => {
  const why = notADay(v);
  if (why) ctx.addIssue({ code: "custom", message: why, continue: false });
});

/** Copies the first present alias into `target` when `target` is absent (drift between spec and service). */
export function fillAlias(raw: unknown, target: string, ...aliases: string[]): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const rec = raw as Record<string, unknown>;
  if (rec[target] !== undefined && rec[target] !== null) return raw;
  for (const alias of aliases) {
    if (rec[alias] !== undefined && rec[alias] !== null) return { ...rec, [target]: rec[alias] };
  }
  return raw;
}

/** Extracts the array of a one-shot list wrapped as `{<key>: [...]}` (a bare array is accepted too). */
export function unwrapList(key: string) {
  return (raw: unknown): unknown => {
    if (Array.isArray(raw)) return { [key]: raw };
    if (raw === undefined || raw === null || raw === "") return { [key]: [] };
    return raw;
  };
}
