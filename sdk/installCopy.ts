/** Install copy: copying files and/or database between two environments of one account. */
import { z } from "zod";
import { emailString, idString, type MessageResponse, MessageResponseSchema } from "./common";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** What to copy. */
export const InstallCopyOptionsSchema = z.strictObject({
  /** Copy files (default true). */
  include_files: z.boolean().optional(),
  /** Copy the database (default true). */
  include_db: z.boolean().optional(),
  /** Only these tables (default: the whole database); not allowed when include_db is false. */
  db_tables: z.array(z.string().min(1, "must not be empty")).optional(),
});

/** Body of `POST /install_copy`. */
export const CreateInstallCopyRequestSchema = z
  .strictObject({
    /** Install (environment) to copy from. */
    source_environment_id: idString("source_environment_id"),
    /** Install (environment) to copy to; its contents are overwritten. */
    destination_environment_id: idString("destination_environment_id"),
    /** Addresses notified when the copy completes (the only completion signal). */
    notification_emails: z.array(emailString).optional(),
    /** What to copy. */
    custom_options: InstallCopyOptionsSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.source_environment_id === v.destination_environment_id) {
      ctx.addIssue({
        code: "custom",
        path: ["destination_environment_id"],
        message: "must differ from source_environment_id",
      });
    }
    if (v.custom_options?.include_db === false && v.custom_options.db_tables !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["custom_options", "db_tables"],
        message: "must not be given when include_db is false",
      });
    }
  });
/** Body of `POST /install_copy`. */
export type CreateInstallCopyRequest = z.infer<typeof CreateInstallCopyRequestSchema>;

/** Operations of install copy. */
export class InstallCopy {
  constructor(private readonly transport: Transport) {}

  /** Starts a copy (202 `{message}`); there is no status endpoint, completion is announced by email. */
  async create(body: CreateInstallCopyRequest): Promise<MessageResponse> {
    const req = validateInput("installCopy.create", CreateInstallCopyRequestSchema, body);
    // Starts an overwrite job: not retried once the request may have reached the server.
    return this.transport.request(
      { method: "POST", path: "/install_copy", body: req, retry: "unsafe" },
      MessageResponseSchema,
    );
  }
}
