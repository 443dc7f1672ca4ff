/** Domains of an install, and their TXT ownership verification. */
import { z } from "zod";
import { idString } from "./common";
import { EnvelopeListing } from "./core/listing";
import { type OffsetParams, OffsetParamsSchema, type Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** A `{id, name}` reference to the domain a domain redirects to. */
export const DomainRedirectSchema = z.looseObject({
  /** UUID of the target domain. */
  id: z.string().nullish(),
  /** Name of the target domain. */
  name: z.string().nullish(),
});
/** A `{id, name}` reference to the domain a domain redirects to. */
export type DomainRedirect = z.infer<typeof DomainRedirectSchema>;

function isEmptyObject(v: unknown): boolean {
  return !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;
}

/**
 * Normalises the redirect drift of the real service to `redirects_to: [{id, name}]`: it has answered
 * `redirects_to` as an array, `redirects_to` as one object (bulk) and `redirect_to` as an object (`{}`
 * when there is none).
 */
export function normalizeRedirects(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const rec = raw as Record<string, unknown>;
  const source = rec["redirects_to"] ?? rec["redirect_to"];
  let list: unknown[];
  if (source === undefined || source === null || source === "") list = [];
  else if (Array.isArray(source)) list = source.filter((x) => !isEmptyObject(x) && x !== null);
  else if (isEmptyObject(source)) list = [];
  else if (typeof source === "string") list = [{ id: source }];
  else list = [source];
  return { ...rec, redirects_to: list };
}

/** DNS records to point a domain at. */
export const DnsConfigInfoSchema = z.looseObject({
  /** CNAME target. */
  cname: z.string().nullish(),
  /** A-record addresses. */
  a_records: z.array(z.string()).nullish(),
});

/** Network configuration of a domain. */
export const NetworkDetailsSchema = z.looseObject({
  /** DNS records to configure. */
  dns_config_info: DnsConfigInfoSchema.nullish(),
  /** Network and SSL status. */
  network_info: z
    .looseObject({
      /** Network status. */
      status: z.string().nullish(),
      /** SSL status `{status}`. */
      ssl: z.looseObject({ status: z.string().nullish() }).nullish(),
    })
    .nullish(),
});

/** A domain of an install (also the shape of bulk-create records, which carry fewer fields). */
export const DomainSchema = z.preprocess(
  normalizeRedirects,
  z.looseObject({
    /** The domain's UUID. */
    id: z.string(),
    /** The domain name. */
    name: z.string(),
    /** Whether the domain duplicates another. */
    duplicate: z.boolean().nullish(),
    /** Whether this is the install's primary domain. */
    primary: z.boolean().nullish(),
    /** Network type: AN, GES or LEGACY. */
    network_type: z.string().nullish(),
    /** DNS and network status details. */
    network_details: NetworkDetailsSchema.nullish(),
    /** Domains this one redirects to (normalised to an array; empty when none). */
    redirects_to: z.array(DomainRedirectSchema),
    /** Whether all URLs are forced to HTTPS. */
    secure_all_urls: z.boolean().nullish(),
    /** When the TXT record was verified. */
    txt_verified_time: z.string().nullish(),
    /** Domain the TXT record was verified for. */
    txt_verified_domain: z.string().nullish(),
    /** Name of the TXT record to publish; null once verified. */
    txt_verification_key: z.string().nullish(),
    /** Value of the TXT record to publish; null once verified. */
    txt_verification_value: z.string().nullish(),
    /** TXT_VERIFIED or TXT_VERIFICATION_PENDING. */
    ownership_status: z.string().nullish(),
  }),
);
/** A domain of an install. */
export type Domain = z.infer<typeof DomainSchema>;

/** Answer of the verification POST. */
export const DomainVerificationSchema = z.looseObject({
  /** The domain's UUID. */
  id: z.string().nullish(),
  /** The domain name. */
  name: z.string().nullish(),
  /** When the TXT record was verified (set once verification succeeded). */
  txt_verified_time: z.string().nullish(),
  /** Domain the TXT record was verified for. */
  txt_verified_domain: z.string().nullish(),
  /** TXT record name; null once verified. */
  txt_verification_key: z.string().nullish(),
  /** TXT record value; null once verified. */
  txt_verification_value: z.string().nullish(),
});
/** Answer of the verification POST. */
export type DomainVerification = z.infer<typeof DomainVerificationSchema>;

/** A shareable Entri Connect link to a domain's DNS setup (beyond Swagger 1.17.0, from the live API docs). */
export const DomainSharingLinkSchema = z.looseObject({ url: z.string() });
export type DomainSharingLink = z.infer<typeof DomainSharingLinkSchema>;

/** A DNS name in canonical form: trimmed, lower case, no trailing dot. */
export function canonicalDomain(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, "");
}

/**
 * The one domain-name rule, of a name in canonical form: labels of letters, digits and inner hyphens (at most
 * 63 each), a top-level label of at least 2, at most 253 in all; a leading `*.` only where `wildcard`.
 */
export function isDomainName(canonical: string, { wildcard = false } = {}): boolean {
  const name = wildcard ? canonical.replace(/^\*\./, "") : canonical;
  return canonical.length <= 253 && /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(name);
}

/** A DNS name as a request may spell it (any case, a trailing dot, a `*.` wildcard), checked by the one rule. */
const domainName = z
  .string({ error: "expected a domain name" })
  .min(1, "must not be empty")
  .max(253, "must be at most 253 characters")
  .refine(
    (s) => isDomainName(canonicalDomain(s), { wildcard: true }),
    "expected a domain name such as www.example.com (no scheme, no path)",
  );

/** Body of `POST /installs/{id}/domains`. */
export const CreateDomainRequestSchema = z.strictObject({
  /** The domain name. */
  name: domainName,
  /** Make it the primary domain of the install. */
  primary: z.boolean().optional(),
  /** UUID of a domain of the install to redirect to. */
  redirect_to: idString("redirect_to").optional(),
});
/** Body of `POST /installs/{id}/domains`. */
export type CreateDomainRequest = z.infer<typeof CreateDomainRequestSchema>;

/** Body of `POST /installs/{id}/domains/bulk`. */
export const CreateBulkDomainsRequestSchema = z.strictObject({
  /** 1 to 20 domains to add. */
  domains: z
    .array(
      z.strictObject({
        /** The domain name. */
        name: domainName,
        /** NAME (not id) of the domain to redirect to. */
        redirect_to: domainName.optional(),
      }),
    )
    .min(1, "at least 1 domain is required")
    .max(20, "at most 20 domains per request"),
});
/** Body of `POST /installs/{id}/domains/bulk`. */
export type CreateBulkDomainsRequest = z.infer<typeof CreateBulkDomainsRequestSchema>;

/** Body of `PATCH /installs/{id}/domains/{domain_id}`. */
export const UpdateDomainRequestSchema = z.strictObject({
  /** Make the domain primary (not allowed for duplicate, wildcard or redirected domains). */
  primary: z.boolean().optional(),
  /** UUID of the domain to redirect to, or the string `nil` to remove the redirect. */
  redirect_to: idString("redirect_to").optional(),
  /** Force HTTPS for all URLs. */
  secure_all_urls: z.boolean().optional(),
});
/** Body of `PATCH /installs/{id}/domains/{domain_id}`. */
export type UpdateDomainRequest = z.infer<typeof UpdateDomainRequestSchema>;

/** The bulk answer: a list, one object, or a list wrapped in `results`/`domains`. */
export const BulkDomainsResponseSchema = z.preprocess((raw) => {
  if (Array.isArray(raw)) return raw;
  if (raw && typeof raw === "object") {
    const rec = raw as Record<string, unknown>;
    if (Array.isArray(rec["results"])) return rec["results"];
    if (Array.isArray(rec["domains"])) return rec["domains"];
    return [raw];
  }
  return raw;
}, z.array(DomainSchema));

/** Operations on the domains of an install. */
export class Domains {
  readonly #list: EnvelopeListing<Domain>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, DomainSchema);
  }

  /** Lists one page of the install's domains. */
  async list(installId: string, params: OffsetParams = {}): Promise<Page<Domain>> {
    const p = validateInput("domains.list", OffsetParamsSchema, params);
    return this.#list.page(path`/installs/${installId}/domains`, { limit: p.limit, offset: p.offset });
  }

  /** Iterates every domain of the install. */
  iterate(installId: string, params: Omit<OffsetParams, "offset"> = {}): AsyncIterable<Domain> {
    const p = validateInput("domains.iterate", OffsetParamsSchema, params);
    const listPath = path`/installs/${installId}/domains`;
    return this.#list.all(listPath, { limit: p.limit });
  }

  /**
   * Every domain of the install, 100 a page, the pages after the first asked for at once (see
   * `EnvelopeListing.collect`): about one round trip, where `iterate` takes one per page.
   */
  async listAll(installId: string): Promise<Domain[]> {
    return this.#list.collect(path`/installs/${installId}/domains`, 100, (d) => d.id);
  }

  /** Reads one domain. */
  async get(installId: string, domainId: string): Promise<Domain> {
    return this.transport.request(
      { method: "GET", path: path`/installs/${installId}/domains/${domainId}` },
      DomainSchema,
    );
  }

  /** Adds a domain (unverified until its TXT record is published and `verify` is called). */
  async create(installId: string, body: CreateDomainRequest): Promise<Domain> {
    const req = validateInput("domains.create", CreateDomainRequestSchema, body);
    // Creates a record: a retry after the request may have arrived could add the domain twice, so only
    // failures where the server certainly did not act are retried.
    return this.transport.request(
      { method: "POST", path: path`/installs/${installId}/domains`, body: req, retry: "unsafe" },
      DomainSchema,
    );
  }

  /** Adds 1 to 20 domains at once; always resolves to a list, whatever shape the service answered. */
  async createBulk(installId: string, body: CreateBulkDomainsRequest): Promise<Domain[]> {
    const req = validateInput("domains.createBulk", CreateBulkDomainsRequestSchema, body);
    // Creates records: not retried once the request may have reached the server.
    return this.transport.request(
      { method: "POST", path: path`/installs/${installId}/domains/bulk`, body: req, retry: "unsafe" },
      BulkDomainsResponseSchema,
    );
  }

  /** Changes primary, redirect (`"nil"` removes it) or HTTPS forcing of a domain. */
  async update(installId: string, domainId: string, body: UpdateDomainRequest): Promise<Domain> {
    const req = validateInput("domains.update", UpdateDomainRequestSchema, body);
    // PATCH sets absolute values: repeating it leaves the same state, so it is retried freely.
    return this.transport.request(
      { method: "PATCH", path: path`/installs/${installId}/domains/${domainId}`, body: req, retry: "safe" },
      DomainSchema,
    );
  }

  /** Deletes a domain (204). A retried DELETE whose first attempt succeeded answers 404. */
  async delete(installId: string, domainId: string): Promise<void> {
    await this.transport.requestVoid({
      method: "DELETE",
      path: path`/installs/${installId}/domains/${domainId}`,
    });
  }

  /** Completes TXT verification once the DNS record is published. */
  async verify(installId: string, domainId: string): Promise<DomainVerification> {
    // Verification only checks DNS and records the result: repeating it is harmless, so it is retried.
    return this.transport.request(
      { method: "POST", path: path`/installs/${installId}/domains/${domainId}/verification`, retry: "safe" },
      DomainVerificationSchema,
    );
  }

  /**
   * Makes a new shareable Entri Connect link with which anyone holding the domain's registry access sets
   * its DNS (AN and GES domains only). Beyond Swagger 1.17.0. Every call makes another link (no
   * idempotency), so it is never retried once the request may have reached the service: keep the link.
   */
  async createSharingLink(installId: string, domainId: string): Promise<DomainSharingLink> {
    return this.transport.request(
      {
        method: "POST",
        path: path`/installs/${installId}/domains/${domainId}/sharing_link`,
        retry: "unsafe",
      },
      DomainSharingLinkSchema,
    );
  }
}
