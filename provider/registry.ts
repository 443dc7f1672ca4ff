/**
 * The one registry of resource kinds, one import and one entry each: the plugin side reads `KINDS`, and the
 * classes are generated from `DEFINITIONS` (`kinds/generated.ts`), so the plugin side never loads a class.
 */
import type { Kind } from "./core/define";
import { definition as AccountUser } from "./kinds/AccountUser";
import { definition as App } from "./kinds/App";
import { definition as Backup } from "./kinds/Backup";
import { definition as BackupRestore } from "./kinds/BackupRestore";
import { definition as CacheExclusions } from "./kinds/CacheExclusions";
import { definition as CachePurge } from "./kinds/CachePurge";
import { definition as Domain } from "./kinds/Domain";
import { definition as DomainMappings } from "./kinds/DomainMappings";
import { definition as DomainMappingVerification } from "./kinds/DomainMappingVerification";
import { definition as DomainSharingLink } from "./kinds/DomainSharingLink";
import { definition as DomainVerification } from "./kinds/DomainVerification";
import { definition as Environment } from "./kinds/Environment";
import { definition as EnvironmentCacheClear } from "./kinds/EnvironmentCacheClear";
import { definition as EnvironmentSource } from "./kinds/EnvironmentSource";
import { definition as Install } from "./kinds/Install";
import { definition as InstallCopy } from "./kinds/InstallCopy";
import { definition as InstallPlacement } from "./kinds/InstallPlacement";
import { definition as LetsEncryptCertificate } from "./kinds/LetsEncryptCertificate";
import { definition as OffloadSettings } from "./kinds/OffloadSettings";
import { definition as ReportSchedule } from "./kinds/ReportSchedule";
import { definition as Site } from "./kinds/Site";
import { definition as SiteTransfer } from "./kinds/SiteTransfer";
import { definition as SshKey } from "./kinds/SshKey";
import { definition as ThirdPartyCertificate } from "./kinds/ThirdPartyCertificate";

export const DEFINITIONS = {
  AccountUser,
  App,
  Backup,
  BackupRestore,
  CacheExclusions,
  CachePurge,
  Domain,
  DomainMappingVerification,
  DomainMappings,
  DomainSharingLink,
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
};

export const KINDS: Readonly<Record<string, Kind>> = DEFINITIONS;
