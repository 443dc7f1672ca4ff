/** SSL certificates of installs and domains: third-party imports and Let's Encrypt orders. */
import { z } from "zod";
import { emailString, type MessageResponse, MessageResponseSchema } from "./common";
import { isNotFound } from "./core/errors";
import { type Page, paginateToken } from "./core/pagination";
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

/** A certificate (the Swagger's `Certificate`); every field optional, unknown ones kept. */
export const CertificateSchema = z.looseObject({
  /** The certificate's id (an integer on the service). */
  id: z.union([z.number(), z.string()]).nullish(),
  /** The owning account's name. */
  account: z.string().nullish(),
  /** Whether it renews automatically. */
  auto_renew: z.boolean().nullish(),
  /** The approver's email. */
  approver_email: z.string().nullish(),
  /** The common name. */
  common_name: z.string().nullish(),
  /** `THIRD_PARTY`, `LETS_ENCRYPT`, `SELF_SIGNED` or `CERT_SOURCE_UNSPECIFIED`. */
  cert_source: z.string().nullish(),
  /** When it was ordered. */
  ordered_time: z.string().nullish(),
  /** When it was approved. */
  approved_time: z.string().nullish(),
  /** When it expires. */
  expires_time: z.string().nullish(),
  /** When it was cancelled. */
  cancel_time: z.string().nullish(),
  /** Whether it is for a wildcard domain. */
  wildcard: z.boolean().nullish(),
  /** The domains it covers. */
  domains: z.array(z.string()).nullish(),
  /** `ENABLED`, `SUBMITTED`, `DISABLED`, `EXPIRED`, `CANCELED`, `REJECTED` or `SSL_STATE_UNSPECIFIED`. */
  status: z.string().nullish(),
  /** The X.509 serial number, hexadecimal. */
  serial_number: z.string().nullish(),
});
/** A certificate. */
export type Certificate = z.infer<typeof CertificateSchema>;

/** One page of an install's certificates: `{certificates, next_page_token}`. */
export const InstallCertificatesPageSchema = z.looseObject({
  /** The certificates of the page. */
  certificates: z.array(CertificateSchema).nullish(),
  /** The `offset` of the next page; absent on the last page. */
  next_page_token: z.union([z.string(), z.number()]).nullish(),
});

/** A domain's certificate (the Swagger's `DomainCertificate`). `cert_info.key`, a private key, is dropped. */
export const DomainCertificateSchema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== "object") return raw;
    const { cert_info, ...rest } = raw as Record<string, unknown>;
    // The service may return the private key here: it never leaves this parser.
    const info =
      cert_info && typeof cert_info === "object" ? (cert_info as Record<string, unknown>) : undefined;
    return info ? { ...rest, cert_info: { cert: info["cert"] } } : rest;
  },
  z.looseObject({
    /** The certificate's name. */
    cert_name: z.string().nullish(),
    /** The PEM certificate (`cert`); the key the service may send is removed. */
    cert_info: z.object({ cert: z.string().nullish() }).nullish(),
    /** The certificate record. */
    certificate: CertificateSchema.nullish(),
    /** The certificate's criteria. */
    criteria: z.string().nullish(),
  }),
);
/** A domain's certificate. */
export type DomainCertificate = z.infer<typeof DomainCertificateSchema>;

/** Body of a Let's Encrypt order (the Swagger's `CertificateOrder`). */
export const CertificateOrderRequestSchema = z.strictObject({
  /** The certificate holder's email address. */
  email_address: emailString,
  /** The holder's given name. */
  given_name: z.string().trim().min(1, "must not be empty"),
  /** The holder's family name. */
  family_name: z.string().trim().min(1, "must not be empty"),
  /** Two-letter ISO 3166-1 alpha-2 country code. */
  region_code: z.string().regex(/^[A-Z]{2}$/, "must be a two-letter ISO 3166-1 alpha-2 code such as US"),
  /** State or region. */
  state: z.string().optional(),
  /** City. */
  city: z.string().optional(),
  /** Phone number. */
  phone: z.string().optional(),
});
/** Body of a Let's Encrypt order. */
export type CertificateOrderRequest = z.infer<typeof CertificateOrderRequestSchema>;

/** The service's 404 when an install has no certificate at all (as opposed to an unknown install). */
function isNoCertificates(err: unknown): boolean {
  return isNotFound(err) && /no ssl cert/i.test(err.serverMessage ?? "");
}

/** Operations on certificates. */
export class Certificates {
  constructor(private readonly transport: Transport) {}

  /** One page of an install's certificates; an install without any gives an empty page. */
  async page(installId: string, query: { limit?: number; offset?: string } = {}): Promise<Page<Certificate>> {
    try {
      const answer = await this.transport.request(
        { method: "GET", path: path`/installs/${installId}/ssl_certificates`, query },
        InstallCertificatesPageSchema,
      );
      const token = answer.next_page_token;
      return {
        items: answer.certificates ?? [],
        ...(token !== undefined && token !== null && token !== "" ? { nextPageToken: String(token) } : {}),
      };
    } catch (err) {
      if (isNoCertificates(err)) return { items: [] };
      throw err;
    }
  }

  /** Every certificate of an install, following `next_page_token` (sent back as `offset`). */
  iterateForInstall(installId: string, params: { limit?: number } = {}): AsyncIterable<Certificate> {
    return paginateToken((offset) =>
      this.page(installId, { ...params, ...(offset !== undefined ? { offset } : {}) }),
    );
  }

  /** The certificate of a domain (404 when it has none). */
  async getForDomain(installId: string, domainId: string): Promise<DomainCertificate> {
    return this.transport.request(
      { method: "GET", path: path`/installs/${installId}/domains/${domainId}/ssl_certificate` },
      DomainCertificateSchema,
    );
  }

  /** Orders a Let's Encrypt certificate for a legacy-network domain (202; issued later). */
  async orderLetsEncrypt(
    installId: string,
    domainId: string,
    order: CertificateOrderRequest,
  ): Promise<MessageResponse> {
    const body = validateInput("certificates.orderLetsEncrypt", CertificateOrderRequestSchema, order);
    // An order starts issuance: not repeated once the request may have arrived.
    return this.transport.request(
      {
        method: "POST",
        path: path`/installs/${installId}/domains/${domainId}/ssl_certificate`,
        body,
        retry: "unsafe",
      },
      MessageResponseSchema,
    );
  }

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
