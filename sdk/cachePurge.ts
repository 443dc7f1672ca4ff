/** Cache purges of an install. */
import { z } from "zod";
import { type MessageResponse, MessageResponseSchema } from "./common";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** The caches `purge_cache` clears: `object` (one purge per 60 s per install), `page`, `cdn` or `all`. */
export const CacheTypeSchema = z.enum(["object", "page", "cdn", "all"], {
  error: "type must be one of object, page, cdn, all",
});
/** A cache type. */
export type CacheType = z.infer<typeof CacheTypeSchema>;

/** The service's window between two object-cache purges of one install (documented). */
export const OBJECT_CACHE_PURGE_WINDOW_MS = 60_000;

/** Operations on an install's caches. */
export class CachePurge {
  constructor(private readonly transport: Transport) {}

  /**
   * Purges one cache of an install (202). An object-cache purge's 429 is handed back at once, not
   * retried: the object cache takes one purge per 60 s per install, so the caller waits out the window
   * (see {@link OBJECT_CACHE_PURGE_WINDOW_MS}) instead of spending retries inside it.
   */
  async purge(installId: string, type: CacheType): Promise<MessageResponse> {
    const valid = validateInput("cachePurge.purge", z.strictObject({ type: CacheTypeSchema }), { type });
    // Purging again leaves the same state: safe to repeat after a gateway error.
    return this.transport.request(
      {
        method: "POST",
        path: path`/installs/${installId}/purge_cache`,
        body: valid,
        retry: "safe",
        retryRateLimited: type !== "object",
      },
      MessageResponseSchema,
    );
  }
}
