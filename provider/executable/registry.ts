/**
 * What the executable front door serves: every resource kind (its module's `provider` object, the one
 * its dynamic class uses, and the import id that addresses an existing object), and the lookups of
 * the table in `provider/lookups/index.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ResourceDefinition } from "../core/lifecycle";
import { provider as AccountUser } from "../kinds/AccountUser";
import { provider as App } from "../kinds/App";
import { provider as Backup } from "../kinds/Backup";
import { provider as BackupRestore } from "../kinds/BackupRestore";
import { provider as CacheExclusions } from "../kinds/CacheExclusions";
import { provider as CachePurge } from "../kinds/CachePurge";
import { provider as Domain } from "../kinds/Domain";
import { provider as DomainMappings } from "../kinds/DomainMappings";
import { provider as DomainMappingVerification } from "../kinds/DomainMappingVerification";
import { provider as DomainVerification } from "../kinds/DomainVerification";
import { provider as Environment } from "../kinds/Environment";
import { provider as EnvironmentCacheClear } from "../kinds/EnvironmentCacheClear";
import { provider as EnvironmentSource } from "../kinds/EnvironmentSource";
import { provider as Install } from "../kinds/Install";
import { provider as InstallCopy } from "../kinds/InstallCopy";
import { provider as InstallPlacement } from "../kinds/InstallPlacement";
import { provider as LetsEncryptCertificate } from "../kinds/LetsEncryptCertificate";
import { provider as OffloadSettings } from "../kinds/OffloadSettings";
import { provider as ReportSchedule } from "../kinds/ReportSchedule";
import { provider as Site } from "../kinds/Site";
import { provider as SiteTransfer } from "../kinds/SiteTransfer";
import { provider as SshKey } from "../kinds/SshKey";
import { provider as ThirdPartyCertificate } from "../kinds/ThirdPartyCertificate";
import { LOOKUP_TABLE } from "../lookups";
import { type LookupOptions, type Lookup as LookupRow, run } from "../lookups/common";

/** The package name of the Pulumi schema and the first segment of every type token. */
export const PACKAGE = "wpengine";

/** `wpengine:index:<Kind>` for a resource, `wpengine:index:get<Thing>` for a lookup. */
export const token = (name: string): string => `${PACKAGE}:index:${name}`;

/** The lifecycle methods of every resource kind: each module's `provider`, shared with its dynamic class. */
const PROVIDERS = {
  AccountUser,
  App,
  Backup,
  BackupRestore,
  CacheExclusions,
  CachePurge,
  Domain,
  DomainMappingVerification,
  DomainMappings,
  DomainVerification,
  Environment,
  EnvironmentCacheClear,
  EnvironmentSource,
  Install,
  InstallCopy,
  InstallPlacement,
  LetsEncryptCertificate,
  OffloadSettings,
  ReportSchedule,
  Site,
  SiteTransfer,
  SshKey,
  ThirdPartyCertificate,
} as const;

/**
 * The import id of each kind that addresses an existing object on the service: `{field}` parts are the
 * inputs `read` needs, `{id}` is the resource id (the whole import id when the format has no `{id}`).
 * `undefined`: not importable (an action, or state the service cannot read back).
 */
export const RESOURCES: Readonly<Record<keyof typeof PROVIDERS, string | undefined>> = {
  AccountUser: "{accountId}/{id}",
  App: "accounts/{accountId}/apps/{name}",
  Backup: "{installId}/{id}",
  // Actions: nothing on the service to adopt.
  BackupRestore: undefined,
  CacheExclusions: "{installId}",
  CachePurge: undefined,
  Domain: "{installId}/{id}",
  // An action (verification) and a set whose read starts from the mappings in state.
  DomainMappingVerification: undefined,
  DomainMappings: undefined,
  DomainVerification: undefined,
  Environment: "accounts/{accountId}/apps/{appId}/environments/{name}",
  EnvironmentCacheClear: undefined,
  EnvironmentSource: undefined,
  Install: "{id}",
  InstallCopy: undefined,
  InstallPlacement: "{installId}",
  // The id is the whole import id.
  LetsEncryptCertificate: "{installId}/{domainId}",
  OffloadSettings: "{installId}",
  ReportSchedule: "{siteId}/{id}",
  Site: "{id}",
  SiteTransfer: "{siteId}/{id}",
  // The service never returns a public key, which the resource's state keeps.
  SshKey: undefined,
  // The service cannot return a certificate or its private key: there is nothing to read back.
  ThirdPartyCertificate: undefined,
};

/** The lifecycle methods of a kind. */
export function resourceProvider(kind: string): pulumi.dynamic.ResourceProvider & {
  // biome-ignore lint/suspicious/noExplicitAny: every kind's definition, whatever its input and output types.
  definition: ResourceDefinition<any, any>;
} {
  if (!Object.hasOwn(PROVIDERS, kind)) throw new Error(`wpengine: unknown resource type ${token(kind)}`);
  return PROVIDERS[kind as keyof typeof PROVIDERS];
}

/**
 * Turns an import id into the resource id and the inputs `read` needs, or says what the id looks like.
 */
export function parseImportId(kind: string, importId: string): { id: string; olds: Record<string, string> } {
  const own = (resourceProvider(kind).definition as { importId?: string | { none: string } }).importId;
  const format =
    own === undefined ? RESOURCES[kind as keyof typeof RESOURCES] : typeof own === "string" ? own : undefined;
  if (format === undefined) {
    throw new Error(`wpengine: ${token(kind)} cannot be imported (it does not address an existing object)`);
  }
  const names: string[] = [];
  const pattern = format.replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  const match = new RegExp(`^${pattern}$`).exec(importId);
  if (!match) throw new Error(`wpengine: the import id of ${token(kind)} is ${format}, not ${importId}`);
  const olds: Record<string, string> = {};
  names.forEach((name, i) => {
    olds[name] = match[i + 1]!;
  });
  const { id = importId, ...rest } = olds;
  return { id, olds: rest };
}

/**
 * How a lookup's result travels in an invoke's return, always an object (a Pulumi function returns one
 * in every language): a list as `{ items }`, a map (usage rollups and insights, keyed by metric) as
 * `{ value }`, a record as its own properties.
 */
export function resultShape(lookup: LookupRow): "items" | "value" | "record" {
  if (lookup.list) return "items";
  return lookup.result.schema instanceof z.ZodRecord ? "value" : "record";
}

/** A lookup's result as an invoke returns it. */
function wireResult(lookup: LookupRow, result: unknown): Record<string, unknown> {
  const shape = resultShape(lookup);
  return shape === "record" ? (result as Record<string, unknown>) : { [shape]: result };
}

/** A lookup as the front door calls it: arguments in, a client through the options, its invoke result out. */
type Lookup = (args: Record<string, unknown>, options: LookupOptions) => Promise<unknown>;

/** Every `get<Thing>` lookup of the table, its result as an invoke returns it (see `functions.ts`). */
export const LOOKUPS: Readonly<Record<string, Lookup>> = Object.fromEntries(
  (Object.entries(LOOKUP_TABLE) as [string, LookupRow][]).map(([name, row]) => [
    name,
    async (args, options) => wireResult(row, await run(name, row, args, options)),
  ]),
);

/**
 * A lookup's result as an invoke returns it: an object. A list is wrapped as `{ items }`, since a
 * Pulumi function returns an object in every language.
 */
export function invokeResult(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { items: value };
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : { value };
}
