/**
 * `Site`: a site of an account, the group that holds an install per environment (production, staging,
 * development). Create makes an empty site; its name changes in place; the account cannot change (a
 * site moves between accounts only by a `SiteTransfer`), so a change of `accountId` replaces it.
 *
 * Delete: deletes the site AND every install in it, for good (the service has no confirmation and no
 * undo). So `deletionProtection` is on by default and delete refuses until it has been turned off.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Site as ApiSite } from "../../sdk";
import { COMMON_INPUTS, deletionProtectionInput, uuidString } from "../core/inputs";
import { type Context, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { type SiteInfo, toSiteInfo } from "../lookups";

const KIND = "Site";

export const SiteInputsSchema = z
  .object({
    /** The account that owns the site. Changing it replaces the site (use `SiteTransfer` to move one). */
    accountId: uuidString("accountId"),
    /** The site name, 1 to 40 characters; renamed in place. */
    name: z
      .string({ error: "name is required and must be a string" })
      .trim()
      .min(1, "name must not be empty")
      .max(40, "name must be at most 40 characters"),
    /** Refuse to delete (or replace) the site while true (the default). */
    deletionProtection: deletionProtectionInput,
    ...COMMON_INPUTS,
  })
  .strict();

export type SiteInputs = z.output<typeof SiteInputsSchema>;

/**
 * Outputs of a Site: its inputs plus what the service reports (the lookups' {@link SiteInfo}, id as
 * `siteId`), without its installs: they change through other resources, which would show as drift on
 * every refresh (`getSite` lists them).
 */
export interface SiteOutputs
  extends Omit<SiteInfo, "id" | "accountId" | "installs">,
    Record<string, unknown> {
  accountId: string;
  siteId: string;
  deletionProtection: boolean;
}

/** Maps a service record to outputs (the guard is the input's, never the service's). */
export function siteOutputs(s: ApiSite, accountId: string, deletionProtection: boolean): SiteOutputs {
  const { id, accountId: live, installs: _installs, ...rest } = toSiteInfo(s);
  return { ...rest, siteId: id, accountId: live ?? accountId, deletionProtection };
}

/** What deleting a site destroys, in words; with the names of the installs it holds when they were read. */
export function siteLoss(
  site: Pick<SiteOutputs, "name" | "siteId">,
  installNames?: readonly string[],
): string {
  const what = `site "${site.name}" (${site.siteId})`;
  if (!installNames) return `${what} and every install in it`;
  return installNames.length
    ? `${what} and its installs ${installNames.join(", ")}`
    : `${what} (it held no install)`;
}

async function findByName(ctx: Context, accountId: string, name: string): Promise<ApiSite[]> {
  const found: ApiSite[] = [];
  for await (const s of ctx.client.sites.iterate({ accountId })) if (s.name === name) found.push(s);
  return found;
}

export const provider = defineProvider<SiteInputs, SiteOutputs>({
  kind: KIND,
  schema: SiteInputsSchema,
  replaceOn: ["accountId"],
  updatable: ["name", "deletionProtection"],
  normalize: (key, v) => (key === "accountId" && typeof v === "string" ? v.toLowerCase() : (v ?? null)),
  protects: (olds) => siteLoss(olds),
  async create(inputs, ctx) {
    // Site names are not unique on the service: a second site of the same name is a duplicate nobody
    // asked for (a crashed run, a site made by hand), so it is refused unless adopted.
    const same = await findByName(ctx, inputs.accountId, inputs.name);
    if (same.length > 1) {
      throw new Error(
        `account ${inputs.accountId} has ${same.length} sites named "${inputs.name}" (${same.map((s) => s.id).join(", ")}); ` +
          "rename all but one, or choose another name",
      );
    }
    const existing = same[0];
    if (existing && !inputs.adopt) {
      throw new Error(
        `site "${inputs.name}" already exists in account ${inputs.accountId} (id ${existing.id}); set adopt: true to take it over`,
      );
    }
    const record =
      existing ?? (await ctx.client.sites.create({ name: inputs.name, account_id: inputs.accountId }));
    return { id: record.id, outs: siteOutputs(record, inputs.accountId, inputs.deletionProtection) };
  },
  async read(id, olds, ctx) {
    const outs = siteOutputs(await ctx.client.sites.get(id), olds.accountId, olds.deletionProtection);
    return { outs, inputs: { accountId: outs.accountId, name: outs.name } };
  },
  async update(id, olds, news, ctx) {
    const record =
      olds.name !== news.name
        ? await ctx.client.sites.update(id, { name: news.name })
        : await ctx.client.sites.get(id);
    return siteOutputs(record, news.accountId, news.deletionProtection);
  },
  async delete(id, _olds, ctx) {
    // The installs are read just before the delete (not an output): they are what goes with the site.
    const live = await ctx.client.sites.get(id);
    await ctx.client.sites.delete(id);
    const names = (live.installs ?? []).map((i) => i.name ?? i.id);
    return `deleted on the service (deletionProtection was off): ${siteLoss({ name: live.name, siteId: id }, names)}`;
  },
});

/** Arguments of a {@link Site}. */
export interface SiteArgs {
  /** The account that owns the site (UUID). Changing it replaces the site; use `SiteTransfer` to move one. */
  accountId: pulumi.Input<string>;
  /** The site name, 1 to 40 characters. Renamed in place. */
  name: pulumi.Input<string>;
  /**
   * Refuse to delete the site, and to replace it, while true (default true): deleting a site deletes
   * every install in it. Set false and run `pulumi up` before a destroy.
   */
  deletionProtection?: pulumi.Input<boolean>;
  /** Take over the one site of that name in the account instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A site of an account. The id is the site's UUID. Delete deletes the site and its installs, and is
 * refused while `deletionProtection` is on (the default).
 *
 * @example
 * const blog = new wpengine.Site("blog", { accountId, name: "Blog" });
 */
export class Site extends WpEngineResource {
  /** The account that owns the site. */
  declare readonly accountId: pulumi.Output<string>;
  /** The site name. */
  declare readonly name: pulumi.Output<string>;
  /** Whether delete and replacement are refused. */
  declare readonly deletionProtection: pulumi.Output<boolean>;
  /** The site's UUID (also the resource id). */
  declare readonly siteId: pulumi.Output<string>;
  /** The site's group, or null. */
  declare readonly groupName: pulumi.Output<string | null>;
  /** The site's tags. */
  declare readonly tags: pulumi.Output<string[]>;
  /** When the site was created (UTC). */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** Whether the site is a sandbox. */
  declare readonly sandbox: pulumi.Output<boolean>;
  /** Whether the site can be transferred. */
  declare readonly transferable: pulumi.Output<boolean>;
  /** Whether this resource took over an existing site. */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: SiteArgs, opts?: ResourceOptions) {
    super(KIND, name, args, SITE_OUTPUTS, opts);
  }
}

const SITE_OUTPUTS = [
  "deletionProtection",
  "siteId",
  "groupName",
  "tags",
  "createdAt",
  "sandbox",
  "transferable",
  "adopt",
] as const;
