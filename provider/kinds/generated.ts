// Generated from the definitions by `npm run types` (tools/types.ts): edit provider/kinds/, not this file.
import type * as pulumi from "@pulumi/pulumi";
import { type ArgsOf, type OutputPropertiesOf, type ResourceClass, resourceClass } from "../dynamic/resource";
import { DEFINITIONS } from "../registry";

type AccountUserDefinition = (typeof DEFINITIONS)["AccountUser"];
type AccountUserIn = ArgsOf<AccountUserDefinition>;
type AccountUserOut = OutputPropertiesOf<AccountUserDefinition>;

/** The arguments of {@link AccountUser}: A person's access to one account, with a role set and, for partial roles, the installs they are restricted to. The service sends the invitation; `inviteAccepted` turns true when it is used. The id is the service's `user_id`. */
export interface AccountUserArgs {
  /** The account the user belongs to. */
  accountId: AccountUserIn["accountId"];
  /** The user's email address (the login), compared without case. */
  email: AccountUserIn["email"];
  /** First name. The service cannot rename a user. */
  firstName: AccountUserIn["firstName"];
  /** Last name. The service cannot rename a user. */
  lastName: AccountUserIn["lastName"];
  /** Role set: `owner`, `full`, `full,billing`, `partial` or `partial,billing` (YAML, Python and Go take any order, case or spacing; TypeScript's type takes these five), stored in that canonical form. */
  roles: pulumi.Input<"owner" | "full" | "full,billing" | "partial" | "partial,billing">;
  /** Installs a partial user may access: required with partial roles, refused with the others. A set: stored sorted, without duplicates (empty for other roles). */
  installIds?: AccountUserIn["installIds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: AccountUserIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: AccountUserIn["profile"];
}

/** The output properties of {@link AccountUser}: every input, as stored, and what the service computes. */
export interface AccountUserProperties {
  /** The account the user belongs to. */
  readonly accountId: AccountUserOut["accountId"];
  /** The user's email address (the login), compared without case. */
  readonly email: AccountUserOut["email"];
  /** First name. The service cannot rename a user. */
  readonly firstName: AccountUserOut["firstName"];
  /** Last name. The service cannot rename a user. */
  readonly lastName: AccountUserOut["lastName"];
  /** Role set: `owner`, `full`, `full,billing`, `partial` or `partial,billing` (YAML, Python and Go take any order, case or spacing; TypeScript's type takes these five), stored in that canonical form. */
  readonly roles: AccountUserOut["roles"];
  /** Installs a partial user may access: required with partial roles, refused with the others. A set: stored sorted, without duplicates (empty for other roles). */
  readonly installIds: AccountUserOut["installIds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: AccountUserOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: AccountUserOut["profile"];
  /** The service's `user_id` of the user (also the resource id). */
  readonly userId: AccountUserOut["userId"];
  /** Whether the user has accepted the invitation. */
  readonly inviteAccepted: AccountUserOut["inviteAccepted"];
  /** Whether the user has multi-factor authentication enabled. */
  readonly mfaEnabled: AccountUserOut["mfaEnabled"];
  /** For owners: whether this is the last owner of the account (null for other roles). */
  readonly lastOwner: AccountUserOut["lastOwner"];
  /** The user's phone number, or null. */
  readonly phone: AccountUserOut["phone"];
  /** The installs tied to a partial user, with their names, sorted by id. */
  readonly installs: AccountUserOut["installs"];
}

/**
 * A person's access to one account, with a role set and, for partial roles, the installs they are restricted to. The service sends the invitation; `inviteAccepted` turns true when it is used. The id is the service's `user_id`.
 *
 * Delete: Removes the user from the account on the service. The service refuses to remove the last owner of an account; the error says so. A user already gone counts as deleted.
 */
export const AccountUser: ResourceClass<AccountUserDefinition, AccountUserArgs, AccountUserProperties> = resourceClass(DEFINITIONS.AccountUser);
export type AccountUser = InstanceType<typeof AccountUser>;

type AppDefinition = (typeof DEFINITIONS)["App"];
type AppIn = ArgsOf<AppDefinition>;
type AppOut = OutputPropertiesOf<AppDefinition>;

/** The arguments of {@link App}: An application of the application-hosting platform (Headless Platform), the parent of its environments, builds and domain mappings, in one region of one account. The app id (`name`) and the region can never change: a change of either replaces the app. The id is its resource name `accounts/{accountId}/apps/{name}`. */
export interface AppArgs {
  /** The account that owns the app. */
  accountId: AppIn["accountId"];
  /** The app id, e.g. `storefront`, unique in the account: 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen. Pass it as `appId` to environments. */
  name: AppIn["name"];
  /** Where the app runs: `US-C`, `EU-W`, `AUS-SE` or `UK`, stored in the short form (the Node.js classes also accept `regions/US-C` and any casing; the other languages' schema takes these four: of a lookup's `regions/US-C`, the part after `/`). */
  region: pulumi.Input<"US-C" | "EU-W" | "AUS-SE" | "UK">;
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: AppIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: AppIn["profile"];
}

/** The output properties of {@link App}: every input, as stored, and what the service computes. */
export interface AppProperties {
  /** The account that owns the app. */
  readonly accountId: AppOut["accountId"];
  /** The app id, e.g. `storefront`, unique in the account: 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen. Pass it as `appId` to environments. */
  readonly name: AppOut["name"];
  /** Where the app runs: `US-C`, `EU-W`, `AUS-SE` or `UK`, stored in the short form (the Node.js classes also accept `regions/US-C` and any casing; the other languages' schema takes these four: of a lookup's `regions/US-C`, the part after `/`). */
  readonly region: AppOut["region"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: AppOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: AppOut["profile"];
  /** The resource name `accounts/{accountId}/apps/{name}` (also the resource id). */
  readonly resourceName: AppOut["resourceName"];
  /** When the app was created (RFC 3339). */
  readonly createTime: AppOut["createTime"];
  /** When the app last changed (RFC 3339). */
  readonly updateTime: AppOut["updateTime"];
}

/**
 * An application of the application-hosting platform (Headless Platform), the parent of its environments, builds and domain mappings, in one region of one account. The app id (`name`) and the region can never change: a change of either replaces the app. The id is its resource name `accounts/{accountId}/apps/{name}`.
 *
 * Delete: Deletes the app on the service, and with it every environment, build and domain mapping it holds. An app already gone counts as deleted.
 */
export const App: ResourceClass<AppDefinition, AppArgs, AppProperties> = resourceClass(DEFINITIONS.App);
export type App = InstanceType<typeof App>;

type BackupDefinition = (typeof DEFINITIONS)["Backup"];
type BackupIn = ArgsOf<BackupDefinition>;
type BackupOut = OutputPropertiesOf<BackupDefinition>;

/** The arguments of {@link Backup}: A backup of an install, requested when the resource is created. Unless `wait` is false the create waits until the service reports the backup completed or aborted, within `timeoutSeconds`. A backup cannot be changed: a new install, description or list of addresses means a new backup (a replacement), and a backup the service aborted is replaced by a new request on the next `pulumi up`. The id is the backup's UUID. */
export interface BackupArgs {
  /** The install to back up. Changing it requests a new backup (a replacement). */
  installId: BackupIn["installId"];
  /** Why the backup is taken, shown in the install's backup list. Changing it requests a new backup. */
  description: BackupIn["description"];
  /** Addresses notified when the backup completes (at least one; order, case and duplicates do not count). Changing them requests a new backup. */
  notificationEmails: BackupIn["notificationEmails"];
  /** Wait until the backup is completed or aborted; false returns once the service accepts it. A change sends nothing to the service. */
  wait?: BackupIn["wait"];
  /** Longest wait for the backup to finish, in seconds (at most 86400). A change is an update that waits again for an unfinished backup. */
  timeoutSeconds?: BackupIn["timeoutSeconds"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: BackupIn["profile"];
}

/** The output properties of {@link Backup}: every input, as stored, and what the service computes. */
export interface BackupProperties {
  /** The install to back up. Changing it requests a new backup (a replacement). */
  readonly installId: BackupOut["installId"];
  /** Why the backup is taken, shown in the install's backup list. Changing it requests a new backup. */
  readonly description: BackupOut["description"];
  /** Addresses notified when the backup completes (at least one; order, case and duplicates do not count). Changing them requests a new backup. */
  readonly notificationEmails: BackupOut["notificationEmails"];
  /** Wait until the backup is completed or aborted; false returns once the service accepts it. A change sends nothing to the service. */
  readonly wait: BackupOut["wait"];
  /** Longest wait for the backup to finish, in seconds (at most 86400). A change is an update that waits again for an unfinished backup. */
  readonly timeoutSeconds: BackupOut["timeoutSeconds"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: BackupOut["profile"];
  /** The backup's UUID (also the resource id); what `BackupRestore` takes as `backupId`. */
  readonly backupId: BackupOut["backupId"];
  /** `requested`, `in_progress`, `completed` or `aborted`, as of the last create, update or refresh (the service's deprecated `initiated` reads as `in_progress`). */
  readonly status: BackupOut["status"];
  /** When the backup was requested. */
  readonly createTime: BackupOut["createTime"];
  /** When the backup completed; null while it runs. */
  readonly completeTime: BackupOut["completeTime"];
  /** The WordPress version the backup captured (`wordpress_version` on the real service). */
  readonly cmsVersion: BackupOut["cmsVersion"];
}

/**
 * A backup of an install, requested when the resource is created. Unless `wait` is false the create waits until the service reports the backup completed or aborted, within `timeoutSeconds`. A backup cannot be changed: a new install, description or list of addresses means a new backup (a replacement), and a backup the service aborted is replaced by a new request on the next `pulumi up`. The id is the backup's UUID.
 *
 * Delete: Only forgets the backup: the service has no way to delete one, so it stays in the install's backup list (and its archive) until the service expires it. Nothing is sent to the service.
 */
export const Backup: ResourceClass<BackupDefinition, BackupArgs, BackupProperties> = resourceClass(DEFINITIONS.Backup);
export type Backup = InstanceType<typeof Backup>;

type BackupRestoreDefinition = (typeof DEFINITIONS)["BackupRestore"];
type BackupRestoreIn = ArgsOf<BackupRestoreDefinition>;
type BackupRestoreOut = OutputPropertiesOf<BackupRestoreDefinition>;

/** The arguments of {@link BackupRestore}: DESTRUCTIVE action, not an object: creating it restores an install from one of its backups, and a change of any input (typically `triggers`) restores again. The install's current files (and, unless `restoreDatabase` is false, its database) are replaced by the backup's. `check` adds a `summary` input that says in words what will be restored, so `pulumi preview` shows it. The id is generated by the provider. */
export interface BackupRestoreArgs {
  /** The install to restore. A change restores again (into the new install). */
  installId: BackupRestoreIn["installId"];
  /** The backup to restore from: completed, and of the same install (e.g. a `Backup`'s `backupId`). A change restores again. */
  backupId: BackupRestoreIn["backupId"];
  /** Addresses notified when the restore completes (at least one; order, case and duplicates do not count). */
  notificationEmails: BackupRestoreIn["notificationEmails"];
  /** Restore the database too; false restores the files only. */
  restoreDatabase?: BackupRestoreIn["restoreDatabase"];
  /** Take a checkpoint of the install's current state before restoring. */
  createCheckpoint?: BackupRestoreIn["createCheckpoint"];
  /** Any values; a change of them restores again. */
  triggers?: BackupRestoreIn["triggers"];
  /** Wait while the install reports the status `pending` after the restore. A change alone restores nothing. */
  wait?: BackupRestoreIn["wait"];
  /** Longest wait for the restore to finish, in seconds (at most 86400). A change alone restores nothing. */
  timeoutSeconds?: BackupRestoreIn["timeoutSeconds"];
  /** Computed by `check`: what the restore does, in words (also shown by `pulumi preview`); any given value is replaced. */
  summary?: BackupRestoreIn["summary"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: BackupRestoreIn["profile"];
}

/** The output properties of {@link BackupRestore}: every input, as stored, and what the service computes. */
export interface BackupRestoreProperties {
  /** The install to restore. A change restores again (into the new install). */
  readonly installId: BackupRestoreOut["installId"];
  /** The backup to restore from: completed, and of the same install (e.g. a `Backup`'s `backupId`). A change restores again. */
  readonly backupId: BackupRestoreOut["backupId"];
  /** Addresses notified when the restore completes (at least one; order, case and duplicates do not count). */
  readonly notificationEmails: BackupRestoreOut["notificationEmails"];
  /** Restore the database too; false restores the files only. */
  readonly restoreDatabase: BackupRestoreOut["restoreDatabase"];
  /** Take a checkpoint of the install's current state before restoring. */
  readonly createCheckpoint: BackupRestoreOut["createCheckpoint"];
  /** Any values; a change of them restores again. */
  readonly triggers: BackupRestoreOut["triggers"];
  /** Wait while the install reports the status `pending` after the restore. A change alone restores nothing. */
  readonly wait: BackupRestoreOut["wait"];
  /** Longest wait for the restore to finish, in seconds (at most 86400). A change alone restores nothing. */
  readonly timeoutSeconds: BackupRestoreOut["timeoutSeconds"];
  /** Computed by `check`: what the restore does, in words (also shown by `pulumi preview`); any given value is replaced. */
  readonly summary: BackupRestoreOut["summary"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: BackupRestoreOut["profile"];
  /** How many times this resource has restored the install. */
  readonly restoreCount: BackupRestoreOut["restoreCount"];
  /** When the last restore was requested (ISO 8601, the provider's clock). */
  readonly lastRestoredAt: BackupRestoreOut["lastRestoredAt"];
  /** The install's status after the last run: `active` once done, `pending` when not waited for. */
  readonly installStatus: BackupRestoreOut["installStatus"];
}

/**
 * DESTRUCTIVE action, not an object: creating it restores an install from one of its backups, and a change of any input (typically `triggers`) restores again. The install's current files (and, unless `restoreDatabase` is false, its database) are replaced by the backup's. `check` adds a `summary` input that says in words what will be restored, so `pulumi preview` shows it. The id is generated by the provider.
 *
 * Delete: Only forgets the action: nothing on the service is undone (a restore cannot be reverted except by restoring the checkpoint it took). Nothing is sent to the service.
 */
export const BackupRestore: ResourceClass<BackupRestoreDefinition, BackupRestoreArgs, BackupRestoreProperties> = resourceClass(DEFINITIONS.BackupRestore);
export type BackupRestore = InstanceType<typeof BackupRestore>;

type CacheExclusionsDefinition = (typeof DEFINITIONS)["CacheExclusions"];
type CacheExclusionsIn = ArgsOf<CacheExclusionsDefinition>;
type CacheExclusionsOut = OutputPropertiesOf<CacheExclusionsDefinition>;

/** The arguments of {@link CacheExclusions}: The full list of cache exclusion rules of an install: query args and URL paths, matched as regular expressions, that bypass the page cache. The service keeps one list per install and replaces it whole, so this resource owns that list. Create refuses an install whose list already holds other exclusions unless `adopt: true` says to replace them. The id is the install id. Cookie entries are platform-managed and refused. */
export interface CacheExclusionsArgs {
  /** The install whose exclusions this resource owns (also the resource id). */
  installId: CacheExclusionsIn["installId"];
  /** The complete list of exclusions (`type` `"query arg"` or `"url path"`, `value` a regular expression). Order and duplicates never show as a change; exclusions not listed are removed from the install; an empty list clears them. */
  exclusions: CacheExclusionsIn["exclusions"];
  /** Take over an install whose list already holds exclusions (even exactly these: perhaps another stack's), replacing them with these unless they already are. Without it, create refuses such an install, naming what it holds (an empty list is always taken over). */
  adopt?: CacheExclusionsIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: CacheExclusionsIn["profile"];
}

/** The output properties of {@link CacheExclusions}: every input, as stored, and what the service computes. */
export interface CacheExclusionsProperties {
  /** The install whose exclusions this resource owns (also the resource id). */
  readonly installId: CacheExclusionsOut["installId"];
  /** The complete list of exclusions (`type` `"query arg"` or `"url path"`, `value` a regular expression). Order and duplicates never show as a change; exclusions not listed are removed from the install; an empty list clears them. */
  readonly exclusions: CacheExclusionsOut["exclusions"];
  /** Take over an install whose list already holds exclusions (even exactly these: perhaps another stack's), replacing them with these unless they already are. Without it, create refuses such an install, naming what it holds (an empty list is always taken over). */
  readonly adopt: CacheExclusionsOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: CacheExclusionsOut["profile"];
}

/**
 * The full list of cache exclusion rules of an install: query args and URL paths, matched as regular expressions, that bypass the page cache. The service keeps one list per install and replaces it whole, so this resource owns that list. Create refuses an install whose list already holds other exclusions unless `adopt: true` says to replace them. The id is the install id. Cookie entries are platform-managed and refused.
 *
 * Delete: Replaces the list with an empty one (PUT of []), clearing every writable exclusion of the install; the platform-managed cookie rules stay. No API deletes the list itself.
 */
export const CacheExclusions: ResourceClass<CacheExclusionsDefinition, CacheExclusionsArgs, CacheExclusionsProperties> = resourceClass(DEFINITIONS.CacheExclusions);
export type CacheExclusions = InstanceType<typeof CacheExclusions>;

type CachePurgeDefinition = (typeof DEFINITIONS)["CachePurge"];
type CachePurgeIn = ArgsOf<CachePurgeDefinition>;
type CachePurgeOut = OutputPropertiesOf<CachePurgeDefinition>;

/** The arguments of {@link CachePurge}: An action, not an object: it purges one cache of an install (`object`, `page`, `cdn` or `all`) when created, and again each time `triggers` change (wire them to whatever should flush the cache: a deployment id, a content hash, a date). The service takes one object-cache purge per 60 s per install: the provider waits that limit out instead of failing, within `timeoutSeconds`. The id is generated by the provider. */
export interface CachePurgeArgs {
  /** The install whose cache is purged. Changing it replaces the resource (and purges the new install). */
  installId: CachePurgeIn["installId"];
  /** Which cache: `object`, `page`, `cdn` or `all`. Changing it replaces the resource (and purges). */
  type: pulumi.Input<"object" | "page" | "cdn" | "all">;
  /** Any values; when they change, the cache is purged again. */
  triggers?: CachePurgeIn["triggers"];
  /** Longest wait for the service's purge window (one object-cache purge per install per 60 s), in seconds. A change alone purges nothing. */
  timeoutSeconds?: CachePurgeIn["timeoutSeconds"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: CachePurgeIn["profile"];
}

/** The output properties of {@link CachePurge}: every input, as stored, and what the service computes. */
export interface CachePurgeProperties {
  /** The install whose cache is purged. Changing it replaces the resource (and purges the new install). */
  readonly installId: CachePurgeOut["installId"];
  /** Which cache: `object`, `page`, `cdn` or `all`. Changing it replaces the resource (and purges). */
  readonly type: CachePurgeOut["type"];
  /** Any values; when they change, the cache is purged again. */
  readonly triggers: CachePurgeOut["triggers"];
  /** Longest wait for the service's purge window (one object-cache purge per install per 60 s), in seconds. A change alone purges nothing. */
  readonly timeoutSeconds: CachePurgeOut["timeoutSeconds"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: CachePurgeOut["profile"];
  /** How many purges this resource has sent. */
  readonly purgeCount: CachePurgeOut["purgeCount"];
  /** When the last purge was accepted (RFC 3339, the provider's clock: the service does not report it). */
  readonly lastPurgedAt: CachePurgeOut["lastPurgedAt"];
  /** Seconds the last purge waited for the service's window. */
  readonly lastWaitSeconds: CachePurgeOut["lastWaitSeconds"];
}

/**
 * An action, not an object: it purges one cache of an install (`object`, `page`, `cdn` or `all`) when created, and again each time `triggers` change (wire them to whatever should flush the cache: a deployment id, a content hash, a date). The service takes one object-cache purge per 60 s per install: the provider waits that limit out instead of failing, within `timeoutSeconds`. The id is generated by the provider.
 *
 * Delete: Only forgets the resource: a purged cache cannot be un-purged. Nothing is sent to the service.
 */
export const CachePurge: ResourceClass<CachePurgeDefinition, CachePurgeArgs, CachePurgeProperties> = resourceClass(DEFINITIONS.CachePurge);
export type CachePurge = InstanceType<typeof CachePurge>;

type DomainDefinition = (typeof DEFINITIONS)["Domain"];
type DomainIn = ArgsOf<DomainDefinition>;
type DomainOut = OutputPropertiesOf<DomainDefinition>;

/** The arguments of {@link Domain}: A domain on an install, created unverified (TXT_VERIFICATION_PENDING): its outputs give the TXT record to publish before a `DomainVerification` can complete ownership. The id is the domain's UUID. */
export interface DomainArgs {
  /** The install the domain belongs to. */
  installId: DomainIn["installId"];
  /** The domain name, e.g. `www.example.com` (a `*.` wildcard is allowed), stored lower case without a trailing dot. */
  name: DomainIn["name"];
  /** Whether this is the install's primary domain (one Domain of a program per install may set it); the domain it takes the primary from gets it back when this one is deleted or set false. A duplicate, wildcard or redirected domain cannot be. */
  primary?: DomainIn["primary"];
  /** The id of another domain of the same install this one redirects to; `null` for none. */
  redirectTo?: DomainIn["redirectTo"];
  /** Force HTTPS for all URLs of the domain. */
  secureAllUrls?: DomainIn["secureAllUrls"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: DomainIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: DomainIn["profile"];
}

/** The output properties of {@link Domain}: every input, as stored, and what the service computes. */
export interface DomainProperties {
  /** The install the domain belongs to. */
  readonly installId: DomainOut["installId"];
  /** The domain name, e.g. `www.example.com` (a `*.` wildcard is allowed), stored lower case without a trailing dot. */
  readonly name: DomainOut["name"];
  /** Whether this is the install's primary domain (one Domain of a program per install may set it); the domain it takes the primary from gets it back when this one is deleted or set false. A duplicate, wildcard or redirected domain cannot be. */
  readonly primary: DomainOut["primary"];
  /** The id of another domain of the same install this one redirects to; `null` for none. */
  readonly redirectTo: DomainOut["redirectTo"];
  /** Force HTTPS for all URLs of the domain. */
  readonly secureAllUrls: DomainOut["secureAllUrls"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: DomainOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: DomainOut["profile"];
  /** The domain's UUID (also the resource id). */
  readonly domainId: DomainOut["domainId"];
  /** Whether the service marks the domain as a duplicate. */
  readonly duplicate: DomainOut["duplicate"];
  /** The network the domain is served on: AN, GES or LEGACY. */
  readonly networkType: DomainOut["networkType"];
  /** TXT_VERIFICATION_PENDING until ownership is verified, then TXT_VERIFIED. */
  readonly ownershipStatus: DomainOut["ownershipStatus"];
  /** Name of the TXT record to publish for verification; null once verified. */
  readonly txtVerificationKey: DomainOut["txtVerificationKey"];
  /** Value of the TXT record to publish for verification; null once verified. */
  readonly txtVerificationValue: DomainOut["txtVerificationValue"];
  /** When ownership was verified, or null. */
  readonly txtVerifiedTime: DomainOut["txtVerifiedTime"];
  /** The domain name the TXT record verifies (the service's txt_verified_domain). */
  readonly txtVerifiedDomain: DomainOut["txtVerifiedDomain"];
  /** The CNAME target to point the domain at. */
  readonly cname: DomainOut["cname"];
  /** The A records to point the domain at. */
  readonly aRecords: DomainOut["aRecords"];
  /** The id of the domain that was the install's primary when this one took it, given it back when this one is deleted or set not primary while still the primary; null when none was. */
  readonly primaryTakenFrom: DomainOut["primaryTakenFrom"];
}

/**
 * A domain on an install, created unverified (TXT_VERIFICATION_PENDING): its outputs give the TXT record to publish before a `DomainVerification` can complete ownership. The id is the domain's UUID.
 *
 * Delete: Deletes the domain from the install on the service. A domain already gone counts as deleted. A primary domain that took the primary from another domain (`primaryTakenFrom`) gives it back first, unless that one is gone.
 */
export const Domain: ResourceClass<DomainDefinition, DomainArgs, DomainProperties> = resourceClass(DEFINITIONS.Domain);
export type Domain = InstanceType<typeof Domain>;

type DomainMappingVerificationDefinition = (typeof DEFINITIONS)["DomainMappingVerification"];
type DomainMappingVerificationIn = ArgsOf<DomainMappingVerificationDefinition>;
type DomainMappingVerificationOut = OutputPropertiesOf<DomainMappingVerificationDefinition>;

/** The arguments of {@link DomainMappingVerification}: The TXT ownership verification of one domain mapping of an application-hosting environment (`:verifyTxtRecord`), the application-hosting counterpart of `DomainVerification`. Create asks the service to verify until it sees the record, within `timeoutSeconds`; a mapping already verified succeeds at once. With `revalidate`, the service is then asked to re-check the mapping's DNS and certificate. When a refresh finds the mapping no longer verified, the next update verifies again. The id is the mapping's resource name. */
export interface DomainMappingVerificationArgs {
  /** The account that owns the app. */
  accountId: DomainMappingVerificationIn["accountId"];
  /** The app id (`App.name`). */
  appId: DomainMappingVerificationIn["appId"];
  /** The environment id (`Environment.name`). */
  environmentId: DomainMappingVerificationIn["environmentId"];
  /** The mapped domain to verify, e.g. `www.example.com` (stored lower case). */
  domain: DomainMappingVerificationIn["domain"];
  /** Ask the service to re-check the mapping's DNS and certificate after verifying. */
  revalidate?: DomainMappingVerificationIn["revalidate"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  timeoutSeconds?: DomainMappingVerificationIn["timeoutSeconds"];
  /** Seconds between verification attempts (1 to 3600). */
  retryIntervalSeconds?: DomainMappingVerificationIn["retryIntervalSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: DomainMappingVerificationIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: DomainMappingVerificationIn["profile"];
}

/** The output properties of {@link DomainMappingVerification}: every input, as stored, and what the service computes. */
export interface DomainMappingVerificationProperties {
  /** The account that owns the app. */
  readonly accountId: DomainMappingVerificationOut["accountId"];
  /** The app id (`App.name`). */
  readonly appId: DomainMappingVerificationOut["appId"];
  /** The environment id (`Environment.name`). */
  readonly environmentId: DomainMappingVerificationOut["environmentId"];
  /** The mapped domain to verify, e.g. `www.example.com` (stored lower case). */
  readonly domain: DomainMappingVerificationOut["domain"];
  /** Ask the service to re-check the mapping's DNS and certificate after verifying. */
  readonly revalidate: DomainMappingVerificationOut["revalidate"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  readonly timeoutSeconds: DomainMappingVerificationOut["timeoutSeconds"];
  /** Seconds between verification attempts (1 to 3600). */
  readonly retryIntervalSeconds: DomainMappingVerificationOut["retryIntervalSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: DomainMappingVerificationOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: DomainMappingVerificationOut["profile"];
  /** Whether the service has verified the TXT record (false after a refresh found the verification lost). */
  readonly txtVerified: DomainMappingVerificationOut["txtVerified"];
  /** The TXT record's name. */
  readonly txtRecordName: DomainMappingVerificationOut["txtRecordName"];
  /** The TXT record's value. */
  readonly txtRecordValue: DomainMappingVerificationOut["txtRecordValue"];
  /** The mapping's state: CREATING, ACTIVE or DELETING. */
  readonly state: DomainMappingVerificationOut["state"];
  /** The mapping's resource name (also the resource id). */
  readonly resourceName: DomainMappingVerificationOut["resourceName"];
}

/**
 * The TXT ownership verification of one domain mapping of an application-hosting environment (`:verifyTxtRecord`), the application-hosting counterpart of `DomainVerification`. Create asks the service to verify until it sees the record, within `timeoutSeconds`; a mapping already verified succeeds at once. With `revalidate`, the service is then asked to re-check the mapping's DNS and certificate. When a refresh finds the mapping no longer verified, the next update verifies again. The id is the mapping's resource name.
 *
 * Delete: Forgets the resource only; nothing is sent to the service: a verification cannot be undone (remove the mapping from the `DomainMappings` set to remove the domain). Delete says so in one line among the update's diagnostics (`wpengine:DomainMappingVerification <id>: forgotten only, nothing sent to the service: ...`).
 */
export const DomainMappingVerification: ResourceClass<DomainMappingVerificationDefinition, DomainMappingVerificationArgs, DomainMappingVerificationProperties> = resourceClass(DEFINITIONS.DomainMappingVerification);
export type DomainMappingVerification = InstanceType<typeof DomainMappingVerification>;

type DomainMappingsDefinition = (typeof DEFINITIONS)["DomainMappings"];
type DomainMappingsIn = ArgsOf<DomainMappingsDefinition>;
type DomainMappingsOut = OutputPropertiesOf<DomainMappingsDefinition>;

/** The arguments of {@link DomainMappings}: The complete set of domains an application-hosting environment answers on, one resource per environment. Applied with the service's `:replace` operation, so afterwards exactly the declared mappings exist; create and update wait until every one of them is ACTIVE. The id is `accounts/{accountId}/apps/{appId}/environments/{environmentId}/domainMappings`. */
export interface DomainMappingsArgs {
  /** The account that owns the app. */
  accountId: DomainMappingsIn["accountId"];
  /** The app id (`App.name`). */
  appId: DomainMappingsIn["appId"];
  /** The environment id (`Environment.name`). */
  environmentId: DomainMappingsIn["environmentId"];
  /** The full set of mappings of the environment: afterwards exactly these exist. */
  mappings: DomainMappingsIn["mappings"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  timeoutSeconds?: DomainMappingsIn["timeoutSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: DomainMappingsIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: DomainMappingsIn["profile"];
}

/** The output properties of {@link DomainMappings}: every input, as stored, and what the service computes. */
export interface DomainMappingsProperties {
  /** The account that owns the app. */
  readonly accountId: DomainMappingsOut["accountId"];
  /** The app id (`App.name`). */
  readonly appId: DomainMappingsOut["appId"];
  /** The environment id (`Environment.name`). */
  readonly environmentId: DomainMappingsOut["environmentId"];
  /** The full set of mappings of the environment: afterwards exactly these exist. */
  readonly mappings: DomainMappingsOut["mappings"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  readonly timeoutSeconds: DomainMappingsOut["timeoutSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: DomainMappingsOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: DomainMappingsOut["profile"];
  /** Every mapping as the service reports it, sorted by domain: state and TXT verification record. */
  readonly domainMappings: DomainMappingsOut["domainMappings"];
  /** The primary domain, or null when none is primary. */
  readonly primaryDomain: DomainMappingsOut["primaryDomain"];
}

/**
 * The complete set of domains an application-hosting environment answers on, one resource per environment. Applied with the service's `:replace` operation, so afterwards exactly the declared mappings exist; create and update wait until every one of them is ACTIVE. The id is `accounts/{accountId}/apps/{appId}/environments/{environmentId}/domainMappings`.
 *
 * Delete: Replaces the environment's set with none on the service (every mapping of the environment is removed) and waits until they are gone.
 */
export const DomainMappings: ResourceClass<DomainMappingsDefinition, DomainMappingsArgs, DomainMappingsProperties> = resourceClass(DEFINITIONS.DomainMappings);
export type DomainMappings = InstanceType<typeof DomainMappings>;

type DomainSharingLinkDefinition = (typeof DEFINITIONS)["DomainSharingLink"];
type DomainSharingLinkIn = ArgsOf<DomainSharingLinkDefinition>;
type DomainSharingLinkOut = OutputPropertiesOf<DomainSharingLinkDefinition>;

/** The arguments of {@link DomainSharingLink}: A shareable Entri Connect link with which a client sets a domain's DNS (AN and GES domains only; beyond Swagger 1.17.0). The service makes a new link on every request, so the link is asked for once, when the resource is created, and kept in the state (as a secret) until the resource is replaced: later `up`s and refreshes never ask again. The id is a hash of the link, never the link itself (a secret). */
export interface DomainSharingLinkArgs {
  /** The install the domain belongs to. Changing it makes a new link. */
  installId: DomainSharingLinkIn["installId"];
  /** The id of the domain, e.g. `domain.id` of a `Domain` on the Advanced Network (AN) or Global Edge Security (GES). Changing it makes a new link. */
  domainId: DomainSharingLinkIn["domainId"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: DomainSharingLinkIn["profile"];
}

/** The output properties of {@link DomainSharingLink}: every input, as stored, and what the service computes. */
export interface DomainSharingLinkProperties {
  /** The install the domain belongs to. Changing it makes a new link. */
  readonly installId: DomainSharingLinkOut["installId"];
  /** The id of the domain, e.g. `domain.id` of a `Domain` on the Advanced Network (AN) or Global Edge Security (GES). Changing it makes a new link. */
  readonly domainId: DomainSharingLinkOut["domainId"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: DomainSharingLinkOut["profile"];
  /** The Entri Connect link to send to whoever holds the domain's registry access (secret: anyone holding it can start the domain's DNS setup). */
  readonly url: DomainSharingLinkOut["url"];
  /** The domain's name. */
  readonly domainName: DomainSharingLinkOut["domainName"];
  /** The domain's network when the link was made: AN or GES. */
  readonly networkType: DomainSharingLinkOut["networkType"];
}

/**
 * A shareable Entri Connect link with which a client sets a domain's DNS (AN and GES domains only; beyond Swagger 1.17.0). The service makes a new link on every request, so the link is asked for once, when the resource is created, and kept in the state (as a secret) until the resource is replaced: later `up`s and refreshes never ask again. The id is a hash of the link, never the link itself (a secret).
 *
 * Delete: Only forgets the link: the API has no call to revoke one. Nothing is sent to the service.
 */
export const DomainSharingLink: ResourceClass<DomainSharingLinkDefinition, DomainSharingLinkArgs, DomainSharingLinkProperties> = resourceClass(DEFINITIONS.DomainSharingLink);
export type DomainSharingLink = InstanceType<typeof DomainSharingLink>;

type DomainVerificationDefinition = (typeof DEFINITIONS)["DomainVerification"];
type DomainVerificationIn = ArgsOf<DomainVerificationDefinition>;
type DomainVerificationOut = OutputPropertiesOf<DomainVerificationDefinition>;

/** The arguments of {@link DomainVerification}: The TXT ownership verification of a domain (TXT_VERIFICATION_PENDING to TXT_VERIFIED) as a resource, so one program can create a `Domain`, publish its TXT record with any DNS provider, and then verify. Create asks the service to verify until it sees the record, within `timeoutSeconds`; a domain already verified succeeds at once. When a refresh finds the domain no longer verified, the next update verifies again. The id is the domain id. */
export interface DomainVerificationArgs {
  /** The install the domain belongs to. Changing it replaces the resource. */
  installId: DomainVerificationIn["installId"];
  /** The id of the domain to verify, e.g. `domain.id` of a `Domain`. Changing it replaces the resource. */
  domainId: DomainVerificationIn["domainId"];
  /** How long create waits for the TXT record to be seen, in seconds (at most 86400). */
  timeoutSeconds?: DomainVerificationIn["timeoutSeconds"];
  /** Seconds between verification attempts (at least 1). The real service allows one domain status check per install every 5 s: keep it at 5 or more there. */
  retryIntervalSeconds?: DomainVerificationIn["retryIntervalSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: DomainVerificationIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: DomainVerificationIn["profile"];
}

/** The output properties of {@link DomainVerification}: every input, as stored, and what the service computes. */
export interface DomainVerificationProperties {
  /** The install the domain belongs to. Changing it replaces the resource. */
  readonly installId: DomainVerificationOut["installId"];
  /** The id of the domain to verify, e.g. `domain.id` of a `Domain`. Changing it replaces the resource. */
  readonly domainId: DomainVerificationOut["domainId"];
  /** How long create waits for the TXT record to be seen, in seconds (at most 86400). */
  readonly timeoutSeconds: DomainVerificationOut["timeoutSeconds"];
  /** Seconds between verification attempts (at least 1). The real service allows one domain status check per install every 5 s: keep it at 5 or more there. */
  readonly retryIntervalSeconds: DomainVerificationOut["retryIntervalSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: DomainVerificationOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: DomainVerificationOut["profile"];
  /** The domain name. */
  readonly domainName: DomainVerificationOut["domainName"];
  /** TXT_VERIFIED; TXT_VERIFICATION_PENDING after a refresh found the verification lost (drift). */
  readonly ownershipStatus: DomainVerificationOut["ownershipStatus"];
  /** When the TXT record was verified (ISO 8601). */
  readonly verifiedTime: DomainVerificationOut["verifiedTime"];
  /** The domain the TXT record was verified for. */
  readonly verifiedDomain: DomainVerificationOut["verifiedDomain"];
}

/**
 * The TXT ownership verification of a domain (TXT_VERIFICATION_PENDING to TXT_VERIFIED) as a resource, so one program can create a `Domain`, publish its TXT record with any DNS provider, and then verify. Create asks the service to verify until it sees the record, within `timeoutSeconds`; a domain already verified succeeds at once. When a refresh finds the domain no longer verified, the next update verifies again. The id is the domain id.
 *
 * Delete: Only forgets the resource: a verification cannot be undone on the service, the domain stays verified (delete the `Domain` to remove it). Nothing is sent to the service.
 */
export const DomainVerification: ResourceClass<DomainVerificationDefinition, DomainVerificationArgs, DomainVerificationProperties> = resourceClass(DEFINITIONS.DomainVerification);
export type DomainVerification = InstanceType<typeof DomainVerification>;

type EnvironmentDefinition = (typeof DEFINITIONS)["Environment"];
type EnvironmentIn = ArgsOf<EnvironmentDefinition>;
type EnvironmentOut = OutputPropertiesOf<EnvironmentDefinition>;

/** The arguments of {@link Environment}: An environment of an application-hosting app (production, staging...), built from a branch or, with the branch `uploadable`, from zip uploads (see `EnvironmentSource`). The platform applies every change asynchronously; create and update wait until it is applied. The id is its resource name `accounts/{accountId}/apps/{appId}/environments/{name}`. */
export interface EnvironmentArgs {
  /** The account that owns the app. */
  accountId: EnvironmentIn["accountId"];
  /** The app id (`App.name`). */
  appId: EnvironmentIn["appId"];
  /** The environment id, e.g. `production`, unique in the app: 1 to 63 lower-case letters, digits or hyphens. Pass it as `environmentId` to the resources that act on the environment. */
  name: EnvironmentIn["name"];
  /** The name shown in the console. */
  displayName: EnvironmentIn["displayName"];
  /** The git branch to build, or the literal `uploadable` for an environment deployed by zip uploads (see `EnvironmentSource`). */
  branch: EnvironmentIn["branch"];
  /** The directory of the repository (or upload) that holds the app, relative, without a trailing slash; empty for its root. */
  rootDirectory?: EnvironmentIn["rootDirectory"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  timeoutSeconds?: EnvironmentIn["timeoutSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: EnvironmentIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: EnvironmentIn["profile"];
}

/** The output properties of {@link Environment}: every input, as stored, and what the service computes. */
export interface EnvironmentProperties {
  /** The account that owns the app. */
  readonly accountId: EnvironmentOut["accountId"];
  /** The app id (`App.name`). */
  readonly appId: EnvironmentOut["appId"];
  /** The environment id, e.g. `production`, unique in the app: 1 to 63 lower-case letters, digits or hyphens. Pass it as `environmentId` to the resources that act on the environment. */
  readonly name: EnvironmentOut["name"];
  /** The name shown in the console. */
  readonly displayName: EnvironmentOut["displayName"];
  /** The git branch to build, or the literal `uploadable` for an environment deployed by zip uploads (see `EnvironmentSource`). */
  readonly branch: EnvironmentOut["branch"];
  /** The directory of the repository (or upload) that holds the app, relative, without a trailing slash; empty for its root. */
  readonly rootDirectory: EnvironmentOut["rootDirectory"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  readonly timeoutSeconds: EnvironmentOut["timeoutSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: EnvironmentOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: EnvironmentOut["profile"];
  /** The resource name `accounts/{accountId}/apps/{appId}/environments/{name}` (also the resource id). */
  readonly resourceName: EnvironmentOut["resourceName"];
  /** When the environment was created (RFC 3339). */
  readonly createTime: EnvironmentOut["createTime"];
  /** Whether the platform was still applying a change when last read (false after create and update). */
  readonly reconciling: EnvironmentOut["reconciling"];
}

/**
 * An environment of an application-hosting app (production, staging...), built from a branch or, with the branch `uploadable`, from zip uploads (see `EnvironmentSource`). The platform applies every change asynchronously; create and update wait until it is applied. The id is its resource name `accounts/{accountId}/apps/{appId}/environments/{name}`.
 *
 * Delete: Deletes the environment on the service; its builds and domain mappings go with it. An environment already gone (or whose app is gone) counts as deleted.
 */
export const Environment: ResourceClass<EnvironmentDefinition, EnvironmentArgs, EnvironmentProperties> = resourceClass(DEFINITIONS.Environment);
export type Environment = InstanceType<typeof Environment>;

type EnvironmentCacheClearDefinition = (typeof DEFINITIONS)["EnvironmentCacheClear"];
type EnvironmentCacheClearIn = ArgsOf<EnvironmentCacheClearDefinition>;
type EnvironmentCacheClearOut = OutputPropertiesOf<EnvironmentCacheClearDefinition>;

/** The arguments of {@link EnvironmentCacheClear}: An action, not an object: clears the web cache of an application-hosting environment when created, and again each time `triggers` change. The id is `accounts/{a}/apps/{app}/environments/{env}/cacheClears/{uuid}`. */
export interface EnvironmentCacheClearArgs {
  /** The account that owns the app. */
  accountId: EnvironmentCacheClearIn["accountId"];
  /** The app id (`App.name`). */
  appId: EnvironmentCacheClearIn["appId"];
  /** The environment id (`Environment.name`). */
  environmentId: EnvironmentCacheClearIn["environmentId"];
  /** Any values (a build name, a content hash, a date); when they change, the cache is cleared again. */
  triggers?: EnvironmentCacheClearIn["triggers"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: EnvironmentCacheClearIn["profile"];
}

/** The output properties of {@link EnvironmentCacheClear}: every input, as stored, and what the service computes. */
export interface EnvironmentCacheClearProperties {
  /** The account that owns the app. */
  readonly accountId: EnvironmentCacheClearOut["accountId"];
  /** The app id (`App.name`). */
  readonly appId: EnvironmentCacheClearOut["appId"];
  /** The environment id (`Environment.name`). */
  readonly environmentId: EnvironmentCacheClearOut["environmentId"];
  /** Any values (a build name, a content hash, a date); when they change, the cache is cleared again. */
  readonly triggers: EnvironmentCacheClearOut["triggers"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: EnvironmentCacheClearOut["profile"];
  /** The resource name of the environment whose cache is cleared. */
  readonly environmentResourceName: EnvironmentCacheClearOut["environmentResourceName"];
  /** When this resource last cleared the cache (RFC 3339, the provider's clock: the service does not report it). */
  readonly lastClearedAt: EnvironmentCacheClearOut["lastClearedAt"];
}

/**
 * An action, not an object: clears the web cache of an application-hosting environment when created, and again each time `triggers` change. The id is `accounts/{a}/apps/{app}/environments/{env}/cacheClears/{uuid}`.
 *
 * Delete: Forgets the resource only; nothing is sent to the service (a cleared cache cannot be uncleared). Delete says so in one line among the update's diagnostics (`wpengine:EnvironmentCacheClear <id>: forgotten only, nothing sent to the service: ...`).
 */
export const EnvironmentCacheClear: ResourceClass<EnvironmentCacheClearDefinition, EnvironmentCacheClearArgs, EnvironmentCacheClearProperties> = resourceClass(DEFINITIONS.EnvironmentCacheClear);
export type EnvironmentCacheClear = InstanceType<typeof EnvironmentCacheClear>;

type EnvironmentSourceDefinition = (typeof DEFINITIONS)["EnvironmentSource"];
type EnvironmentSourceIn = ArgsOf<EnvironmentSourceDefinition>;
type EnvironmentSourceOut = OutputPropertiesOf<EnvironmentSourceDefinition>;

/** The arguments of {@link EnvironmentSource}: Local source deployed to an application-hosting environment whose branch is `uploadable`: `path` (a `.zip` file, or a directory zipped on the fly, deterministically) is uploaded and the resulting build awaited (SUCCEEDED; FAILED or CANCELLED fails). `check` hashes the content into `sourceHash`, so an edited file shows as an update without calling the service. The id is `accounts/{a}/apps/{app}/environments/{env}/source`. */
export interface EnvironmentSourceArgs {
  /** The account that owns the app. */
  accountId: EnvironmentSourceIn["accountId"];
  /** The app id (`App.name`). */
  appId: EnvironmentSourceIn["appId"];
  /** The environment id (`Environment.name`). */
  environmentId: EnvironmentSourceIn["environmentId"];
  /** A `.zip` file, or a directory zipped on the fly (without `.git` and `node_modules`), relative to the program's working directory or absolute. A change of its content uploads again. */
  path: EnvironmentSourceIn["path"];
  /** Any values; when they change, the source is uploaded again even if its content did not change. */
  triggers?: EnvironmentSourceIn["triggers"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  timeoutSeconds?: EnvironmentSourceIn["timeoutSeconds"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: EnvironmentSourceIn["profile"];
}

/** The output properties of {@link EnvironmentSource}: every input, as stored, and what the service computes. */
export interface EnvironmentSourceProperties {
  /** The account that owns the app. */
  readonly accountId: EnvironmentSourceOut["accountId"];
  /** The app id (`App.name`). */
  readonly appId: EnvironmentSourceOut["appId"];
  /** The environment id (`Environment.name`). */
  readonly environmentId: EnvironmentSourceOut["environmentId"];
  /** A `.zip` file, or a directory zipped on the fly (without `.git` and `node_modules`), relative to the program's working directory or absolute. A change of its content uploads again. */
  readonly path: EnvironmentSourceOut["path"];
  /** Any values; when they change, the source is uploaded again even if its content did not change. */
  readonly triggers: EnvironmentSourceOut["triggers"];
  /** How long the provider waits for the service to finish, in seconds (at most 86400). */
  readonly timeoutSeconds: EnvironmentSourceOut["timeoutSeconds"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: EnvironmentSourceOut["profile"];
  /** The resource name of the build of the upload. */
  readonly buildName: EnvironmentSourceOut["buildName"];
  /** The state of that build: SUCCEEDED after a successful create or update; the live state on refresh. */
  readonly buildState: EnvironmentSourceOut["buildState"];
  /** SHA-256 (hex) of the zip uploaded, computed by check from the content of `path` (it cannot be set); null when the deployed build is not this resource's. */
  readonly sourceHash: EnvironmentSourceOut["sourceHash"];
  /** Size in bytes of the zip uploaded. */
  readonly size: EnvironmentSourceOut["size"];
}

/**
 * Local source deployed to an application-hosting environment whose branch is `uploadable`: `path` (a `.zip` file, or a directory zipped on the fly, deterministically) is uploaded and the resulting build awaited (SUCCEEDED; FAILED or CANCELLED fails). `check` hashes the content into `sourceHash`, so an edited file shows as an update without calling the service. The id is `accounts/{a}/apps/{app}/environments/{env}/source`.
 *
 * Delete: Forgets the resource only; nothing is sent to the service and the deployed build stays on the environment (the service cannot undeploy it short of deleting the environment). Delete says so in one line among the update's diagnostics (`wpengine:EnvironmentSource <id>: forgotten only, nothing sent to the service: ...`).
 */
export const EnvironmentSource: ResourceClass<EnvironmentSourceDefinition, EnvironmentSourceArgs, EnvironmentSourceProperties> = resourceClass(DEFINITIONS.EnvironmentSource);
export type EnvironmentSource = InstanceType<typeof EnvironmentSource>;

type InstallDefinition = (typeof DEFINITIONS)["Install"];
type InstallIn = ArgsOf<InstallDefinition>;
type InstallOut = OutputPropertiesOf<InstallDefinition>;

/** The arguments of {@link Install}: A WordPress install, created in an account and placed in a site as its production, staging or development install. The service provisions it asynchronously: create waits until it is `active`, within `timeoutSeconds`. Its name and account replace it (a new name in the same site and environment deletes the old install first: a site holds one install per environment); its site and environment change in place. An `Install` manages its own placement: do not also declare an `InstallPlacement` for it. The id is the install's UUID. */
export interface InstallArgs {
  /** The install name: 3 to 14 lower-case letters or digits, starting with a letter (also its subdomain, unique across the service). */
  name: InstallIn["name"];
  /** The account the install belongs to. */
  accountId: InstallIn["accountId"];
  /** The site the install belongs to (of the same account); changing it moves the install in place. */
  siteId: InstallIn["siteId"];
  /** The environment it fills in its site: `production`, `staging` or `development` (free in the site); changing it moves the install in place. */
  environment: pulumi.Input<"production" | "staging" | "development">;
  /** How long create waits for the install to be provisioned (`active`), in seconds (default 1800). */
  timeoutSeconds?: InstallIn["timeoutSeconds"];
  /** Refuse to delete the install, and to replace it, while true (the default): deleting an install destroys the website. Set false and run `pulumi up` before a destroy; that update sends nothing to the service. */
  deletionProtection?: InstallIn["deletionProtection"];
  /** Take over the install of that name in the account instead of failing create (and place it as declared). */
  adopt?: InstallIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: InstallIn["profile"];
}

/** The output properties of {@link Install}: every input, as stored, and what the service computes. */
export interface InstallProperties {
  /** The install name: 3 to 14 lower-case letters or digits, starting with a letter (also its subdomain, unique across the service). */
  readonly name: InstallOut["name"];
  /** The account the install belongs to. */
  readonly accountId: InstallOut["accountId"];
  /** The site the install belongs to (of the same account); changing it moves the install in place. */
  readonly siteId: InstallOut["siteId"];
  /** The environment it fills in its site: `production`, `staging` or `development` (free in the site); changing it moves the install in place. */
  readonly environment: InstallOut["environment"];
  /** How long create waits for the install to be provisioned (`active`), in seconds (default 1800). */
  readonly timeoutSeconds: InstallOut["timeoutSeconds"];
  /** Refuse to delete the install, and to replace it, while true (the default): deleting an install destroys the website. Set false and run `pulumi up` before a destroy; that update sends nothing to the service. */
  readonly deletionProtection: InstallOut["deletionProtection"];
  /** Take over the install of that name in the account instead of failing create (and place it as declared). */
  readonly adopt: InstallOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: InstallOut["profile"];
  /** The install's UUID (also the resource id): pass it as `installId` to the resources that act on it. */
  readonly installId: InstallOut["installId"];
  /** `active` once provisioned (`pending` before). */
  readonly status: InstallOut["status"];
  /** PHP version. */
  readonly phpVersion: InstallOut["phpVersion"];
  /** The install's CNAME (`<name>.wpengine.com`). */
  readonly cname: InstallOut["cname"];
  /** Stable IPs (some premium plans only; empty otherwise). */
  readonly stableIps: InstallOut["stableIps"];
  /** Whether the install is a multisite. */
  readonly isMultisite: InstallOut["isMultisite"];
  /** When the install was created (UTC). */
  readonly createdAt: InstallOut["createdAt"];
  /** Automatic core major updates are deferred until this date, or null. */
  readonly deferCmsUpgradesUntil: InstallOut["deferCmsUpgradesUntil"];
}

/**
 * A WordPress install, created in an account and placed in a site as its production, staging or development install. The service provisions it asynchronously: create waits until it is `active`, within `timeoutSeconds`. Its name and account replace it (a new name in the same site and environment deletes the old install first: a site holds one install per environment); its site and environment change in place. An `Install` manages its own placement: do not also declare an `InstallPlacement` for it. The id is the install's UUID.
 *
 * Delete: Deletes the install and everything on it (domains, backups, settings) for good. Refused while `deletionProtection` is on, the default. An install already gone counts as deleted.
 */
export const Install: ResourceClass<InstallDefinition, InstallArgs, InstallProperties> = resourceClass(DEFINITIONS.Install);
export type Install = InstanceType<typeof Install>;

type InstallCopyDefinition = (typeof DEFINITIONS)["InstallCopy"];
type InstallCopyIn = ArgsOf<InstallCopyDefinition>;
type InstallCopyOut = OutputPropertiesOf<InstallCopyDefinition>;

/** The arguments of {@link InstallCopy}: DESTRUCTIVE action, not an object: creating it copies the files and/or the database of one environment (install) over another of the same account, and a change of any input (typically `triggers`) copies again; the destination's copied content is overwritten. `check` enforces the rules that can be decided locally (source and destination differ, `dbTables` only with `includeDb`) and adds a `summary` input that says in words what will be copied, so `pulumi preview` shows it. The service has no status for a copy: completion is announced only by email to `notificationEmails`, so nothing waits for it. The id is generated by the provider. */
export interface InstallCopyArgs {
  /** The environment (install id) to copy from. A change copies again. */
  sourceEnvironmentId: InstallCopyIn["sourceEnvironmentId"];
  /** The environment (install id) to copy over, in the same account as the source: what is copied is overwritten there. A change copies again. */
  destinationEnvironmentId: InstallCopyIn["destinationEnvironmentId"];
  /** Addresses notified when the copy completes: the only completion signal the service gives (without any, nobody learns that it finished). Order and case do not count. */
  notificationEmails?: InstallCopyIn["notificationEmails"];
  /** Copy the files. */
  includeFiles?: InstallCopyIn["includeFiles"];
  /** Copy the database. */
  includeDb?: InstallCopyIn["includeDb"];
  /** Copy only these database tables (default: the whole database; order does not count); only with `includeDb`. */
  dbTables?: InstallCopyIn["dbTables"];
  /** Any values; a change of them copies again. */
  triggers?: InstallCopyIn["triggers"];
  /** Computed by `check`: what the copy does, in words (also shown by `pulumi preview`); any given value is replaced. */
  summary?: InstallCopyIn["summary"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: InstallCopyIn["profile"];
}

/** The output properties of {@link InstallCopy}: every input, as stored, and what the service computes. */
export interface InstallCopyProperties {
  /** The environment (install id) to copy from. A change copies again. */
  readonly sourceEnvironmentId: InstallCopyOut["sourceEnvironmentId"];
  /** The environment (install id) to copy over, in the same account as the source: what is copied is overwritten there. A change copies again. */
  readonly destinationEnvironmentId: InstallCopyOut["destinationEnvironmentId"];
  /** Addresses notified when the copy completes: the only completion signal the service gives (without any, nobody learns that it finished). Order and case do not count. */
  readonly notificationEmails: InstallCopyOut["notificationEmails"];
  /** Copy the files. */
  readonly includeFiles: InstallCopyOut["includeFiles"];
  /** Copy the database. */
  readonly includeDb: InstallCopyOut["includeDb"];
  /** Copy only these database tables (default: the whole database; order does not count); only with `includeDb`. */
  readonly dbTables: InstallCopyOut["dbTables"];
  /** Any values; a change of them copies again. */
  readonly triggers: InstallCopyOut["triggers"];
  /** Computed by `check`: what the copy does, in words (also shown by `pulumi preview`); any given value is replaced. */
  readonly summary: InstallCopyOut["summary"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: InstallCopyOut["profile"];
  /** How many times this resource has requested the copy. */
  readonly requestCount: InstallCopyOut["requestCount"];
  /** When the last copy was requested (ISO 8601, the provider's clock); completion is announced by email only. */
  readonly lastRequestedAt: InstallCopyOut["lastRequestedAt"];
  /** The service's answer to the last request (`Install copy initiated`). */
  readonly lastMessage: InstallCopyOut["lastMessage"];
}

/**
 * DESTRUCTIVE action, not an object: creating it copies the files and/or the database of one environment (install) over another of the same account, and a change of any input (typically `triggers`) copies again; the destination's copied content is overwritten. `check` enforces the rules that can be decided locally (source and destination differ, `dbTables` only with `includeDb`) and adds a `summary` input that says in words what will be copied, so `pulumi preview` shows it. The service has no status for a copy: completion is announced only by email to `notificationEmails`, so nothing waits for it. The id is generated by the provider.
 *
 * Delete: Only forgets the action: nothing on the service is undone. Nothing is sent to the service.
 */
export const InstallCopy: ResourceClass<InstallCopyDefinition, InstallCopyArgs, InstallCopyProperties> = resourceClass(DEFINITIONS.InstallCopy);
export type InstallCopy = InstanceType<typeof InstallCopy>;

type InstallPlacementDefinition = (typeof DEFINITIONS)["InstallPlacement"];
type InstallPlacementIn = ArgsOf<InstallPlacementDefinition>;
type InstallPlacementOut = OutputPropertiesOf<InstallPlacementDefinition>;

/** The arguments of {@link InstallPlacement}: Where an existing install lives: the site it belongs to and the environment (production, staging or development) it fills there. Creating it moves the install (PATCH install); it never creates an install. For installs made elsewhere (by hand, by another stack): an install this program creates with `Install` is placed by that resource's `siteId`/`environment`. The id is the install's UUID. */
export interface InstallPlacementArgs {
  /** The install to place; it must exist. Changing it replaces the placement. */
  installId: InstallPlacementIn["installId"];
  /** The site the install belongs to. Changing it moves the install in place. */
  siteId: InstallPlacementIn["siteId"];
  /** The environment the install fills in its site: `production`, `staging` or `development` (any case). */
  environment: pulumi.Input<"production" | "staging" | "development">;
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: InstallPlacementIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: InstallPlacementIn["profile"];
}

/** The output properties of {@link InstallPlacement}: every input, as stored, and what the service computes. */
export interface InstallPlacementProperties {
  /** The install to place; it must exist. Changing it replaces the placement. */
  readonly installId: InstallPlacementOut["installId"];
  /** The site the install belongs to. Changing it moves the install in place. */
  readonly siteId: InstallPlacementOut["siteId"];
  /** The environment the install fills in its site: `production`, `staging` or `development` (any case). */
  readonly environment: InstallPlacementOut["environment"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: InstallPlacementOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: InstallPlacementOut["profile"];
  /** The install's name. */
  readonly installName: InstallPlacementOut["installName"];
  /** The account owning the install. */
  readonly accountId: InstallPlacementOut["accountId"];
  /** The install's CNAME. */
  readonly cname: InstallPlacementOut["cname"];
  /** The install's primary domain. */
  readonly primaryDomain: InstallPlacementOut["primaryDomain"];
  /** The install's status (`active` or `pending`). */
  readonly status: InstallPlacementOut["status"];
}

/**
 * Where an existing install lives: the site it belongs to and the environment (production, staging or development) it fills there. Creating it moves the install (PATCH install); it never creates an install. For installs made elsewhere (by hand, by another stack): an install this program creates with `Install` is placed by that resource's `siteId`/`environment`. The id is the install's UUID.
 *
 * Delete: Only forgets the placement: the install stays in the site and environment it has now (nothing on the service un-places an install, and moving it back somewhere would be a guess). Nothing is sent to the service.
 */
export const InstallPlacement: ResourceClass<InstallPlacementDefinition, InstallPlacementArgs, InstallPlacementProperties> = resourceClass(DEFINITIONS.InstallPlacement);
export type InstallPlacement = InstanceType<typeof InstallPlacement>;

type LetsEncryptCertificateDefinition = (typeof DEFINITIONS)["LetsEncryptCertificate"];
type LetsEncryptCertificateIn = ArgsOf<LetsEncryptCertificateDefinition>;
type LetsEncryptCertificateOut = OutputPropertiesOf<LetsEncryptCertificateDefinition>;

/** The arguments of {@link LetsEncryptCertificate}: The Let's Encrypt order for a domain of an install on the legacy network (domains on the current network get their certificates automatically), with the certificate's status (`SUBMITTED` until issued, then `ENABLED`). Changing the holder's details orders again. The id is `{installId}/{domainId}`. */
export interface LetsEncryptCertificateArgs {
  /** The install holding the domain. */
  installId: LetsEncryptCertificateIn["installId"];
  /** The domain's UUID (e.g. `Domain.domainId`); it must be on the legacy network. */
  domainId: LetsEncryptCertificateIn["domainId"];
  /** The certificate holder's email address. */
  emailAddress: LetsEncryptCertificateIn["emailAddress"];
  /** The holder's given name. */
  givenName: LetsEncryptCertificateIn["givenName"];
  /** The holder's family name. */
  familyName: LetsEncryptCertificateIn["familyName"];
  /** The holder's country: a two-letter ISO 3166-1 alpha-2 code such as `US` (kept upper case). */
  regionCode: LetsEncryptCertificateIn["regionCode"];
  /** The holder's state or region. */
  state?: LetsEncryptCertificateIn["state"];
  /** The holder's city. */
  city?: LetsEncryptCertificateIn["city"];
  /** The holder's phone number. */
  phone?: LetsEncryptCertificateIn["phone"];
  /** Take over the domain's existing Let's Encrypt certificate (no new order is sent) instead of failing create. */
  adopt?: LetsEncryptCertificateIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: LetsEncryptCertificateIn["profile"];
}

/** The output properties of {@link LetsEncryptCertificate}: every input, as stored, and what the service computes. */
export interface LetsEncryptCertificateProperties {
  /** The install holding the domain. */
  readonly installId: LetsEncryptCertificateOut["installId"];
  /** The domain's UUID (e.g. `Domain.domainId`); it must be on the legacy network. */
  readonly domainId: LetsEncryptCertificateOut["domainId"];
  /** The certificate holder's email address. */
  readonly emailAddress: LetsEncryptCertificateOut["emailAddress"];
  /** The holder's given name. */
  readonly givenName: LetsEncryptCertificateOut["givenName"];
  /** The holder's family name. */
  readonly familyName: LetsEncryptCertificateOut["familyName"];
  /** The holder's country: a two-letter ISO 3166-1 alpha-2 code such as `US` (kept upper case). */
  readonly regionCode: LetsEncryptCertificateOut["regionCode"];
  /** The holder's state or region. */
  readonly state: LetsEncryptCertificateOut["state"];
  /** The holder's city. */
  readonly city: LetsEncryptCertificateOut["city"];
  /** The holder's phone number. */
  readonly phone: LetsEncryptCertificateOut["phone"];
  /** Take over the domain's existing Let's Encrypt certificate (no new order is sent) instead of failing create. */
  readonly adopt: LetsEncryptCertificateOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: LetsEncryptCertificateOut["profile"];
  /** The certificate's id on the service. */
  readonly certificateId: LetsEncryptCertificateOut["certificateId"];
  /** `SUBMITTED` until issued, then `ENABLED`; `EXPIRED`, `CANCELED`, `REJECTED` or `DISABLED` make the next `up` order again. */
  readonly status: LetsEncryptCertificateOut["status"];
  /** The certificate's common name. */
  readonly commonName: LetsEncryptCertificateOut["commonName"];
  /** The domains it covers. */
  readonly domains: LetsEncryptCertificateOut["domains"];
  /** Whether the service renews it. */
  readonly autoRenew: LetsEncryptCertificateOut["autoRenew"];
  /** When it was ordered. */
  readonly orderedTime: LetsEncryptCertificateOut["orderedTime"];
  /** When it was issued. */
  readonly approvedTime: LetsEncryptCertificateOut["approvedTime"];
  /** When it expires. */
  readonly expiresTime: LetsEncryptCertificateOut["expiresTime"];
  /** Its X.509 serial number (hexadecimal). */
  readonly serialNumber: LetsEncryptCertificateOut["serialNumber"];
}

/**
 * The Let's Encrypt order for a domain of an install on the legacy network (domains on the current network get their certificates automatically), with the certificate's status (`SUBMITTED` until issued, then `ENABLED`). Changing the holder's details orders again. The id is `{installId}/{domainId}`.
 *
 * Delete: Nothing: the API has no way to cancel or remove a certificate, so delete only forgets the resource; the certificate stays on the domain (and renews on the service's schedule when `autoRenew` is true).
 */
export const LetsEncryptCertificate: ResourceClass<LetsEncryptCertificateDefinition, LetsEncryptCertificateArgs, LetsEncryptCertificateProperties> = resourceClass(DEFINITIONS.LetsEncryptCertificate);
export type LetsEncryptCertificate = InstanceType<typeof LetsEncryptCertificate>;

type OffloadSettingsDefinition = (typeof DEFINITIONS)["OffloadSettings"];
type OffloadSettingsIn = ArgsOf<OffloadSettingsDefinition>;
type OffloadSettingsOut = OutputPropertiesOf<OffloadSettingsDefinition>;

/** The arguments of {@link OffloadSettings}: The offloaded file storage (LargeFS) settings of an install: the S3 bucket that serves chosen paths of the install's files. Create and update send the whole settings and wait until the service has applied them (`timeoutSeconds`). The id is the install id: an install has one set of offload settings. */
export interface OffloadSettingsArgs {
  /** The install whose offload settings this resource owns (also the resource id). */
  installId: OffloadSettingsIn["installId"];
  /** The storage provider: `s3`, the only one the service offers. */
  cloud?: pulumi.Input<"s3">;
  /** The S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens). */
  bucket: OffloadSettingsIn["bucket"];
  /** The bucket's region, an AWS region code such as `us-east-1`. */
  bucketRegion: OffloadSettingsIn["bucketRegion"];
  /** The offloaded paths (default none), each path at most once. Order never shows as a change: they are kept sorted by path. */
  pathSettings?: OffloadSettingsIn["pathSettings"];
  /** How long create and update wait for the service to apply the settings, in seconds (at most 86400). */
  timeoutSeconds?: OffloadSettingsIn["timeoutSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: OffloadSettingsIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: OffloadSettingsIn["profile"];
}

/** The output properties of {@link OffloadSettings}: every input, as stored, and what the service computes. */
export interface OffloadSettingsProperties {
  /** The install whose offload settings this resource owns (also the resource id). */
  readonly installId: OffloadSettingsOut["installId"];
  /** The storage provider: `s3`, the only one the service offers. */
  readonly cloud: OffloadSettingsOut["cloud"];
  /** The S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens). */
  readonly bucket: OffloadSettingsOut["bucket"];
  /** The bucket's region, an AWS region code such as `us-east-1`. */
  readonly bucketRegion: OffloadSettingsOut["bucketRegion"];
  /** The offloaded paths (default none), each path at most once. Order never shows as a change: they are kept sorted by path. */
  readonly pathSettings: OffloadSettingsOut["pathSettings"];
  /** How long create and update wait for the service to apply the settings, in seconds (at most 86400). */
  readonly timeoutSeconds: OffloadSettingsOut["timeoutSeconds"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: OffloadSettingsOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: OffloadSettingsOut["profile"];
  /** `applied` once the service has applied the settings, `pending` while it is still applying a change. */
  readonly status: OffloadSettingsOut["status"];
}

/**
 * The offloaded file storage (LargeFS) settings of an install: the S3 bucket that serves chosen paths of the install's files. Create and update send the whole settings and wait until the service has applied them (`timeoutSeconds`). The id is the install id: an install has one set of offload settings.
 *
 * Delete: Nothing on the service can delete or reset offload settings: delete only forgets the resource, and the install keeps offloading to the bucket until its settings are changed by hand.
 */
export const OffloadSettings: ResourceClass<OffloadSettingsDefinition, OffloadSettingsArgs, OffloadSettingsProperties> = resourceClass(DEFINITIONS.OffloadSettings);
export type OffloadSettings = InstanceType<typeof OffloadSettings>;

type ReportScheduleDefinition = (typeof DEFINITIONS)["ReportSchedule"];
type ReportScheduleIn = ArgsOf<ReportScheduleDefinition>;
type ReportScheduleOut = OutputPropertiesOf<ReportScheduleDefinition>;

/** The arguments of {@link ReportSchedule}: A scheduled report of a site: generated from a template every 7 or 14 days or on a day of every month, and emailed to its recipients. The id is the schedule's UUID (the service's create does not return it: it is found in the site's schedule listing). */
export interface ReportScheduleArgs {
  /** The site the report is about. Changing it replaces the schedule. */
  siteId: ReportScheduleIn["siteId"];
  /** The report title. Create refuses a title the site's schedules already use unless `adopt` is set, and adoption needs exactly one schedule with it. */
  title: ReportScheduleIn["title"];
  /** The first (on create) or next (on update) generation, an ISO 8601 date-time with a zone, stored in UTC. It keeps this value while the service moves the schedule on through its runs; see `nextRunDate` for the live one. A date already past is sent as its next run on the cadence (the service refuses a past date). */
  nextScheduledDate: ReportScheduleIn["nextScheduledDate"];
  /** The report template's UUID, stored lower case. */
  templateUuid: ReportScheduleIn["templateUuid"];
  /** How often the report runs: `{value: 7 | 14, unit: "DAYS"}` or `{value: 1..31, unit: "MONTHLY"}` (the day of the month). */
  frequency: ReportScheduleIn["frequency"];
  /** Who receives the report (at least one): a set, whose order and email case never show as a change. */
  recipients: ReportScheduleIn["recipients"];
  /** The report's sections, in order; valid names depend on the template. */
  sections: ReportScheduleIn["sections"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: ReportScheduleIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: ReportScheduleIn["profile"];
}

/** The output properties of {@link ReportSchedule}: every input, as stored, and what the service computes. */
export interface ReportScheduleProperties {
  /** The site the report is about. Changing it replaces the schedule. */
  readonly siteId: ReportScheduleOut["siteId"];
  /** The report title. Create refuses a title the site's schedules already use unless `adopt` is set, and adoption needs exactly one schedule with it. */
  readonly title: ReportScheduleOut["title"];
  /** The first (on create) or next (on update) generation, an ISO 8601 date-time with a zone, stored in UTC. It keeps this value while the service moves the schedule on through its runs; see `nextRunDate` for the live one. A date already past is sent as its next run on the cadence (the service refuses a past date). */
  readonly nextScheduledDate: ReportScheduleOut["nextScheduledDate"];
  /** The report template's UUID, stored lower case. */
  readonly templateUuid: ReportScheduleOut["templateUuid"];
  /** How often the report runs: `{value: 7 | 14, unit: "DAYS"}` or `{value: 1..31, unit: "MONTHLY"}` (the day of the month). */
  readonly frequency: ReportScheduleOut["frequency"];
  /** Who receives the report (at least one): a set, whose order and email case never show as a change. */
  readonly recipients: ReportScheduleOut["recipients"];
  /** The report's sections, in order; valid names depend on the template. */
  readonly sections: ReportScheduleOut["sections"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: ReportScheduleOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: ReportScheduleOut["profile"];
  /** The schedule's UUID (also the resource id). */
  readonly scheduleId: ReportScheduleOut["scheduleId"];
  /** When the schedule was created, or null. */
  readonly createdAt: ReportScheduleOut["createdAt"];
  /** The next generation as the service lists it now (moves on after every run), or null. */
  readonly nextRunDate: ReportScheduleOut["nextRunDate"];
  /** How the id was established on create (the service's create does not return it): `exact` (the one new schedule with the requested fields), `only-new-schedule` (the only new schedule, whose fields the service adjusted) or `adopted`. Absent on an imported schedule. */
  readonly createMatch: ReportScheduleOut["createMatch"];
}

/**
 * A scheduled report of a site: generated from a template every 7 or 14 days or on a day of every month, and emailed to its recipients. The id is the schedule's UUID (the service's create does not return it: it is found in the site's schedule listing).
 *
 * Delete: Deletes the schedule on the service. A schedule already gone counts as deleted.
 */
export const ReportSchedule: ResourceClass<ReportScheduleDefinition, ReportScheduleArgs, ReportScheduleProperties> = resourceClass(DEFINITIONS.ReportSchedule);
export type ReportSchedule = InstanceType<typeof ReportSchedule>;

type SiteDefinition = (typeof DEFINITIONS)["Site"];
type SiteIn = ArgsOf<SiteDefinition>;
type SiteOut = OutputPropertiesOf<SiteDefinition>;

/** The arguments of {@link Site}: A site of an account, the group that holds an install per environment (production, staging, development). Create makes an empty site; its name changes in place; a change of `accountId` replaces it (a site moves between accounts only by a `SiteTransfer`). The id is the site's UUID. */
export interface SiteArgs {
  /** The account that owns the site. Changing it replaces the site (use `SiteTransfer` to move one). */
  accountId: SiteIn["accountId"];
  /** The site name, 1 to 40 characters; renamed in place. */
  name: SiteIn["name"];
  /** Refuse to delete the site, and to replace it, while true (the default): deleting a site deletes every install in it. Set false and run `pulumi up` before a destroy; that update sends nothing to the service. */
  deletionProtection?: SiteIn["deletionProtection"];
  /** Take over the one site of that name in the account instead of failing create. */
  adopt?: SiteIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: SiteIn["profile"];
}

/** The output properties of {@link Site}: every input, as stored, and what the service computes. */
export interface SiteProperties {
  /** The account that owns the site. Changing it replaces the site (use `SiteTransfer` to move one). */
  readonly accountId: SiteOut["accountId"];
  /** The site name, 1 to 40 characters; renamed in place. */
  readonly name: SiteOut["name"];
  /** Refuse to delete the site, and to replace it, while true (the default): deleting a site deletes every install in it. Set false and run `pulumi up` before a destroy; that update sends nothing to the service. */
  readonly deletionProtection: SiteOut["deletionProtection"];
  /** Take over the one site of that name in the account instead of failing create. */
  readonly adopt: SiteOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: SiteOut["profile"];
  /** The site's UUID (also the resource id). */
  readonly siteId: SiteOut["siteId"];
  /** The site's group, or null. */
  readonly groupName: SiteOut["groupName"];
  /** The site's tags. */
  readonly tags: SiteOut["tags"];
  /** When the site was created (UTC). */
  readonly createdAt: SiteOut["createdAt"];
  /** Whether the site is a sandbox (sandboxes cannot be transferred). */
  readonly sandbox: SiteOut["sandbox"];
  /** Whether the site can be transferred. */
  readonly transferable: SiteOut["transferable"];
}

/**
 * A site of an account, the group that holds an install per environment (production, staging, development). Create makes an empty site; its name changes in place; a change of `accountId` replaces it (a site moves between accounts only by a `SiteTransfer`). The id is the site's UUID.
 *
 * Delete: Deletes the site on the service, for good (no confirmation, no undo). Refused while `deletionProtection` is on, the default, and while the site still holds an install: the service would delete those installs with it, and they are not this resource's (another stack's, made by hand, or kept by their own guard). A site already gone counts as deleted.
 */
export const Site: ResourceClass<SiteDefinition, SiteArgs, SiteProperties> = resourceClass(DEFINITIONS.Site);
export type Site = InstanceType<typeof Site>;

type SiteTransferDefinition = (typeof DEFINITIONS)["SiteTransfer"];
type SiteTransferIn = ArgsOf<SiteTransferDefinition>;
type SiteTransferOut = OutputPropertiesOf<SiteTransferDefinition>;

/** The arguments of {@link SiteTransfer}: A request to move a site, with its installs, to another account: immediately or at a scheduled time 1 hour to 7 days ahead. The service accepts it asynchronously (`pending` or `scheduled`); read follows its status through `in_progress` to `completed` or `failed`, and a transfer cancelled on the service counts as gone. A transfer cannot be edited, so every input replaces it. The id is the transfer's id. */
export interface SiteTransferArgs {
  /** The site to transfer (with its installs). */
  siteId: SiteTransferIn["siteId"];
  /** The account that receives the site; it must differ from the site's account. */
  destinationAccountId: SiteTransferIn["destinationAccountId"];
  /** When to transfer (RFC 3339 with a zone, 1 hour to 7 days ahead when requested), kept in canonical form (`...000Z`); `null` transfers immediately. */
  scheduledTime?: SiteTransferIn["scheduledTime"];
  /** Put the site in maintenance mode during the transfer. The service does not report it, so it shows the value given at create. */
  maintenanceMode?: SiteTransferIn["maintenanceMode"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: SiteTransferIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: SiteTransferIn["profile"];
}

/** The output properties of {@link SiteTransfer}: every input, as stored, and what the service computes. */
export interface SiteTransferProperties {
  /** The site to transfer (with its installs). */
  readonly siteId: SiteTransferOut["siteId"];
  /** The account that receives the site; it must differ from the site's account. */
  readonly destinationAccountId: SiteTransferOut["destinationAccountId"];
  /** When to transfer (RFC 3339 with a zone, 1 hour to 7 days ahead when requested), kept in canonical form (`...000Z`); `null` transfers immediately. */
  readonly scheduledTime: SiteTransferOut["scheduledTime"];
  /** Put the site in maintenance mode during the transfer. The service does not report it, so it shows the value given at create. */
  readonly maintenanceMode: SiteTransferOut["maintenanceMode"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: SiteTransferOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: SiteTransferOut["profile"];
  /** The transfer's id (also the resource id). */
  readonly transferId: SiteTransferOut["transferId"];
  /** pending, scheduled, in_progress, completed or failed, as of the last create or refresh (a cancelled transfer counts as gone). */
  readonly status: SiteTransferOut["status"];
  /** When the transfer was requested. */
  readonly createdAt: SiteTransferOut["createdAt"];
  /** When the transfer last changed. */
  readonly updatedAt: SiteTransferOut["updatedAt"];
  /** The site's name at transfer time. */
  readonly site: SiteTransferOut["site"];
  /** The names of the site's installs at transfer time. */
  readonly installs: SiteTransferOut["installs"];
  /** The name of the account the site comes from. */
  readonly originAccount: SiteTransferOut["originAccount"];
  /** The name of the account the site goes to. */
  readonly destinationAccount: SiteTransferOut["destinationAccount"];
}

/**
 * A request to move a site, with its installs, to another account: immediately or at a scheduled time 1 hour to 7 days ahead. The service accepts it asynchronously (`pending` or `scheduled`); read follows its status through `in_progress` to `completed` or `failed`, and a transfer cancelled on the service counts as gone. A transfer cannot be edited, so every input replaces it. The id is the transfer's id.
 *
 * Delete: Reads the transfer's status first: a `pending` or `scheduled` transfer is cancelled on the service. In any other status (`in_progress`, `completed`, `failed`, `cancelled`), or when the cancel is refused with 409 because the transfer started in between, nothing is sent and the resource is only forgotten: a transfer that has begun cannot be undone.
 */
export const SiteTransfer: ResourceClass<SiteTransferDefinition, SiteTransferArgs, SiteTransferProperties> = resourceClass(DEFINITIONS.SiteTransfer);
export type SiteTransfer = InstanceType<typeof SiteTransfer>;

type SshKeyDefinition = (typeof DEFINITIONS)["SshKey"];
type SshKeyIn = ArgsOf<SshKeyDefinition>;
type SshKeyOut = OutputPropertiesOf<SshKeyDefinition>;

/** The arguments of {@link SshKey}: An OpenSSH public key of the API user the provider authenticates as (SSH gateway and git access to the installs that user can reach). The service has no update: a new key replaces it, the old one removed first. The id is the key's UUID. */
export interface SshKeyArgs {
  /** The OpenSSH public key line, e.g. `ssh-ed25519 AAAA... joe@example.com`, kept with single spaces. The service never returns it: it is the declared one. */
  publicKey: SshKeyIn["publicKey"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  adopt?: SshKeyIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: SshKeyIn["profile"];
}

/** The output properties of {@link SshKey}: every input, as stored, and what the service computes. */
export interface SshKeyProperties {
  /** The OpenSSH public key line, e.g. `ssh-ed25519 AAAA... joe@example.com`, kept with single spaces. The service never returns it: it is the declared one. */
  readonly publicKey: SshKeyOut["publicKey"];
  /** Take over an object that already exists on the service with this identity instead of failing create. */
  readonly adopt: SshKeyOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: SshKeyOut["profile"];
  /** The key's UUID (also the resource id). */
  readonly sshKeyId: SshKeyOut["sshKeyId"];
  /** The MD5 fingerprint as the service shows it (`a1:b2:...`). */
  readonly fingerprint: SshKeyOut["fingerprint"];
  /** The key's comment. */
  readonly comment: SshKeyOut["comment"];
  /** When the key was added. */
  readonly createdAt: SshKeyOut["createdAt"];
}

/**
 * An OpenSSH public key of the API user the provider authenticates as (SSH gateway and git access to the installs that user can reach). The service has no update: a new key replaces it, the old one removed first. The id is the key's UUID.
 *
 * Delete: Deletes the key from the API user on the service. A key already gone counts as deleted.
 */
export const SshKey: ResourceClass<SshKeyDefinition, SshKeyArgs, SshKeyProperties> = resourceClass(DEFINITIONS.SshKey);
export type SshKey = InstanceType<typeof SshKey>;

type ThirdPartyCertificateDefinition = (typeof DEFINITIONS)["ThirdPartyCertificate"];
type ThirdPartyCertificateIn = ArgsOf<ThirdPartyCertificateDefinition>;
type ThirdPartyCertificateOut = OutputPropertiesOf<ThirdPartyCertificateDefinition>;

/** The arguments of {@link ThirdPartyCertificate}: A third-party certificate and its private key imported into an install, which then serves its domains over HTTPS with it. Create imports the pair; changing the certificate or the key imports again. The service never returns the certificate or its key: read reports the stored state while the install serves this certificate (its serial number in the install's certificate list). The id is the install id: an install serves one third-party certificate, and create refuses to import over another one unless `adopt`. */
export interface ThirdPartyCertificateArgs {
  /** The install the certificate is imported into (also the resource id). */
  installId: ThirdPartyCertificateIn["installId"];
  /** The PEM certificate chain: the end-entity certificate first, then every intermediate (line ends normalised). Changing it imports again; a new one that has expired, or is not valid yet, fails preview. */
  certificate: ThirdPartyCertificateIn["certificate"];
  /** The PEM private key of the end-entity certificate, unencrypted; stored as a secret. Changing it imports again. */
  privateKey: ThirdPartyCertificateIn["privateKey"];
  /** Import over another third-party certificate the install serves (by hand, or another stack's); without it, create refuses. */
  adopt?: ThirdPartyCertificateIn["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  profile?: ThirdPartyCertificateIn["profile"];
}

/** The output properties of {@link ThirdPartyCertificate}: every input, as stored, and what the service computes. */
export interface ThirdPartyCertificateProperties {
  /** The install the certificate is imported into (also the resource id). */
  readonly installId: ThirdPartyCertificateOut["installId"];
  /** The PEM certificate chain: the end-entity certificate first, then every intermediate (line ends normalised). Changing it imports again; a new one that has expired, or is not valid yet, fails preview. */
  readonly certificate: ThirdPartyCertificateOut["certificate"];
  /** The PEM private key of the end-entity certificate, unencrypted; stored as a secret. Changing it imports again. */
  readonly privateKey: ThirdPartyCertificateOut["privateKey"];
  /** Import over another third-party certificate the install serves (by hand, or another stack's); without it, create refuses. */
  readonly adopt: ThirdPartyCertificateOut["adopt"];
  /** The credential profile (an API user) this resource's calls run as: credentials from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`/`WPE_API_PASSWORD_<NAME>`; unset, the provider's own credentials. */
  readonly profile: ThirdPartyCertificateOut["profile"];
  /** Subject of the end-entity certificate, e.g. `CN=www.example.com, O=Acme`. */
  readonly subject: ThirdPartyCertificateOut["subject"];
  /** Issuer of the end-entity certificate. */
  readonly issuer: ThirdPartyCertificateOut["issuer"];
  /** The DNS names the certificate covers (its subject alternative names). */
  readonly names: ThirdPartyCertificateOut["names"];
  /** Start of validity (ISO 8601). */
  readonly notBefore: ThirdPartyCertificateOut["notBefore"];
  /** End of validity (ISO 8601): renew before this. */
  readonly notAfter: ThirdPartyCertificateOut["notAfter"];
  /** SHA-256 fingerprint, colon-separated hex. */
  readonly fingerprint: ThirdPartyCertificateOut["fingerprint"];
  /** Serial number, hex. */
  readonly serialNumber: ThirdPartyCertificateOut["serialNumber"];
}

/**
 * A third-party certificate and its private key imported into an install, which then serves its domains over HTTPS with it. Create imports the pair; changing the certificate or the key imports again. The service never returns the certificate or its key: read reports the stored state while the install serves this certificate (its serial number in the install's certificate list). The id is the install id: an install serves one third-party certificate, and create refuses to import over another one unless `adopt`.
 *
 * Delete: Nothing: no API deletes an imported certificate. Destroying the resource (or replacing it after an `installId` change) only forgets it; the install keeps serving the certificate until another one is imported.
 */
export const ThirdPartyCertificate: ResourceClass<ThirdPartyCertificateDefinition, ThirdPartyCertificateArgs, ThirdPartyCertificateProperties> = resourceClass(DEFINITIONS.ThirdPartyCertificate);
export type ThirdPartyCertificate = InstanceType<typeof ThirdPartyCertificate>;
