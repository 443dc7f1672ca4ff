import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const installId = config.require("installId"); // an existing install to re-home
const siteId = config.require("siteId"); // the site that receives it, and is then transferred
// The slot it fills in that site (the config refuses any other value, as the input's type does).
const environment =
  config.get("environment", { allowedValues: ["production", "staging", "development"] as const }) ??
  "staging";
const destinationAccountId = config.require("destinationAccountId");
// RFC 3339, between 1 hour and 7 days ahead when the transfer is created; unset: transfer now.
const transferAt = config.get("transferAt");

// Lookups: the site and the install as they are now. An install can only be placed in a site of its
// own account: say so before anything is sent, rather than let the service refuse the move.
const site = wpengine.getSiteOutput({ siteId });
const install = wpengine.getInstallOutput({ installId });
const checkedSiteId = pulumi
  .all([site.accountId, install.accountId, install.name])
  .apply(([siteAccount, installAccount, name]) => {
    if (siteAccount && installAccount && siteAccount !== installAccount) {
      throw new Error(
        `config installId: install ${name} belongs to account ${installAccount}, but site ${siteId} belongs to ${siteAccount}`,
      );
    }
    return siteId;
  });

// Move the install into the site. Delete leaves it there: removing this resource moves nothing back.
const placement = new wpengine.InstallPlacement("placement", {
  installId,
  siteId: checkedSiteId,
  environment,
});

// Then move the whole site, with its installs (the re-homed one included), to the other account.
// Delete cancels the transfer while it is pending or scheduled; once begun, it is only forgotten.
const transfer = new wpengine.SiteTransfer(
  "transfer",
  {
    siteId,
    destinationAccountId,
    scheduledTime: transferAt ?? null,
    maintenanceMode: config.getBoolean("maintenanceMode") ?? true,
  },
  { dependsOn: [placement] },
);

// Every transfer started from the site's account (the origin until the transfer completes), this one
// included once it exists.
const transfers = pulumi
  .all([site.accountId, transfer.transferId])
  .apply(async ([accountId]) => (accountId ? await wpengine.getSiteTransfers({ accountId }) : []));

export const placedInstall = pulumi.interpolate`${placement.installName}: site ${placement.siteId} (${placement.environment})`;
export const transferId = transfer.transferId;
export const transferStatus = transfer.status;
export const transferScheduledTime = transfer.scheduledTime;
export const transferredInstalls = transfer.installs;
export const transferRoute = pulumi.interpolate`${site.name}: ${transfer.originAccount} -> ${transfer.destinationAccount}`;
export const siteAccountTransferCount = transfers.apply((t) => t.length);
