/**
 * Every resource kind, one line each: the class a Node.js program declares and its args type. This list
 * is the registry (`provider/registry.ts` reads it): the plugin, the executable provider, its schema and
 * the docs find the kinds here.
 */
export { AccountUser, type AccountUserArgs } from "./AccountUser";
export { App, type AppArgs } from "./App";
export { Backup, type BackupArgs } from "./Backup";
export { BackupRestore, type BackupRestoreArgs } from "./BackupRestore";
export { CacheExclusions, type CacheExclusionsArgs } from "./CacheExclusions";
export { CachePurge, type CachePurgeArgs } from "./CachePurge";
export { Domain, type DomainArgs } from "./Domain";
export { type DomainMappingArgs, DomainMappings, type DomainMappingsArgs } from "./DomainMappings";
export { DomainMappingVerification, type DomainMappingVerificationArgs } from "./DomainMappingVerification";
export { DomainSharingLink, type DomainSharingLinkArgs } from "./DomainSharingLink";
export { DomainVerification, type DomainVerificationArgs } from "./DomainVerification";
export { Environment, type EnvironmentArgs } from "./Environment";
export { EnvironmentCacheClear, type EnvironmentCacheClearArgs } from "./EnvironmentCacheClear";
export { EnvironmentSource, type EnvironmentSourceArgs } from "./EnvironmentSource";
export { Install, type InstallArgs } from "./Install";
export { InstallCopy, type InstallCopyArgs } from "./InstallCopy";
export { InstallPlacement, type InstallPlacementArgs } from "./InstallPlacement";
export { LetsEncryptCertificate, type LetsEncryptCertificateArgs } from "./LetsEncryptCertificate";
export { OffloadSettings, type OffloadSettingsArgs } from "./OffloadSettings";
export { ReportSchedule, type ReportScheduleArgs } from "./ReportSchedule";
export { Site, type SiteArgs } from "./Site";
export { SiteTransfer, type SiteTransferArgs } from "./SiteTransfer";
export { SshKey, type SshKeyArgs } from "./SshKey";
export { ThirdPartyCertificate, type ThirdPartyCertificateArgs } from "./ThirdPartyCertificate";
