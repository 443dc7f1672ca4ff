/** What the kinds of an install's domains share (`Domain`, `DomainVerification`). */
import type { Domain as ApiDomain } from "../../sdk";
import { sharedChildren, unlessGone } from "./children";

/**
 * The install's domains, listed once per plugin process (see `children.ts`): by lower-case name for the
 * look before a create, by id for reads (a write or a verification makes the next read list again).
 */
export const DOMAINS = sharedChildren<ApiDomain>({
  list: (client, installId) => client.domains.listAll(installId),
  keyOf: (d) => d.name.toLowerCase(),
  idOf: (d) => d.id,
  get: (client, installId, d) => unlessGone(client.domains.get(installId, d.id)),
});
