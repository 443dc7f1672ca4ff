/**
 * The out-of-band drift matrix (issue 20): for every resource kind, each property a person can change on
 * the service behind the program's back (through the API, as the WP Engine portal would), how to make
 * that change, and what a deletion of the object on the service does to the next refresh. Every updatable
 * input and every output of every kind of the registry has a row here or a recorded reason why it cannot
 * drift (write-only, set once by the service, an action that keeps nothing): `test/provider/drift.test.ts`
 * fails otherwise, and runs every row through the providers; `test/cli/resources.test.ts` runs one change
 * per kind through the real CLI. The objects are made from the case table (`cases.ts`).
 */
import { buildArchive } from "../../provider/kinds/EnvironmentSource";
import type { WpEngineClient } from "../../sdk";
import type { RunningSimulator } from "../../simulator";
import { CASES, type Seed } from "./cases";

type Args = Record<string, unknown>;

/** The object a change is made to: as the state records it. */
export interface Made {
  id: string;
  outs: Args;
}

/** What a change or a deletion works with: the service's API (and the simulator, for a TXT record). */
export interface World {
  client: WpEngineClient;
  sim: RunningSimulator;
  seed: Seed;
}

export interface DriftRow {
  /** The input (or watched output) the change shows as, and only it. */
  property: string;
  /** The change, in words. */
  how: string;
  /** Makes the change through the API. */
  change: (w: World, made: Made) => Promise<void>;
  /** Create args other than the case's (the change needs another starting point). */
  args?: (seed: Seed) => Args;
  /** Writes the repairing update sends (1 unless the API needs more). */
  writes?: number;
  /** An output the user watches, not an input: the refresh shows it, and there is nothing to repair. */
  output?: true;
}

export type Gone =
  | {
      /** How the object is removed on the service. */
      how: string;
      remove: (w: World, made: Made) => Promise<void>;
      /**
       * Whether only the object itself is removed, so that the next `pulumi up` can make it again (the
       * CLI tier removes these in its every-kind stack; the others take a parent with them).
       */
      selfOnly: boolean;
    }
  | { none: string };

export interface KindDrift {
  kind: string;
  rows: DriftRow[];
  /** Every updatable input and output without a row, by the reason it has none. */
  unwatched: Record<string, string[]>;
  /**
   * Outputs the service changes on its own, or derives from the property a row changes (a verified
   * domain's TXT record): left out of the comparison that the change shows as exactly its property.
   */
  serviceDriven?: string[];
  /** What removing the object on the service does: read reports it gone, so the engine plans a create. */
  gone: Gone;
}

export const WRITE_ONLY =
  "write-only: the service never returns it, so read carries it over (no drift can show)";
const FIXED = "set when the object is made; no API call changes it";
const ACTION = "an action: the service keeps nothing of it to change";
const SERVICE = "the service changes it on its own (left out of the comparison)";

const caseOf = (kind: string) => CASES.find((c) => c.kind === kind)!;

/**
 * The out-of-band change the CLI tier makes to a kind in its every-kind stack (made from the case's
 * create args): its first row that starts from them, else the removal of the object alone; undefined for
 * a kind with neither (write-only actions, and kinds whose removal takes a parent a create needs).
 */
export function cliChange(
  d: KindDrift,
): { row: DriftRow } | { gone: Extract<Gone, { how: string }> } | undefined {
  const row = d.rows.find((r) => !r.args && !r.output);
  if (row) return { row };
  if (!("none" in d.gone) && d.gone.selfOnly) return { gone: d.gone };
  return undefined;
}

export const DRIFT: KindDrift[] = [
  {
    kind: "Domain",
    rows: [
      {
        property: "secureAllUrls",
        how: "HTTPS forced on all URLs",
        change: ({ client }, { id, outs }) =>
          client.domains.update(String(outs["installId"]), id, { secure_all_urls: true }).then(() => {}),
      },
      {
        property: "redirectTo",
        how: "redirected to www.acme.example",
        change: ({ client, seed }, { id, outs }) =>
          client.domains
            .update(String(outs["installId"]), id, { redirect_to: seed.domains.wwwAcmeExample.id })
            .then(() => {}),
      },
      {
        property: "ownershipStatus",
        how: "its TXT record published and verified",
        output: true,
        change: async ({ client, sim }, { id, outs }) => {
          sim.publishTxt(String(outs["txtVerificationKey"]), String(outs["txtVerificationValue"]));
          await client.domains.verify(String(outs["installId"]), id);
        },
      },
    ],
    unwatched: {
      [FIXED]: [
        "domainId",
        "duplicate",
        "networkType",
        "txtVerificationKey",
        "txtVerificationValue",
        "cname",
      ],
      "changes with ownershipStatus (the verification of the TXT record)": [
        "txtVerifiedTime",
        "txtVerifiedDomain",
      ],
      "the service's DNS view: changes with the records outside WP Engine": ["aRecords"],
      "the provider's own record (whom the primary was taken from): no service field holds it": [
        "primaryTakenFrom",
      ],
      "making another domain primary: the service moves primary between domains, which the program owns": [
        "primary",
      ],
    },
    serviceDriven: ["txtVerificationKey", "txtVerificationValue", "txtVerifiedTime", "txtVerifiedDomain"],
    gone: {
      how: "the domain deleted",
      selfOnly: true,
      remove: ({ client }, { id, outs }) => client.domains.delete(String(outs["installId"]), id),
    },
  },
  {
    kind: "ThirdPartyCertificate",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: ["certificate", "privateKey"],
      "describe the certificate the program gave (no API returns an imported certificate)": [
        "subject",
        "issuer",
        "names",
        "notBefore",
        "notAfter",
        "fingerprint",
        "serialNumber",
      ],
    },
    gone: {
      how: "its install deleted (no API deletes an imported certificate)",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "DomainVerification",
    rows: [],
    unwatched: {
      "a verification cannot be undone: the verified domain's facts never change again": [
        "domainName",
        "ownershipStatus",
        "verifiedTime",
        "verifiedDomain",
      ],
    },
    gone: {
      how: "the verified domain deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) =>
        client.domains.delete(String(outs["installId"]), String(outs["domainId"])),
    },
  },
  {
    kind: "DomainSharingLink",
    rows: [],
    unwatched: {
      "the service keeps no readable record of a link: the one asked for is kept as made": [
        "url",
        "domainName",
        "networkType",
      ],
    },
    gone: {
      how: "its domain deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) =>
        client.domains.delete(String(outs["installId"]), String(outs["domainId"])),
    },
  },
  {
    kind: "CacheExclusions",
    rows: [
      {
        property: "exclusions",
        how: "the list replaced by another",
        change: ({ client }, { outs }) =>
          client.cacheExclusions
            .replace(String(outs["installId"]), [{ type: "url path", value: "^/elsewhere/" }])
            .then(() => {}),
      },
    ],
    unwatched: {},
    gone: {
      // The list belongs to the install: emptying it is the exclusions row's kind of drift.
      how: "its install deleted (an install's list is never deleted, only emptied)",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "OffloadSettings",
    rows: [
      {
        property: "bucket",
        how: "another bucket",
        change: ({ client }, { outs }) =>
          client.offloadSettings
            .update(String(outs["installId"]), { bucket: "someone-elses" })
            .then(() => {}),
      },
      {
        property: "bucketRegion",
        how: "another region",
        change: ({ client }, { outs }) =>
          client.offloadSettings
            .update(String(outs["installId"]), { bucket_region: "eu-central-1" })
            .then(() => {}),
      },
      {
        property: "pathSettings",
        how: "the uploads path no longer offloaded, another one instead",
        change: ({ client }, { outs }) =>
          client.offloadSettings
            .update(String(outs["installId"]), {
              path_settings: [{ path: "wp-content/other/", excluded_paths: [], redirect_type: "permanent" }],
            })
            .then(() => {}),
      },
    ],
    unwatched: {
      "the service knows one cloud (s3): nothing can change it": ["cloud"],
      [SERVICE]: ["status"],
    },
    serviceDriven: ["status"],
    gone: {
      how: "its install deleted (nothing deletes an install's offload settings)",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "AccountUser",
    rows: [
      {
        property: "roles",
        how: "billing added to a full user's roles (or taken from a full user's with billing)",
        change: async ({ client }, { id, outs }) => {
          const toggled = { full: "full,billing", "full,billing": "full" }[String(outs["roles"])];
          if (!toggled) throw new Error(`only a full user's billing role is toggled, not ${outs["roles"]}`);
          await client.accountUsers.update(String(outs["accountId"]), id, { roles: toggled });
        },
      },
      {
        property: "installIds",
        how: "a partial user given one more install",
        args: (S) => ({
          accountId: S.accounts.acme.id,
          email: "drift@acme.example",
          firstName: "Drift",
          lastName: "Tester",
          roles: "partial",
          installIds: [S.installs.acmeprod.id],
        }),
        change: ({ client, seed }, { id, outs }) =>
          client.accountUsers
            .update(String(outs["accountId"]), id, {
              roles: "partial",
              install_ids: [seed.installs.acmeprod.id, seed.installs.acmestg.id],
            })
            .then(() => {}),
      },
    ],
    unwatched: {
      [FIXED]: ["userId"],
      "the user's own (invitation, MFA, phone): not the program's": ["inviteAccepted", "mfaEnabled", "phone"],
      "follows roles and installIds (their rows)": ["lastOwner", "installs"],
    },
    serviceDriven: ["installs", "lastOwner"],
    gone: {
      how: "the user removed from the account",
      selfOnly: true,
      remove: ({ client }, { id, outs }) => client.accountUsers.delete(String(outs["accountId"]), id),
    },
  },
  {
    kind: "ReportSchedule",
    rows: [
      {
        property: "title",
        how: "renamed",
        change: ({ client }, { id }) =>
          client.reportSchedules.update(id, { title: "Renamed by hand" }).then(() => {}),
      },
      {
        property: "recipients",
        how: "another recipient",
        change: ({ client }, { id }) =>
          client.reportSchedules
            .update(id, { recipients: [{ name: "Someone", email: "someone@globex.example" }] })
            .then(() => {}),
      },
      {
        property: "sections",
        how: "one more section",
        change: ({ client }, { id }) =>
          client.reportSchedules
            .update(id, { sections: [{ name: "cover" }, { name: "usage" }, { name: "plugins" }] })
            .then(() => {}),
      },
      {
        property: "frequency",
        how: "every 14 days",
        change: ({ client }, { id }) =>
          client.reportSchedules.update(id, { frequency: { value: 14, unit: "DAYS" } }).then(() => {}),
      },
      {
        property: "templateUuid",
        how: "the performance report's template",
        change: ({ client, seed }, { id }) =>
          client.reportSchedules
            .update(id, { template_uuid: seed.templates.performanceReport.uuid })
            .then(() => {}),
      },
    ],
    unwatched: {
      [FIXED]: ["scheduleId", "createdAt", "createMatch"],
      "the first run's time as declared: the service moves it on after each run (nextRunDate shows that)": [
        "nextScheduledDate",
      ],
      [SERVICE]: ["nextRunDate"],
    },
    serviceDriven: ["nextRunDate"],
    gone: {
      how: "the schedule deleted",
      selfOnly: true,
      remove: ({ client }, { id }) => client.reportSchedules.delete(id),
    },
  },
  {
    kind: "App",
    rows: [],
    unwatched: { [FIXED]: ["resourceName", "createTime", "updateTime"] },
    gone: {
      how: "the app deleted",
      selfOnly: true,
      remove: ({ client }, { outs }) => client.apps.delete(String(outs["accountId"]), String(outs["name"])),
    },
  },
  {
    kind: "Environment",
    rows: [
      {
        property: "displayName",
        how: "renamed",
        change: ({ client }, { outs }) =>
          client.environments
            .update(String(outs["accountId"]), String(outs["appId"]), String(outs["name"]), {
              displayName: "Renamed by hand",
            })
            .then(() => {}),
      },
      {
        property: "branch",
        how: "another branch",
        change: ({ client }, { outs }) =>
          client.environments
            .update(String(outs["accountId"]), String(outs["appId"]), String(outs["name"]), {
              branch: "hotfix",
            })
            .then(() => {}),
      },
      {
        property: "rootDirectory",
        how: "another root directory",
        change: ({ client }, { outs }) =>
          client.environments
            .update(String(outs["accountId"]), String(outs["appId"]), String(outs["name"]), {
              rootDirectory: "site",
            })
            .then(() => {}),
      },
    ],
    unwatched: { [FIXED]: ["resourceName", "createTime"], [SERVICE]: ["reconciling"] },
    serviceDriven: ["reconciling"],
    gone: {
      how: "the environment deleted",
      selfOnly: true,
      remove: ({ client }, { outs }) =>
        client.environments.delete(String(outs["accountId"]), String(outs["appId"]), String(outs["name"])),
    },
  },
  {
    kind: "DomainMappings",
    rows: [
      {
        property: "mappings",
        how: "one more mapping added to the set",
        change: ({ client }, { outs }) =>
          client.domainMappings
            .replace(String(outs["accountId"]), String(outs["appId"]), String(outs["environmentId"]), {
              domainMappings: [
                ...(outs["mappings"] as { domain: string; primary?: boolean }[]).map((m) => ({
                  domain: m.domain,
                  primary: m.primary === true,
                })),
                { domain: "added-by-hand.acme-frontend.example" },
              ],
            })
            .then(() => {}),
      },
    ],
    unwatched: { "follow mappings (its row)": ["domainMappings", "primaryDomain"] },
    serviceDriven: ["domainMappings", "primaryDomain"],
    gone: {
      how: "every mapping of the set removed",
      selfOnly: true,
      remove: ({ client }, { outs }) =>
        client.domainMappings
          .replace(String(outs["accountId"]), String(outs["appId"]), String(outs["environmentId"]), {
            domainMappings: [],
          })
          .then(() => {}),
    },
  },
  {
    kind: "DomainMappingVerification",
    rows: [],
    unwatched: {
      "a verification cannot be undone: the verified mapping's facts never change again": [
        "txtVerified",
        "txtRecordName",
        "txtRecordValue",
        "state",
        "resourceName",
      ],
    },
    gone: {
      how: "the verified mapping removed from its set",
      selfOnly: false,
      remove: ({ client }, { outs }) =>
        client.domainMappings
          .replace(String(outs["accountId"]), String(outs["appId"]), String(outs["environmentId"]), {
            domainMappings: [],
          })
          .then(() => {}),
    },
  },
  {
    kind: "InstallPlacement",
    rows: [
      {
        property: "environment",
        how: "moved to the staging slot of its site",
        change: ({ client }, { outs }) =>
          client.installs.update(String(outs["installId"]), { environment: "staging" }).then(() => {}),
      },
    ],
    unwatched: {
      "moving an install to another site needs a free slot of another site of its account: the Install row covers the same call":
        ["siteId"],
      [FIXED]: ["installName", "accountId", "cname"],
      "set by the Domain resources (their primary)": ["primaryDomain"],
      [SERVICE]: ["status"],
    },
    serviceDriven: ["status"],
    gone: {
      how: "the install deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "Backup",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: ["wait", "timeoutSeconds"],
      "a finished backup never changes": ["backupId", "status", "createTime", "completeTime", "cmsVersion"],
    },
    gone: {
      how: "its install deleted (the API cannot delete a backup)",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "BackupRestore",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: [
        "installId",
        "backupId",
        "notificationEmails",
        "restoreDatabase",
        "createCheckpoint",
        "triggers",
        "wait",
        "timeoutSeconds",
      ],
      [ACTION]: ["restoreCount", "lastRestoredAt", "installStatus"],
    },
    gone: {
      how: "its install deleted (the API cannot delete its backup)",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "InstallCopy",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: [
        "sourceEnvironmentId",
        "destinationEnvironmentId",
        "notificationEmails",
        "includeFiles",
        "includeDb",
        "dbTables",
        "triggers",
      ],
      [ACTION]: ["requestCount", "lastRequestedAt", "lastMessage"],
    },
    gone: {
      how: "its destination install deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["destinationEnvironmentId"])),
    },
  },
  {
    kind: "SiteTransfer",
    rows: [],
    unwatched: {
      [FIXED]: ["transferId", "createdAt", "site", "installs", "originAccount", "destinationAccount"],
      [SERVICE]: ["status", "updatedAt"],
    },
    serviceDriven: ["status", "updatedAt"],
    gone: {
      how: "the transfer cancelled (a cancelled transfer never runs)",
      selfOnly: true,
      remove: ({ client }, { id, outs }) => client.siteTransfers.cancel(String(outs["siteId"]), id),
    },
  },
  {
    kind: "EnvironmentCacheClear",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: ["triggers"],
      [ACTION]: ["environmentResourceName", "lastClearedAt"],
    },
    gone: {
      how: "its environment deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) =>
        client.environments.delete(
          String(outs["accountId"]),
          String(outs["appId"]),
          String(outs["environmentId"]),
        ),
    },
  },
  {
    kind: "CachePurge",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: ["triggers", "timeoutSeconds"],
      [ACTION]: ["purgeCount", "lastPurgedAt", "lastWaitSeconds"],
    },
    gone: {
      how: "its install deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) => client.installs.delete(String(outs["installId"])),
    },
  },
  {
    kind: "LetsEncryptCertificate",
    rows: [],
    unwatched: {
      [WRITE_ONLY]: ["emailAddress", "givenName", "familyName", "regionCode", "state", "city", "phone"],
      [FIXED]: ["certificateId", "commonName", "domains", "orderedTime", "serialNumber", "autoRenew"],
      [SERVICE]: ["status", "approvedTime", "expiresTime"],
    },
    serviceDriven: ["status", "approvedTime", "expiresTime", "serialNumber"],
    gone: {
      how: "its domain deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) =>
        client.domains.delete(String(outs["installId"]), String(outs["domainId"])),
    },
  },
  {
    kind: "EnvironmentSource",
    rows: [
      {
        property: "sourceHash",
        how: "another version uploaded to the environment",
        change: async ({ client, seed }, { outs }) => {
          // The case's update directory: other content than the program's.
          const other = String(caseOf("EnvironmentSource").update(seed)["path"]);
          await client.environments.upload(
            String(outs["accountId"]),
            String(outs["appId"]),
            String(outs["environmentId"]),
            buildArchive(other).bytes,
          );
        },
      },
    ],
    unwatched: {
      [WRITE_ONLY]: ["path", "triggers"],
      "follow the deployed version (the sourceHash row)": ["buildName", "buildState", "size"],
    },
    serviceDriven: ["buildName", "buildState", "size"],
    gone: {
      how: "its environment deleted",
      selfOnly: false,
      remove: ({ client }, { outs }) =>
        client.environments.delete(
          String(outs["accountId"]),
          String(outs["appId"]),
          String(outs["environmentId"]),
        ),
    },
  },
  {
    kind: "Site",
    rows: [
      {
        property: "name",
        how: "renamed",
        change: ({ client }, { id }) => client.sites.update(id, { name: "Renamed by hand" }).then(() => {}),
      },
    ],
    unwatched: {
      [WRITE_ONLY]: ["deletionProtection"],
      [FIXED]: ["siteId", "createdAt", "sandbox"],
      "the account's own organisation of its sites (no API of this provider sets them)": [
        "groupName",
        "tags",
      ],
      "follows the account's plan": ["transferable"],
    },
    gone: {
      how: "the site deleted",
      selfOnly: true,
      remove: ({ client }, { id }) => client.sites.delete(id),
    },
  },
  {
    kind: "Install",
    rows: [
      {
        property: "environment",
        how: "moved to the development slot of its site (or from it to staging)",
        change: ({ client }, { id, outs }) =>
          client.installs
            .update(id, { environment: outs["environment"] === "development" ? "staging" : "development" })
            .then(() => {}),
      },
    ],
    unwatched: {
      [WRITE_ONLY]: ["timeoutSeconds", "deletionProtection"],
      "moving it to another site needs a free slot of another site of its account: the same call as environment":
        ["siteId"],
      [FIXED]: ["installId", "cname", "stableIps", "isMultisite", "createdAt"],
      "WP Engine's platform updates (PHP, core upgrades): not the program's": [
        "phpVersion",
        "deferCmsUpgradesUntil",
      ],
      [SERVICE]: ["status"],
    },
    serviceDriven: ["status"],
    gone: {
      how: "the install deleted",
      selfOnly: true,
      remove: ({ client }, { id }) => client.installs.delete(id),
    },
  },
  {
    kind: "SshKey",
    rows: [],
    unwatched: { [FIXED]: ["sshKeyId", "fingerprint", "comment", "createdAt"] },
    gone: {
      how: "the key deleted",
      selfOnly: true,
      remove: ({ client }, { id }) => client.sshKeys.delete(id),
    },
  },
];
