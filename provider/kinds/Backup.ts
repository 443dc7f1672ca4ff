import { z } from "zod";
import type { Backup as ApiBackup, CreateBackupRequest } from "../../sdk";
import { collect, defineKind, listedUnder } from "../core/define";
import {
  actionAdoptInput,
  BACKUP_POLL,
  normalizeEmails,
  notificationEmails,
  out,
  parentInput,
  stringInput,
  timeoutSecondsInput,
} from "../core/inputs";
import { afterCreate, type Context, CreatedButFailedError, FORGOTTEN, waitFor } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  installId: parentInput("The install to back up. Changing it requests a new backup (a replacement)."),
  description: stringInput.trim().min(1, "must not be empty").meta({
    description:
      "Why the backup is taken, shown in the install's backup list. Changing it requests a new backup.",
    replaces: true,
  }),
  notificationEmails: notificationEmails.meta({
    description:
      "Addresses notified when the backup completes (at least one; order, case and duplicates do not count). Changing them requests a new backup.",
    replaces: true,
    writeOnly: true,
  }),
  wait: z.boolean().default(true).meta({
    description:
      "Wait until the backup is completed or aborted; false returns once the service accepts it. A change sends nothing to the service.",
    writeOnly: true,
  }),
  timeoutSeconds: timeoutSecondsInput(3600).meta({
    description:
      "Longest wait for the backup to finish, in seconds (at most 86400). A change is an update that waits again for an unfinished backup.",
    setting: false,
    writeOnly: true,
  }),
  adopt: actionAdoptInput("Backup", [
    "every create requests a new backup (backups cannot be taken over)",
    "every create requests a new backup, there is nothing to take over.",
  ]),
});

const outputs = z.object({
  backupId: out.string(
    "The backup's UUID (also the resource id); what `BackupRestore` takes as `backupId`.",
    { wire: "id" },
  ),
  status: out.string(
    "`requested`, `in_progress`, `completed` or `aborted`, as of the last create, update or refresh (the service's deprecated `initiated` reads as `in_progress`).",
  ),
  createTime: out.stringOrNull("When the backup was requested."),
  completeTime: out.stringOrNull("When the backup completed; null while it runs."),
  cmsVersion: out.stringOrNull(
    "The WordPress version the backup captured (`wordpress_version` on the real service).",
  ),
});

export type BackupInputs = z.output<typeof inputs>;

const WIRE = wireOf(inputs, outputs);

/** Maps a service record to outputs (an empty description is none: the input carries over). */
export const backupOutputs = (b: ApiBackup) =>
  WIRE.outputs({ ...b, description: b.description || undefined });

export const isTerminalBackupStatus = (status: string) => status === "completed" || status === "aborted";

/** The failure of an aborted backup, with whatever reason the service gave. */
export function abortedMessage(installId: string, b: ApiBackup): string {
  const reason = [b["reason"], b["error"], b["message"], b["status_message"]].find(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  const when = b.complete_time ? ` at ${b.complete_time}` : "";
  return (
    `backup ${b.id} of install ${installId} was aborted by the service${when}${reason ? `: ${reason}` : " (the service gave no reason)"}; ` +
    "the next `pulumi up` requests a new backup"
  );
}

/** Backup `b` as is when `wait` is false, else once completed or aborted (an aborted one with its failure). */
async function asAsked(ctx: Context, b: ApiBackup, i: BackupInputs) {
  if (!i.wait) return { backup: b };
  const backup = isTerminalBackupStatus(b.status)
    ? b
    : await waitFor(
        ctx,
        `backup ${b.id} of install ${ctx.parent} to complete`,
        () => ctx.client.backups.get(ctx.parent, b.id),
        (live) => (isTerminalBackupStatus(live.status) ? undefined : live.status),
        { pace: BACKUP_POLL },
      );
  return {
    backup,
    aborted: backup.status === "aborted" ? new Error(abortedMessage(ctx.parent, backup)) : undefined,
  };
}

export const definition = defineKind({
  kind: "Backup",
  description:
    "A backup of an install, requested when the resource is created. Unless `wait` is false the create waits until the service reports the backup completed or aborted, within `timeoutSeconds`. A backup cannot be changed: a new install, description or list of addresses means a new backup (a replacement), and a backup the service aborted is replaced by a new request on the next `pulumi up`. The id is the backup's UUID.",
  deletes:
    "Only forgets the backup: the service has no way to delete one, so it stays in the install's backup list (and its archive) until the service expires it. Nothing is sent to the service.",
  gone: "The API cannot delete a backup, so a refresh always finds it; its install deleted reads as gone (the refresh removes it from the state).",
  importId: "{installId}/{id}",
  notImported:
    "history, not state to manage: a backup cannot be changed or deleted (one can still be brought in by hand with `pulumi import`)",
  naturalKey: {
    none: "a backup has no name of its own (descriptions need not be unique), so a lost create cannot be told from another backup",
    recover:
      "look for it among install {installId}'s backups (User Portal, or GET /installs/{installId}/backups); `pulumi up` makes the backup again, a second one if the lost request made it",
  },
  list: listedUnder(
    "installId",
    "The install whose backups are listed.",
    (client, installId) => collect(client.backups.iterate(installId, { limit: 100 })),
    (b) => [b.id, b.description ?? b.id],
  ),
  inputs,
  outputs,
  normalize: (key, v) => (key === "notificationEmails" ? normalizeEmails(v) : v),
  lost: (olds) => (olds["status"] === "aborted" ? { replace: "status" } : undefined),
  async create(inputs, ctx) {
    const body = WIRE.body(inputs, ["description", "notificationEmails"]) as CreateBackupRequest;
    const created = await ctx.client.backups.create(ctx.parent, body);
    // The backup exists: a failure records it (with the last state seen) so it is never orphaned.
    const asked = () => asAsked(ctx, created, inputs);
    const { backup, aborted } = await afterCreate(created.id, backupOutputs(created), asked);
    const outs = backupOutputs(backup);
    if (aborted) throw new CreatedButFailedError(created.id, outs, aborted);
    return { id: created.id, outs };
  },
  read: async (id, _olds, ctx) => ({ outs: backupOutputs(await ctx.client.backups.get(ctx.parent, id)) }),
  async update(id, _olds, news, ctx) {
    // Nothing on the service changes: re-read, and wait again when asked (after a create that timed out).
    const { backup, aborted } = await asAsked(ctx, await ctx.client.backups.get(ctx.parent, id), news);
    if (aborted) throw aborted;
    return backupOutputs(backup);
  },
  delete: async () => `${FORGOTTEN}backups cannot be deleted; it stays in the install's backup list`,
});
