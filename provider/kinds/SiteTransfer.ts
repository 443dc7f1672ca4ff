import { z } from "zod";
import { type SiteTransfer as ApiSiteTransfer, type CreateSiteTransferRequest, isConflict } from "../../sdk";
import { collect, defineKind, findFirst, listedUnder, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import {
  type CheckFailure,
  COMMON_INPUTS,
  canonicalTime,
  containsUnknown,
  named,
  out,
  parentInput,
  uuidString,
} from "../core/inputs";
import { type Context, differs, FORGOTTEN, isCreating } from "../core/lifecycle";
import { wireOf } from "../core/wire";

/** Statuses in which a transfer can still be cancelled (and counts as the site's active transfer). */
const CANCELLABLE: readonly string[] = ["pending", "scheduled"];

const inputs = z.object({
  siteId: parentInput("The site to transfer (with its installs)."),
  destinationAccountId: uuidString.meta({
    description: "The account that receives the site; it must differ from the site's account.",
    replaces: true,
  }),
  scheduledTime: z.iso
    .datetime({ offset: true, error: "must be an RFC 3339 date-time with a zone, e.g. 2026-06-01T14:30:00Z" })
    .overwrite(canonicalTime)
    .nullable()
    .default(null)
    .meta({
      description:
        "When to transfer (RFC 3339 with a zone, 1 hour to 7 days ahead when requested), kept in canonical form (`...000Z`); `null` transfers immediately.",
      replaces: true,
    }),
  maintenanceMode: z.boolean({ error: "must be a boolean" }).default(false).meta({
    description:
      "Put the site in maintenance mode during the transfer. The service does not report it, so it shows the value given at create.",
    replaces: true,
    writeOnly: true,
  }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  transferId: out.string("The transfer's id (also the resource id).", { stable: true, wire: "id" }),
  status: out.string(
    "pending, scheduled, in_progress, completed or failed, as of the last create or refresh (a cancelled transfer counts as gone).",
  ),
  createdAt: out.stringOrNull("When the transfer was requested."),
  updatedAt: out.stringOrNull("When the transfer last changed."),
  site: out.stringOrNull("The site's name at transfer time."),
  installs: out.strings("The names of the site's installs at transfer time."),
  originAccount: out.stringOrNull("The name of the account the site comes from."),
  destinationAccount: out.stringOrNull("The name of the account the site goes to."),
});

type SiteTransferInputs = z.output<typeof inputs>;
type SiteTransferOutputs = OutputsOf<typeof inputs, typeof outputs>;

const normalizeValue = (key: string, v: unknown) =>
  key === "scheduledTime" ? canonicalTime(v) : typeof v === "string" ? v.toLowerCase() : v;

/** Spec limit 4: a scheduled time must be 1 hour to 7 days ahead of `now`. */
export function scheduledTimeFailure(scheduledTime: unknown, now: number): CheckFailure | undefined {
  const lead = typeof scheduledTime === "string" ? Date.parse(scheduledTime) - now : Number.NaN;
  if (Number.isNaN(lead) || (lead >= 3_600_000 && lead <= 7 * 86_400_000)) return undefined;
  return {
    property: "scheduledTime",
    reason: `must be between 1 hour and 7 days from now (now is ${new Date(now).toISOString()}, got ${scheduledTime}); omit it to transfer immediately`,
  };
}

const WIRE = wireOf(inputs, outputs, normalizeValue);

/** Maps a service record to outputs (its time canonical); fields the record lacks keep those of `base`. */
export function transferOutputs(t: ApiSiteTransfer, base?: Partial<SiteTransferInputs>): SiteTransferOutputs {
  const outs = WIRE.outputs(t);
  return { ...base, ...outs, scheduledTime: canonicalTime(outs.scheduledTime) as string | null };
}

/** What a transfer's create sends (the site goes in the path), as a refused adoption names each. */
const SETTINGS = {
  destinationAccountId: "destination account",
  scheduledTime: "scheduled time",
  maintenanceMode: "maintenance mode",
} as const;
const settings = Object.keys(SETTINGS) as (keyof typeof SETTINGS)[];

/** Why an existing transfer cannot be adopted for these inputs (empty when it can). */
export function adoptionMismatch(t: SiteTransferOutputs, inputs: SiteTransferInputs): string[] {
  return settings
    .filter((k) => differs(definition.normalize, k, t[k], inputs[k]))
    .map((k) => `its ${SETTINGS[k]} is ${t[k] ?? "none (immediate)"}`);
}

/** The site's active (pending or scheduled) transfer: the service lists transfers per origin account only. */
async function findActive(ctx: Context): Promise<ApiSiteTransfer | undefined> {
  const site = await ctx.client.sites.get(ctx.parent);
  if (!site.account?.id) return undefined;
  return findFirst(ctx.client.siteTransfers.iterateForAccount(site.account.id), (t) => {
    // Records name the site as it was; its id is present on newer responses, the name otherwise.
    const id = WIRE.outputs(t).siteId;
    const sameSite = id ? id.toLowerCase() === ctx.parent.toLowerCase() : t.site === site.name;
    return sameSite && CANCELLABLE.includes(t.status);
  });
}

/** The active transfer `adopt` takes (none without it), its outputs, and why it cannot for these inputs (a transfer cannot change). */
async function adoptable(inputs: SiteTransferInputs, ctx: Context) {
  const active = inputs.adopt ? await findActive(ctx) : undefined;
  if (!active) return undefined;
  const outs = transferOutputs(active, inputs);
  const mismatch = adoptionMismatch(outs, inputs);
  const refused = mismatch.length
    ? new Error(
        `cannot adopt transfer ${active.id} of site ${ctx.parent}: ${mismatch.join("; ")}. A transfer cannot be changed: set the inputs to match, or cancel it on the service first`,
      )
    : undefined;
  return { id: active.id, outs, refused };
}

export const definition = defineKind({
  kind: "SiteTransfer",
  description:
    "A request to move a site, with its installs, to another account: immediately or at a scheduled time 1 hour to 7 days ahead. The service accepts it asynchronously (`pending` or `scheduled`); read follows its status through `in_progress` to `completed` or `failed`, and a transfer cancelled on the service counts as gone. A transfer cannot be edited, so every input replaces it. The id is the transfer's id.",
  deletes:
    "Reads the transfer's status first: a `pending` or `scheduled` transfer is cancelled on the service. In any other status (`in_progress`, `completed`, `failed`, `cancelled`), or when the cancel is refused with 409 because the transfer started in between, nothing is sent and the resource is only forgotten: a transfer that has begun cannot be undone.",
  gone: "A transfer cancelled on the service (it will never run) reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "{siteId}/{id}",
  notImported: "a one-off move of a site to another account: its site is brought in as a Site",
  identity: {
    what: "the site's active transfer (a site has one at most)",
    find: async (_i, ctx) => (await findActive(ctx))?.id,
    refusal: (id, ctx) => alreadyExists(`site ${ctx.parent} already has an active transfer ${id}`),
  },
  list: listedUnder(
    "siteId",
    "The site whose transfers are listed.",
    async (client, siteId) =>
      (await collect(client.siteTransfers.iterateForSite(siteId, { limit: 100 }))).filter(
        (t) => t.status !== "cancelled",
      ),
    (t) => {
      const to = WIRE.outputs(t).destinationAccountId;
      return [t.id, to ? `to ${to}` : t.id];
    },
  ),
  inputs,
  outputs,
  // A site has at most one active transfer: the old one must be cancelled before its replacement can
  // be requested (create-before-delete would always be refused with 409).
  deleteBeforeReplace: true,
  normalize: normalizeValue,
  // Only a transfer about to be created is held to the time window.
  check(result, olds) {
    const time = result.inputs["scheduledTime"];
    if (result.failures?.length || containsUnknown(time) || !isCreating(definition, olds, result.inputs))
      return result;
    const failure = scheduledTimeFailure(time, Date.now());
    return failure ? { inputs: result.inputs, failures: [named(failure)] } : result;
  },
  takeover: async (inputs, ctx) => (await adoptable(inputs, ctx))?.refused,
  async create(inputs, ctx) {
    const active = await adoptable(inputs, ctx);
    if (active?.refused) throw active.refused;
    if (active) return { id: active.id, outs: active.outs, adopted: `transfer of site ${ctx.parent}` };
    try {
      const body = WIRE.body(inputs, settings) as CreateSiteTransferRequest;
      const t = await ctx.client.siteTransfers.create(ctx.parent, body);
      return { id: t.id, outs: transferOutputs(t) };
    } catch (err) {
      const other = isConflict(err) && !inputs.adopt && (await findActive(ctx).catch(() => undefined));
      if (!other) throw err;
      throw alreadyExists(
        `site ${ctx.parent} already has an active transfer ${other.id} (status ${other.status})`,
      );
    }
  },
  async read(id, _olds, ctx) {
    const t = await ctx.client.siteTransfers.get(ctx.parent, id);
    return t.status === "cancelled" ? undefined : { outs: transferOutputs(t) };
  },
  async delete(id, _olds, ctx) {
    const t = await ctx.client.siteTransfers.get(ctx.parent, id);
    if (t.status === "cancelled") return "already cancelled on the service; nothing sent";
    if (!CANCELLABLE.includes(t.status))
      return `${FORGOTTEN}the transfer is ${t.status} and can no longer be cancelled`;
    try {
      await ctx.client.siteTransfers.cancel(ctx.parent, id);
      return `cancelled on the service (it was ${t.status})`;
    } catch (err) {
      // 409: it started between the read and the cancel; it can no longer be stopped, so forget it.
      if (!isConflict(err)) throw err;
      return "forgotten only: the transfer started before it could be cancelled (the service refused the cancel, 409)";
    }
  },
});
