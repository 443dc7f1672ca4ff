/**
 * pulumi-wpengine: Pulumi dynamic resources for WP Engine hosting and application hosting.
 *
 * Every resource registers `pulumi-nodejs:dynamic/wpengine:<Name>`. Configuration comes from the
 * `wpengine:*` stack config or the environment (see README), never from resource inputs.
 */

export { AccountUser, type AccountUserArgs } from "./provider/AccountUser";
export { App, type AppArgs } from "./provider/App";
export * from "./provider/accountLookups";
export { Backup, type BackupArgs } from "./provider/Backup";
export { BackupRestore, type BackupRestoreArgs } from "./provider/BackupRestore";
export { CacheExclusions, type CacheExclusionsArgs } from "./provider/CacheExclusions";
export { CachePurge, type CachePurgeArgs } from "./provider/CachePurge";
export { MissingCredentialsError } from "./provider/client";
export { CONFIG_KEYS } from "./provider/config";
export { Domain, type DomainArgs } from "./provider/Domain";
export { type DomainMappingArgs, DomainMappings, type DomainMappingsArgs } from "./provider/DomainMappings";
export {
  DomainMappingVerification,
  type DomainMappingVerificationArgs,
} from "./provider/DomainMappingVerification";
export { DomainVerification, type DomainVerificationArgs } from "./provider/DomainVerification";
export { Environment, type EnvironmentArgs } from "./provider/Environment";
export { EnvironmentCacheClear, type EnvironmentCacheClearArgs } from "./provider/EnvironmentCacheClear";
export { EnvironmentSource, type EnvironmentSourceArgs } from "./provider/EnvironmentSource";
export { Install, type InstallArgs } from "./provider/Install";
export { InstallCopy, type InstallCopyArgs } from "./provider/InstallCopy";
export { InstallPlacement, type InstallPlacementArgs } from "./provider/InstallPlacement";
export { LetsEncryptCertificate, type LetsEncryptCertificateArgs } from "./provider/LetsEncryptCertificate";
export * from "./provider/lookups";
export * from "./provider/lookups/certificates";
export * from "./provider/lookups/domainStatus";
export * from "./provider/lookups/offload";
export * from "./provider/lookups/usage";
export { OffloadSettings, type OffloadSettingsArgs } from "./provider/OffloadSettings";
export { ReportSchedule, type ReportScheduleArgs } from "./provider/ReportSchedule";
export { Site, type SiteArgs } from "./provider/Site";
export { SiteTransfer, type SiteTransferArgs } from "./provider/SiteTransfer";
export { SshKey, type SshKeyArgs } from "./provider/SshKey";
export { ThirdPartyCertificate, type ThirdPartyCertificateArgs } from "./provider/ThirdPartyCertificate";
