import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const accountId = config.require("accountId");
// Install names are also subdomains (<name>.wpengine.com): 3 to 14 lower-case letters or digits,
// unique across WP Engine. `pulumi preview` refuses a name outside that rule, naming `name`.
const productionName = config.require("productionName");
const stagingName = config.require("stagingName");
// Deleting a site or an install destroys websites: both refuse to be deleted while this is true.
// To tear the stack down: `pulumi config set deletionProtection false`, `pulumi up`, then `pulumi destroy`.
const deletionProtection = config.getBoolean("deletionProtection") ?? true;
// Optional: an OpenSSH public key line to add to the API user (SSH gateway and git access).
const sshPublicKey = config.get("sshPublicKey");

// Lookups: the account (a wrong id fails here, before anything is made) and the API user the
// provider acts as, whose SSH keys `SshKey` manages.
const account = wpengine.getAccountOutput({ accountId });
const me = wpengine.getCurrentUserOutput({});

const site = new wpengine.Site("site", {
  accountId,
  name: config.get("siteName") ?? "Blog",
  deletionProtection,
});

// Each install is created in the site and waits until it is provisioned (status active). An Install
// places itself: moving it is a change of `siteId`/`environment` here, never an InstallPlacement.
const production = new wpengine.Install("production", {
  name: productionName,
  accountId,
  siteId: site.id,
  environment: "production",
  deletionProtection,
});
const staging = new wpengine.Install("staging", {
  name: stagingName,
  accountId,
  siteId: site.id,
  environment: "staging",
  deletionProtection,
});

const key = sshPublicKey ? new wpengine.SshKey("deploy-key", { publicKey: sshPublicKey }) : undefined;

export const accountName = account.name;
export const apiUser = me.email;
export const siteId = site.siteId;
export const productionCname = production.cname;
export const productionStatus = production.status;
export const stagingCname = staging.cname;
export const siteInstalls = pulumi
  .all([production.installId, staging.installId, site.siteId])
  .apply(async ([, , id]) =>
    (await wpengine.getSite({ siteId: id })).installs.map((i) => `${i.name} (${i.environment})`),
  );
export const sshKeyFingerprint = key?.fingerprint ?? null;
