/** What the application-hosting kinds share: ids, resource names, an environment's address, mappings. */
import { z } from "zod";
import { type DomainMapping as ApiDomainMapping, canonicalDomain, type WpEngineClient } from "../../sdk";
import { out, parentInput, stringInput } from "./inputs";
import { asIs, wireOf } from "./wire";

/** An app or environment id input, in the form the service accepts (a DNS label). */
export const resourceIdString = stringInput.regex(
  /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/,
  "must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
);

/** An object's address as a lifecycle context gives it (`ctx.parents`, outermost first, and `ctx.key`). */
type Address = { readonly parents: readonly string[]; readonly key: string };

/** The collections an address's ids name, outermost first. */
const COLLECTIONS = ["accounts", "apps", "environments", "domainMappings"];

/** The resource name of the object a context addresses, its parents' ids then its key's: `accounts/{a}/...`. */
export const resourceNameOf = ({ parents, key }: Address): string =>
  [...parents, key]
    .filter((id) => id !== "")
    .map((id, i) => `${COLLECTIONS[i]}/${id}`)
    .join("/");

/** The ids of the environment a context addresses: its own (its parents and key), or its first three parents. */
export function environmentOf({ parents, key }: Address): EnvironmentIds {
  const [accountId = "", appId = "", environmentId = key] = parents;
  return [accountId, appId, environmentId];
}

/** An environment's account, app and environment ids, as the client's calls take them. */
export type EnvironmentIds = readonly [accountId: string, appId: string, environmentId: string];

const parentId = (description: string) =>
  resourceIdString.meta({ description, replaces: true, parent: true });

/** The inputs that address an environment, shared by every resource that acts on one. */
export const environmentAddress = {
  accountId: parentInput("The account that owns the app."),
  appId: parentId("The app id (`App.name`)."),
  environmentId: parentId("The environment id (`Environment.name`)."),
} as const;

/** One mapping as the service reports it. */
export const mappingStatusOutput = z.object({
  domain: out.string("The domain (lower case)."),
  primary: out.boolean("Whether it is the primary domain."),
  destinationDomainMapping: out.stringOrNull("The domain it redirects to, or null."),
  state: out.string("CREATING, ACTIVE or DELETING (STATE_UNSPECIFIED when the service does not say)."),
  resourceName: out.stringOrNull("The mapping's resource name.", { wire: "name" }),
  txtRecordName: out.stringOrNull(
    "Name of the TXT record that proves ownership, when the service asks for one.",
    { wire: "txtVerification.name" },
  ),
  txtRecordValue: out.stringOrNull("Value of that TXT record.", { wire: "txtVerification.value" }),
  txtVerified: out.booleanOrNull("Whether ownership has been verified.", {
    wire: "txtVerification.verified",
  }),
});
const MAPPING_WIRE = wireOf(z.object({}), mappingStatusOutput, undefined, asIs);

/** One mapping's status. */
export type MappingStatus = z.output<typeof mappingStatusOutput>;

/** The statuses of an environment's mappings, following every page. */
export async function* mappingStatuses(client: WpEngineClient, ids: EnvironmentIds) {
  for await (const m of client.domainMappings.iterate(...ids)) yield mappingStatus(m);
}

/** A service record as its status output (domains canonical, a destination by its domain). */
export function mappingStatus(m: ApiDomainMapping): MappingStatus {
  const dest = m.destinationDomainMapping;
  return {
    ...MAPPING_WIRE.outputs(m),
    domain: canonicalDomain(m.domain),
    destinationDomainMapping: dest ? canonicalDomain(dest.split("/").pop() ?? dest) : null,
    state: m.state ?? "STATE_UNSPECIFIED",
  };
}
