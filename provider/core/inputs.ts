/** Input validation for `check`: zod schemas and rules, tolerant of unknowns, failures named by property. */
import { unknownValue as UNKNOWN } from "@pulumi/pulumi/runtime/rpc";
import { z } from "zod";
import { canonicalDomain, isDomainName } from "../../sdk";
import { PROFILE_NAME } from "./config";
import { meant } from "./meant";
import { defOf, type Props, unwrap } from "./wire";

export type { Props };

/** The sentinel the engine sends for a value not known until another resource is created (Pulumi's own). */
export { UNKNOWN };

/** True when the value is, or contains anywhere inside it, a value unknown during preview. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  return value !== null && typeof value === "object" && Object.values(value).some(containsUnknown);
}

/** One `check` failure: the input property (dotted path) and why, without its name (`named` adds it). */
export type CheckFailure = { property: string; reason: string };

const WHOLE = "\u0000";

/** A reason (or a zod message) that reads on its own: `named` puts no name in front of it. */
export const whole = (reason: string): string => WHOLE + reason;

/** A failure as the user reads it: led by the path's last field (`ids[2]` → `ids[]`), unless whole. */
export function named({ property, reason }: CheckFailure): CheckFailure {
  if (reason.startsWith(WHOLE)) return { property, reason: reason.slice(WHOLE.length) };
  const name = property.replace(/^.*\./, "").replace(/\[\d+\]$/, "[]");
  return { property, reason: `${name}${reason.startsWith("'") ? "" : " "}${reason}` };
}

/** A cross-field rule; it runs only when every input it `uses` is known. */
export interface Rule<I> {
  uses: readonly (keyof I & string)[];
  test: (inputs: I) => CheckFailure | CheckFailure[] | undefined;
}

/**
 * A rule of one input, declared with it: `test` gets the parsed value (never an unknown one) and answers as a
 * {@link Rule} does, on paths led by the input's name (`mappings[2].domain`).
 */
export const ruled = <T extends z.ZodType>(
  schema: T,
  test: (value: z.output<T>) => CheckFailure | CheckFailure[] | undefined,
): T =>
  schema.check((ctx) => {
    for (const f of [test(ctx.value) ?? []].flat()) {
      const path = [...f.property.replace(/^[^.[]+/, "").matchAll(/\[(\d+)\]|\.([^.[]+)/g)].map((m) =>
        m[1] !== undefined ? Number(m[1]) : m[2]!,
      );
      ctx.issues.push({ code: "custom", message: f.reason, input: ctx.value, path });
    }
  });

/** Names of the inputs every resource accepts besides its own (never sent to the service). */
export const COMMON_INPUTS = {
  adopt: z.boolean().optional().meta({
    description:
      "Take over an object that already exists on the service with this identity instead of failing create.",
    setting: true,
  }),
} as const;

/** `adopt` refused, naming the kind, which owns no object to take over: `[why, told]` in the error and the description. */
export const actionAdoptInput = (
  kind: string,
  [why, told] = ["it is an action, there is no object to take over", "an action has no object to take over."],
) =>
  z
    .never({ error: whole(`${kind} has no adopt: ${why}`) })
    .optional()
    .meta({ description: `Not accepted: ${told}`, setting: true });

/** The credential profile every resource takes (added by `defineKind`): a name, never a credential. */
export const PROFILE_INPUT = z
  .string({ error: "must be a string" })
  .regex(PROFILE_NAME, "must be a profile name: letters, digits, - and _ (e.g. client-a)")
  .optional()
  .meta({
    description:
      "The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or " +
      "`WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials.",
    setting: true,
    kept: true,
  });

/** Pulumi's property paths: `exclusions[2].value`, not `exclusions.2.value`. */
const pathOf = (segments: readonly PropertyKey[]): string =>
  segments.map((s, i) => (typeof s === "number" ? `[${s}]` : i ? `.${String(s)}` : String(s))).join("");

/** A zod issue of `schema` as failures; an unknown key is reported on itself, with the name it likely meant. */
function formatIssues(issue: z.core.$ZodIssue, schema: z.ZodType): CheckFailure[] {
  const path = pathOf(issue.path);
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) => {
      const like = meant(key, fieldsAt(schema, issue.path));
      return {
        property: pathOf([...issue.path, key]),
        reason: `${path ? `is not a field of ${path}` : "is not an input of this resource"}${like ? ` (did you mean ${like}?)` : ""}`,
      };
    });
  return [{ property: path || "(inputs)", reason: presence(issue, plainReason(issue)) }];
}

/** A type's message said of what was given: "is required" only of an absent value, else what it must be. */
function presence(issue: z.core.$ZodIssue, reason: string): string {
  if (issue.code !== "invalid_type") return reason;
  if (issue.input !== undefined) return reason.replace(/\bis required(?: and must be|:) /, "must be ");
  return reason.includes("is required") ? reason : reason.replace(/\bmust be /, "is required and must be ");
}

/** The field names of the object at `path` of `schema` (none where it holds no object). */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at: z.ZodType | undefined = schema;
  for (const seg of path) {
    const def = defOf(unwrap(at).inner);
    at = typeof seg === "number" ? (def.type === "array" ? def.element : undefined) : def.shape?.[seg];
    if (!at) return [];
  }
  return Object.keys(defOf(unwrap(at).inner).shape ?? {});
}

/**
 * A failure as the engine is given it: with no property, since the engine prints a named property's value
 * beside the reason (a Go rendering of a whole list, or a private key pasted into the wrong input); the path
 * leads the reason instead, in place of the field the reason starts with (`value`, `recipients[].email`).
 */
export function forEngine(f: CheckFailure): CheckFailure {
  if (!f.property) return f;
  const rest = afterLead(f);
  return { property: "", reason: rest === undefined ? `${f.property}: ${f.reason}` : f.property + rest };
}

/** The reason after the field it starts with (`value`, `recipients[].email`); `undefined` when it starts with none. */
function afterLead(f: CheckFailure): string | undefined {
  const generic = f.property.replace(/\[\d+\]/g, "[]");
  const lead = [generic, generic.replace(/^.*\./, "")].find(
    (l) => f.reason.startsWith(l) && /^($|[ '])/.test(f.reason.slice(l.length)),
  );
  return lead === undefined ? undefined : f.reason.slice(lead.length);
}

/** A failure as `pulumi do` prints it (`- <property>: <reason>`): the reason's leading field said once. */
export function forCommandLine(f: CheckFailure): CheckFailure {
  const rest = f.property ? afterLead(f) : undefined;
  return rest?.startsWith(" ") ? { property: f.property, reason: rest.slice(1) } : f;
}

/** zod's own default messages ("Too small: expected number to be >0") in the form of the rest. */
function plainReason(issue: z.core.$ZodIssue): string {
  if (!/^(Too small|Too big|Invalid|Unrecognized)/.test(issue.message)) return issue.message;
  const unit = (origin: string) =>
    origin === "string" ? " characters" : origin === "array" || origin === "set" ? " items" : "";
  switch (issue.code) {
    case "too_small":
      return `must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}${unit(issue.origin)}`;
    case "too_big":
      return `must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}${unit(issue.origin)}`;
    case "invalid_type": {
      const words: Record<string, string> = {
        int: "a whole number",
        array: "a list",
        boolean: "true or false",
        object: "an object",
      };
      return `must be ${words[issue.expected] ?? `a ${issue.expected}`}`;
    }
    default:
      return whole(issue.message);
  }
}

/** Validates `news` and the rules, defaults filled; unknown values pass untouched, `__provider` too. */
export function checkInputs<S extends z.ZodRawShape, I = z.infer<z.ZodObject<S>>>(
  schema: z.ZodObject<S>,
  news: Props,
  rules: readonly Rule<I>[] = [],
): { inputs: Props; failures: CheckFailure[] } {
  const { __provider, ...given } = news;
  const unknownKeys = Object.keys(given).filter((k) => containsUnknown(given[k]));
  // A schema extended anew is parsed without zod's compiled fast path (35x slower): only when a value is unknown.
  const relaxed = unknownKeys.length
    ? schema.extend(Object.fromEntries(unknownKeys.map((k) => [k, z.any()])) as z.ZodRawShape)
    : schema;
  // Each issue keeps its input: an absent value (undefined) is worded apart from a wrong one.
  const result = relaxed.safeParse(given, { reportInput: true });
  if (!result.success) {
    const issues = result.error.issues;
    // A misspelt field is said once, as itself: the field it meant is not also said to be missing.
    const misspelt = issues.flatMap((i) =>
      i.code === "unrecognized_keys"
        ? i.keys.map((k) => pathOf([...i.path, meant(k, fieldsAt(relaxed, i.path)) ?? ""]))
        : [],
    );
    const said = issues.filter((i) => !(i.input === undefined && misspelt.includes(pathOf(i.path))));
    return { inputs: news, failures: said.flatMap((i) => formatIssues(i, relaxed)).map(named) };
  }
  const parsed = result.data as Props;
  const failures = rules
    .filter((rule) => !rule.uses.some((k) => unknownKeys.includes(k)))
    .flatMap((rule) => [rule.test(parsed as I) ?? []].flat().map(named));
  const inputs = Object.entries({ ...parsed, __provider }).filter(([, v]) => v !== undefined);
  return { inputs: Object.fromEntries(inputs), failures };
}

/** An RFC 3339 instant in its canonical form (`2026-06-01T14:30:00.000Z`), or the input if it is not one. */
export function canonicalTime(value: string): string;
export function canonicalTime(value: unknown): unknown;
export function canonicalTime(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** An input that must be given, as a string (what the checks that follow it add is said by them). */
export const stringInput = z.string({ error: "is required and must be a string" });

/** An input that must be a non-empty string (ids, names). */
export const requiredString = stringInput.min(1, "must not be empty");

/** The shape of the ids the service assigns (an install's, a site's, an account's). */
export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A UUID-shaped id, as every path parameter of the service is. */
export const uuidString = stringInput.regex(
  UUID,
  "must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
);

/** A parent's UUID (the install of a domain, the account of a user): part of the object's address, so a change replaces it. */
export const parentInput = (description: string, meta?: z.core.GlobalMeta) =>
  uuidString.meta({ description, replaces: true, parent: true, ...meta });

/** How long an operation that waits for the service may take, in seconds. */
export const timeoutSecondsInput = (defaultSeconds: number) =>
  z.number().int().positive().max(86_400).default(defaultSeconds).meta({
    description: "How long the provider waits for the service to finish, in seconds (at most 86400).",
    setting: true,
  });

/** The deletion guard of resources whose delete destroys a website (sites, installs), on by default. */
export const deletionProtectionInput = z.boolean({ error: "must be true or false" }).default(true).meta({
  description:
    "Refuse to delete (or replace) the object while true, the default. Turning it off is an update that sends nothing to the service.",
  writeOnly: true,
  wire: false,
});

/** A domain-name input, canonicalised, then held to `isDomainName` (a `*.` only where `wildcard`). */
export const domainNameInput = ({ wildcard = false } = {}) =>
  stringInput.transform(canonicalDomain).pipe(
    z
      .string()
      .min(1, "must not be empty")
      .max(253, "must be at most 253 characters")
      .refine(
        (s) => isDomainName(s, { wildcard }),
        `must be a domain name such as www.example.com (no scheme, no path${wildcard ? "" : ", no wildcard"})`,
      ),
  );

/** An address of a `notificationEmails` list, trimmed, lower-cased, loosely checked (the service decides). */
export const emailAddress = z
  .string({ error: "must be an email address such as ops@example.com" })
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address such as ops@example.com"));

/** A non-empty list of email addresses (required by the backup and restore operations). */
export const notificationEmails = z
  .array(emailAddress, { error: "is required: a list of at least one email address" })
  .min(1, "needs at least one email address");

/** How often the backup and restore waits check the service (milliseconds); tests shorten it. */
export const BACKUP_POLL = { intervalMs: 2_000, maxIntervalMs: 30_000 };

/** Canonical form of an address list for comparison: lower case, sorted, without duplicates. */
export function normalizeEmails(value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? null;
  return [...new Set(value.map((v) => (typeof v === "string" ? v.trim().toLowerCase() : v)))].sort();
}

/** `triggers` of the cache actions and `EnvironmentSource`: JSON values whose change re-runs the action. */
export const triggersInput = z
  .record(z.string(), z.json(), { error: "must be a map of JSON values" })
  .default({});

/** `triggers` of `BackupRestore` and `InstallCopy`: any values whose change re-runs the action. */
export const triggersListInput = z.array(z.unknown(), { error: "must be a list of values" }).optional();

const described =
  <T extends z.ZodType>(schema: T) =>
  (description: string, meta?: z.core.GlobalMeta): T =>
    schema.meta({ description, ...meta });

/** Output schemas with their description (and any other marker) in one call: `out.stringOrNull("...")`. */
export const out = {
  string: described(z.string()),
  stringOrNull: described(z.string().nullable()),
  boolean: described(z.boolean()),
  booleanOrNull: described(z.boolean().nullable()),
  number: described(z.number()),
  numberOrNull: described(z.number().nullable()),
  strings: described(z.array(z.string())),
};
