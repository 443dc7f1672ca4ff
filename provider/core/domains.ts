/** What the kinds of an install's domains share (`Domain`, `DomainVerification`). */
import type { Domain as ApiDomain, WpEngineClient } from "../../sdk";
import { readListings } from "./batch";

/**
 * Reads of the install's domains served by one listing per process (`readListings`): a refresh of N domains
 * costs about N/100 calls, whatever the pace of the engine's reads; a domain the listing lacks is
 * confirmed by a GET of its own. What this process writes on the install drops the listing, so its own
 * changes are always seen; a verification (`DomainVerification`) drops it too.
 */
export const DOMAIN_READS = readListings<WpEngineClient, ApiDomain>({
  list: (client, installId) => client.domains.listAll(installId),
  idOf: (d) => d.id,
});
