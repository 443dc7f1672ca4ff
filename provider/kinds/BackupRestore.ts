/**
 * `BackupRestore`: an action, not an object. Creating it restores an install from one of its backups;
 * changing any of its inputs (typically `triggers`) restores again. DESTRUCTIVE: the install's current
 * files (and, unless `restoreDatabase` is false, its database) are replaced by the backup's.
 *
 * `check` adds a `summary` input that says in words what will be restored, so `pulumi preview` shows
 * it before anything happens. Unless `wait` is false, the restore waits while the install reports the
 * status `pending`, within `timeoutSeconds`.
 *
 * Delete: only forgets the action. Nothing on the service is undone (a restore cannot be reverted except
 * by restoring the checkpoint it took).
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { pollUntil, type RestoreBackupRequest } from "../../sdk";
import { getClient } from "../core/client";
import { defineKind, type OutputsOf } from "../core/define";
import { explainError } from "../core/errors";
import { containsUnknown, timeoutSecondsInput, uuidString } from "../core/inputs";
import {
  type Context,
  CreatedButFailedError,
  FORGOTTEN,
  type ResourceDefinition,
  toPlain,
  withStep,
} from "../core/lifecycle";
import { wireOf } from "../core/wire";
import { resourceClass } from "../dynamic/resource";
import { normalizeEmails, notificationEmails } from "./Backup";
import type { BackupRestoreArgs, BackupRestoreProperties } from "./generated";

// ---------------------------------------------------------------------------------------------------
// Helpers shared by the action resources (BackupRestore, InstallCopy).

/** Arbitrary values whose change re-runs an action (like `triggers` of the command provider). */
export const triggersInput = z.array(z.unknown(), { error: "triggers must be a list of values" }).optional();

/** A value as a summary shows it: unknown values during preview read "(known after apply)". */
export function shown(value: unknown): string {
  if (containsUnknown(value)) return "(known after apply)";
  if (Array.isArray(value)) return value.length ? value.map(shown).join(", ") : "(none)";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === undefined || value === null) return "(none)";
  return String(value);
}

/** Canonical form of an action input for comparison (emails and triggers as given, `undefined` as null). */
export function normalizeActionInput(key: string, value: unknown): unknown {
  if (key === "notificationEmails") return normalizeEmails(value);
  if (key === "dbTables" && Array.isArray(value)) return [...value].sort();
  return value === undefined ? null : value;
}

/** The inputs among `keys` whose value differs between old outputs and new inputs (normalised). */
export function changedActionInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  keys: readonly string[],
): string[] {
  return keys.filter(
    (k) =>
      containsUnknown(news[k]) ||
      !isDeepStrictEqual(
        toPlain(normalizeActionInput(k, olds[k])),
        toPlain(normalizeActionInput(k, news[k])),
      ),
  );
}

/** The action ran (the service accepted it) but a later step failed: the state must still record the run. */
export class ActionRanButFailedError extends Error {
  constructor(
    readonly outs: Record<string, unknown>,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = "ActionRanButFailedError";
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the provider of any action's definition.
type Provider = pulumi.dynamic.ResourceProvider & { definition: ResourceDefinition<any, any> };

/**
 * Wraps an action's provider: `check` adds the `summary` computed from the checked inputs, and `update`
 * records the new run even when a later step (the wait) failed, so a failed wait never runs the action
 * a second time on the next `pulumi up`.
 */
export function actionProvider<P extends Provider>(
  base: P,
  summarize: (inputs: Record<string, unknown>) => string,
  update: (
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
    ctx: Context,
  ) => Promise<Record<string, unknown>>,
): P {
  const kind = base.definition.kind;
  return {
    ...base,
    async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
      const { summary: _ignored, ...given } = news;
      const result = await base.check!(olds, given);
      if (result.failures?.length) return result;
      return { inputs: { ...result.inputs, summary: summarize(result.inputs) } };
    },
    async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
      const { __provider, ...inputs } = news;
      try {
        const outs = await update(id, olds, inputs, { client: await getClient(), kind });
        return { outs: toPlain({ ...inputs, ...outs }) };
      } catch (err) {
        if (!(err instanceof ActionRanButFailedError))
          throw explainError(
            kind,
            "update",
            withStep(base.definition, inputs, err),
            undefined,
            base.definition.schema,
          );
        // The engine records `properties` with the failure (a partial update), exactly as for create.
        const failure = explainError(kind, "update", err.reason, undefined, base.definition.schema);
        Object.assign(failure, { id, properties: { ...toPlain({ ...inputs, ...err.outs }), __provider } });
        throw failure;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------

/** The inputs whose change restores again (each a restore parameter, or `triggers`). */
const restoreShape = {
  installId: uuidString("installId").meta({
    description: "The install to restore. A change restores again (into the new install).",
    writeOnly: true,
  }),
  backupId: uuidString("backupId").meta({
    description:
      "The backup to restore from: completed, and of the same install (e.g. a `Backup`'s `backupId`). A change restores again.",
    writeOnly: true,
  }),
  notificationEmails: notificationEmails().meta({
    description:
      "Addresses notified when the restore completes (at least one; order, case and duplicates do not count).",
    writeOnly: true,
  }),
  restoreDatabase: z.boolean().default(true).meta({
    description: "Restore the database too; false restores the files only.",
    writeOnly: true,
  }),
  createCheckpoint: z.boolean().default(true).meta({
    description: "Take a checkpoint of the install's current state before restoring.",
    writeOnly: true,
  }),
  triggers: triggersInput.meta({
    description: "Any values; a change of them restores again.",
    writeOnly: true,
  }),
};

/** A restore of an install from a backup. */
const inputs = z
  .object({
    ...restoreShape,
    wait: z.boolean().default(true).meta({
      description:
        "Wait while the install reports the status `pending` after the restore. A change alone restores nothing.",
      writeOnly: true,
    }),
    // Not a mere setting here: a change is an update (which waits again, restoring nothing).
    timeoutSeconds: timeoutSecondsInput(3600).meta({
      description:
        "Longest wait for the restore to finish, in seconds (at most 86400). A change alone restores nothing.",
      setting: false,
      writeOnly: true,
    }),
    summary: z.string().optional().meta({
      description:
        "Computed by `check`: what the restore does, in words (also shown by `pulumi preview`); any given value is replaced.",
      setting: true,
    }),
    adopt: z
      .never({ error: "BackupRestore has no adopt: it is an action, there is no object to take over" })
      .optional()
      .meta({ description: "Not accepted: an action has no object to take over.", setting: true }),
  })
  .strict();

const outputs = z.object({
  restoreCount: z.number().meta({ description: "How many times this resource has restored the install." }),
  lastRestoredAt: z
    .string()
    .meta({ description: "When the last restore was requested (ISO 8601, the provider's clock)." }),
  installStatus: z.string().nullable().meta({
    description:
      "The install's status after the last run: `active` once done, `pending` when not waited for.",
  }),
});

type BackupRestoreInputs = z.output<typeof inputs>;
type BackupRestoreOutputs = OutputsOf<typeof inputs, typeof outputs>;

/** The inputs whose change restores again. */
export const RESTORE_INPUTS = Object.keys(restoreShape) as (keyof typeof restoreShape)[];

/** What a restore with these inputs does, in words (unknown values shown as such). */
export function restoreSummary(i: Record<string, unknown>): string {
  const db = i["restoreDatabase"];
  const what =
    db === false
      ? "files only (the database is kept)"
      : containsUnknown(db)
        ? "files, and the database if restoreDatabase is true"
        : "files and database";
  return (
    `DESTRUCTIVE: restore install ${shown(i["installId"])} from backup ${shown(i["backupId"])}: ` +
    `overwrites its ${what}; database: ${shown(db ?? true)}; ` +
    `checkpoint first: ${shown(i["createCheckpoint"] ?? true)}; notify: ${shown(i["notificationEmails"])}`
  );
}

/** How often a wait checks the install (milliseconds); exported so tests can shorten it. */
export const RESTORE_POLL = { intervalMs: 2_000, maxIntervalMs: 30_000 };

/** Waits until the install no longer reports `pending`; returns its status. */
async function waitForInstall(
  ctx: Context,
  installId: string,
  timeoutSeconds: number,
): Promise<string | null> {
  return pollUntil<string | null>({
    deadlineMs: timeoutSeconds * 1000,
    intervalMs: RESTORE_POLL.intervalMs,
    maxIntervalMs: RESTORE_POLL.maxIntervalMs,
    describe: `install ${installId} to finish restoring (timeoutSeconds ${timeoutSeconds})`,
    check: async () => {
      const install = await ctx.client.installs.get(installId);
      const status = install.status ?? null;
      return status === "pending" ? { done: false, state: status } : { done: true, value: status };
    },
  });
}

const WIRE = wireOf(inputs, outputs);
/** What the restore request carries (the rest addresses it or is the provider's own). */
const SENT = ["notificationEmails", "restoreDatabase", "createCheckpoint"] as const;

/** Starts one restore; returns the outputs of the run. */
async function restore(ctx: Context, i: BackupRestoreInputs, previousCount: number) {
  await ctx.client.backups.restore(i.installId, i.backupId, WIRE.body(i, SENT) as RestoreBackupRequest);
  return {
    restoreCount: previousCount + 1,
    lastRestoredAt: new Date().toISOString(),
    installStatus: "pending" as string | null,
  };
}

export const definition = defineKind({
  kind: "BackupRestore",
  description:
    "DESTRUCTIVE action, not an object: creating it restores an install from one of its backups, and a change " +
    "of any input (typically `triggers`) restores again. The install's current files (and, unless " +
    "`restoreDatabase` is false, its database) are replaced by the backup's. `check` adds a `summary` input " +
    "that says in words what will be restored, so `pulumi preview` shows it. The id is generated by the provider.",
  deletes:
    "Only forgets the action: nothing on the service is undone (a restore cannot be reverted except by " +
    "restoring the checkpoint it took). Nothing is sent to the service.",
  gone: "An action keeps nothing on the service: it reads as gone when its backup or its install is gone, and the refresh removes it from the state (the next `pulumi up` would restore again, and fails while the backup is gone).",
  importId: { none: "an action: there is nothing on the service to adopt." },
  naturalKey: {
    none: "an action: the service keeps no record of a restore to find",
    recover:
      "see in the User Portal whether install {installId} was restored from backup {backupId}; `pulumi up` restores again",
  },
  inputs,
  outputs,
  normalize: normalizeActionInput,
  async create(inputs, ctx) {
    const id = randomUUID();
    const run = await restore(ctx, inputs, 0);
    if (!inputs.wait) return { id, outs: run as BackupRestoreOutputs };
    try {
      const installStatus = await waitForInstall(ctx, inputs.installId, inputs.timeoutSeconds);
      return { id, outs: { ...run, installStatus } as BackupRestoreOutputs };
    } catch (err) {
      // The restore was started: record it, so the next `up` waits again instead of restoring twice.
      throw new CreatedButFailedError(id, run, err);
    }
  },
  async read(_id, olds, ctx) {
    // An action has no live object; it is gone when its backup (or install) is gone.
    await ctx.client.backups.get(olds.installId, olds.backupId);
    return { outs: {} as BackupRestoreOutputs };
  },
  async delete() {
    // Nothing to undo on the service: forgetting the action is all delete does.
    return `${FORGOTTEN}a restore cannot be undone`;
  },
});

/** The update of a BackupRestore: restore again when an action input changed, then wait. */
export async function updateRestore(
  _id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  ctx: Context,
): Promise<Record<string, unknown>> {
  const i = news as BackupRestoreInputs;
  const again = changedActionInputs(olds, news, RESTORE_INPUTS).length > 0;
  const previous = typeof olds["restoreCount"] === "number" ? olds["restoreCount"] : 0;
  const run = again
    ? await restore(ctx, i, previous)
    : {
        restoreCount: previous,
        lastRestoredAt: olds["lastRestoredAt"] ?? null,
        installStatus: olds["installStatus"] ?? null,
      };
  if (!i.wait) return run;
  try {
    return { ...run, installStatus: await waitForInstall(ctx, i.installId, i.timeoutSeconds) };
  } catch (err) {
    if (again) throw new ActionRanButFailedError(run, err);
    throw err;
  }
}

export const provider = actionProvider(definition.provider, restoreSummary, updateRestore);
// The registry (the executable provider, the importer) serves this kind's provider as the plugin does.
definition.provider = provider;

/**
 * DESTRUCTIVE action: restores an install from a backup when created, and again whenever an input
 * (typically `triggers`) changes. The id is generated by the provider. Delete only forgets the action.
 *
 * @example
 * const rollback = new wpengine.BackupRestore("rollback", {
 *   installId,
 *   backupId: before.backupId,
 *   notificationEmails: ["ops@example.com"],
 *   triggers: ["2025-06-01 rollback"],
 * });
 */
export const BackupRestore = resourceClass<typeof definition, BackupRestoreArgs, BackupRestoreProperties>(
  definition,
);
export type BackupRestore = InstanceType<typeof BackupRestore>;
export type { BackupRestoreArgs } from "./generated";
