import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { CreateInstallCopyRequest } from "../../sdk";
import { changedActionInputs, normalizeActionInput, shown, summaryInput, withSummary } from "../core/actions";
import { defineKind, type OutputsOf } from "../core/define";
import {
  actionAdoptInput,
  type CheckFailure,
  containsUnknown,
  emailAddress,
  out,
  triggersListInput,
  uuidString,
  whole,
} from "../core/inputs";
import { type Context, FORGOTTEN } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  sourceEnvironmentId: uuidString.meta({
    description: "The environment (install id) to copy from. A change copies again.",
    writeOnly: true,
    parent: true,
  }),
  destinationEnvironmentId: uuidString.meta({
    description:
      "The environment (install id) to copy over, in the same account as the source: what is copied is overwritten there. A change copies again.",
    writeOnly: true,
    parent: true,
  }),
  notificationEmails: z.array(emailAddress, { error: "must be a list of email addresses" }).optional().meta({
    description:
      "Addresses notified when the copy completes: the only completion signal the service gives (without any, nobody learns that it finished). Order and case do not count.",
    writeOnly: true,
  }),
  includeFiles: z
    .boolean()
    .default(true)
    .meta({ description: "Copy the files.", writeOnly: true, wire: "custom_options.include_files" }),
  includeDb: z
    .boolean()
    .default(true)
    .meta({ description: "Copy the database.", writeOnly: true, wire: "custom_options.include_db" }),
  dbTables: z
    .array(
      z
        .string({ error: "must be a list of table names" })
        .trim()
        .min(1, whole("a table name must not be empty")),
    )
    .min(1, "must name at least one table; leave it out to copy the whole database")
    .optional()
    .meta({
      description:
        "Copy only these database tables (default: the whole database; order does not count); only with `includeDb`.",
      writeOnly: true,
      wire: "custom_options.db_tables",
    }),
  triggers: triggersListInput.meta({
    description: "Any values; a change of them copies again.",
    writeOnly: true,
    wire: false,
  }),
  summary: summaryInput("the copy"),
  adopt: actionAdoptInput("InstallCopy"),
});

const outputs = z.object({
  requestCount: out.number("How many times this resource has requested the copy."),
  lastRequestedAt: out.string(
    "When the last copy was requested (ISO 8601, the provider's clock); completion is announced by email only.",
  ),
  lastMessage: out.stringOrNull("The service's answer to the last request (`Install copy initiated`)."),
});

type InstallCopyInputs = z.output<typeof inputs>;

/** What a copy with these inputs does, in words (unknown values shown as such). */
export function copySummary(i: Record<string, unknown>): string {
  /** The part copied when the flag input `name` is true or left out; conditional when it is not known yet. */
  const part = (name: string, what: string) =>
    i[name] === false ? [] : [containsUnknown(i[name]) ? `${what} if ${name} is true` : what];
  const tables =
    i["dbTables"] === undefined ? "the whole database" : `database tables ${shown(i["dbTables"])}`;
  const parts = [...part("includeFiles", "files"), ...part("includeDb", tables)];
  const emails = i["notificationEmails"];
  return `DESTRUCTIVE: copy ${parts.join(" and ") || "nothing"} from environment ${shown(i["sourceEnvironmentId"])} over environment ${shown(i["destinationEnvironmentId"])}; notify: ${emails === undefined ? "(nobody: completion is only announced by email)" : shown(emails)}`;
}

const WIRE = wireOf(inputs, outputs);

/** One copy's request body: no empty address list, never `triggers` (`check` refuses tables without a database). */
export const copyRequest = (i: InstallCopyInputs) =>
  WIRE.body({
    ...i,
    notificationEmails: i.notificationEmails?.length ? i.notificationEmails : undefined,
  }) as CreateInstallCopyRequest;

async function copy(ctx: Context, i: InstallCopyInputs, previousCount: number) {
  const answer = await ctx.client.installCopy.create(copyRequest(i));
  return {
    requestCount: previousCount + 1,
    lastRequestedAt: new Date().toISOString(),
    lastMessage: answer.message ?? null,
  };
}

/** What a copy copies: the files, the database or both, and named tables only of a copied database. */
function copiedFailures({ includeFiles, includeDb, dbTables }: InstallCopyInputs): CheckFailure[] {
  const failures: CheckFailure[] = [];
  // Tables still unknown (a preview) are judged once they are known.
  if (includeDb === false && dbTables !== undefined && !containsUnknown(dbTables))
    failures.push({ property: "dbTables", reason: "must not be given when includeDb is false" });
  if (!includeFiles && !includeDb)
    failures.push({
      property: "includeFiles",
      reason: whole("nothing to copy: includeFiles and includeDb are both false"),
    });
  return failures;
}

export const definition = defineKind({
  kind: "InstallCopy",
  description:
    "DESTRUCTIVE action, not an object: creating it copies the files and/or the database of one environment (install) over another of the same account, and a change of any input (typically `triggers`) copies again; the destination's copied content is overwritten. `check` enforces the rules that can be decided locally (source and destination differ, `dbTables` only with `includeDb`) and adds a `summary` input that says in words what will be copied, so `pulumi preview` shows it. The service has no status for a copy: completion is announced only by email to `notificationEmails`, so nothing waits for it. The id is generated by the provider.",
  deletes: "Only forgets the action: nothing on the service is undone. Nothing is sent to the service.",
  gone: "An action keeps nothing on the service: it reads as gone when either install is gone, and the refresh removes it from the state.",
  importId: { none: "an action: there is nothing on the service to adopt." },
  naturalKey: {
    none: "an action: the service keeps no record of a copy to find",
    recover:
      "see in the User Portal whether environment {destinationEnvironmentId} holds the copy; `pulumi up` copies again",
  },
  inputs,
  outputs,
  check: withSummary(copySummary),
  rules: [
    {
      uses: ["sourceEnvironmentId", "destinationEnvironmentId"],
      test: (i) =>
        i.sourceEnvironmentId.toLowerCase() === i.destinationEnvironmentId.toLowerCase()
          ? { property: "destinationEnvironmentId", reason: "must differ from sourceEnvironmentId" }
          : undefined,
    },
    { uses: ["includeFiles", "includeDb"], test: copiedFailures },
  ],
  normalize: normalizeActionInput,
  create: async (inputs, ctx) => ({ id: randomUUID(), outs: await copy(ctx, inputs, 0) }),
  async read(_id, _olds, ctx) {
    for (const install of ctx.parents) await ctx.client.installs.get(install);
    return { outs: {} as OutputsOf<typeof inputs, typeof outputs> };
  },
  async update(_id, olds, news, ctx) {
    if (changedActionInputs(olds, news, definition.updatable).length)
      return copy(ctx, news, olds.requestCount ?? 0);
  },
  delete: async () => `${FORGOTTEN}a copy cannot be undone`,
});
