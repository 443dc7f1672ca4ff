/**
 * pulumi-wpengine: Pulumi dynamic resources for WP Engine hosting and application hosting.
 *
 * Every resource registers `pulumi-nodejs:dynamic/wpengine:<Name>`. Configuration comes from the
 * `wpengine:*` stack config or the environment (see README), never from resource inputs.
 */

export { MissingCredentialsError } from "./provider/core/client";
export { CONFIG_KEYS } from "./provider/core/config";
export { AccountUser, type AccountUserArgs } from "./provider/kinds/AccountUser";
export { App, type AppArgs } from "./provider/kinds/App";
export { Backup, type BackupArgs } from "./provider/kinds/Backup";
export { BackupRestore, type BackupRestoreArgs } from "./provider/kinds/BackupRestore";
export { CacheExclusions, type CacheExclusionsArgs } from "./provider/kinds/CacheExclusions";
export { CachePurge, type CachePurgeArgs } from "./provider/kinds/CachePurge";
export { Domain, type DomainArgs } from "./provider/kinds/Domain";
export {
  type DomainMappingArgs,
  DomainMappings,
  type DomainMappingsArgs,
} from "./provider/kinds/DomainMappings";
export {
  DomainMappingVerification,
  type DomainMappingVerificationArgs,
} from "./provider/kinds/DomainMappingVerification";
export { DomainVerification, type DomainVerificationArgs } from "./provider/kinds/DomainVerification";
export { Environment, type EnvironmentArgs } from "./provider/kinds/Environment";
export {
  EnvironmentCacheClear,
  type EnvironmentCacheClearArgs,
} from "./provider/kinds/EnvironmentCacheClear";
export { EnvironmentSource, type EnvironmentSourceArgs } from "./provider/kinds/EnvironmentSource";
export { Install, type InstallArgs } from "./provider/kinds/Install";
export { InstallCopy, type InstallCopyArgs } from "./provider/kinds/InstallCopy";
export { InstallPlacement, type InstallPlacementArgs } from "./provider/kinds/InstallPlacement";
export {
  LetsEncryptCertificate,
  type LetsEncryptCertificateArgs,
} from "./provider/kinds/LetsEncryptCertificate";
export { OffloadSettings, type OffloadSettingsArgs } from "./provider/kinds/OffloadSettings";
export { ReportSchedule, type ReportScheduleArgs } from "./provider/kinds/ReportSchedule";
export { Site, type SiteArgs } from "./provider/kinds/Site";
export { SiteTransfer, type SiteTransferArgs } from "./provider/kinds/SiteTransfer";
export { SshKey, type SshKeyArgs } from "./provider/kinds/SshKey";
export {
  ThirdPartyCertificate,
  type ThirdPartyCertificateArgs,
} from "./provider/kinds/ThirdPartyCertificate";
export * from "./provider/lookups";
export * from "./provider/lookups/accounts";
export * from "./provider/lookups/certificates";
export * from "./provider/lookups/domainStatus";
export * from "./provider/lookups/offload";
export * from "./provider/lookups/usage";
