/** Lookups of SSL certificates: every certificate of an install, and a domain's certificate. */
import type { Certificate } from "../../sdk";
import { clientOf, collect, type LookupOptions, limitOf, outputOf } from "./common";

/** A certificate of an install or a domain. */
export interface CertificateInfo {
  /** The certificate's id on the service. */
  id: string | null;
  /** `THIRD_PARTY`, `LETS_ENCRYPT`, `SELF_SIGNED` or `CERT_SOURCE_UNSPECIFIED`. */
  source: string | null;
  /** `ENABLED`, `SUBMITTED`, `DISABLED`, `EXPIRED`, `CANCELED`, `REJECTED` or `SSL_STATE_UNSPECIFIED`. */
  status: string | null;
  /** The common name. */
  commonName: string | null;
  /** The domains it covers. */
  domains: string[];
  /** Whether it is for a wildcard domain. */
  wildcard: boolean;
  /** Whether the service renews it. */
  autoRenew: boolean | null;
  /** When it was ordered, approved, cancelled, and when it expires. */
  orderedTime: string | null;
  approvedTime: string | null;
  cancelTime: string | null;
  expiresTime: string | null;
  /** The X.509 serial number, hexadecimal. */
  serialNumber: string | null;
}

export function toCertificateInfo(c: Certificate): CertificateInfo {
  return {
    id: c.id === undefined || c.id === null ? null : String(c.id),
    source: c.cert_source ?? null,
    status: c.status ?? null,
    commonName: c.common_name ?? null,
    domains: c.domains ?? [],
    wildcard: c.wildcard ?? false,
    autoRenew: c.auto_renew ?? null,
    orderedTime: c.ordered_time ?? null,
    approvedTime: c.approved_time ?? null,
    cancelTime: c.cancel_time ?? null,
    expiresTime: c.expires_time ?? null,
    serialNumber: c.serial_number ?? null,
  };
}

/** A domain's certificate: the record, its name and the PEM certificate (never a private key). */
export interface DomainCertificateInfo {
  /** The certificate's name. */
  name: string | null;
  /** The criteria the service reports. */
  criteria: string | null;
  /** The PEM certificate, when the service includes it. */
  certificatePem: string | null;
  /** The certificate record. */
  certificate: CertificateInfo | null;
}

/**
 * Every SSL certificate of an install, following `next_page_token`; an install without any gives an
 * empty list (the service's "No SSL certs found" 404).
 */
export async function getInstallCertificates(
  args: { installId: string },
  options?: LookupOptions,
): Promise<CertificateInfo[]> {
  const client = await clientOf(options);
  return collect(client.certificates.iterateForInstall(args.installId, limitOf(options)), toCertificateInfo);
}
export const getInstallCertificatesOutput = outputOf(getInstallCertificates);

/** The certificate of one domain of an install (fails with a 404 when it has none). */
export async function getDomainCertificate(
  args: { installId: string; domainId: string },
  options?: LookupOptions,
): Promise<DomainCertificateInfo> {
  const d = await (await clientOf(options)).certificates.getForDomain(args.installId, args.domainId);
  return {
    name: d.cert_name ?? null,
    criteria: d.criteria ?? null,
    certificatePem: d.cert_info?.cert ?? null,
    certificate: d.certificate ? toCertificateInfo(d.certificate) : null,
  };
}
export const getDomainCertificateOutput = outputOf(getDomainCertificate);
