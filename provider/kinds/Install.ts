import { z } from "zod";
import { type Install as ApiInstall, type CreateInstallRequest, INSTALL_NAME_PATTERN } from "../../sdk";
import { collect, defineKind, findFirst, listedUnder, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import {
  COMMON_INPUTS,
  deletionProtectionInput,
  out,
  parentInput,
  stringInput,
  timeoutSecondsInput,
  uuidString,
  whole,
} from "../core/inputs";
import { environmentInput, environmentOf } from "../core/installs";
import { afterCreate, type Context, waitFor } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  name: stringInput
    .regex(
      INSTALL_NAME_PATTERN,
      "must be 3 to 14 lower-case letters or digits, starting with a letter (^[a-z][a-z0-9]{2,13}$)",
    )
    .meta({
      key: true,
      description:
        "The install name: 3 to 14 lower-case letters or digits, starting with a letter (also its subdomain, unique across the service).",
      replaces: true,
    }),
  accountId: parentInput("The account the install belongs to.", {
    wire: { read: "account.id", write: "account_id" },
  }),
  siteId: uuidString.meta({
    description:
      "The site the install belongs to (of the same account); changing it moves the install in place.",
    wire: { read: "site.id", write: "site_id" },
  }),
  environment: environmentInput.meta({
    description:
      "The environment it fills in its site: `production`, `staging` or `development` (free in the site); changing it moves the install in place.",
  }),
  // Updatable as in 0.1.0 (a change of it alone plans an update), unlike the other kinds' timeouts.
  timeoutSeconds: timeoutSecondsInput(1800).meta({
    description:
      "How long create waits for the install to be provisioned (`active`), in seconds (default 1800).",
    setting: false,
    writeOnly: true,
    wire: false,
  }),
  deletionProtection: deletionProtectionInput.meta({
    description:
      "Refuse to delete the install, and to replace it, while true (the default): deleting an install destroys the website. Set false and run `pulumi up` before a destroy; that update sends nothing to the service.",
  }),
  adopt: COMMON_INPUTS.adopt.meta({
    description:
      "Take over the install of that name in the account instead of failing create (and place it as declared).",
  }),
});

// Without the primary domain and WordPress version: they change through other resources and core updates,
// which would show as drift on every refresh (`getInstall` reads them).
const outputs = z.object({
  installId: out.string(
    "The install's UUID (also the resource id): pass it as `installId` to the resources that act on it.",
    { wire: "id" },
  ),
  status: out.stringOrNull("`active` once provisioned (`pending` before)."),
  phpVersion: out.stringOrNull("PHP version."),
  cname: out.stringOrNull("The install's CNAME (`<name>.wpengine.com`)."),
  stableIps: out.strings("Stable IPs (some premium plans only; empty otherwise)."),
  isMultisite: out.boolean("Whether the install is a multisite."),
  createdAt: out.stringOrNull("When the install was created (UTC)."),
  deferCmsUpgradesUntil: out.stringOrNull(
    "Automatic core major updates are deferred until this date, or null.",
  ),
});

type InstallOutputs = OutputsOf<typeof inputs, typeof outputs>;

const WIRE = wireOf(inputs, outputs);

/** A record's outputs, the environment lower case (`null`: it fills none); an account, site or environment it omits is left out. */
const installOutputs = (i: ApiInstall): InstallOutputs => ({ ...WIRE.outputs(i), ...environmentOf(i) });

/** What deleting an install destroys, in words. */
export const installLoss = (olds: Pick<InstallOutputs, "name" | "installId">): string =>
  `install ${olds.name} (${olds.installId}) with its domains, backups and settings`;

const waitActive = (ctx: Context, installId: string) =>
  waitFor(
    ctx,
    `install ${ctx.key} to be provisioned`,
    () => ctx.client.installs.get(installId),
    (i) => (i.status === "active" || !i.status ? undefined : i.status),
    { note: "status active" },
  );

const findByName = (ctx: Context) =>
  findFirst(ctx.client.installs.iterate({ accountId: ctx.parent }), (i) => i.name === ctx.key);

/** Brings an install to the declared site and environment; the record as it is afterwards. */
async function place(ctx: Context, record: ApiInstall, want: z.output<typeof inputs>): Promise<ApiInstall> {
  const patch = WIRE.patch(installOutputs(record), want);
  // Both fields are sent when both change: the service validates the pair (one install per environment).
  return patch ? ctx.client.installs.update(record.id, patch) : record;
}

/** Create's refusal of a name the account holds already (check says it at preview). */
const taken = (ctx: Context, id: string) =>
  alreadyExists(`install ${ctx.key} already exists in account ${ctx.parent} (id ${id})`);

export const definition = defineKind({
  kind: "Install",
  description:
    "A WordPress install, created in an account and placed in a site as its production, staging or development install. The service provisions it asynchronously: create waits until it is `active`, within `timeoutSeconds`. Its name and account replace it (a new name in the same site and environment deletes the old install first: a site holds one install per environment); its site and environment change in place. An `Install` manages its own placement: do not also declare an `InstallPlacement` for it. The id is the install's UUID.",
  deletes:
    "Deletes the install and everything on it (domains, backups, settings) for good. Refused while `deletionProtection` is on, the default. An install already gone counts as deleted.",
  gone: "An install deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "{id}",
  // A site holds one install per environment: a new name in the same place is made once the old install is gone.
  deleteBeforeReplace: (replaces, olds, news) =>
    replaces.includes("name") &&
    ["siteId", "environment"].every((k) => String(olds[k]).toLowerCase() === String(news[k]).toLowerCase()),
  identity: {
    what: "the install's name in its account",
    find: async (_i, ctx) => (await findByName(ctx))?.id,
    refusal: (id, ctx) => taken(ctx, id),
  },
  // A rename to a name the account already holds is refused before the old install is deleted for it.
  async preflight(_i, ctx, olds) {
    if (olds["name"] === undefined || olds["name"] === ctx.key) return [];
    const holder = await findByName(ctx).catch(() => undefined);
    if (!holder) return [];
    const why = `install ${ctx.key} already exists in account ${ctx.parent} (id ${holder.id}): renaming to it would delete install ${String(olds["name"])} and then fail; choose a name the account does not hold`;
    return [{ property: "name", reason: whole(why) }];
  },
  list: listedUnder(
    { optional: "accountId" },
    "Only this account's installs; unset, every install the credentials see.",
    (client, accountId) => collect(client.installs.iterate({ accountId, limit: 100 })),
    (i) => [i.id, i.name],
  ),
  inputs,
  outputs,
  normalize: (key, v) =>
    (key === "accountId" || key === "siteId") && typeof v === "string" ? v.toLowerCase() : v,
  protects: installLoss,
  async create(inputs, ctx) {
    const existing = await findByName(ctx);
    if (existing && !inputs.adopt) throw taken(ctx, existing.id);
    const record = existing ?? (await ctx.client.installs.create(WIRE.body(inputs) as CreateInstallRequest));
    let outs = installOutputs(record);
    if (existing)
      outs = installOutputs(await afterCreate(record.id, outs, () => place(ctx, existing, inputs)));
    outs = installOutputs(await afterCreate(record.id, outs, () => waitActive(ctx, record.id)));
    const adopted = existing && `install ${ctx.key} of account ${ctx.parent}`;
    return { id: record.id, outs, adopted, found: existing && installOutputs(existing) };
  },
  // An import has no state: the lifecycle records the guard on, its default, so a later destroy still refuses.
  read: async (id, _olds, ctx) => ({ outs: installOutputs(await ctx.client.installs.get(id)) }),
  update: async (id, _olds, news, ctx) =>
    installOutputs(await place(ctx, await ctx.client.installs.get(id), news)),
  async delete(id, olds, ctx) {
    await ctx.client.installs.delete(id);
    return `deleted on the service (deletionProtection was off): ${installLoss(olds)}`;
  },
});
