/**
 * `LetsEncryptCertificate`: the Let's Encrypt order for a domain of an install on the legacy network
 * (domains on the current network get their certificates automatically). Create places the order (202)
 * and reads the domain's certificate for its status (`SUBMITTED` until issued, then `ENABLED`); a refresh
 * reads it again. The holder's details are write-only on the service: changing them orders again.
 *
 * Adoption: when the domain already has a Let's Encrypt certificate, create fails unless `adopt` is true;
 * with it, the certificate is taken over as it is (no new order is sent).
 *
 * Delete: the API has no way to cancel or remove a certificate, so delete only forgets the resource; the
 * certificate stays on the domain (and renews on the service's schedule when `autoRenew` is true).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type Certificate, type CertificateOrderRequest, isNotFound } from "../../sdk";
import { COMMON_INPUTS, uuidString } from "../core/inputs";
import { type Context, CreatedButFailedError, defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "LetsEncryptCertificate";

const text = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);

export const LetsEncryptCertificateInputsSchema = z
  .object({
    /** The install holding the domain. */
    installId: uuidString("installId"),
    /** The domain (its UUID, e.g. `Domain.domainId`); it must be on the legacy network. */
    domainId: uuidString("domainId"),
    /** The certificate holder's email address. */
    emailAddress: z
      .string({ error: "emailAddress is required and must be a string" })
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "emailAddress must be an email address"),
    /** The holder's given name. */
    givenName: text("givenName"),
    /** The holder's family name. */
    familyName: text("familyName"),
    /** The holder's country: a two-letter ISO 3166-1 alpha-2 code such as `US`. */
    regionCode: z
      .string({ error: "regionCode is required and must be a string" })
      .regex(/^[A-Za-z]{2}$/, "regionCode must be a two-letter ISO 3166-1 alpha-2 country code such as US")
      .transform((s) => s.toUpperCase()),
    /** State or region. */
    state: text("state").optional(),
    /** City. */
    city: text("city").optional(),
    /** Phone number. */
    phone: text("phone").optional(),
    ...COMMON_INPUTS,
  })
  .strict();

export type LetsEncryptCertificateInputs = z.output<typeof LetsEncryptCertificateInputsSchema>;

/** The holder's details: write-only on the service, a change orders again. */
const HOLDER = ["emailAddress", "givenName", "familyName", "regionCode", "state", "city", "phone"] as const;

/** Statuses of a certificate that no longer serves: the next `up` orders again. */
const ENDED = new Set(["EXPIRED", "CANCELED", "REJECTED", "DISABLED"]);

/** Outputs of a LetsEncryptCertificate: its inputs plus the certificate as the service reports it. */
export interface LetsEncryptCertificateOutputs extends Record<string, unknown> {
  installId: string;
  domainId: string;
  certificateId: string | null;
  status: string | null;
  commonName: string | null;
  domains: string[];
  autoRenew: boolean | null;
  orderedTime: string | null;
  approvedTime: string | null;
  expiresTime: string | null;
  serialNumber: string | null;
}

/** The outputs describing a certificate record. */
export function certificateOutputs(c: Certificate | null | undefined) {
  return {
    certificateId: c?.id === undefined || c?.id === null ? null : String(c.id),
    status: c?.status ?? null,
    commonName: c?.common_name ?? null,
    domains: c?.domains ?? [],
    autoRenew: c?.auto_renew ?? null,
    orderedTime: c?.ordered_time ?? null,
    approvedTime: c?.approved_time ?? null,
    expiresTime: c?.expires_time ?? null,
    serialNumber: c?.serial_number ?? null,
  };
}

/** The domain's Let's Encrypt certificate, or undefined when it has none (or another kind). */
async function current(ctx: Context, installId: string, domainId: string): Promise<Certificate | undefined> {
  try {
    const cert = (await ctx.client.certificates.getForDomain(installId, domainId)).certificate;
    return cert?.cert_source === "LETS_ENCRYPT" ? cert : undefined;
  } catch (err) {
    // A 404 of the domain itself propagates only through read (where it means gone); here none is none.
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function orderOf(i: LetsEncryptCertificateInputs): CertificateOrderRequest {
  return {
    email_address: i.emailAddress,
    given_name: i.givenName,
    family_name: i.familyName,
    region_code: i.regionCode,
    ...(i.state !== undefined ? { state: i.state } : {}),
    ...(i.city !== undefined ? { city: i.city } : {}),
    ...(i.phone !== undefined ? { phone: i.phone } : {}),
  };
}

const idOf = (i: { installId: string; domainId: string }) => `${i.installId}/${i.domainId}`;

export const provider = defineProvider<LetsEncryptCertificateInputs, LetsEncryptCertificateOutputs>({
  kind: KIND,
  schema: LetsEncryptCertificateInputsSchema,
  replaceOn: ["installId", "domainId"],
  updatable: [...HOLDER],
  normalize: (key, v) => (key === "regionCode" && typeof v === "string" ? v.toUpperCase() : (v ?? null)),
  lost: (olds) => (typeof olds["status"] === "string" && ENDED.has(olds["status"]) ? "update" : undefined),
  async create(inputs, ctx) {
    const existing = await current(ctx, inputs.installId, inputs.domainId);
    if (existing && !ENDED.has(existing.status ?? "")) {
      if (!inputs.adopt) {
        throw new Error(
          `domain ${inputs.domainId} of install ${inputs.installId} already has a Let's Encrypt certificate ` +
            `(id ${existing.id ?? "?"}, ${existing.status ?? "unknown status"}); set adopt: true to take it over`,
        );
      }
      return { id: idOf(inputs), outs: certificateOutputs(existing) as LetsEncryptCertificateOutputs };
    }
    await ctx.client.certificates.orderLetsEncrypt(inputs.installId, inputs.domainId, orderOf(inputs));
    const id = idOf(inputs);
    try {
      const placed = await current(ctx, inputs.installId, inputs.domainId);
      return { id, outs: certificateOutputs(placed) as LetsEncryptCertificateOutputs };
    } catch (err) {
      // The order was placed: record it, so the next `up` does not order twice.
      throw new CreatedButFailedError(id, certificateOutputs(undefined), err);
    }
  },
  async read(_id, olds, ctx) {
    const cert = (await ctx.client.certificates.getForDomain(olds.installId, olds.domainId)).certificate;
    // Replaced by another kind of certificate (a third-party import): this order no longer serves.
    if (cert?.cert_source !== "LETS_ENCRYPT") return undefined;
    return { outs: { ...olds, ...certificateOutputs(cert) }, inputs: {} };
  },
  async update(_id, olds, news, ctx) {
    const changed = HOLDER.some((k) => (olds[k] ?? null) !== (news[k] ?? null));
    if (changed || ENDED.has(olds.status ?? "")) {
      await ctx.client.certificates.orderLetsEncrypt(news.installId, news.domainId, orderOf(news));
    }
    const cert = await current(ctx, news.installId, news.domainId);
    return { ...news, ...certificateOutputs(cert) } as LetsEncryptCertificateOutputs;
  },
  async delete() {
    return (
      `${FORGOTTEN}the API cannot cancel or remove a certificate; ` +
      "it stays on the domain and renews on the service's schedule"
    );
  },
});

/** Arguments of a {@link LetsEncryptCertificate}. */
export interface LetsEncryptCertificateArgs {
  /** The install holding the domain. Changing it replaces the resource. */
  installId: pulumi.Input<string>;
  /** The domain's UUID (e.g. `Domain.domainId`); a legacy-network domain. Changing it replaces the resource. */
  domainId: pulumi.Input<string>;
  /** The certificate holder's email address. */
  emailAddress: pulumi.Input<string>;
  /** The holder's given name. */
  givenName: pulumi.Input<string>;
  /** The holder's family name. */
  familyName: pulumi.Input<string>;
  /** The holder's country, ISO 3166-1 alpha-2 (`US`). */
  regionCode: pulumi.Input<string>;
  /** State or region. */
  state?: pulumi.Input<string>;
  /** City. */
  city?: pulumi.Input<string>;
  /** Phone number. */
  phone?: pulumi.Input<string>;
  /** Take over the domain's existing Let's Encrypt certificate instead of failing create. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * Orders a Let's Encrypt certificate for a legacy-network domain and reports its status. The id is
 * `{installId}/{domainId}`. Changing the holder's details orders again. Delete only forgets.
 *
 * @example
 * new wpengine.LetsEncryptCertificate("blog-tls", {
 *   installId, domainId: blog.domainId,
 *   emailAddress: "ops@example.com", givenName: "Jane", familyName: "Doe", regionCode: "US",
 * });
 */
export class LetsEncryptCertificate extends WpEngineResource {
  /** The install. */
  declare readonly installId: pulumi.Output<string>;
  /** The domain's UUID. */
  declare readonly domainId: pulumi.Output<string>;
  /** The certificate's id on the service. */
  declare readonly certificateId: pulumi.Output<string | null>;
  /** `SUBMITTED` until issued, then `ENABLED`; `EXPIRED`, `CANCELED`, `REJECTED` or `DISABLED` make the next `up` order again. */
  declare readonly status: pulumi.Output<string | null>;
  /** The certificate's common name. */
  declare readonly commonName: pulumi.Output<string | null>;
  /** The domains it covers. */
  declare readonly domains: pulumi.Output<string[]>;
  /** Whether the service renews it. */
  declare readonly autoRenew: pulumi.Output<boolean | null>;
  /** When it was ordered. */
  declare readonly orderedTime: pulumi.Output<string | null>;
  /** When it was issued. */
  declare readonly approvedTime: pulumi.Output<string | null>;
  /** When it expires. */
  declare readonly expiresTime: pulumi.Output<string | null>;
  /** Its X.509 serial number (hexadecimal). */
  declare readonly serialNumber: pulumi.Output<string | null>;

  constructor(name: string, args: LetsEncryptCertificateArgs, opts?: ResourceOptions) {
    super(KIND, name, args, LETS_ENCRYPT_OUTPUTS, opts);
  }
}

const LETS_ENCRYPT_OUTPUTS = [
  "state",
  "city",
  "phone",
  "adopt",
  "certificateId",
  "status",
  "commonName",
  "domains",
  "autoRenew",
  "orderedTime",
  "approvedTime",
  "expiresTime",
  "serialNumber",
] as const;
