import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const installId = config.require("installId");
// The PEM chain: the end-entity certificate first, then every intermediate.
const certificate = fs.readFileSync(config.require("certificatePath"), "utf8");
// The unencrypted PEM private key, kept as a secret in the stack config (and in the state).
const privateKey = config.requireSecret("privateKey");

const cert = new wpengine.ThirdPartyCertificate("cert", { installId, certificate, privateKey });

export const subject = cert.subject;
export const issuer = cert.issuer;
export const names = cert.names;
export const notAfter = cert.notAfter;
export const fingerprint = cert.fingerprint;

// Every certificate the install now has (the import above among them), following every page.
export const installCertificateCount = wpengine
  .getInstallCertificatesOutput({ installId: cert.installId })
  .apply((certs) => certs.length);

// Optional: a Let's Encrypt certificate for a domain of the install on the legacy network (its UUID in
// `letsEncryptDomainId`); the holder is `letsEncryptEmail`. Domains on the current network get theirs
// automatically. Destroy only forgets it: the API cannot cancel a certificate.
const letsEncryptDomainId = config.get("letsEncryptDomainId");
const letsEncrypt = letsEncryptDomainId
  ? new wpengine.LetsEncryptCertificate("legacy-domain", {
      installId,
      domainId: letsEncryptDomainId,
      emailAddress: config.get("letsEncryptEmail") ?? "ops@example.com",
      givenName: config.get("letsEncryptGivenName") ?? "Site",
      familyName: config.get("letsEncryptFamilyName") ?? "Owner",
      regionCode: config.get("letsEncryptRegionCode") ?? "US",
    })
  : undefined;
// null without a Let's Encrypt certificate (an undefined output would make Pulumi warn on every run).
export const letsEncryptStatus = letsEncrypt?.status ?? null;
