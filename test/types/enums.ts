/**
 * Type tests, checked by `npm run typecheck` (tsconfig.json includes test/): the classes refuse what the
 * service refuses, where a type can say it. Each `@ts-expect-error` fails the type check if the line
 * below it compiles.
 */
import * as wpengine from "pulumi-wpengine";

const accountId = "ac000000-0000-4000-8000-000000000001";
const person = { accountId, email: "pat@example.com", firstName: "Pat", lastName: "Doe" };

export function declared(): void {
  new wpengine.AccountUser("owner", { ...person, roles: "owner" });
  new wpengine.AccountUser("billing", { ...person, roles: "full,billing" });
  // @ts-expect-error: "admin" is not a role set
  new wpengine.AccountUser("admin", { ...person, roles: "admin" });
  const installId = "1e000000-0000-4000-8000-000000000001";
  const siteId = "5e000000-0000-4000-8000-000000000001";
  new wpengine.InstallPlacement("placed", { installId, siteId, environment: "staging" });
  // @ts-expect-error: an install fills production, staging or development
  new wpengine.InstallPlacement("misplaced", { installId, siteId, environment: "qa" });
  new wpengine.CachePurge("purge", { installId, type: "page" });
  // @ts-expect-error: a purge is of object, page, cdn or all
  new wpengine.CachePurge("wrong", { installId, type: "everything" });
  new wpengine.App("app", { accountId, name: "web", region: "US-C" });
  // @ts-expect-error: not a region of the service
  new wpengine.App("moon", { accountId, name: "moon", region: "MOON-1" });
}
