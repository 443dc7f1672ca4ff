/**
 * The resources whose delete cannot delete anything on the service: delete sends nothing, succeeds, and
 * tells the user so in one line naming the resource and why (the Pulumi CLI shows it among the
 * update's diagnostics). SiteTransfer and InstallPlacement have theirs in their own tests.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { definition as BackupKind } from "../../provider/kinds/Backup";
import { definition as BackupRestoreKind } from "../../provider/kinds/BackupRestore";
import { definition as DomainVerificationKind } from "../../provider/kinds/DomainVerification";
import { definition as EnvironmentCacheClearKind } from "../../provider/kinds/EnvironmentCacheClear";
import { definition as EnvironmentSourceKind } from "../../provider/kinds/EnvironmentSource";
import { definition as InstallCopyKind } from "../../provider/kinds/InstallCopy";
import { definition as OffloadSettingsKind } from "../../provider/kinds/OffloadSettings";
import { definition as ThirdPartyCertificateKind } from "../../provider/kinds/ThirdPartyCertificate";
import { SEED } from "../../simulator";
import { deleteSays } from "../support/provider";
import { useSimulator } from "../support/simulator";

const Backup = BackupKind.provider;
const BackupRestore = BackupRestoreKind.provider;
const DomainVerification = DomainVerificationKind.provider;
const EnvironmentCacheClear = EnvironmentCacheClearKind.provider;
const EnvironmentSource = EnvironmentSourceKind.provider;
const InstallCopy = InstallCopyKind.provider;
const OffloadSettings = OffloadSettingsKind.provider;
const ThirdPartyCertificate = ThirdPartyCertificateKind.provider;

const fixture = useSimulator();
const INSTALL = SEED.installs.acmeprod.id;
const BUILD = "accounts/a/apps/b/environments/c/builds/d";
const FORGOTTEN = "forgotten only, nothing sent to the service: ";

const cases: {
  kind: string;
  provider: pulumi.dynamic.ResourceProvider;
  id: string;
  props: Record<string, unknown>;
  says: string;
}[] = [
  {
    kind: "DomainVerification",
    provider: DomainVerification,
    id: SEED.domains.acmeExample.id,
    props: { installId: INSTALL, domainId: SEED.domains.acmeExample.id },
    says: "a verification cannot be undone (the domain stays verified)",
  },
  {
    kind: "OffloadSettings",
    provider: OffloadSettings,
    id: INSTALL,
    props: { installId: INSTALL, bucket: "acme-uploads", bucketRegion: "us-east-1" },
    says: "offload settings cannot be deleted; the install keeps offloading to bucket acme-uploads (us-east-1)",
  },
  {
    kind: "ThirdPartyCertificate",
    provider: ThirdPartyCertificate,
    id: INSTALL,
    props: { installId: INSTALL },
    says: "an imported certificate cannot be deleted; the install keeps serving it",
  },
  {
    kind: "Backup",
    provider: Backup,
    id: SEED.backups.acmeprodCompleted.id,
    props: { installId: INSTALL, backupId: SEED.backups.acmeprodCompleted.id },
    says: "backups cannot be deleted; it stays in the install's backup list",
  },
  {
    kind: "BackupRestore",
    provider: BackupRestore,
    id: "restore-1",
    props: { installId: INSTALL, backupId: SEED.backups.acmeprodCompleted.id },
    says: "a restore cannot be undone",
  },
  {
    kind: "InstallCopy",
    provider: InstallCopy,
    id: "copy-1",
    props: { sourceEnvironmentId: INSTALL, destinationEnvironmentId: SEED.installs.acmestg.id },
    says: "a copy cannot be undone",
  },
  {
    kind: "EnvironmentCacheClear",
    provider: EnvironmentCacheClear,
    id: "clear-1",
    props: { accountId: SEED.accounts.acme.id, appId: "acme-frontend", environmentId: "production" },
    says: "clearing a cache cannot be undone",
  },
  {
    kind: "EnvironmentSource",
    provider: EnvironmentSource,
    id: "accounts/a/apps/b/environments/c/source",
    props: { buildName: BUILD },
    says: `the deployed build ${BUILD} stays on the environment`,
  },
];

describe("deletes that can only forget", () => {
  it.each(cases)("$kind: sends nothing and says why", async ({ kind, provider, id, props, says }) => {
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, props)).toEqual([`wpengine:${kind} ${id}: ${FORGOTTEN}${says}`]);
    expect(fixture.sim.requests()).toEqual([]);
  });
});
