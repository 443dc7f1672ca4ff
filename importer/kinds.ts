/**
 * What the importer knows per kind besides the kind's own definition: which kinds it brings in (in
 * program order), why the others are left out, and which inputs name another object (a reference when
 * that object is in the program). Every kind of the registry is in exactly one of the two lists (a test
 * says so), so a kind added to the provider must be placed here.
 */
import { fieldMeta, type Kind } from "../provider/core/define";
import type { ResourceDefinition } from "../provider/core/lifecycle";
import { resourceProvider } from "../provider/executable/registry";
import { KINDS } from "../provider/registry";

/** The kinds brought in, in the order the program declares them (what others refer to comes first). */
export const COVERED = [
  "Site",
  "Install",
  "Domain",
  "CacheExclusions",
  "OffloadSettings",
  "AccountUser",
  "ReportSchedule",
  "App",
  "Environment",
  "DomainMappings",
] as const;

/** The kinds left out, and why (the generated README repeats it). */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  Backup: "a one-off action: a backup cannot be changed or deleted, there is nothing to manage",
  BackupRestore: "a one-off action (a restore from a backup)",
  InstallCopy: "a one-off action (a copy of one install onto another)",
  CachePurge: "a one-off action (a cache purge)",
  EnvironmentCacheClear: "a one-off action (a cache clear)",
  EnvironmentSource:
    "a one-off upload of a build's source: the service keeps builds, not the directory they came from",
  DomainVerification: "a one-off action: a verified domain stays verified (its Domain is brought in)",
  DomainSharingLink:
    "the service lists no sharing links: a link made outside the program cannot be found (declare one to make and keep a new link)",
  DomainMappingVerification:
    "a one-off action: a verified mapping stays verified (its DomainMappings is brought in)",
  SiteTransfer: "a one-off move of a site to another account: its site is brought in as a Site",
  InstallPlacement:
    "for installs made outside the program: every install is brought in as an Install instead (the two refuse to share one)",
  ThirdPartyCertificate:
    "the API never returns a certificate's private key, nor the PEM it was imported from",
  LetsEncryptCertificate: "the API does not return the holder's details the order was placed with",
  SshKey: "the API returns a key's fingerprint, not the public key the resource declares",
};

// biome-ignore lint/suspicious/noExplicitAny: any kind's definition, whatever its inputs and outputs.
type AnyDefinition = ResourceDefinition<any, any> & Partial<Pick<Kind, "importId" | "inputs">>;

/** The kind's definition: its `defineKind` when converted, the lifecycle definition otherwise. */
export function definitionOf(kind: string): AnyDefinition {
  return (KINDS[kind] as AnyDefinition | undefined) ?? resourceProvider(kind).definition;
}

/** Every kind the provider serves. */
export function allKinds(): string[] {
  return Object.keys(KINDS).sort();
}

/** The kind's import id (`{installId}/{id}`), or `undefined` when it has none. */
export function importIdOf(kind: string): string | undefined {
  const own = definitionOf(kind).importId;
  return typeof own === "string" ? own : undefined;
}

/** An input field as the importer renders it. */
export interface Field {
  key: string;
  /** A provider setting (adopt, timeoutSeconds): never written, its default stays. */
  setting: boolean;
  secret: boolean;
  /** The value check gives it when absent (`undefined`: required or optional without one). */
  byDefault: unknown;
  optional: boolean;
}

/** The input fields of a kind, from its zod inputs and their `.meta()` markers. */
export function fieldsOf(kind: string): Field[] {
  const def = definitionOf(kind);
  const schema = (def.inputs ?? def.schema) as Parameters<typeof fieldMeta>[0];
  const meta = fieldMeta(schema);
  return Object.entries(schema.shape).map(([key, type]) => {
    const t = type as { safeParse(v: unknown): { success: boolean; data?: unknown } };
    const empty = t.safeParse(undefined);
    const m = meta[key] ?? {};
    return {
      key,
      // Kinds not yet converted to defineKind carry no markers: their settings are these two.
      setting: m.setting ?? (key === "adopt" || key === "timeoutSeconds"),
      secret: m.secret === true || (def.secrets ?? []).includes(key),
      byDefault: empty.success ? empty.data : undefined,
      optional: empty.success,
    };
  });
}

/** An input that names another object: of which kind, by which of its outputs, and how to find it. */
export interface RefRule {
  /** The kind referred to, or an outside thing (`account`, `report template`) given by config. */
  target: string;
  /** The output of the target resource that holds the value. */
  prop: string;
  /** The lookup key of the target from the referring object's values. */
  key(value: string, values: Record<string, unknown>): string;
}

const byId = (target: string): RefRule => ({ target, prop: "id", key: (v) => v.toLowerCase() });

/** Inputs that refer to other objects, by input name (the same name means the same thing in every kind). */
export const REFS: Readonly<Record<string, RefRule>> = {
  accountId: { target: "account", prop: "", key: (v) => v.toLowerCase() },
  siteId: byId("Site"),
  installId: byId("Install"),
  installIds: byId("Install"),
  redirectTo: byId("Domain"),
  domainId: byId("Domain"),
  templateUuid: { target: "report template", prop: "", key: (v) => v.toLowerCase() },
  appId: { target: "App", prop: "name", key: (v, o) => `${String(o["accountId"])}/${v}`.toLowerCase() },
  environmentId: {
    target: "Environment",
    prop: "name",
    key: (v, o) => `${String(o["accountId"])}/${String(o["appId"])}/${v}`.toLowerCase(),
  },
};

/** How other objects look a resource up (the counterpart of {@link REFS}' keys). */
export function keyOf(kind: string, id: string, values: Record<string, unknown>): string {
  if (kind === "App") return `${String(values["accountId"])}/${String(values["name"])}`.toLowerCase();
  if (kind === "Environment")
    return `${String(values["accountId"])}/${String(values["appId"])}/${String(values["name"])}`.toLowerCase();
  return id.toLowerCase();
}
