/** Third-party SSL certificates of an install. */
import { z } from "zod";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** A base64-encoded PEM document; a raw PEM gets a message saying to encode it. */
const base64Pem = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, "must not be empty")
    .refine(
      (s) => !s.includes("-----BEGIN"),
      `${what} must be the base64 encoding of the PEM text, not raw PEM`,
    )
    .refine((s) => /^[A-Za-z0-9+/\r\n]+={0,2}\s*$/.test(s), `${what} must be base64-encoded`);

/** Body of `POST /installs/{id}/ssl_certificates/third_party`. */
export const ImportCertificateRequestSchema = z.strictObject({
  /** Base64 of the PEM chain: end-entity certificate then every intermediate. */
  certificate: base64Pem("certificate"),
  /** Base64 of the matching PEM private key. */
  private_key: base64Pem("private_key"),
});
/** Body of `POST /installs/{id}/ssl_certificates/third_party`. */
export type ImportCertificateRequest = z.infer<typeof ImportCertificateRequestSchema>;

/** Answer of the import: what the service stored, base64 PEM. */
export const ImportedCertificateSchema = z.looseObject({
  /** Base64 PEM certificate. */
  certificate: z.string().nullish(),
  /** Base64 PEM private key. */
  private_key: z.string().nullish(),
});
/** Answer of the import. */
export type ImportedCertificate = z.infer<typeof ImportedCertificateSchema>;

/** Operations on certificates. */
export class Certificates {
  constructor(private readonly transport: Transport) {}

  /** Imports a third-party certificate and key (both base64-encoded PEM, as the API takes them). */
  async importThirdParty(installId: string, body: ImportCertificateRequest): Promise<ImportedCertificate> {
    const req = validateInput("certificates.importThirdParty", ImportCertificateRequestSchema, body);
    // The service may record each import as an order; not retried once the request may have arrived.
    return this.transport.request(
      {
        method: "POST",
        path: path`/installs/${installId}/ssl_certificates/third_party`,
        body: req,
        retry: "unsafe",
      },
      ImportedCertificateSchema,
    );
  }
}
