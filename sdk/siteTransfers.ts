/** Site transfers: moving a site to another account. */
import { z } from "zod";
import { dateTimeString, idString } from "./common";
import { EnvelopeListing } from "./core/listing";
import { type OffsetParams, OffsetParamsSchema, type Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** Transfer states. */
export type SiteTransferStatus =
  | "pending"
  | "scheduled"
  | "in_progress"
  | "completed"
  | "failed"
  | "cancelled";

/** A site transfer (names are as they were at transfer time). */
export const SiteTransferSchema = z.looseObject({
  /** The transfer's UUID. */
  id: z.string(),
  /** Site name at transfer time. */
  site: z.string().nullish(),
  /** Install names at transfer time. */
  installs: z.array(z.string()).nullish(),
  /** Name of the source account. */
  origin_account: z.string().nullish(),
  /** Name of the destination account. */
  destination_account: z.string().nullish(),
  /** pending, scheduled, in_progress, completed, failed or cancelled. */
  status: z.custom<SiteTransferStatus | (string & {})>((v) => typeof v === "string", "expected a string"),
  /** Scheduled execution time; null for immediate transfers. */
  scheduled_time: z.string().nullish(),
  /** Creation time. */
  created_at: z.string().nullish(),
  /** Last update time. */
  updated_at: z.string().nullish(),
  /** UUID of the transferred site (simulator and newer responses). */
  site_id: z.string().nullish(),
  /** UUID of the destination account (simulator and newer responses). */
  destination_account_id: z.string().nullish(),
});
/** A site transfer. */
export type SiteTransfer = z.infer<typeof SiteTransferSchema>;

/** Body of `POST /sites/{id}/site_transfers`. */
export const CreateSiteTransferRequestSchema = z.strictObject({
  /** UUID of the destination account (must differ from the origin). */
  destination_account_id: idString("destination_account_id"),
  /** RFC 3339 time between 1 hour and 7 days ahead; omit to transfer immediately. */
  scheduled_time: dateTimeString.optional(),
  /** Put the site in maintenance mode during the transfer (default false). */
  maintenance_mode: z.boolean().optional(),
});
/** Body of `POST /sites/{id}/site_transfers`. */
export type CreateSiteTransferRequest = z.infer<typeof CreateSiteTransferRequestSchema>;

/** Operations on site transfers. */
export class SiteTransfers {
  readonly #list: EnvelopeListing<SiteTransfer>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, SiteTransferSchema);
  }

  /** Requests a transfer (202, `pending` or `scheduled`); 409 if one is already active, 422 if invalid. */
  async create(siteId: string, body: CreateSiteTransferRequest): Promise<SiteTransfer> {
    const req = validateInput("siteTransfers.create", CreateSiteTransferRequestSchema, body);
    // Starts a transfer: not retried once the request may have reached the server.
    return this.transport.request(
      { method: "POST", path: path`/sites/${siteId}/site_transfers`, body: req, retry: "unsafe" },
      SiteTransferSchema,
    );
  }

  /** Reads one transfer. */
  async get(siteId: string, transferId: string): Promise<SiteTransfer> {
    return this.transport.request(
      { method: "GET", path: path`/sites/${siteId}/site_transfers/${transferId}` },
      SiteTransferSchema,
    );
  }

  /** Cancels a transfer (204); 409 once it has started. */
  async cancel(siteId: string, transferId: string): Promise<void> {
    await this.transport.requestVoid({
      method: "DELETE",
      path: path`/sites/${siteId}/site_transfers/${transferId}`,
    });
  }

  /** Lists one page of the transfers initiated from an account (Owner or Full with Billing). */
  async listForAccount(accountId: string, params: OffsetParams = {}): Promise<Page<SiteTransfer>> {
    const p = validateInput("siteTransfers.listForAccount", OffsetParamsSchema, params);
    return this.#list.page(path`/accounts/${accountId}/site_transfers`, { limit: p.limit, offset: p.offset });
  }

  /** Iterates every transfer initiated from an account. */
  iterateForAccount(
    accountId: string,
    params: Omit<OffsetParams, "offset"> = {},
  ): AsyncIterable<SiteTransfer> {
    const p = validateInput("siteTransfers.iterateForAccount", OffsetParamsSchema, params);
    const listPath = path`/accounts/${accountId}/site_transfers`;
    return this.#list.all(listPath, { limit: p.limit });
  }

  /** Lists one page of the transfers of a site. */
  async listForSite(siteId: string, params: OffsetParams = {}): Promise<Page<SiteTransfer>> {
    const p = validateInput("siteTransfers.listForSite", OffsetParamsSchema, params);
    return this.#list.page(path`/sites/${siteId}/site_transfers`, { limit: p.limit, offset: p.offset });
  }

  /** Iterates every transfer of a site. */
  iterateForSite(siteId: string, params: Omit<OffsetParams, "offset"> = {}): AsyncIterable<SiteTransfer> {
    const p = validateInput("siteTransfers.iterateForSite", OffsetParamsSchema, params);
    const listPath = path`/sites/${siteId}/site_transfers`;
    return this.#list.all(listPath, { limit: p.limit });
  }
}
