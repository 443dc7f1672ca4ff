/** Archives: downloadable zip files made from backups. */
import { z } from "zod";
import { IdRefSchema } from "./common";
import { EnvelopeListing } from "./core/listing";
import { type OffsetParams, OffsetParamsSchema, type Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** An archive of an install. */
export const ArchiveSchema = z.looseObject({
  /** The archive's UUID. */
  id: z.string(),
  /** The backup it was made from. */
  backup: IdRefSchema.nullish(),
  /** requested, in_progress, completed or aborted. */
  state: z.string(),
  /** Addresses notified about the archive. */
  notification_emails: z.array(z.string()).nullish(),
  /** Creation time. */
  create_time: z.string().nullish(),
  /** Start time. */
  start_time: z.string().nullish(),
  /** Completion time (state completed only). */
  complete_time: z.string().nullish(),
  /** Abort time (state aborted only). */
  abort_time: z.string().nullish(),
  /** Download URL (state completed only). */
  download_uri: z.string().nullish(),
});
/** An archive of an install. */
export type Archive = z.infer<typeof ArchiveSchema>;

/** Operations on archives. */
export class Archives {
  readonly #list: EnvelopeListing<Archive>;

  constructor(transport: Transport) {
    this.#list = new EnvelopeListing(transport, ArchiveSchema);
  }

  /** Lists one page of the install's archives. */
  async list(installId: string, params: OffsetParams = {}): Promise<Page<Archive>> {
    const p = validateInput("archives.list", OffsetParamsSchema, params);
    return this.#list.page(path`/installs/${installId}/archives`, { limit: p.limit, offset: p.offset });
  }

  /** Iterates every archive of the install. */
  iterate(installId: string, params: Omit<OffsetParams, "offset"> = {}): AsyncIterable<Archive> {
    const p = validateInput("archives.iterate", OffsetParamsSchema, params);
    const listPath = path`/installs/${installId}/archives`;
    return this.#list.all(listPath, { limit: p.limit });
  }
}
