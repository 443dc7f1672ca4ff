import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { RestoreBackupRequest } from "../../sdk";
import { changedActionInputs, normalizeActionInput, shown, summaryInput, withSummary } from "../core/actions";
import { defineKind, type OutputsOf } from "../core/define";
import {
  actionAdoptInput,
  BACKUP_POLL,
  containsUnknown,
  notificationEmails,
  out,
  timeoutSecondsInput,
  triggersListInput,
  uuidString,
} from "../core/inputs";
import { afterCreate, type Context, FORGOTTEN, twoParents, waitFor } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const restoreShape = {
  installId: uuidString.meta({
    description: "The install to restore. A change restores again (into the new install).",
    writeOnly: true,
    parent: true,
  }),
  backupId: uuidString.meta({
    description:
      "The backup to restore from: completed, and of the same install (e.g. a `Backup`'s `backupId`). A change restores again.",
    writeOnly: true,
    parent: true,
  }),
  notificationEmails: notificationEmails.meta({
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
  triggers: triggersListInput.meta({
    description: "Any values; a change of them restores again.",
    writeOnly: true,
  }),
};

const inputs = z.object({
  ...restoreShape,
  wait: z.boolean().default(true).meta({
    description:
      "Wait while the install reports the status `pending` after the restore. A change alone restores nothing.",
    writeOnly: true,
  }),
  timeoutSeconds: timeoutSecondsInput(3600).meta({
    description:
      "Longest wait for the restore to finish, in seconds (at most 86400). A change alone restores nothing.",
    setting: false,
    writeOnly: true,
  }),
  summary: summaryInput("the restore"),
  adopt: actionAdoptInput("BackupRestore"),
});

const outputs = z.object({
  restoreCount: out.number("How many times this resource has restored the install."),
  lastRestoredAt: out.string("When the last restore was requested (ISO 8601, the provider's clock)."),
  installStatus: out.stringOrNull(
    "The install's status after the last run: `active` once done, `pending` when not waited for.",
  ),
});

type BackupRestoreInputs = z.output<typeof inputs>;

/** The inputs whose change restores again (each a restore parameter, or `triggers`). */
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
  return `DESTRUCTIVE: restore install ${shown(i["installId"])} from backup ${shown(i["backupId"])}: overwrites its ${what}; database: ${shown(db ?? true)}; checkpoint first: ${shown(i["createCheckpoint"] ?? true)}; notify: ${shown(i["notificationEmails"])}`;
}

/** The outputs of a run, with the install's status once it no longer reports `pending` unless `wait` is false. */
async function waited<R extends object>(ctx: Context, run: R, i: BackupRestoreInputs) {
  if (!i.wait) return run;
  const [installId] = twoParents(ctx);
  const installStatus = await waitFor(
    ctx,
    `install ${installId} to finish restoring`,
    async () => (await ctx.client.installs.get(installId)).status ?? null,
    (status) => (status === "pending" ? status : undefined),
    { pace: BACKUP_POLL },
  );
  return { ...run, installStatus };
}

const WIRE = wireOf(inputs, outputs);

/** Restores once, then waits as asked; a failed wait still records the run as resource `id`. */
async function restore(ctx: Context, id: string, i: BackupRestoreInputs, previousCount: number) {
  const body = WIRE.body(i, ["notificationEmails", "restoreDatabase", "createCheckpoint"]);
  await ctx.client.backups.restore(...twoParents(ctx), body as RestoreBackupRequest);
  const run = {
    restoreCount: previousCount + 1,
    lastRestoredAt: new Date().toISOString(),
    installStatus: "pending",
  };
  // Recorded, so the next `up` waits again instead of restoring twice.
  return afterCreate(id, run, () => waited(ctx, run, i));
}

export const definition = defineKind({
  kind: "BackupRestore",
  description:
    "DESTRUCTIVE action, not an object: creating it restores an install from one of its backups, and a change of any input (typically `triggers`) restores again. The install's current files (and, unless `restoreDatabase` is false, its database) are replaced by the backup's. `check` adds a `summary` input that says in words what will be restored, so `pulumi preview` shows it. The id is generated by the provider.",
  deletes:
    "Only forgets the action: nothing on the service is undone (a restore cannot be reverted except by restoring the checkpoint it took). Nothing is sent to the service.",
  gone: "An action keeps nothing on the service: it reads as gone when its backup or its install is gone, and the refresh removes it from the state (the next `pulumi up` would restore again, and fails while the backup is gone).",
  importId: { none: "an action: there is nothing on the service to adopt." },
  naturalKey: {
    none: "an action: the service keeps no record of a restore to find",
    recover:
      "see in the User Portal whether install {installId} was restored from backup {backupId}; `pulumi up` restores again",
  },
  inputs,
  outputs,
  check: withSummary(restoreSummary),
  normalize: normalizeActionInput,
  async create(inputs, ctx) {
    const id = randomUUID();
    return { id, outs: await restore(ctx, id, inputs, 0) };
  },
  async read(_id, _olds, ctx) {
    await ctx.client.backups.get(...twoParents(ctx));
    return { outs: {} as OutputsOf<typeof inputs, typeof outputs> };
  },
  async update(id, olds, news, ctx) {
    const previous = olds.restoreCount ?? 0;
    if (changedActionInputs(olds, news, RESTORE_INPUTS).length) return restore(ctx, id, news, previous);
    const { lastRestoredAt = null, installStatus = null } = olds;
    const run = { restoreCount: previous, lastRestoredAt, installStatus } as z.output<typeof outputs>;
    return waited(ctx, run, news);
  },
  delete: async () => `${FORGOTTEN}a restore cannot be undone`,
});
