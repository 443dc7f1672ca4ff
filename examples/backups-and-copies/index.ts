import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const productionInstallId = config.require("productionInstallId");
const stagingInstallId = config.require("stagingInstallId");
const notificationEmails = [config.require("notificationEmail")];

// Lookups: read the installs (the copy needs both on the same account).
const production = wpengine.getInstallOutput({ installId: productionInstallId });
const staging = wpengine.getInstallOutput({ installId: stagingInstallId });

// A backup of production, taken before anything is copied (create waits until it is completed).
const backup = new wpengine.Backup("before-copy", {
  installId: productionInstallId,
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

// Every backup the install has (this one included once it exists).
const backups = pulumi
  .all([backup.backupId, productionInstallId])
  .apply(([, installId]) => wpengine.getBackups({ installId }));

export const copied = pulumi.interpolate`${production.name} -> ${staging.name}`;
export const backupId = backup.backupId;
export const backupStatus = backup.status;
export const backupCmsVersion = backup.cmsVersion;
export const backupCount = backups.apply((b) => b.length);
export const copySummary = copy.summary;
export const copyRequestedAt = copy.lastRequestedAt;
