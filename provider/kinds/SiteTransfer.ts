/**
 * `SiteTransfer`: a request to move a site (with its installs) to another account, now or at a
 * scheduled time. The service accepts it asynchronously (`pending` or `scheduled`); `read` follows its
 * status through `in_progress` to `completed` or `failed`. A transfer cancelled on the service counts as
 * gone (refresh drops it). Every input is part of the request, so any change replaces the transfer.
 *
 * Delete: reads the transfer's status first. While it is `pending` or `scheduled` the transfer is
 * cancelled on the service (DELETE). In any other status (`in_progress`, `completed`, `failed`,
 * `cancelled`), or when the cancel is refused with 409 because the transfer started in between, nothing
 * is done on the service and the resource is only forgotten: a transfer that has begun cannot be undone.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { SiteTransfer as ApiSiteTransfer } from "../../sdk";
import { type CheckFailure, COMMON_INPUTS, containsUnknown, uuidString } from "../core/inputs";
import { type Context, defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { type SiteTransferInfo, toSiteTransferInfo } from "../lookups";

const KIND = "SiteTransfer";

/** Earliest and latest scheduled time the service accepts, relative to now (spec limits). */
export const MIN_LEAD_MS = 60 * 60 * 1000;
export const MAX_LEAD_MS = 7 * 24 * 60 * 60 * 1000;

/** Statuses in which a transfer can still be cancelled (and counts as the site's active transfer). */
export const CANCELLABLE_STATUSES = ["pending", "scheduled"] as const;

/** An RFC 3339 instant in its canonical form (`2026-06-01T14:30:00.000Z`), or the input if it is not one. */
export function canonicalTime(value: unknown): unknown {
  if (typeof value !== "string") return value ?? null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export const SiteTransferInputsSchema = z
  .object({
    /** The site to transfer. Changing it replaces the transfer. */
    siteId: uuidString("siteId"),
    /** The account that receives the site; it must differ from the site's account. Changing it replaces the transfer. */
    destinationAccountId: uuidString("destinationAccountId"),
    /** When to transfer (RFC 3339, 1 hour to 7 days ahead); null or absent transfers immediately. */
    scheduledTime: z.iso
      .datetime({
        offset: true,
        error: "scheduledTime must be an RFC 3339 date-time with a zone, e.g. 2026-06-01T14:30:00Z",
      })
      .transform((s) => canonicalTime(s) as string)
      .nullable()
      .default(null),
    /** Put the site in maintenance mode during the transfer. Changing it replaces the transfer. */
    maintenanceMode: z.boolean({ error: "maintenanceMode must be a boolean" }).default(false),
    ...COMMON_INPUTS,
  })
  .strict();

export type SiteTransferInputs = z.output<typeof SiteTransferInputsSchema>;

/** Outputs of a SiteTransfer: its inputs plus the transfer as the service reports it. */
export interface SiteTransferOutputs
  extends Omit<SiteTransferInfo, "id" | "siteId" | "destinationAccountId">,
    Record<string, unknown> {
  siteId: string;
  destinationAccountId: string;
  maintenanceMode: boolean;
  transferId: string;
}

const IDENTITY = ["siteId", "destinationAccountId", "scheduledTime", "maintenanceMode"] as const;

function normalizeValue(key: string, v: unknown): unknown {
  if (key === "scheduledTime") return canonicalTime(v);
  if (key === "maintenanceMode") return v ?? false;
  if (typeof v === "string") return v.toLowerCase();
  return v ?? null;
}

/**
 * Whether `check` is looking at a transfer about to be created: no old inputs, or an input changed
 * (every input replaces). An existing transfer's scheduled time is allowed to fall into the past.
 */
export function isCreating(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  if (olds["siteId"] === undefined) return true;
  return IDENTITY.some(
    (k) => JSON.stringify(normalizeValue(k, olds[k])) !== JSON.stringify(normalizeValue(k, news[k])),
  );
}

/** Spec limit 4 (and rule 4 of transfers): a scheduled time must be 1 hour to 7 days ahead of `now`. */
export function scheduledTimeFailure(scheduledTime: unknown, now: number): CheckFailure | undefined {
  if (typeof scheduledTime !== "string") return undefined;
  const at = Date.parse(scheduledTime);
  if (Number.isNaN(at)) return undefined;
  if (at - now < MIN_LEAD_MS || at - now > MAX_LEAD_MS) {
    return {
      property: "scheduledTime",
      reason:
        `scheduledTime must be between 1 hour and 7 days from now (now is ${new Date(now).toISOString()}, ` +
        `got ${scheduledTime}); omit it to transfer immediately`,
    };
  }
  return undefined;
}

/** Maps a service record to outputs; fields the record lacks keep the values of `base`. */
export function transferOutputs(
  base: Pick<SiteTransferOutputs, "siteId" | "destinationAccountId" | "maintenanceMode">,
  t: ApiSiteTransfer,
): SiteTransferOutputs {
  const mm = (t as { maintenance_mode?: unknown }).maintenance_mode;
  // The record as the lookups read it; the inputs it lacks keep the values of `base`.
  const { id, siteId, destinationAccountId, scheduledTime, ...rest } = toSiteTransferInfo(t);
  return {
    siteId: siteId ?? base.siteId,
    destinationAccountId: destinationAccountId ?? base.destinationAccountId,
    scheduledTime: (canonicalTime(scheduledTime) as string | null) ?? null,
    maintenanceMode: typeof mm === "boolean" ? mm : base.maintenanceMode,
    transferId: id,
    ...rest,
  };
}

/** Why an existing transfer cannot be adopted for these inputs (empty when it can). */
export function adoptionMismatch(t: SiteTransferOutputs, inputs: SiteTransferInputs): string[] {
  const out: string[] = [];
  if (t.destinationAccountId.toLowerCase() !== inputs.destinationAccountId.toLowerCase())
    out.push(`its destination account is ${t.destinationAccountId}`);
  if (canonicalTime(t.scheduledTime) !== canonicalTime(inputs.scheduledTime))
    out.push(`its scheduled time is ${t.scheduledTime ?? "none (immediate)"}`);
  if (t.maintenanceMode !== inputs.maintenanceMode) out.push(`its maintenance mode is ${t.maintenanceMode}`);
  return out;
}

/**
 * The site's active (pending or scheduled) transfer. The service lists transfers only per origin
 * account, so the site's current account is read first.
 */
async function findActive(ctx: Context, siteId: string): Promise<ApiSiteTransfer | undefined> {
  const site = await ctx.client.sites.get(siteId);
  const accountId = site.account?.id;
  if (!accountId) return undefined;
  for await (const t of ctx.client.siteTransfers.iterateForAccount(accountId)) {
    // Records name the site as it was; `site_id` is present on newer responses, the name otherwise.
    const sameSite = t.site_id ? t.site_id.toLowerCase() === siteId.toLowerCase() : t.site === site.name;
    if (sameSite && (CANCELLABLE_STATUSES as readonly string[]).includes(t.status)) return t;
  }
  return undefined;
}

const defined = defineProvider<SiteTransferInputs, SiteTransferOutputs>({
  kind: KIND,
  schema: SiteTransferInputsSchema,
  replaceOn: [...IDENTITY],
  updatable: [],
  // A site has at most one active transfer: the old one must be cancelled before its replacement can
  // be requested (create-before-delete would always be refused with 409).
  deleteBeforeReplace: true,
  normalize: normalizeValue,
  async create(inputs, ctx) {
    if (inputs.adopt) {
      const active = await findActive(ctx, inputs.siteId);
      if (active) {
        const outs = transferOutputs(inputs, active);
        const mismatch = adoptionMismatch(outs, inputs);
        if (mismatch.length)
          throw new Error(
            `cannot adopt transfer ${active.id} of site ${inputs.siteId}: ${mismatch.join("; ")}. ` +
              "A transfer cannot be changed: set the inputs to match, or cancel it on the service first",
          );
        return { id: active.id, outs };
      }
    }
    try {
      const t = await ctx.client.siteTransfers.create(inputs.siteId, {
        destination_account_id: inputs.destinationAccountId,
        ...(inputs.scheduledTime ? { scheduled_time: inputs.scheduledTime } : {}),
        maintenance_mode: inputs.maintenanceMode,
      });
      return { id: t.id, outs: transferOutputs(inputs, t) };
    } catch (err) {
      if ((err as { status?: number }).status !== 409 || inputs.adopt) throw err;
      const active = await findActive(ctx, inputs.siteId).catch(() => undefined);
      if (!active) throw err;
      throw new Error(
        `site ${inputs.siteId} already has an active transfer ${active.id} (status ${active.status}); ` +
          "set adopt: true to take it over",
      );
    }
  },
  async read(id, olds, ctx) {
    const t = await ctx.client.siteTransfers.get(olds.siteId, id);
    // A cancelled transfer will never run: it counts as gone, so the next up requests a new one.
    if (t.status === "cancelled") return undefined;
    const outs = transferOutputs(olds, t);
    const { siteId, destinationAccountId, scheduledTime, maintenanceMode } = outs;
    return { outs, inputs: { siteId, destinationAccountId, scheduledTime, maintenanceMode } };
  },
  async delete(id, olds, ctx) {
    const t = await ctx.client.siteTransfers.get(olds.siteId, id);
    if (t.status === "cancelled") return "already cancelled on the service; nothing sent";
    if (!(CANCELLABLE_STATUSES as readonly string[]).includes(t.status)) {
      // Begun or over: nothing can stop or undo it.
      return `${FORGOTTEN}the transfer is ${t.status} and can no longer be cancelled`;
    }
    try {
      await ctx.client.siteTransfers.cancel(olds.siteId, id);
    } catch (err) {
      // 409: it started between the read and the cancel; it can no longer be stopped, so forget it.
      if ((err as { status?: number }).status === 409) {
        return "forgotten only: the transfer started before it could be cancelled (the service refused the cancel, 409)";
      }
      throw err;
    }
    return `cancelled on the service (it was ${t.status})`;
  },
});

/**
 * The provider: the generic one, with a `check` that validates the scheduled-time window only for a
 * transfer about to be created (a created transfer's time legitimately falls into the past).
 */
export const provider: typeof defined = {
  ...defined,
  async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
    const result = await defined.check!(olds, news);
    const failures = [...(result.failures ?? [])];
    const time = result.inputs["scheduledTime"];
    if (!failures.length && !containsUnknown(time) && isCreating(olds, result.inputs)) {
      const failure = scheduledTimeFailure(time, Date.now());
      if (failure) failures.push(failure);
    }
    return failures.length ? { inputs: result.inputs, failures } : { inputs: result.inputs };
  },
};

/** Arguments of a {@link SiteTransfer}. */
export interface SiteTransferArgs {
  /** The site to transfer. Changing it replaces the transfer. */
  siteId: pulumi.Input<string>;
  /** The account that receives the site (must differ from the site's account). Changing it replaces the transfer. */
  destinationAccountId: pulumi.Input<string>;
  /** When to transfer, RFC 3339, between 1 hour and 7 days ahead; omit to transfer immediately. */
  scheduledTime?: pulumi.Input<string | null>;
  /** Put the site in maintenance mode during the transfer (default false). */
  maintenanceMode?: pulumi.Input<boolean>;
  /** Take over the site's active (pending or scheduled) transfer with these settings instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A transfer of a site to another account. The id is the transfer's id. Delete cancels the transfer
 * while it is pending or scheduled; once it has begun (or ended) delete only forgets it.
 *
 * @example
 * const move = new wpengine.SiteTransfer("move-blog", {
 *   siteId, destinationAccountId, scheduledTime: "2026-06-01T02:00:00Z", maintenanceMode: true,
 * });
 * export const transferStatus = move.status;
 */
export class SiteTransfer extends WpEngineResource {
  /** The transferred site. */
  declare readonly siteId: pulumi.Output<string>;
  /** The receiving account. */
  declare readonly destinationAccountId: pulumi.Output<string>;
  /** When the transfer runs (null: immediately). */
  declare readonly scheduledTime: pulumi.Output<string | null>;
  /** Whether the site is in maintenance mode during the transfer. */
  declare readonly maintenanceMode: pulumi.Output<boolean>;
  /** The transfer's id (also the resource id). */
  declare readonly transferId: pulumi.Output<string>;
  /** pending, scheduled, in_progress, completed, failed or cancelled (as of the last create or refresh). */
  declare readonly status: pulumi.Output<string>;
  /** When the transfer was requested. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** When the transfer last changed. */
  declare readonly updatedAt: pulumi.Output<string | null>;
  /** The site's name at transfer time. */
  declare readonly site: pulumi.Output<string | null>;
  /** The names of the site's installs at transfer time. */
  declare readonly installs: pulumi.Output<string[]>;
  /** The name of the account the site comes from. */
  declare readonly originAccount: pulumi.Output<string | null>;
  /** The name of the account the site goes to. */
  declare readonly destinationAccount: pulumi.Output<string | null>;
  /** Whether this resource may take over an existing active transfer. */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: SiteTransferArgs, opts?: ResourceOptions) {
    super(KIND, name, args, SITE_TRANSFER_OUTPUTS, opts);
  }
}

const SITE_TRANSFER_OUTPUTS = [
  "transferId",
  "status",
  "createdAt",
  "updatedAt",
  "site",
  "installs",
  "originAccount",
  "destinationAccount",
  "scheduledTime",
  "maintenanceMode",
  "adopt",
] as const;
