import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { badRequest } from "../errors";
import { callerOf, parseBody, type Req } from "../http";
import type { Sim } from "../sim";

const Base64 = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9+/=\s]+$/, "must be base64-encoded");

const ImportCertificate = z.strictObject({ certificate: Base64, private_key: Base64 });

/** Third-party certificate import: the chain must parse and the key must match its first certificate. */
export function registerCertificates(app: FastifyInstance, sim: Sim): void {
  app.post("/v1/installs/:install_id/ssl_certificates/third_party", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const body = parseBody(ImportCertificate, req.body, "ssl_certificate");
    const certPem = Buffer.from(body.certificate, "base64").toString("utf8");
    const keyPem = Buffer.from(body.private_key, "base64").toString("utf8");
    let cert: X509Certificate;
    let key: KeyObject;
    try {
      if (!certPem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("no PEM certificate");
      cert = new X509Certificate(certPem);
    } catch (err) {
      throw badRequest(
        "ssl_certificate",
        "certificate",
        `certificate is not a base64-encoded PEM certificate chain (${(err as Error).message})`,
        "invalid_certificate",
      );
    }
    try {
      if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keyPem)) throw new Error("no PEM private key");
      key = createPrivateKey(keyPem);
    } catch (err) {
      throw badRequest(
        "ssl_certificate",
        "private_key",
        `private_key is not a base64-encoded PEM private key (${(err as Error).message})`,
        "invalid_private_key",
      );
    }
    if (!cert.checkPrivateKey(key)) {
      throw badRequest(
        "ssl_certificate",
        "private_key",
        "private_key does not match the certificate",
        "key_mismatch",
      );
    }
    sim.world.certificates[install.id] = {
      certificate: body.certificate,
      private_key: body.private_key,
      imported_at: sim.clock.iso(),
    };
    sim.store.touch();
    return { certificate: body.certificate, private_key: body.private_key };
  });
}
