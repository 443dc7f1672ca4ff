/** Domain mappings of an application-hosting environment. */
import { z } from "zod";
import { envPath } from "./apps";
import { TokenListing } from "./core/listing";
import { type Page, type TokenParams, TokenParamsSchema } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** Mapping states. */
export type DomainMappingState = "STATE_UNSPECIFIED" | "CREATING" | "ACTIVE" | "DELETING";

/** A domain mapping. */
export const DomainMappingSchema = z.looseObject({
  /** Resource name `.../environments/{env}/domainMappings/{domain}`. */
  name: z.string().nullish(),
  /** The domain name. */
  domain: z.string(),
  /** Whether this is the environment's primary domain. */
  primary: z.boolean().nullish(),
  /** STATE_UNSPECIFIED, CREATING, ACTIVE or DELETING. */
  state: z
    .custom<DomainMappingState | (string & {})>((v) => typeof v === "string", "expected a string")
    .nullish(),
  /** Domain this one redirects to, if any. */
  destinationDomainMapping: z.string().nullish(),
  /** State of the destination mapping. */
  destinationDomainMappingState: z.string().nullish(),
  /** TXT record to publish for ownership verification. */
  txtVerification: z
    .looseObject({
      /** TXT record name. */
      name: z.string().nullish(),
      /** TXT record value. */
      value: z.string().nullish(),
      /** Whether the record was verified. */
      verified: z.boolean().nullish(),
    })
    .nullish(),
});
/** A domain mapping. */
export type DomainMapping = z.infer<typeof DomainMappingSchema>;

/** One mapping of a replacement request. */
export const DomainMappingInputSchema = z.strictObject({
  /** The domain name. */
  domain: z.string().min(1, "must not be empty"),
  /** Make it the primary domain (at most one). */
  primary: z.boolean().optional(),
  /** Domain to redirect to. */
  destinationDomainMapping: z.string().min(1, "must not be empty").optional(),
});
/** One mapping of a replacement request. */
export type DomainMappingInput = z.infer<typeof DomainMappingInputSchema>;

/** Body of `:replace`: afterwards exactly these mappings exist. */
export const ReplaceDomainMappingsRequestSchema = z
  .strictObject({
    /** The complete set of mappings. */
    domainMappings: z.array(DomainMappingInputSchema),
    /** Only validate the change. */
    validateOnly: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.domainMappings.filter((m) => m.primary).length > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["domainMappings"],
        message: "at most one mapping can be primary",
      });
    }
    const seen = new Set<string>();
    v.domainMappings.forEach((m, i) => {
      const key = m.domain.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({
          code: "custom",
          path: ["domainMappings", i, "domain"],
          message: `duplicate domain ${m.domain}`,
        });
      }
      seen.add(key);
    });
  });
/** Body of `:replace`. */
export type ReplaceDomainMappingsRequest = z.infer<typeof ReplaceDomainMappingsRequestSchema>;

/** `{domainMapping}` (verifyTxtRecord) or the mapping itself. */
const WrappedMappingSchema = z.preprocess((raw) => {
  if (raw && typeof raw === "object" && "domainMapping" in raw)
    return (raw as { domainMapping: unknown }).domainMapping;
  return raw;
}, DomainMappingSchema);

const mappingsPath = (a: string, app: string, env: string) => `${envPath(a, app, env)}/domainMappings`;

/** The answer of `:replace`: the resulting mappings. */
const MappingListSchema = z.looseObject({ domainMappings: z.array(DomainMappingSchema).default([]) });

/** Operations on domain mappings. */
export class DomainMappings {
  readonly #list: TokenListing<DomainMapping>;

  constructor(private readonly transport: Transport) {
    this.#list = new TokenListing(transport, "domainMappings", DomainMappingSchema);
  }

  /** Lists one page of mappings (including those being created or deleted). */
  async list(
    accountId: string,
    appId: string,
    environmentId: string,
    params: TokenParams = {},
  ): Promise<Page<DomainMapping>> {
    const p = validateInput("domainMappings.list", TokenParamsSchema, params);
    return this.#list.page(mappingsPath(accountId, appId, environmentId), p);
  }

  /** Iterates every mapping of the environment. */
  iterate(
    accountId: string,
    appId: string,
    environmentId: string,
    params: Omit<TokenParams, "pageToken"> = {},
  ): AsyncIterable<DomainMapping> {
    const p = validateInput("domainMappings.iterate", TokenParamsSchema, params);
    return this.#list.all(mappingsPath(accountId, appId, environmentId), p);
  }

  /** Makes the set of mappings exactly the one given; answers the resulting mappings. */
  async replace(
    accountId: string,
    appId: string,
    environmentId: string,
    body: ReplaceDomainMappingsRequest,
  ): Promise<DomainMapping[]> {
    const req = validateInput("domainMappings.replace", ReplaceDomainMappingsRequestSchema, body);
    // Replacing with a full set is idempotent: retried freely.
    const res = await this.transport.request(
      {
        api: "appHosting",
        method: "POST",
        path: `${mappingsPath(accountId, appId, environmentId)}:replace`,
        body: req,
        retry: "safe",
      },
      MappingListSchema,
    );
    return res.domainMappings;
  }

  /** Makes a mapping the primary one. */
  async markPrimary(
    accountId: string,
    appId: string,
    environmentId: string,
    domain: string,
  ): Promise<DomainMapping> {
    // Marking the primary twice leaves the same primary: retried freely.
    return this.#verb(accountId, appId, environmentId, domain, "markPrimary");
  }

  /** Re-checks a mapping's DNS and certificate. */
  async revalidate(
    accountId: string,
    appId: string,
    environmentId: string,
    domain: string,
  ): Promise<DomainMapping> {
    // A re-check only reads DNS: retried freely.
    return this.#verb(accountId, appId, environmentId, domain, "revalidate");
  }

  /** Checks the mapping's TXT record (answer `{domainMapping}` is unwrapped). */
  async verifyTxtRecord(
    accountId: string,
    appId: string,
    environmentId: string,
    domain: string,
  ): Promise<DomainMapping> {
    // Verification only reads DNS and records the result: retried freely.
    return this.#verb(accountId, appId, environmentId, domain, "verifyTxtRecord");
  }

  #verb(a: string, app: string, env: string, domain: string, verb: string): Promise<DomainMapping> {
    return this.transport.request(
      {
        api: "appHosting",
        method: "POST",
        path: `${mappingsPath(a, app, env)}${path`/${domain}`}:${verb}`,
        body: {},
        retry: "safe",
      },
      WrappedMappingSchema,
    );
  }
}
