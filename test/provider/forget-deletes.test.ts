/**
 * The resources whose delete cannot delete anything on the service: delete sends nothing, succeeds, and
 * tells the user so in one line naming the resource and why (the Pulumi CLI shows it among the
 * update's diagnostics). SiteTransfer and InstallPlacement have theirs in their own tests.
 */
import { describe, expect, it } from "vitest";
import { KINDS } from "../../provider/registry";
import { SEED } from "../../simulator";
import { deleteSays } from "../support/provider";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
const INSTALL = SEED.installs.acmeprod.id;
const BUILD = "accounts/a/apps/b/environments/c/builds/d";
const FORGOTTEN = "forgotten only, nothing sent to the service: ";

const cases: {
  kind: string;
  id: string;
  props: Record<string, unknown>;
  says: string;
}[] = [
  {
    kind: "DomainVerification",
    id: SEED.domains.acmeExample.id,
    props: { installId: INSTALL, domainId: SEED.domains.acmeExample.id },
    says: "a verification cannot be undone (the domain stays verified)",
  },
  {
    kind: "OffloadSettings",
    id: INSTALL,
    props: { installId: INSTALL, bucket: "acme-uploads", bucketRegion: "us-east-1" },
    says: "offload settings cannot be deleted; the install keeps offloading to bucket acme-uploads (us-east-1)",
  },
  {
    kind: "ThirdPartyCertificate",
    id: INSTALL,
    props: { installId: INSTALL },
    says: "an imported certificate cannot be deleted; the install keeps serving it",
  },
  {
    kind: "Backup",
    id: SEED.backups.acmeprodCompleted.id,
    props: { installId: INSTALL, backupId: SEED.backups.acmeprodCompleted.id },
    says: "backups cannot be deleted; it stays in the install's backup list",
  },
  {
    kind: "BackupRestore",
    id: "restore-1",
    props: { installId: INSTALL, backupId: SEED.backups.acmeprodCompleted.id },
    says: "a restore cannot be undone",
  },
  {
    kind: "InstallCopy",
    id: "copy-1",
    props: { sourceEnvironmentId: INSTALL, destinationEnvironmentId: SEED.installs.acmestg.id },
    says: "a copy cannot be undone",
  },
  {
    kind: "EnvironmentCacheClear",
    id: "clear-1",
    props: { accountId: SEED.accounts.acme.id, appId: "acme-frontend", environmentId: "production" },
    says: "clearing a cache cannot be undone",
  },
  {
    kind: "EnvironmentSource",
    id: "accounts/a/apps/b/environments/c/source",
    props: { buildName: BUILD },
    says: `the deployed build ${BUILD} stays on the environment`,
  },
];

describe("deletes that can only forget", () => {
  it.each(cases)("$kind: sends nothing and says why", async ({ kind, id, props, says }) => {
    fixture.sim.clearRequests();
    expect(await deleteSays(KINDS[kind]!.provider, id, props)).toEqual([
      `wpengine:${kind} ${id}: ${FORGOTTEN}${says}`,
    ]);
    expect(fixture.sim.requests()).toEqual([]);
  });
});
