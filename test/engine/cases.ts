/**
 * The resource classes the engine-level and program-level suites run, one entry each. Adding a
 * resource is adding an entry: its args for a create, the args of an in-place update, an invalid input
 * and what must come out.
 *
 * Args are plain data built from the simulator's fixed ids (`SEED`); keys listed in `secretArgs` are
 * wrapped in `pulumi.secret()` by the generated program.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { WpEngineClient } from "../../sdk";
import type { RunningSimulator, SEED } from "../../simulator";
import { selfSigned, type TestPair } from "../fixtures/self-signed";

export type Seed = typeof SEED;
type Args = Record<string, unknown>;

export interface ResourceCase {
  /** The class name exported by the package (and the `<Kind>` of its type token). */
  kind: string;
  /** Args of a create. */
  args: (seed: Seed) => Args;
  /**
   * Args of an in-place update of the created resource (same identity); for a kind with
   * `replaceOnUpdate`, args whose change replaces it.
   */
  update: (seed: Seed) => Args;
  /** The input keys the update changes, whose outputs must equal the new inputs after it. */
  updated: string[];
  /**
   * Only for a kind with NO input updatable in place (every change replaces it): the inputs the
   * `update` args change, which the diff must report as replaced. The update test then checks that
   * replacement plan instead of an in-place update, and `updated` stays empty.
   */
  replaceOnUpdate?: string[];
  /**
   * Makes the world the case needs beyond the seed (e.g. a published TXT record), before its create.
   * Only the resources suite runs it; the create args must work on the bare seed for the other suites.
   */
  prepare?: (sim: RunningSimulator, client: WpEngineClient, seed: Seed) => Promise<void>;
  /** Args that `check` must refuse, and the property it must name. */
  invalid: { args: (seed: Seed) => Args; property: string; reason: RegExp };
  /** Output keys that must hold a value (not null, not undefined) after create. */
  required: string[];
  /**
   * Inputs no API reads back: read carries them over from the state, so a change made outside the
   * program cannot show (the drift and adoption checks read every other updated input from the service).
   */
  unreadable?: string[];
  /** Inputs by which adoption finds the existing object (kept as created when adoption is tested). */
  adoptionKey?: string[];
  /** Outputs the class marks secret (`additionalSecretOutputs`). */
  secretOutputs?: string[];
  /** Args wrapped in `pulumi.secret()`. */
  secretArgs?: string[];
  /** False when delete only forgets the resource (read still finds it afterwards). Default true. */
  goneAfterDelete?: boolean;
  /**
   * Makes the create's follow-up step fail on the simulator (for the created-but-failed test). Every
   * resource whose create has a step after the object exists has one (the provider tests check that).
   * The args must work whatever the other variants left behind (they adopt when the object may exist).
   */
  failAfterCreate?: {
    args: (seed: Seed) => Args;
    faults: {
      method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      /** A glob (`*` matches anything, `/` included) or, starting with `^`, a regular expression. */
      path: string;
      status: 429;
      retryAfter: number;
      /** Let this many matching requests through first (the reads before the create). */
      skip?: number;
    }[];
  };
}

/** Throwaway certificates, made once per process when a test first needs them (openssl). */
const pairs: TestPair[] = [];
const pair = (i: 0 | 1): TestPair => {
  while (pairs.length <= i) pairs.push(selfSigned([`cert${pairs.length}.engine-test.example.com`]));
  return pairs[i]!;
};

/**
 * Local source directories for `EnvironmentSource` (one `index.html` each, different contents) under
 * the system temp directory. The same two directories for every process, each file written only when
 * missing or different, by an atomic rename: parallel test files never see half a file, and nothing
 * accumulates.
 */
const SOURCE_ROOT = path.join(os.tmpdir(), "wpengine-engine-test-source");
const sourceDir = (i: 0 | 1): string => {
  const name = `v${i + 1}`;
  const dir = path.join(SOURCE_ROOT, name);
  const file = path.join(dir, "index.html");
  const content = `<!doctype html><title>engine test ${name}</title>\n`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  if (current !== content) {
    fs.mkdirSync(dir, { recursive: true });
    // Written beside the directory, not in it: a concurrent zip of the directory never lists it.
    const partial = path.join(SOURCE_ROOT, `${name}.${process.pid}.tmp`);
    fs.writeFileSync(partial, content);
    fs.renameSync(partial, file);
  }
  return dir;
};

/**
 * An instant `hours` ahead of when this module was loaded, whole minutes, canonical ISO 8601: fixed per
 * process, so every call of a case's args gives the same value.
 */
const LOADED_AT = Math.ceil(Date.now() / 60_000) * 60_000;
const hoursAhead = (hours: number): string => new Date(LOADED_AT + hours * 3_600_000).toISOString();

/** `args` without `keys` (the rest in the same order): for a variant that leaves out inputs of its base. */
const omit = <T extends Args, K extends keyof T & string>(args: T, ...keys: K[]): Omit<T, K> =>
  Object.fromEntries(Object.entries(args).filter(([k]) => !keys.includes(k as K))) as Omit<T, K>;

/*
 * The create args of the cases below. A case's other variants (update, invalid, failAfterCreate) spread
 * them and set only the keys they change, or drop with `omit` the ones they leave out.
 */

/** The seeded Acme frontend app, and one of its environments. */
const frontendApp = (S: Seed) => ({
  accountId: S.apps.acmeFrontend.accountId,
  appId: S.apps.acmeFrontend.appId,
});
const frontendEnvironment = (S: Seed, environment: "production" | "staging") => ({
  ...frontendApp(S),
  environmentId: S.apps.acmeFrontend.environments[environment],
});

/** The seeded mapping of the frontend's production environment: verified already. */
const mappingVerificationArgs = (S: Seed) => ({
  ...frontendEnvironment(S, "production"),
  domain: S.apps.acmeFrontend.domain,
  retryIntervalSeconds: 1,
});
/** A second mapping of production, which `prepare` adds with its TXT record published. */
const SECOND_MAPPING = "verify.engine-test.acme-frontend.example";

const domainArgs = (S: Seed) => ({ installId: S.installs.acmeprod.id, name: "Engine-Test.Example.com" });
const certificateArgs = (S: Seed, i: 0 | 1) => ({ installId: S.installs.acmestg.id, ...pair(i) });
const verificationArgs = (S: Seed) => ({
  installId: S.installs.initechprod.id,
  domainId: S.domains.initechExample.id,
});
const cacheExclusionsArgs = (S: Seed) => ({
  installId: S.installs.acmedev.id,
  exclusions: [{ type: "url path", value: "^/engine-test/" }],
});
const offloadArgs = (S: Seed) => ({
  installId: S.installs.globexprod.id,
  bucket: "engine-test-uploads",
  bucketRegion: "us-east-1",
  pathSettings: [{ path: "wp-content/uploads/", excludedPaths: [], redirectType: "permanent" }],
  timeoutSeconds: 60,
});
const accountUserArgs = (S: Seed) => ({
  accountId: S.accounts.initech.id,
  email: "engine-test@initech.example",
  firstName: "Engine",
  lastName: "Tester",
  roles: "full",
});
const reportScheduleArgs = (S: Seed) => ({
  siteId: S.sites.globexCorporate.id,
  title: "Engine test report",
  nextScheduledDate: "2030-01-07T09:00:00.000Z",
  templateUuid: S.templates.siteReport.uuid,
  frequency: { value: 7, unit: "DAYS" },
  recipients: [{ name: "Globex Ops", email: "ops@globex.example" }],
  sections: [{ name: "cover" }, { name: "usage" }],
});
const appArgs = (S: Seed) => ({ accountId: S.accounts.initech.id, name: "engine-test-app", region: "US-C" });
const environmentArgs = (S: Seed) => ({
  ...frontendApp(S),
  name: "engine-test",
  displayName: "Engine test",
  branch: "main",
  timeoutSeconds: 60,
});
const domainMappingsArgs = (S: Seed) => ({
  ...frontendEnvironment(S, "staging"),
  mappings: [{ domain: "engine-test.acme-frontend.example", primary: true }],
  timeoutSeconds: 60,
});
const placementArgs = (S: Seed) => ({
  installId: S.installs.acmesandbox.id,
  siteId: S.sites.acmeSandbox.id,
  environment: "development",
});
const backupArgs = (S: Seed) => ({
  installId: S.installs.globexstg.id,
  description: "Engine test backup",
  notificationEmails: ["ops@globex.example"],
  timeoutSeconds: 60,
});
const restoreArgs = (S: Seed) => ({
  installId: S.installs.acmeprod.id,
  backupId: S.backups.acmeprodCompleted.id,
  notificationEmails: ["ops@acme.example"],
  triggers: ["first"],
  timeoutSeconds: 60,
});
const installCopyArgs = (S: Seed) => ({
  sourceEnvironmentId: S.installs.acmestg.id,
  destinationEnvironmentId: S.installs.acmedev.id,
  notificationEmails: ["ops@acme.example"],
  includeFiles: false,
  triggers: ["first"],
});
const siteTransferArgs = (S: Seed) => ({
  siteId: S.sites.acmeBlog.id,
  destinationAccountId: S.accounts.initech.id,
  // Days ahead, not hours: suites that move the simulator's clock forward (waits on its time) may have
  // moved it hours past the wall clock, and the service wants 1 hour to 7 days ahead of ITS time.
  scheduledTime: hoursAhead(72),
  maintenanceMode: false,
});
const cacheClearArgs = (S: Seed) => ({
  ...frontendEnvironment(S, "staging"),
  triggers: { release: "1" },
});
// `page`: not the rate-limited object cache, so the engine suites never wait 60 s between purges.
const cachePurgeArgs = (S: Seed) => ({
  installId: S.installs.acmesandbox.id,
  type: "page",
  triggers: { release: "1" },
});
// The seeded legacy-network domain: the one a Let's Encrypt order can be placed for.
const letsEncryptArgs = (S: Seed) => ({
  installId: S.installs.acmeblog.id,
  domainId: S.domains.blogAcmeExample.id,
  emailAddress: "ops@acme.example",
  givenName: "Olive",
  familyName: "Owner",
  regionCode: "US",
  adopt: true,
});
const sourceArgs = (S: Seed) => ({
  ...frontendEnvironment(S, "production"),
  path: sourceDir(0),
  timeoutSeconds: 60,
});

/** A new site of Globex; the guard is off so the table's delete really deletes it. */
const siteArgs = (S: Seed) => ({
  accountId: S.accounts.globex.id,
  name: "Engine test site",
  deletionProtection: false,
});
/** A new install in the free staging slot of Initech Portal; the guard is off, as for the site. */
const installArgs = (S: Seed) => ({
  name: "enginetest",
  accountId: S.accounts.initech.id,
  siteId: S.sites.initechPortal.id,
  environment: "staging",
  timeoutSeconds: 60,
  deletionProtection: false,
});
/** Two OpenSSH public keys (public: nothing secret in them). */
const SSH_KEYS = [
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJHUPEcxk8IlK0Iio5WPowMFr/2W2FowztUF0Nwrpoza engine@example.com",
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICnAIfGfcJtep8uc/0V6Yc5MTs43XnHSKX1s6m1/9oTW engine@example.com",
] as const;

export const CASES: ResourceCase[] = [
  {
    kind: "Domain",
    args: domainArgs,
    update: (S) => ({ ...domainArgs(S), name: "engine-test.example.com", secureAllUrls: true }),
    updated: ["secureAllUrls"],
    invalid: {
      args: (S) => ({ ...domainArgs(S), name: "https://nope" }),
      property: "name",
      reason: /domain name/,
    },
    required: [
      "domainId",
      "name",
      "installId",
      "ownershipStatus",
      "txtVerificationKey",
      "txtVerificationValue",
    ],
    failAfterCreate: {
      // The domain is created by a POST; secureAllUrls needs a PATCH after it, which the fault refuses
      // with a Retry-After longer than the client waits for, so it fails at once.
      args: (S) => ({ ...domainArgs(S), name: "half-made.example.com", secureAllUrls: true }),
      faults: [{ method: "PATCH", path: "/v1/installs/*/domains/*", status: 429, retryAfter: 86_400 }],
    },
  },
  {
    kind: "ThirdPartyCertificate",
    args: (S) => certificateArgs(S, 0),
    update: (S) => certificateArgs(S, 1),
    updated: ["certificate", "privateKey"],
    invalid: {
      args: (S) => ({ ...certificateArgs(S, 0), certificate: "not a certificate" }),
      property: "certificate",
      reason: /PEM/,
    },
    required: ["installId", "certificate", "privateKey", "subject", "issuer", "notAfter", "fingerprint"],
    secretOutputs: ["privateKey"],
    secretArgs: ["privateKey"],
    // No API returns an imported certificate or its key.
    unreadable: ["certificate", "privateKey"],
    // Nothing on the service deletes an imported certificate: delete forgets it.
    goneAfterDelete: false,
  },
  {
    // An already verified domain (seeded): create verifies at once, with no TXT record to publish.
    kind: "DomainVerification",
    args: verificationArgs,
    // Its only inputs besides the wait settings (which change nothing) are the domain's identity.
    update: (S) => ({ installId: S.installs.globexprod.id, domainId: S.domains.globexExample.id }),
    updated: [],
    replaceOnUpdate: ["installId", "domainId"],
    invalid: {
      args: (S) => ({ ...verificationArgs(S), retryIntervalSeconds: 0 }),
      property: "retryIntervalSeconds",
      reason: /at least 1/,
    },
    required: ["installId", "domainId", "domainName", "ownershipStatus", "verifiedTime", "verifiedDomain"],
    // A verification cannot be undone: delete forgets, the domain stays verified.
    goneAfterDelete: false,
  },
  {
    kind: "DomainSharingLink",
    // initech.example: an AN domain (the sharing link's network).
    args: verificationArgs,
    update: (S) => ({ installId: S.installs.globexprod.id, domainId: S.domains.globexExample.id }),
    updated: [],
    replaceOnUpdate: ["installId", "domainId"],
    invalid: {
      args: (S) => ({ ...verificationArgs(S), installId: "not-a-uuid" }),
      property: "installId",
      reason: /UUID/,
    },
    required: ["installId", "domainId", "url", "domainName", "networkType"],
    secretOutputs: ["url"],
    // The API cannot revoke a link: delete forgets it.
    goneAfterDelete: false,
  },
  {
    // acmedev: an install of an eligible account (Acme), not transferable, with no seeded exclusions.
    kind: "CacheExclusions",
    args: cacheExclusionsArgs,
    // In the service's (sorted) order, so the output list equals the input list.
    update: (S) => ({
      ...cacheExclusionsArgs(S),
      exclusions: [
        { type: "query arg", value: "^engine_" },
        { type: "url path", value: "^/engine-test/" },
      ],
    }),
    updated: ["exclusions"],
    invalid: {
      args: (S) => ({
        ...cacheExclusionsArgs(S),
        exclusions: [
          { type: "url path", value: "^/ok/" },
          { type: "url path", value: "^/(unclosed" },
        ],
      }),
      property: "exclusions[1].value",
      reason: /invalid regular expression/,
    },
    required: ["installId", "exclusions"],
    // Delete empties the install's list; the (empty) list still reads.
    goneAfterDelete: false,
  },
  {
    kind: "OffloadSettings",
    args: offloadArgs,
    update: (S) => ({ ...offloadArgs(S), bucket: "engine-test-uploads-2", bucketRegion: "eu-west-1" }),
    updated: ["bucket", "bucketRegion"],
    invalid: {
      args: (S) => ({
        ...omit(offloadArgs(S), "timeoutSeconds"),
        pathSettings: [
          { path: "wp-content/uploads/", redirectType: "permanent" },
          { path: "wp-content/uploads/", redirectType: "break" },
        ],
      }),
      property: "pathSettings[1].path",
      reason: /duplicate path/,
    },
    required: ["installId", "cloud", "bucket", "bucketRegion", "pathSettings", "status"],
    // Nothing on the service deletes offload settings: delete forgets them.
    goneAfterDelete: false,
    failAfterCreate: {
      // The settings are sent by a PATCH; the wait for them polls the GET that read them first.
      args: (S) => ({ ...offloadArgs(S), bucket: "engine-test-half-made", adopt: true }),
      faults: [
        {
          method: "GET",
          path: "/v1/installs/*/offload_settings/files",
          status: 429,
          retryAfter: 86_400,
          skip: 1,
        },
      ],
    },
  },
  {
    kind: "AccountUser",
    args: accountUserArgs,
    update: (S) => ({ ...accountUserArgs(S), roles: "partial", installIds: [S.installs.initechprod.id] }),
    updated: ["roles", "installIds"],
    invalid: {
      args: (S) => ({ ...accountUserArgs(S), roles: "admin" }),
      property: "roles",
      reason: /roles must be one of/,
    },
    failAfterCreate: {
      // Adopting the seeded Full user of Initech as Partial: the user exists, then the PATCH fails.
      args: (S) => ({
        accountId: S.accounts.initech.id,
        email: "full@acme.example",
        firstName: "Fay",
        lastName: "Full",
        roles: "partial",
        installIds: [S.installs.initechprod.id],
        adopt: true,
      }),
      faults: [{ method: "PATCH", path: "/v1/accounts/*/account_users/*", status: 429, retryAfter: 86_400 }],
    },
    required: [
      "userId",
      "accountId",
      "email",
      "firstName",
      "lastName",
      "roles",
      // installIds: only a partial user has them (the created user is a full one).
      "inviteAccepted",
      "mfaEnabled",
      "installs",
    ],
  },
  {
    kind: "ReportSchedule",
    args: reportScheduleArgs,
    // The title stays: it is what adoption finds a schedule by.
    update: (S) => ({
      ...reportScheduleArgs(S),
      recipients: [{ name: "Globex Reports", email: "reports@globex.example" }],
      sections: [{ name: "cover" }, { name: "overview" }, { name: "usage" }],
    }),
    updated: ["recipients", "sections"],
    invalid: {
      args: (S) => ({
        ...reportScheduleArgs(S),
        frequency: { value: 3, unit: "DAYS" },
        sections: [{ name: "cover" }],
      }),
      property: "frequency.value",
      reason: /7 \(weekly\) or 14/,
    },
    required: [
      "scheduleId",
      "siteId",
      "title",
      "nextScheduledDate",
      "templateUuid",
      "frequency",
      "recipients",
      "sections",
      "createdAt",
      "nextRunDate",
      "createMatch",
    ],
    failAfterCreate: {
      // Adopting the seeded Acme monthly report with other sections: it exists, then the PATCH fails.
      args: (S) => ({
        ...reportScheduleArgs(S),
        siteId: S.sites.acmeMarketing.id,
        title: S.reportSchedules.acmeMonthly.title,
        frequency: { value: 31, unit: "MONTHLY" },
        adopt: true,
      }),
      faults: [{ method: "PATCH", path: "/v1/site_reports/schedules/*", status: 429, retryAfter: 86_400 }],
    },
  },
  {
    kind: "App",
    args: appArgs,
    // An app cannot change: every input replaces it (a region change deletes the old one first).
    update: (S) => ({ ...appArgs(S), region: "EU-W" }),
    updated: [],
    replaceOnUpdate: ["region"],
    invalid: {
      args: (S) => ({ ...appArgs(S), name: "Engine_Test" }),
      property: "name",
      reason: /lower-case letters, digits or hyphens/,
    },
    required: ["accountId", "name", "region", "resourceName", "createTime", "updateTime"],
  },
  {
    // A new environment of the seeded app (its own id, so nothing else of the table is touched).
    kind: "Environment",
    args: environmentArgs,
    update: (S) => ({ ...environmentArgs(S), displayName: "Engine test (renamed)", branch: "release" }),
    updated: ["displayName", "branch"],
    invalid: {
      args: (S) => ({ ...omit(environmentArgs(S), "timeoutSeconds"), rootDirectory: "../outside" }),
      property: "rootDirectory",
      reason: /relative path/,
    },
    required: [
      "accountId",
      "appId",
      "name",
      "displayName",
      "branch",
      "rootDirectory",
      "resourceName",
      "createTime",
      "reconciling",
    ],
    failAfterCreate: {
      // The environment is created by a POST; the wait for it to reconcile polls the GET that looked
      // for it first.
      args: (S) => ({ ...environmentArgs(S), name: "engine-test-half-made" }),
      faults: [
        {
          method: "GET",
          path: "^/v1/accounts/[^/]+/apps/[^/]+/environments/[^/]+$",
          status: 429,
          retryAfter: 86_400,
          skip: 1,
        },
      ],
    },
  },
  {
    // The seeded staging environment has no mappings (production has one, which create would refuse).
    kind: "DomainMappings",
    args: domainMappingsArgs,
    // Sorted by domain with defaults filled, as the outputs hold the set.
    update: (S) => ({
      ...domainMappingsArgs(S),
      mappings: [
        { domain: "engine-test.acme-frontend.example", primary: true, destinationDomainMapping: null },
        {
          domain: "www.engine-test.acme-frontend.example",
          primary: false,
          destinationDomainMapping: "engine-test.acme-frontend.example",
        },
      ],
    }),
    updated: ["mappings"],
    invalid: {
      args: (S) => ({
        ...omit(domainMappingsArgs(S), "timeoutSeconds"),
        mappings: [
          { domain: "engine-test.acme-frontend.example", primary: true },
          { domain: "www.engine-test.acme-frontend.example", destinationDomainMapping: "elsewhere.example" },
        ],
      }),
      property: "mappings[1].destinationDomainMapping",
      reason: /not a domain of this set/,
    },
    required: ["accountId", "appId", "environmentId", "mappings", "domainMappings", "primaryDomain"],
    failAfterCreate: {
      // The set is replaced by a POST; the wait for it to be ACTIVE lists it again, which the fault
      // refuses after the listing before the replace.
      args: (S) => ({
        ...domainMappingsArgs(S),
        mappings: [{ domain: "half-made.acme-frontend.example", primary: true }],
        adopt: true,
      }),
      faults: [
        {
          method: "GET",
          path: "/v1/accounts/*/apps/*/environments/*/domainMappings",
          status: 429,
          retryAfter: 86_400,
          skip: 1,
        },
      ],
    },
  },
  {
    // The seeded production mapping is verified: create succeeds at once. Every input replaces, so the
    // update moves to a second mapping that `prepare` added and published the TXT record of.
    kind: "DomainMappingVerification",
    args: mappingVerificationArgs,
    prepare: async (sim, client, S) => {
      const env = frontendEnvironment(S, "production");
      const set = await client.domainMappings.replace(env.accountId, env.appId, env.environmentId, {
        domainMappings: [{ domain: S.apps.acmeFrontend.domain, primary: true }, { domain: SECOND_MAPPING }],
      });
      const txt = set.find((m) => m.domain === SECOND_MAPPING)?.txtVerification;
      sim.publishTxt(txt!.name!, txt!.value!);
    },
    update: (S) => ({ ...mappingVerificationArgs(S), domain: SECOND_MAPPING, revalidate: true }),
    updated: [],
    replaceOnUpdate: ["domain"],
    invalid: {
      args: (S) => ({ ...mappingVerificationArgs(S), domain: "https://www.example.com/" }),
      property: "domain",
      reason: /must be a domain name/,
    },
    required: ["accountId", "appId", "environmentId", "domain", "txtVerified", "state", "resourceName"],
    // A verification cannot be undone: delete forgets, and the mapping still reads.
    goneAfterDelete: false,
  },
  {
    // acmesandbox: the only install of its site, so moving it to another environment slot is free.
    kind: "InstallPlacement",
    args: placementArgs,
    update: (S) => ({ ...placementArgs(S), environment: "staging" }),
    updated: ["environment"],
    invalid: {
      args: (S) => ({ ...placementArgs(S), environment: "qa" }),
      property: "environment",
      reason: /production, staging, development/,
    },
    required: [
      "installId",
      "siteId",
      "environment",
      "installName",
      "accountId",
      "cname",
      "primaryDomain",
      "status",
    ],
    // Delete leaves the install where it is: the install still reads.
    goneAfterDelete: false,
  },
  {
    // The simulator completes a backup in about a second; create waits for it (timeoutSeconds bounds it).
    kind: "Backup",
    args: backupArgs,
    // Only the wait settings change in place (the backup itself cannot change).
    update: (S) => ({ ...backupArgs(S), timeoutSeconds: 120 }),
    updated: ["timeoutSeconds"],
    invalid: {
      args: (S) => ({
        ...omit(backupArgs(S), "timeoutSeconds"),
        notificationEmails: ["ops@globex.example", "not-an-email"],
      }),
      property: "notificationEmails[1]",
      reason: /must be an email address such as/,
    },
    required: [
      "backupId",
      "status",
      "createTime",
      "completeTime",
      "cmsVersion",
      "installId",
      "description",
      "notificationEmails",
    ],
    // Backups cannot be deleted on the service: delete forgets, the backup still reads.
    goneAfterDelete: false,
    // How long create waits is the program's, not the backup's.
    unreadable: ["timeoutSeconds"],
    failAfterCreate: {
      // The backup is requested by a POST; the wait for it polls GETs, which the fault refuses.
      args: (S) => ({ ...backupArgs(S), description: "Engine test backup (half made)" }),
      faults: [{ method: "GET", path: "/v1/installs/*/backups/*", status: 429, retryAfter: 86_400 }],
    },
  },
  {
    // The only seeded completed backup is acmeprod's. A change of triggers restores again, in place.
    kind: "BackupRestore",
    args: restoreArgs,
    update: (S) => ({ ...restoreArgs(S), triggers: ["second"] }),
    updated: ["triggers"],
    invalid: {
      args: (S) => ({ ...omit(restoreArgs(S), "triggers", "timeoutSeconds"), notificationEmails: [] }),
      property: "notificationEmails",
      reason: /at least one email address/,
    },
    required: [
      "installId",
      "backupId",
      "notificationEmails",
      "summary",
      "restoreCount",
      "lastRestoredAt",
      "installStatus",
    ],
    // An action: delete forgets it, and it reads as long as its backup exists.
    goneAfterDelete: false,
    // Triggers are the program's reason to restore again; the service does not hold them.
    unreadable: ["triggers"],
    failAfterCreate: {
      // The restore is started by a POST; the wait for the install polls its GET, which the fault refuses.
      args: (S) => ({ ...restoreArgs(S), triggers: ["half made"] }),
      faults: [{ method: "GET", path: "^/v1/installs/[^/]+$", status: 429, retryAfter: 86_400 }],
    },
  },
  {
    // Same account (Acme): staging copied over development. A change of triggers copies again, in place.
    kind: "InstallCopy",
    args: installCopyArgs,
    update: (S) => ({ ...installCopyArgs(S), triggers: ["second"] }),
    updated: ["triggers"],
    invalid: {
      // The source copied over itself, and nothing else.
      args: (S) => {
        const { sourceEnvironmentId } = installCopyArgs(S);
        return { sourceEnvironmentId, destinationEnvironmentId: sourceEnvironmentId };
      },
      property: "destinationEnvironmentId",
      reason: /must differ/,
    },
    required: [
      "sourceEnvironmentId",
      "destinationEnvironmentId",
      "includeFiles",
      "includeDb",
      "summary",
      "requestCount",
      "lastRequestedAt",
      "lastMessage",
    ],
    // An action: delete forgets it, and it reads as long as both installs exist.
    goneAfterDelete: false,
    // Triggers are the program's reason to copy again; the service does not hold them.
    unreadable: ["triggers"],
  },
  {
    // Acme Blog (the transferable site) to Initech (another account, with a preferred data center),
    // scheduled, so nothing moves while the table runs; delete cancels it.
    kind: "SiteTransfer",
    args: siteTransferArgs,
    // A transfer cannot be edited: every input replaces it.
    update: (S) => ({ ...siteTransferArgs(S), scheduledTime: hoursAhead(73) }),
    updated: [],
    replaceOnUpdate: ["scheduledTime"],
    invalid: {
      args: (S) => ({ ...omit(siteTransferArgs(S), "maintenanceMode"), scheduledTime: hoursAhead(8 * 24) }),
      property: "scheduledTime",
      reason: /between 1 hour and 7 days/,
    },
    required: [
      "siteId",
      "destinationAccountId",
      "scheduledTime",
      "maintenanceMode",
      "transferId",
      "status",
      "createdAt",
      "updatedAt",
      "site",
      "installs",
      "originAccount",
      "destinationAccount",
    ],
  },
  {
    kind: "EnvironmentCacheClear",
    args: cacheClearArgs,
    // A change of triggers clears again, in place (only the environment's address replaces).
    update: (S) => ({ ...cacheClearArgs(S), triggers: { release: "2" } }),
    updated: ["triggers"],
    invalid: {
      args: (S) => ({ ...cacheClearArgs(S), triggers: ["not", "a", "map"] }),
      property: "triggers",
      reason: /map of JSON values/,
    },
    required: ["accountId", "appId", "environmentId", "triggers", "environmentResourceName", "lastClearedAt"],
    // An action: delete forgets it, and it reads as long as its environment exists.
    goneAfterDelete: false,
    // Triggers are the program's reason to clear again; the service does not hold them.
    unreadable: ["triggers"],
  },
  {
    kind: "CachePurge",
    args: cachePurgeArgs,
    // A change of triggers purges again, in place (the install and the cache type replace).
    update: (S) => ({ ...cachePurgeArgs(S), triggers: { release: "2" } }),
    updated: ["triggers"],
    // A purge leaves nothing on the service to read back.
    unreadable: ["triggers"],
    invalid: {
      args: (S) => ({ ...cachePurgeArgs(S), type: "disk" }),
      property: "type",
      reason: /one of object, page, cdn, all/,
    },
    required: ["installId", "type", "triggers", "purgeCount", "lastPurgedAt", "lastWaitSeconds"],
    // An action: delete forgets it, and it reads as long as its install exists.
    goneAfterDelete: false,
  },
  {
    // `adopt: true`, so suites that create it more than once take over the order the first run placed.
    kind: "LetsEncryptCertificate",
    args: letsEncryptArgs,
    // The holder's details order again, in place (the install and the domain replace).
    update: (S) => ({ ...letsEncryptArgs(S), city: "Austin" }),
    updated: ["city"],
    invalid: {
      args: (S) => ({ ...letsEncryptArgs(S), regionCode: "USA" }),
      property: "regionCode",
      reason: /two-letter ISO 3166-1/,
    },
    required: ["installId", "domainId", "certificateId", "status", "commonName", "domains", "orderedTime"],
    // The holder's details are sent with the order and never returned.
    unreadable: ["city"],
    failAfterCreate: {
      // The order is placed (a POST); reading it back is refused for longer than the client waits.
      args: (S) => ({ ...omit(letsEncryptArgs(S), "adopt"), domainId: S.domains.newsAcmeExample.id }),
      faults: [
        {
          method: "GET",
          path: "/v1/installs/*/domains/*/ssl_certificate",
          status: 429,
          retryAfter: 86_400,
          skip: 1,
        },
      ],
    },
    // The API cannot cancel a certificate: delete forgets it, and it still reads afterwards.
    goneAfterDelete: false,
  },
  {
    // The seeded production environment builds uploads; the source is a local directory zipped on the fly.
    kind: "EnvironmentSource",
    args: sourceArgs,
    // Another directory: new content, so a new hash and a new upload.
    update: (S) => ({ ...sourceArgs(S), path: sourceDir(1) }),
    updated: ["path", "sourceHash"],
    invalid: {
      args: (S) => ({
        ...omit(sourceArgs(S), "timeoutSeconds"),
        path: path.join(sourceDir(0), "missing.zip"),
      }),
      property: "path",
      reason: /does not exist/,
    },
    required: [
      "accountId",
      "appId",
      "environmentId",
      "path",
      "triggers",
      "buildName",
      "buildState",
      "sourceHash",
      "size",
    ],
    // Delete forgets: the deployed build stays, and the environment still reads.
    goneAfterDelete: false,
    // The local path and the hash of its content are the program's; the service holds only builds.
    unreadable: ["path", "sourceHash"],
    failAfterCreate: {
      // The source is uploaded by a POST; the wait for its build polls GETs, which the fault refuses.
      args: (S) => ({ ...sourceArgs(S), triggers: { halfMade: true } }),
      faults: [
        {
          method: "GET",
          path: "/v1/accounts/*/apps/*/environments/*/builds/*",
          status: 429,
          retryAfter: 86_400,
        },
      ],
    },
  },
  {
    kind: "Site",
    args: siteArgs,
    update: (S) => ({ ...siteArgs(S), name: "Engine test site (renamed)" }),
    updated: ["name"],
    adoptionKey: ["name"],
    invalid: {
      args: (S) => ({ ...siteArgs(S), name: "x".repeat(41) }),
      property: "name",
      reason: /at most 40 characters/,
    },
    required: [
      "siteId",
      "accountId",
      "name",
      "deletionProtection",

      "tags",
      "sandbox",
      "transferable",
    ],
  },
  {
    // Provisioning takes about a second on the simulator; create waits for it (timeoutSeconds bounds it).
    kind: "Install",
    args: installArgs,
    update: (S) => ({ ...installArgs(S), environment: "development" }),
    updated: ["environment"],
    invalid: {
      args: (S) => ({ ...omit(installArgs(S), "timeoutSeconds"), name: "Engine_Test" }),
      property: "name",
      reason: /3 to 14 lower-case letters or digits/,
    },
    required: [
      "installId",
      "name",
      "accountId",
      "siteId",
      "environment",
      "status",
      "cname",
      "deletionProtection",
    ],
    failAfterCreate: {
      // The install is created by a POST; the wait for provisioning polls its GET, which the fault refuses.
      // Run after the update moved "enginetest" to development: staging is free again.
      args: (S) => ({ ...installArgs(S), name: "enginehalf" }),
      faults: [{ method: "GET", path: "^/v1/installs/[^/]+$", status: 429, retryAfter: 86_400 }],
    },
  },
  {
    kind: "SshKey",
    args: () => ({ publicKey: SSH_KEYS[0] }),
    // The service cannot edit a key: another key replaces it (the old one is removed first).
    update: () => ({ publicKey: SSH_KEYS[1] }),
    updated: [],
    replaceOnUpdate: ["publicKey"],
    invalid: {
      args: () => ({ publicKey: "ssh-rsa nope" }),
      property: "publicKey",
      reason: /not a ssh-rsa key/,
    },
    required: ["sshKeyId", "publicKey", "fingerprint", "comment", "createdAt"],
  },
];
