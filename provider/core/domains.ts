/** What the kinds of an install's domains share (`Domain`, `DomainVerification`). */
import type { Domain as ApiDomain } from "../../sdk";
import { sharedChildren, unlessGone } from "./children";

/** The install's domains, listed once per process and shared (children.ts): by lower-case name, and by id. */
export const DOMAINS = sharedChildren<ApiDomain>({
  list: (client, installId) => client.domains.listAll(installId),
  keyOf: (d) => d.name.toLowerCase(),
  idOf: (d) => d.id,
  get: (client, installId, id) => unlessGone(client.domains.get(installId, id)),
});
