/**
 * `Backup`: a backup of an install, requested when the resource is created. Unless `wait` is false the
 * create waits until the service reports the backup completed or aborted, within `timeoutSeconds`.
 *
 * A backup cannot be changed: a new install, description or list of addresses means a new backup (a
 * replacement). A backup the service aborted is replaced by a new request on the next `pulumi up`.
 *
 * Delete: only forgets the backup. The service has no way to delete a backup; it stays in the install's
 * backup list (and in its archives) until the service expires it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Backup as ApiBackup } from "../../sdk";
import { pollUntil } from "../../sdk";
import { timeoutSecondsInput, uuidString } from "../core/inputs";
import { type Context, CreatedButFailedError, defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "Backup";

/** An email address (loosely checked: the service has the last word), trimmed and lower-cased. */
export const emailAddress = (what: string) =>
  z
    .string({ error: `${what} must be a list of email addresses` })
    .trim()
    .toLowerCase()
    .pipe(
      z
        .string()
        .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, `${what} must hold email addresses such as ops@example.com`),
    );

/** A non-empty list of email addresses (required by the backup and restore operations). */
export const notificationEmails = (what = "notificationEmails") =>
  z
    .array(emailAddress(what), { error: `${what} is required: a list of at least one email address` })
    .min(1, `${what} needs at least one email address`);

/** Canonical form of an address list for comparison: lower case, sorted, without duplicates. */
export function normalizeEmails(value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? null;
  return [...new Set(value.map((v) => (typeof v === "string" ? v.trim().toLowerCase() : v)))].sort();
}

export const BackupInputsSchema = z
  .object({
    /** The install to back up. Changing it requests a new backup (replacement). */
    installId: uuidString("installId"),
    /** Why the backup is taken, shown in the install's backup list. Changing it requests a new backup. */
    description: z
      .string({ error: "description is required and must be a string" })
      .trim()
      .min(1, "description must not be empty"),
    /** Addresses notified when the backup completes (at least one). Changing them requests a new backup. */
    notificationEmails: notificationEmails(),
    /** Wait until the backup is completed or aborted (default true); false returns once it is accepted. */
    wait: z.boolean().default(true),
    /** Longest wait for the backup to finish, in seconds (default 3600). */
    timeoutSeconds: timeoutSecondsInput(3600),
    /** Not accepted: there is nothing to adopt (see the docs). */
    adopt: z
      .never({
        error: "Backup has no adopt: every create requests a new backup (backups cannot be taken over)",
      })
      .optional(),
  })
  .strict();

export type BackupInputs = z.output<typeof BackupInputsSchema>;

/** Outputs of a Backup: its inputs plus what the service reports. */
export interface BackupOutputs extends Record<string, unknown> {
  installId: string;
  description: string;
  notificationEmails: string[];
  wait: boolean;
  timeoutSeconds: number;
  backupId: string;
  status: string;
  createTime: string | null;
  completeTime: string | null;
  cmsVersion: string | null;
}

/** What the service reports of a backup, as outputs (the inputs are overlaid by the framework). */
export type BackupServiceOutputs = Pick<
  BackupOutputs,
  "installId" | "backupId" | "status" | "createTime" | "completeTime" | "cmsVersion"
> & { description?: string };

/** Maps a service record to outputs. */
export function backupOutputs(installId: string, b: ApiBackup): BackupServiceOutputs {
  return {
    installId,
    backupId: b.id,
    status: b.status,
    createTime: b.create_time ?? null,
    completeTime: b.complete_time ?? null,
    cmsVersion: b.cms_version ?? null,
    ...(typeof b.description === "string" && b.description !== "" ? { description: b.description } : {}),
  };
}

/** Whether a backup status is final. */
export function isTerminalBackupStatus(status: string): boolean {
  return status === "completed" || status === "aborted";
}

/** The failure of an aborted backup, with whatever reason the service gave. */
export function abortedMessage(installId: string, b: ApiBackup): string {
  const rec = b as Record<string, unknown>;
  const reason = [rec["reason"], rec["error"], rec["message"], rec["status_message"]].find(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  const when = b.complete_time ? ` at ${b.complete_time}` : "";
  return (
    `backup ${b.id} of install ${installId} was aborted by the service${when}` +
    `${reason ? `: ${reason}` : " (the service gave no reason)"}; ` +
    "the next `pulumi up` requests a new backup"
  );
}

/** How often a wait checks the backup (milliseconds); exported so tests can shorten it. */
export const BACKUP_POLL = { intervalMs: 2_000, maxIntervalMs: 30_000 };

/**
 * Waits until the backup is completed or aborted, or the deadline passes. Returns the last record; a
 * completed backup resolves, an aborted one throws with the reason.
 */
async function waitForBackup(ctx: Context, installId: string, backupId: string, timeoutSeconds: number) {
  const record = await pollUntil<ApiBackup>({
    deadlineMs: timeoutSeconds * 1000,
    intervalMs: BACKUP_POLL.intervalMs,
    maxIntervalMs: BACKUP_POLL.maxIntervalMs,
    describe: `backup ${backupId} of install ${installId} to complete (timeoutSeconds ${timeoutSeconds})`,
    check: async () => {
      const b = await ctx.client.backups.get(installId, backupId);
      return isTerminalBackupStatus(b.status) ? { done: true, value: b } : { done: false, state: b.status };
    },
  });
  if (record.status === "aborted") throw new BackupAbortedError(abortedMessage(installId, record), record);
  return record;
}

/** The service aborted the backup. */
export class BackupAbortedError extends Error {
  constructor(
    message: string,
    readonly backup: ApiBackup,
  ) {
    super(message);
    this.name = "BackupAbortedError";
  }
}

export const provider = defineProvider<BackupInputs, BackupOutputs>({
  kind: KIND,
  schema: BackupInputsSchema,
  replaceOn: ["installId", "description", "notificationEmails"],
  // Waiting is the provider's business, not the service's: changing it never requests a new backup.
  updatable: ["wait", "timeoutSeconds"],
  normalize: (key, v) => (key === "notificationEmails" ? normalizeEmails(v) : (v ?? null)),
  // The backup on record was aborted: the next up requests a new one.
  lost: (olds) => (needsNewBackup(olds) ? { replace: "status" } : undefined),
  async create(inputs, ctx) {
    const created = await ctx.client.backups.create(inputs.installId, {
      description: inputs.description,
      notification_emails: inputs.notificationEmails,
    });
    const outs = backupOutputs(inputs.installId, created) as BackupOutputs;
    if (!inputs.wait || isTerminalBackupStatus(created.status)) {
      if (created.status === "aborted" && inputs.wait)
        throw new CreatedButFailedError(
          created.id,
          outs,
          new Error(abortedMessage(inputs.installId, created)),
        );
      return { id: created.id, outs };
    }
    try {
      const done = await waitForBackup(ctx, inputs.installId, created.id, inputs.timeoutSeconds);
      return { id: created.id, outs: backupOutputs(inputs.installId, done) as BackupOutputs };
    } catch (err) {
      // The backup exists: record it (with the last state seen) so it is never orphaned.
      const last = err instanceof BackupAbortedError ? backupOutputs(inputs.installId, err.backup) : outs;
      throw new CreatedButFailedError(created.id, last, err);
    }
  },
  async read(id, olds, ctx) {
    const b = await ctx.client.backups.get(olds.installId, id);
    const outs = backupOutputs(olds.installId, b) as BackupOutputs;
    return {
      outs,
      inputs: { installId: olds.installId, ...(outs.description ? { description: outs.description } : {}) },
    };
  },
  async update(id, olds, news, ctx) {
    // Nothing on the service changes; re-read the backup and, when asked to, wait for it again (the next
    // `up` after a create that timed out lands here).
    let b = await ctx.client.backups.get(olds.installId, id);
    if (news.wait && !isTerminalBackupStatus(b.status))
      b = await waitForBackup(ctx, olds.installId, id, news.timeoutSeconds);
    if (news.wait && b.status === "aborted") throw new Error(abortedMessage(olds.installId, b));
    return backupOutputs(olds.installId, b) as BackupOutputs;
  },
  async delete() {
    // Backups cannot be deleted on the service: forgetting the resource is all delete can honestly do.
    return `${FORGOTTEN}backups cannot be deleted; it stays in the install's backup list`;
  },
});

/**
 * Whether a backup must be requested anew: the service aborted the one on record. Decided from the old
 * outputs only (diff makes no API call); `pulumi refresh` is what brings an abort seen later into state.
 */
export function needsNewBackup(olds: Record<string, unknown>): boolean {
  return olds["status"] === "aborted";
}

/** Arguments of a {@link Backup}. */
export interface BackupArgs {
  /** The install to back up. Changing it requests a new backup. */
  installId: pulumi.Input<string>;
  /** Why the backup is taken (shown in the install's backup list). Changing it requests a new backup. */
  description: pulumi.Input<string>;
  /** Addresses notified when the backup completes (at least one). Changing them requests a new backup. */
  notificationEmails: pulumi.Input<pulumi.Input<string>[]>;
  /** Wait until the backup is completed or aborted (default true). */
  wait?: pulumi.Input<boolean>;
  /** Longest wait for the backup to finish, in seconds (default 3600). */
  timeoutSeconds?: pulumi.Input<number>;
}

/**
 * A backup of an install. The id is the backup's UUID. Delete only forgets it (backups cannot be deleted
 * on the service).
 *
 * @example
 * const before = new wpengine.Backup("before-upgrade", {
 *   installId,
 *   description: "Before the plugin upgrade",
 *   notificationEmails: ["ops@example.com"],
 * });
 * export const backupId = before.backupId;
 */
export class Backup extends WpEngineResource {
  /** The install that was backed up. */
  declare readonly installId: pulumi.Output<string>;
  /** The description the backup was requested with. */
  declare readonly description: pulumi.Output<string>;
  /** Addresses notified when the backup completes. */
  declare readonly notificationEmails: pulumi.Output<string[]>;
  /** Whether create waited for the backup to finish. */
  declare readonly wait: pulumi.Output<boolean>;
  /** The deadline of the wait, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** The backup's UUID (also the resource id); what `BackupRestore` takes as `backupId`. */
  declare readonly backupId: pulumi.Output<string>;
  /** requested, in_progress, completed or aborted (as of the last create, update or refresh). */
  declare readonly status: pulumi.Output<string>;
  /** When the backup was requested. */
  declare readonly createTime: pulumi.Output<string | null>;
  /** When the backup completed; null while it runs. */
  declare readonly completeTime: pulumi.Output<string | null>;
  /** The WordPress version the backup captured. */
  declare readonly cmsVersion: pulumi.Output<string | null>;

  constructor(name: string, args: BackupArgs, opts?: ResourceOptions) {
    super(KIND, name, args, BACKUP_OUTPUTS, opts);
  }
}

const BACKUP_OUTPUTS = [
  "backupId",
  "status",
  "createTime",
  "completeTime",
  "cmsVersion",
  "wait",
  "timeoutSeconds",
] as const;
