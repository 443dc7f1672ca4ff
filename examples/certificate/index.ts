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
