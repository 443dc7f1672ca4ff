/**
 * `Domain`: a domain on an install. Created unverified (TXT_VERIFICATION_PENDING); its outputs give the
 * TXT record a user must publish before `DomainVerification` can complete ownership.
 *
 * Delete: deletes the domain from the install on the service.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Domain as ApiDomain } from "../../sdk";
import { sharedChildren, unlessGone } from "../core/children";
import { COMMON_INPUTS, uuidString } from "../core/inputs";
import { CreatedButFailedError, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { type DomainInfo, toDomainInfo } from "../lookups";

const KIND = "Domain";

/** A DNS name as the service stores it: lower case, no trailing dot, no scheme. */
const domainName = z
  .string({ error: "name is required and must be a string" })
  .trim()
  .toLowerCase()
  .transform((s) => s.replace(/\.$/, ""))
  .pipe(
    z
      .string()
      .min(1, "name must not be empty")
      .max(253, "name must be at most 253 characters")
      .regex(
        /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
        "name must be a domain name such as www.example.com (no scheme, no path)",
      ),
  );

export const DomainInputsSchema = z
  .object({
    /** The install the domain belongs to. Changing it replaces the domain. */
    installId: uuidString("installId"),
    /** The domain name, e.g. `www.example.com`. Changing it replaces the domain. */
    name: domainName,
    /** Whether this is the install's primary domain. A duplicate, wildcard or redirected domain cannot be. */
    primary: z.boolean().default(false),
    /** The id of another domain of the install this one redirects to; `null` for none. */
    redirectTo: uuidString("redirectTo").nullable().default(null),
    /** Force HTTPS for all URLs of the domain. */
    secureAllUrls: z.boolean().default(false),
    ...COMMON_INPUTS,
  })
  .strict();

export type DomainInputs = z.output<typeof DomainInputsSchema>;

/**
 * Outputs of a Domain: its inputs plus what the service computes (the lookups' {@link DomainInfo}, with
 * the id as `domainId` and the first redirect as `redirectTo`).
 */
export interface DomainOutputs extends Omit<DomainInfo, "id" | "redirectsTo">, Record<string, unknown> {
  installId: string;
  redirectTo: string | null;
  domainId: string;
}

/** Maps a service record to outputs. */
export function domainOutputs(installId: string, d: ApiDomain): DomainOutputs {
  // The record as the lookups read it, renamed where the resource's inputs name it differently.
  const { id, name, redirectsTo, ...rest } = toDomainInfo(d);
  return {
    installId,
    name: name.toLowerCase(),
    redirectTo: redirectsTo[0]?.id ?? null,
    domainId: id,
    ...rest,
  };
}

/** The install's domains by lower-case name, listed once per plugin process (see `children.ts`). */
const DOMAINS = sharedChildren<ApiDomain>({
  list: async (client, installId) => {
    const all: ApiDomain[] = [];
    for await (const d of client.domains.iterate(installId)) all.push(d);
    return all;
  },
  keyOf: (d) => d.name.toLowerCase(),
  get: (client, installId, d) => unlessGone(client.domains.get(installId, d.id)),
});

/** The PATCH that brings a domain from `have` to `want`; `undefined` when nothing differs. */
export function domainPatch(
  have: Pick<DomainOutputs, "primary" | "redirectTo" | "secureAllUrls">,
  want: Pick<DomainInputs, "primary" | "redirectTo" | "secureAllUrls">,
): { primary?: boolean; redirect_to?: string; secure_all_urls?: boolean } | undefined {
  const patch: { primary?: boolean; redirect_to?: string; secure_all_urls?: boolean } = {};
  if (have.primary !== want.primary) patch.primary = want.primary;
  if (have.redirectTo !== want.redirectTo) patch.redirect_to = want.redirectTo ?? "nil";
  if (have.secureAllUrls !== want.secureAllUrls) patch.secure_all_urls = want.secureAllUrls;
  return Object.keys(patch).length ? patch : undefined;
}

export const provider = defineProvider<DomainInputs, DomainOutputs>({
  kind: KIND,
  schema: DomainInputsSchema,
  replaceOn: ["installId", "name"],
  updatable: ["primary", "redirectTo", "secureAllUrls"],
  normalize: (key, v) => (key === "name" && typeof v === "string" ? v.toLowerCase() : (v ?? null)),
  async create(inputs, ctx) {
    const { installId, name } = inputs;
    const { item: record, created } =
      (await DOMAINS.find(ctx.client, installId, name)) ??
      (await DOMAINS.create(ctx.client, installId, name, () =>
        ctx.client.domains.create(installId, {
          name,
          ...(inputs.primary ? { primary: true } : {}),
          ...(inputs.redirectTo ? { redirect_to: inputs.redirectTo } : {}),
        }),
      ));
    if (!created && !inputs.adopt) {
      throw new Error(
        `domain ${name} already exists on install ${installId} (id ${record.id}); set adopt: true to take it over`,
      );
    }
    const outs = domainOutputs(inputs.installId, record);
    const patch = domainPatch(outs, inputs);
    if (!patch) return { id: record.id, outs };
    try {
      const updated = await ctx.client.domains.update(inputs.installId, record.id, patch);
      return { id: record.id, outs: domainOutputs(inputs.installId, updated) };
    } catch (err) {
      throw new CreatedButFailedError(record.id, outs, err);
    }
  },
  async read(id, olds, ctx) {
    const d = await ctx.client.domains.get(olds.installId, id);
    const outs = domainOutputs(olds.installId, d);
    const { installId, name, primary, redirectTo, secureAllUrls } = outs;
    return { outs, inputs: { installId, name, primary, redirectTo, secureAllUrls } };
  },
  async update(id, olds, news, ctx) {
    const patch = domainPatch(olds, news);
    const d = patch
      ? await ctx.client.domains.update(news.installId, id, patch)
      : await ctx.client.domains.get(news.installId, id);
    return domainOutputs(news.installId, d);
  },
  async delete(id, olds, ctx) {
    try {
      await ctx.client.domains.delete(olds.installId, id);
    } finally {
      // Even when the delete failed: a listing that lacks a live name only costs a refused create.
      DOMAINS.forget(ctx.client, olds.installId, olds.name.toLowerCase());
    }
  },
});

/** Arguments of a {@link Domain}. */
export interface DomainArgs {
  /** The install the domain belongs to. Changing it replaces the domain. */
  installId: pulumi.Input<string>;
  /** The domain name, e.g. `www.example.com`. Changing it replaces the domain. */
  name: pulumi.Input<string>;
  /** Whether this is the install's primary domain (default false). */
  primary?: pulumi.Input<boolean>;
  /** The id of another domain of the same install to redirect to (default none). */
  redirectTo?: pulumi.Input<string | null>;
  /** Force HTTPS for all URLs of the domain (default false). */
  secureAllUrls?: pulumi.Input<boolean>;
  /** Take over a domain of that name that already exists on the install instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A domain on an install. The id is the domain's UUID. Delete removes the domain from the install.
 *
 * @example
 * const www = new wpengine.Domain("www", { installId, name: "www.example.com", primary: true });
 * export const txtName = www.txtVerificationKey;
 */
export class Domain extends WpEngineResource {
  /** The install the domain belongs to. */
  declare readonly installId: pulumi.Output<string>;
  /** The domain name (lower case). */
  declare readonly name: pulumi.Output<string>;
  /** Whether this is the primary domain. */
  declare readonly primary: pulumi.Output<boolean>;
  /** The id of the domain this one redirects to, or null. */
  declare readonly redirectTo: pulumi.Output<string | null>;
  /** Whether all URLs are forced to HTTPS. */
  declare readonly secureAllUrls: pulumi.Output<boolean>;
  /** The domain's UUID (also the resource id). */
  declare readonly domainId: pulumi.Output<string>;
  /** Whether the service marks the domain as a duplicate. */
  declare readonly duplicate: pulumi.Output<boolean>;
  /** The network the domain is served on: AN, GES or LEGACY. */
  declare readonly networkType: pulumi.Output<string | null>;
  /** TXT_VERIFICATION_PENDING until ownership is verified, then TXT_VERIFIED. */
  declare readonly ownershipStatus: pulumi.Output<string | null>;
  /** Name of the TXT record to publish for verification; null once verified. */
  declare readonly txtVerificationKey: pulumi.Output<string | null>;
  /** Value of the TXT record to publish for verification; null once verified. */
  declare readonly txtVerificationValue: pulumi.Output<string | null>;
  /** When ownership was verified, or null. */
  declare readonly txtVerifiedTime: pulumi.Output<string | null>;
  /** The CNAME target to point the domain at. */
  declare readonly cname: pulumi.Output<string | null>;
  /** The A records to point the domain at. */
  declare readonly aRecords: pulumi.Output<string[]>;
  /** Whether this resource took over an existing domain. */
  declare readonly adopt: pulumi.Output<boolean>;

  constructor(name: string, args: DomainArgs, opts?: ResourceOptions) {
    super(KIND, name, args, DOMAIN_OUTPUTS, opts);
  }
}

const DOMAIN_OUTPUTS = [
  "domainId",
  "duplicate",
  "networkType",
  "ownershipStatus",
  "txtVerificationKey",
  "txtVerificationValue",
  "txtVerifiedTime",
  "cname",
  "aRecords",
  "primary",
  "redirectTo",
  "secureAllUrls",
  "adopt",
] as const;
