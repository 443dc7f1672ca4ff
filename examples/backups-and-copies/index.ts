import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const productionInstallId = config.require("productionInstallId");
const stagingInstallId = config.require("stagingInstallId");
const notificationEmails = [config.require("notificationEmail")];

// Lookups: read the installs (the copy needs both on the same account).
const production = wpengine.getInstallOutput({ installId: productionInstallId });
const staging = wpengine.getInstallOutput({ installId: stagingInstallId });

// A backup of staging, taken before production is copied over it (create waits until it is completed).
const backup = new wpengine.Backup("staging-before-copy", {
  installId: stagingInstallId,
  description: "Before refreshing staging from production",
  notificationEmails,
});

// Copy production's files and database over staging, once the backup is done. Change `copyRound`
// (`pulumi config set copyRound 2`) to copy again.
const copy = new wpengine.InstallCopy(
  "production-to-staging",
  {
    sourceEnvironmentId: productionInstallId,
    destinationEnvironmentId: stagingInstallId,
    notificationEmails,
    triggers: [config.get("copyRound") ?? "1"],
  },
  { dependsOn: [backup] },
);

// Staging serves the copied content at once: purge all its caches after each copy (again whenever
// `copyRound` changes). An `object` purge would wait out the service's one-per-60-s limit, never fail.
const purge = new wpengine.CachePurge(
  "staging-after-copy",
  { installId: stagingInstallId, type: "all", triggers: { copyRound: config.get("copyRound") ?? "1" } },
  { dependsOn: [copy] },
);

// Rolling back: `pulumi config set rollback 1` restores staging from the backup (DESTRUCTIVE: staging's
// files and database are replaced). `pulumi preview --diff` shows the restore's `summary` first. Set a
// new value to restore again; remove the key to forget the restore (nothing is undone).
const rollback = config.get("rollback");
const restore = rollback
  ? new wpengine.BackupRestore(
      "staging-rollback",
      {
        installId: stagingInstallId,
        backupId: backup.backupId,
        notificationEmails,
        triggers: [rollback],
      },
      { dependsOn: [copy] },
    )
  : undefined;

// Every backup of staging (this one included once it exists).
const backups = pulumi
  .all([backup.backupId, stagingInstallId])
  .apply(([, installId]) => wpengine.getBackups({ installId }));

export const copied = pulumi.interpolate`${production.name} -> ${staging.name}`;
export const backupId = backup.backupId;
export const backupStatus = backup.status;
export const backupCmsVersion = backup.cmsVersion;
export const backupCount = backups.apply((b) => b.length);
export const copySummary = copy.summary;
export const copyRequestedAt = copy.lastRequestedAt;
// null until a rollback is set (an undefined output would make Pulumi warn on every run).
export const restoreSummary = restore?.summary ?? null;
export const restoredAt = restore?.lastRestoredAt ?? null;
export const purgedAt = purge.lastPurgedAt;
