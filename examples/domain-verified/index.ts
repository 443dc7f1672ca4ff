import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const installId = config.require("installId");
const domainName = config.require("domainName");
// Step 2: set `verify` to true once the TXT record exported below is published with your DNS provider.
const verify = config.getBoolean("verify") ?? false;

const domain = new wpengine.Domain("domain", { installId, name: domainName });

// The record to publish (name and value). The service clears both once the domain is verified.
export const txtRecordName = domain.txtVerificationKey;
export const txtRecordValue = domain.txtVerificationValue;

let status: pulumi.Output<string | null> = domain.ownershipStatus;
let verifiedTime: pulumi.Output<string | null> | undefined;
if (verify) {
  const verification = new wpengine.DomainVerification("domain", {
    installId,
    domainId: domain.id,
    // Keep the interval at 5 s or more on the real service (one status check per install every 5 s).
    retryIntervalSeconds: config.getNumber("retryIntervalSeconds") ?? 10,
    timeoutSeconds: 900,
  });
  status = verification.ownershipStatus;
  verifiedTime = verification.verifiedTime;
}

// When someone else holds the domain's DNS (a client): a link they open to set the records themselves
// (Advanced Network and Global Edge Security domains only). Asked for once, kept in the state, secret.
const link = config.getBoolean("shareLink")
  ? new wpengine.DomainSharingLink("domain", { installId, domainId: domain.id })
  : undefined;

export const domainId = domain.id;
export const ownershipStatus = status;
export const domainVerifiedTime = verifiedTime;
// null until a sharing link is asked for (an undefined output would make Pulumi warn on every run).
export const sharingLink = link?.url ?? null;
