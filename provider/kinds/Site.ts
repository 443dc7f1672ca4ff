import { z } from "zod";
import type { CreateSiteRequest, UpdateSiteRequest } from "../../sdk";
import { collect, defineKind, listedUnder } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, deletionProtectionInput, out, parentInput, stringInput } from "../core/inputs";
import type { Context } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  accountId: parentInput(
    "The account that owns the site. Changing it replaces the site (use `SiteTransfer` to move one).",
    { wire: { read: "account.id", write: "account_id" } },
  ),
  name: stringInput
    .trim()
    .min(1, "must not be empty")
    .max(40, "must be at most 40 characters")
    .meta({ key: true, description: "The site name, 1 to 40 characters; renamed in place." }),
  deletionProtection: deletionProtectionInput.meta({
    description:
      "Refuse to delete the site, and to replace it, while true (the default): deleting a site deletes every install in it. Set false and run `pulumi up` before a destroy; that update sends nothing to the service.",
  }),
  adopt: COMMON_INPUTS.adopt.meta({
    description: "Take over the one site of that name in the account instead of failing create.",
  }),
});

/** What the service reports, without the installs: they change through other resources (`getSite` lists them). */
const outputs = z.object({
  siteId: out.string("The site's UUID (also the resource id).", { wire: "id" }),
  groupName: out.stringOrNull("The site's group, or null."),
  tags: out.strings("The site's tags."),
  createdAt: out.stringOrNull("When the site was created (UTC)."),
  sandbox: out.boolean("Whether the site is a sandbox (sandboxes cannot be transferred)."),
  transferable: out.boolean("Whether the site can be transferred."),
});

/** The wire mapping: an account a record does not name, and the guard, the lifecycle keeps from the inputs or state. */
const WIRE = wireOf(inputs, outputs);

const siteName = (site: { name: string; siteId: string }) => `site "${site.name}" (${site.siteId})`;

const findByName = async (ctx: Context) =>
  (await collect(ctx.client.sites.iterate({ accountId: ctx.parent }))).filter((s) => s.name === ctx.key);

/** Create's refusal of a name the account holds already (check says it at preview). */
const taken = (name: string, accountId: string | undefined, id: string) =>
  alreadyExists(`site "${name}" already exists in account ${accountId} (id ${id})`);

export const definition = defineKind({
  kind: "Site",
  description:
    "A site of an account, the group that holds an install per environment (production, staging, development). Create makes an empty site; its name changes in place; a change of `accountId` replaces it (a site moves between accounts only by a `SiteTransfer`). The id is the site's UUID.",
  deletes:
    "Deletes the site on the service, for good (no confirmation, no undo). Refused while `deletionProtection` is on, the default, and while the site still holds an install: the service would delete those installs with it, and they are not this resource's (another stack's, made by hand, or kept by their own guard). A site already gone counts as deleted.",
  gone: "A site deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "{id}",
  identity: {
    what: "the site's name in its account",
    find: async (_i, ctx) => (await findByName(ctx))[0]?.id,
    refusal: (id, ctx) => taken(ctx.key, ctx.parent, id),
  },
  list: listedUnder(
    { optional: "accountId" },
    "Only this account's sites; unset, every site the credentials see.",
    (client, accountId) => collect(client.sites.iterate({ accountId, limit: 100 })),
    (s) => [s.id, s.name],
  ),
  inputs,
  outputs,
  normalize: (key, v) => (key === "accountId" && typeof v === "string" ? v.toLowerCase() : v),
  protects: (olds) => `${siteName(olds)} and every install in it`,
  async create(inputs, ctx) {
    const { parent: accountId, key: name } = ctx;
    // Site names are not unique on the service: a second site of the same name is a duplicate nobody
    // asked for (a crashed run, a site made by hand), so it is refused unless adopted.
    const same = await findByName(ctx);
    if (same.length > 1)
      throw new Error(
        `account ${accountId} has ${same.length} sites named "${name}" (${same.map((s) => s.id).join(", ")}); rename all but one, or choose another name`,
      );
    const existing = same[0];
    if (existing && !inputs.adopt) throw taken(name, accountId, existing.id);
    const record = existing ?? (await ctx.client.sites.create(WIRE.body(inputs) as CreateSiteRequest));
    const adopted = existing && `site "${name}" of account ${accountId}`;
    return { id: record.id, outs: WIRE.outputs(record), adopted };
  },
  // An import has no state: the lifecycle records the guard on, its default, so a later destroy still refuses.
  read: async (id, _olds, ctx) => ({ outs: WIRE.outputs(await ctx.client.sites.get(id)) }),
  async update(id, olds, news, ctx) {
    const patch = WIRE.patch(olds, news) as UpdateSiteRequest | undefined;
    return WIRE.outputs(patch ? await ctx.client.sites.update(id, patch) : await ctx.client.sites.get(id));
  },
  async delete(id, _olds, ctx) {
    // Read just before the delete: the installs of this stack that depend on the site are already deleted.
    const live = await ctx.client.sites.get(id);
    const installs = (live.installs ?? []).map((i) => i.name ?? i.id);
    const site = siteName({ ...live, siteId: id });
    if (installs.length)
      throw new Error(
        `${site} still holds installs ${installs.join(", ")}, and deleting the site would delete them too: delete them first (destroy their Install resources, or delete them in the User Portal), then run the destroy again`,
      );
    await ctx.client.sites.delete(id);
    return `deleted on the service (deletionProtection was off): ${site}`;
  },
});
