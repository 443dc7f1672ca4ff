/**
 * `InstallCopy`: an action, not an object. Creating it copies files and/or the database of one
 * environment (install) over another of the same account; changing any of its inputs (typically
 * `triggers`) copies again. DESTRUCTIVE for the destination, whose copied content is overwritten.
 *
 * `check` enforces the spec's rules that can be decided locally (source and destination differ, `dbTables`
 * only with `includeDb`) and adds a `summary` input that says in words what will be copied, so
 * `pulumi preview` shows it. The service has no status for a copy: completion is announced only by email
 * to `notificationEmails`, so nothing waits for it.
 *
 * Delete: only forgets the action. Nothing on the service is undone.
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Rule } from "../core/inputs";
import { containsUnknown, uuidString } from "../core/inputs";
import { type Context, defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { emailAddress } from "./Backup";
import {
  actionProvider,
  changedActionInputs,
  normalizeActionInput,
  shown,
  triggersInput,
} from "./BackupRestore";

const KIND = "InstallCopy";

export const InstallCopyInputsSchema = z
  .object({
    /** The environment (install id) to copy from. */
    sourceEnvironmentId: uuidString("sourceEnvironmentId"),
    /** The environment (install id) to copy to; what is copied is overwritten there. Same account as the source. */
    destinationEnvironmentId: uuidString("destinationEnvironmentId"),
    /** Addresses notified when the copy completes: the only completion signal the service gives. */
    notificationEmails: z
      .array(emailAddress("notificationEmails"), {
        error: "notificationEmails must be a list of email addresses",
      })
      .optional(),
    /** Copy the files (default true). */
    includeFiles: z.boolean().default(true),
    /** Copy the database (default true). */
    includeDb: z.boolean().default(true),
    /** Copy only these database tables (default: the whole database); only with `includeDb`. */
    dbTables: z
      .array(
        z
          .string({ error: "dbTables must be a list of table names" })
          .trim()
          .min(1, "a table name must not be empty"),
      )
      .min(1, "dbTables must name at least one table; leave it out to copy the whole database")
      .optional(),
    /** Any values; a change of them copies again. */
    triggers: triggersInput,
    /** Computed by `check` (what will be copied, in words); any given value is replaced. */
    summary: z.string().optional(),
    /** Not accepted: there is nothing to adopt (see the docs). */
    adopt: z
      .never({ error: "InstallCopy has no adopt: it is an action, there is no object to take over" })
      .optional(),
  })
  .strict();

export type InstallCopyInputs = z.output<typeof InstallCopyInputsSchema>;

/** Outputs of an InstallCopy: its inputs plus the record of the runs. */
export interface InstallCopyOutputs extends Record<string, unknown> {
  sourceEnvironmentId: string;
  destinationEnvironmentId: string;
  notificationEmails?: string[];
  includeFiles: boolean;
  includeDb: boolean;
  dbTables?: string[];
  triggers?: unknown[];
  summary: string;
  requestCount: number;
  lastRequestedAt: string;
  lastMessage: string | null;
}

/** The spec's rules of install copy that can be decided without the service. */
export const INSTALL_COPY_RULES: readonly Rule<InstallCopyInputs>[] = [
  {
    uses: ["sourceEnvironmentId", "destinationEnvironmentId"],
    test: (i) =>
      i.sourceEnvironmentId.toLowerCase() === i.destinationEnvironmentId.toLowerCase()
        ? {
            property: "destinationEnvironmentId",
            reason: "destinationEnvironmentId must differ from sourceEnvironmentId",
          }
        : undefined,
  },
  {
    uses: ["includeDb", "dbTables"],
    test: (i) =>
      i.includeDb === false && i.dbTables !== undefined
        ? { property: "dbTables", reason: "dbTables must not be given when includeDb is false" }
        : undefined,
  },
  {
    uses: ["includeFiles", "includeDb"],
    test: (i) =>
      !i.includeFiles && !i.includeDb
        ? { property: "includeFiles", reason: "nothing to copy: includeFiles and includeDb are both false" }
        : undefined,
  },
];

/** The inputs whose change copies again. */
export const COPY_INPUTS = [
  "sourceEnvironmentId",
  "destinationEnvironmentId",
  "notificationEmails",
  "includeFiles",
  "includeDb",
  "dbTables",
  "triggers",
] as const;

/** What a copy with these inputs does, in words (unknown values shown as such). */
export function copySummary(i: Record<string, unknown>): string {
  /** The part copied when `flag` is true or left out; conditional when it is not known yet. */
  const part = (flag: unknown, name: string, what: string): string[] => {
    if (flag === false) return [];
    return [containsUnknown(flag) ? `${what} if ${name} is true` : what];
  };
  const tables =
    i["dbTables"] === undefined ? "the whole database" : `database tables ${shown(i["dbTables"])}`;
  const parts = [
    ...part(i["includeFiles"], "includeFiles", "files"),
    ...part(i["includeDb"], "includeDb", tables),
  ];
  const emails = i["notificationEmails"];
  return (
    `DESTRUCTIVE: copy ${parts.join(" and ") || "nothing"} from environment ${shown(i["sourceEnvironmentId"])} ` +
    `over environment ${shown(i["destinationEnvironmentId"])}; ` +
    `notify: ${emails === undefined ? "(nobody: completion is only announced by email)" : shown(emails)}`
  );
}

/** The request body of one copy. */
export function copyRequest(i: InstallCopyInputs) {
  return {
    source_environment_id: i.sourceEnvironmentId,
    destination_environment_id: i.destinationEnvironmentId,
    ...(i.notificationEmails?.length ? { notification_emails: i.notificationEmails } : {}),
    custom_options: {
      include_files: i.includeFiles,
      include_db: i.includeDb,
      ...(i.includeDb && i.dbTables ? { db_tables: i.dbTables } : {}),
    },
  };
}

/** Starts one copy; returns the outputs of the run. */
async function copy(ctx: Context, i: InstallCopyInputs, previousCount: number) {
  const answer = await ctx.client.installCopy.create(copyRequest(i));
  return {
    requestCount: previousCount + 1,
    lastRequestedAt: new Date().toISOString(),
    lastMessage: answer.message ?? null,
  };
}

const base = defineProvider<InstallCopyInputs, InstallCopyOutputs>({
  kind: KIND,
  schema: InstallCopyInputsSchema,
  rules: INSTALL_COPY_RULES,
  replaceOn: [],
  updatable: [...COPY_INPUTS],
  normalize: normalizeActionInput,
  async create(inputs, ctx) {
    const id = randomUUID();
    return { id, outs: (await copy(ctx, inputs, 0)) as InstallCopyOutputs };
  },
  async read(_id, olds, ctx) {
    // An action has no live object; it is gone when either environment is gone.
    await ctx.client.installs.get(olds.sourceEnvironmentId);
    await ctx.client.installs.get(olds.destinationEnvironmentId);
    return { outs: {} as InstallCopyOutputs, inputs: {} };
  },
  async delete() {
    // Nothing to undo on the service: forgetting the action is all delete does.
    return `${FORGOTTEN}a copy cannot be undone`;
  },
});

/** The update of an InstallCopy: copy again when an action input changed. */
export async function updateCopy(
  _id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  ctx: Context,
): Promise<Record<string, unknown>> {
  const previous = typeof olds["requestCount"] === "number" ? olds["requestCount"] : 0;
  if (changedActionInputs(olds, news, COPY_INPUTS).length === 0) {
    return {
      requestCount: previous,
      lastRequestedAt: olds["lastRequestedAt"] ?? null,
      lastMessage: olds["lastMessage"] ?? null,
    };
  }
  return copy(ctx, news as InstallCopyInputs, previous);
}

export const provider = actionProvider(base, copySummary, updateCopy);

/** Arguments of an {@link InstallCopy}. */
export interface InstallCopyArgs {
  /** The environment (install id) to copy from. */
  sourceEnvironmentId: pulumi.Input<string>;
  /** The environment (install id) to copy over; same account as the source. */
  destinationEnvironmentId: pulumi.Input<string>;
  /** Addresses notified when the copy completes (the only completion signal). */
  notificationEmails?: pulumi.Input<pulumi.Input<string>[]>;
  /** Copy the files (default true). */
  includeFiles?: pulumi.Input<boolean>;
  /** Copy the database (default true). */
  includeDb?: pulumi.Input<boolean>;
  /** Copy only these tables (default: the whole database); only with `includeDb`. */
  dbTables?: pulumi.Input<pulumi.Input<string>[]>;
  /** Any values; a change of them copies again. */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * DESTRUCTIVE action: copies one environment over another when created, and again whenever an input
 * (typically `triggers`) changes. The id is generated by the provider. Delete only forgets the action.
 *
 * @example
 * const refreshStaging = new wpengine.InstallCopy("refresh-staging", {
 *   sourceEnvironmentId: prodInstallId,
 *   destinationEnvironmentId: stagingInstallId,
 *   includeFiles: false,
 *   notificationEmails: ["ops@example.com"],
 *   triggers: ["2025-06-01"],
 * });
 */
export class InstallCopy extends WpEngineResource {
  /** The environment copied from. */
  declare readonly sourceEnvironmentId: pulumi.Output<string>;
  /** The environment copied over. */
  declare readonly destinationEnvironmentId: pulumi.Output<string>;
  /** Addresses notified when the copy completes. */
  declare readonly notificationEmails: pulumi.Output<string[] | undefined>;
  /** Whether files are copied. */
  declare readonly includeFiles: pulumi.Output<boolean>;
  /** Whether the database is copied. */
  declare readonly includeDb: pulumi.Output<boolean>;
  /** The tables copied, or undefined for the whole database. */
  declare readonly dbTables: pulumi.Output<string[] | undefined>;
  /** The values whose change copies again. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** What the copy does, in words (also shown by `pulumi preview`). */
  declare readonly summary: pulumi.Output<string>;
  /** How many times this resource has requested the copy. */
  declare readonly requestCount: pulumi.Output<number>;
  /** When the last copy was requested (ISO 8601, the provider's clock); completion is announced by email only. */
  declare readonly lastRequestedAt: pulumi.Output<string>;
  /** The service's answer to the last request. */
  declare readonly lastMessage: pulumi.Output<string | null>;

  constructor(name: string, args: InstallCopyArgs, opts?: ResourceOptions) {
    super(KIND, name, args, COPY_OUTPUTS, opts);
  }
}

const COPY_OUTPUTS = [
  "notificationEmails",
  "includeFiles",
  "includeDb",
  "dbTables",
  "triggers",
  "summary",
  "requestCount",
  "lastRequestedAt",
  "lastMessage",
] as const;
