/** What the application-hosting kinds share: ids, resource names, an environment's address, mappings. */
import { z } from "zod";
import { type DomainMapping as ApiDomainMapping, canonicalDomain, type WpEngineClient } from "../../sdk";
import { out, stringInput, uuidString } from "./inputs";
import { asIs, wireOf } from "./wire";

/** An app or environment id input, in the form the service accepts (a DNS label). */
export const resourceIdString = stringInput.regex(
  /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/,
  "must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen",
);

/** `accounts/{a}/apps/{app}`: the service's resource name of an app. */
export function appResourceName(accountId: string, appId: string): string {
  return `accounts/${accountId}/apps/${appId}`;
}

/** `accounts/{a}/apps/{app}/environments/{env}`: the service's resource name of an environment. */
export function environmentResourceName(accountId: string, appId: string, environmentId: string): string {
  return `${appResourceName(accountId, appId)}/environments/${environmentId}`;
}

/** The inputs that address an environment, shared by every resource that acts on one. */
export const environmentAddress = {
  accountId: uuidString.meta({ description: "The account that owns the app.", replaces: true, parent: true }),
  appId: resourceIdString.meta({ description: "The app id (`App.name`).", replaces: true, parent: true }),
  environmentId: resourceIdString.meta({
    description: "The environment id (`Environment.name`).",
    replaces: true,
    parent: true,
  }),
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

/** An environment, by the inputs that address it. */
export type EnvironmentAddress = Record<keyof typeof environmentAddress, string>;

/** `.../environments/{env}/domainMappings`: the service's resource name of an environment's mappings. */
export const mappingsName = (e: EnvironmentAddress): string =>
  `${environmentResourceName(e.accountId, e.appId, e.environmentId)}/domainMappings`;

/** The statuses of an environment's mappings, following every page. */
export async function* mappingStatuses(client: WpEngineClient, e: EnvironmentAddress) {
  for await (const m of client.domainMappings.iterate(e.accountId, e.appId, e.environmentId))
    yield mappingStatus(m);
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
