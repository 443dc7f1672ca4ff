/** What the kinds of an install's domains share (`Domain`, `DomainVerification`). */
import type { Domain as ApiDomain, WpEngineClient } from "../../sdk";
import { readListings } from "./batch";

/** Reads of an install's domains served by one listing per process (a write or a verification drops it). */
export const DOMAIN_READS = readListings<WpEngineClient, ApiDomain>({
  list: (client, installId) => client.domains.listAll(installId),
  idOf: (d) => d.id,
});
