/** Backups of an install, and restores from them. */
import { z } from "zod";
import { emailString, fillAlias, type MessageResponse, MessageResponseSchema } from "./common";
import { EnvelopeListing } from "./core/listing";
import { type OffsetParams, OffsetParamsSchema, type Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** Backup states; `initiated` (a deprecated name) is read as `in_progress`. */
export type BackupStatus = "requested" | "in_progress" | "completed" | "aborted";

/** Maps the deprecated backup status `initiated` to `in_progress`. */
export function normalizeBackupStatus(status: string): string {
  return status === "initiated" ? "in_progress" : status;
}

/** A backup of an install. */
export const BackupSchema = z.preprocess(
  (raw) => fillAlias(raw, "cms_version", "wordpress_version", "wp_version"),
  z.looseObject({
    /** The backup's UUID. */
    id: z.string(),
    /** requested, in_progress, completed or aborted (`initiated` is read as in_progress). */
    status: z
      .string()
      .transform(normalizeBackupStatus)
      .pipe(z.custom<BackupStatus | (string & {})>((v) => typeof v === "string")),
    /** Description given when the backup was requested. */
    description: z.string().nullish(),
    /** Creation time. */
    create_time: z.string().nullish(),
    /** Completion time; null while in progress. */
    complete_time: z.string().nullish(),
    /** WordPress version at backup time (the real service calls it `wordpress_version`). */
    cms_version: z.string().nullish(),
  }),
);
/** A backup of an install. */
export type Backup = z.infer<typeof BackupSchema>;

const emails = (what: string) => z.array(emailString).min(1, `${what} needs at least one address`);

/** Body of `POST /installs/{id}/backups`. */
export const CreateBackupRequestSchema = z.strictObject({
  /** Why the backup is taken. */
  description: z.string({ error: "description is required" }).min(1, "must not be empty"),
  /** Addresses notified when the backup completes. */
  notification_emails: emails("notification_emails"),
});
/** Body of `POST /installs/{id}/backups`. */
export type CreateBackupRequest = z.infer<typeof CreateBackupRequestSchema>;

/** Body of `POST /installs/{id}/backups/{backup_id}/restore`. */
export const RestoreBackupRequestSchema = z.strictObject({
  /** Addresses notified when the restore completes. */
  notification_emails: emails("notification_emails"),
  /** Restore the database too (service default true). */
  restore_database: z.boolean().optional(),
  /** Take a checkpoint before restoring (service default true). */
  create_checkpoint: z.boolean().optional(),
});
/** Body of `POST /installs/{id}/backups/{backup_id}/restore`. */
export type RestoreBackupRequest = z.infer<typeof RestoreBackupRequestSchema>;

/** Operations on backups. */
export class Backups {
  readonly #list: EnvelopeListing<Backup>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, BackupSchema);
  }

  /** Requests a backup; the service accepts it (202) and completes it later. */
  async create(installId: string, body: CreateBackupRequest): Promise<Backup> {
    const req = validateInput("backups.create", CreateBackupRequestSchema, body);
    // Creates a backup: a repeat could take a second one, so it is not retried once it may have arrived.
    return this.transport.request(
      { method: "POST", path: path`/installs/${installId}/backups`, body: req, retry: "unsafe" },
      BackupSchema,
    );
  }

  /** Lists one page of backups in all states. */
  async list(installId: string, params: OffsetParams = {}): Promise<Page<Backup>> {
    const p = validateInput("backups.list", OffsetParamsSchema, params);
    return this.#list.page(path`/installs/${installId}/backups`, { limit: p.limit, offset: p.offset });
  }

  /** Iterates every backup of the install. */
  iterate(installId: string, params: Omit<OffsetParams, "offset"> = {}): AsyncIterable<Backup> {
    const p = validateInput("backups.iterate", OffsetParamsSchema, params);
    const listPath = path`/installs/${installId}/backups`;
    return this.#list.all(listPath, { limit: p.limit });
  }

  /** Reads one backup. */
  async get(installId: string, backupId: string): Promise<Backup> {
    return this.transport.request(
      { method: "GET", path: path`/installs/${installId}/backups/${backupId}` },
      BackupSchema,
    );
  }

  /** Starts restoring the install from a backup (202); there is no status to poll. */
  async restore(installId: string, backupId: string, body: RestoreBackupRequest): Promise<MessageResponse> {
    const req = validateInput("backups.restore", RestoreBackupRequestSchema, body);
    // A restore overwrites the install and takes a checkpoint: running it twice is not harmless, so it
    // is not retried once the request may have reached the server.
    return this.transport.request(
      {
        method: "POST",
        path: path`/installs/${installId}/backups/${backupId}/restore`,
        body: req,
        retry: "unsafe",
      },
      MessageResponseSchema,
    );
  }
}
