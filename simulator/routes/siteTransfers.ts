import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type Caller, requireAccount, rolesOn, satisfies } from "../auth";
import { DURATIONS, iso } from "../clock";
import { ApiError, conflict, forbidden, notFound, unprocessable } from "../errors";
import { callerOf, paginate, parseBody, type Req } from "../http";
import { transferStatus, transferUpdatedAt } from "../lifecycle";
import type { Sim } from "../sim";
import type { SiteTransferRecord, World } from "../store";

const CreateTransfer = z.strictObject({
  destination_account_id: z.guid(),
  scheduled_time: z.iso.datetime({ offset: true }).nullable().optional(),
  maintenance_mode: z.boolean().optional(),
});

const HOUR = 3_600_000;

/** The Site transfer record of spec section 2 (plus `site_id` and `destination_account_id`). */
function transferView(t: SiteTransferRecord, now: number): Record<string, unknown> {
  return {
    id: t.id,
    site: t.site_name,
    installs: t.install_names,
    origin_account: t.origin_account_name,
    destination_account: t.destination_account_name,
    status: transferStatus(t, now),
    scheduled_time: t.scheduled_time,
    created_at: iso(t.created_at),
    updated_at: iso(transferUpdatedAt(t, now)),
    site_id: t.site_id,
    destination_account_id: t.destination_account_id,
  };
}

function isActive(t: SiteTransferRecord, now: number): boolean {
  return ["pending", "scheduled", "in_progress"].includes(transferStatus(t, now));
}

/** A transfer of a site, readable by Owner or Full with Billing on its origin or destination account. */
function requireTransfer(
  world: World,
  caller: Caller,
  siteId: string,
  transferId: string,
): SiteTransferRecord {
  const t = world.site_transfers[transferId];
  if (!t || t.site_id !== siteId) throw notFound("Site transfer");
  const allowed = [t.origin_account_id, t.destination_account_id].some((a) =>
    satisfies(rolesOn(world, caller.userId, a), "billing"),
  );
  if (!allowed) throw forbidden();
  return t;
}

/** Site transfers: create under the seven constraints, list per account and per site, read, cancel. */
export function registerSiteTransfers(app: FastifyInstance, sim: Sim): void {
  app.post("/v1/sites/:site_id/site_transfers", async (req: Req, reply) => {
    const world = sim.world;
    const caller = callerOf(req);
    // Spec: parameters that fail validation are Unprocessable Entity (a missing or unknown field: 400).
    const body = parseBody(CreateTransfer, req.body, "site_transfer", 422);
    const site = world.sites[req.params["site_id"]!];
    if (!site) throw notFound("Site");
    const origin = world.accounts[site.account_id]!;
    // Constraint 5: Owner or Full with Billing on both accounts.
    if (!satisfies(rolesOn(world, caller.userId, origin.id), "billing")) {
      throw forbidden("Site transfers need Owner or Full with Billing access on the origin account");
    }
    const destination = world.accounts[body.destination_account_id];
    if (!destination) {
      throw unprocessable(
        "site_transfer",
        "destination_account_id",
        "The destination account does not exist",
        "destination_not_found",
      );
    }
    if (!satisfies(rolesOn(world, caller.userId, destination.id), "billing")) {
      throw forbidden("Site transfers need Owner or Full with Billing access on the destination account");
    }
    // Constraints 1 and 4 (parameter validation): 422.
    if (destination.id === origin.id) {
      throw unprocessable(
        "site_transfer",
        "destination_account_id",
        "The origin and destination accounts must differ",
        "same_account",
      );
    }
    const now = sim.now();
    let scheduledMs: number | null = null;
    if (body.scheduled_time) {
      scheduledMs = Date.parse(body.scheduled_time);
      if (scheduledMs < now + HOUR || scheduledMs > now + 7 * 24 * HOUR) {
        throw unprocessable(
          "site_transfer",
          "scheduled_time",
          `scheduled_time must be between 1 hour and 7 days in the future (now is ${iso(now)})`,
          "scheduled_time_out_of_range",
        );
      }
    }
    // Constraints 2, 3 and 6: conflicts.
    if (site.sandbox) {
      throw conflict("site_transfer", "site_id", "Sandbox sites cannot be transferred", "sandbox_site");
    }
    if (sim.store.of(sim.store.by.transfersOfSite, site.id).some((t) => isActive(t, now))) {
      throw conflict(
        "site_transfer",
        "site_id",
        "The site already has an active transfer",
        "transfer_in_progress",
      );
    }
    if (!site.transferable) {
      throw conflict(
        "site_transfer",
        "site_id",
        "The site is not in a transferable state",
        "site_not_transferable",
      );
    }
    if (!destination.preferred_data_center) {
      throw conflict(
        "site_transfer",
        "destination_account_id",
        "The destination account is not eligible: it has no preferred data center configured",
        "no_preferred_data_center",
      );
    }
    const installs = Object.values(world.installs).filter((i) => i.site_id === site.id);
    const startAt = scheduledMs ?? sim.clock.after(DURATIONS.transferStart, now);
    const transfer: SiteTransferRecord = {
      id: randomUUID(),
      site_id: site.id,
      site_name: site.name,
      install_ids: installs.map((i) => i.id),
      install_names: installs.map((i) => i.name),
      origin_account_id: origin.id,
      origin_account_name: origin.name,
      destination_account_id: destination.id,
      destination_account_name: destination.name,
      scheduled_time: scheduledMs === null ? null : iso(scheduledMs),
      maintenance_mode: body.maintenance_mode ?? false,
      created_at: now,
      started_at: startAt,
      completed_at:
        scheduledMs === null
          ? sim.clock.after(DURATIONS.transferComplete, now)
          : sim.clock.after(DURATIONS.transferComplete - DURATIONS.transferStart, scheduledMs),
      cancelled_at: null,
      applied: false,
    };
    world.site_transfers[transfer.id] = transfer;
    sim.store.touch();
    return reply.code(202).send(transferView(transfer, now));
  });

  app.get("/v1/accounts/:account_id/site_transfers", async (req: Req) => {
    const account = requireAccount(sim.world, callerOf(req), req.params["account_id"]!, "billing");
    const now = sim.now();
    const transfers = sim.store.of(sim.store.by.transfersFromAccount, account.id);
    return paginate(req, transfers, (t) => transferView(t, now));
  });

  app.get("/v1/sites/:site_id/site_transfers", async (req: Req) => {
    const world = sim.world;
    const site = world.sites[req.params["site_id"]!];
    if (!site) throw notFound("Site");
    requireAccount(world, callerOf(req), site.account_id, "billing");
    const now = sim.now();
    const transfers = sim.store.of(sim.store.by.transfersOfSite, site.id);
    return paginate(req, transfers, (t) => transferView(t, now));
  });

  app.get("/v1/sites/:site_id/site_transfers/:transfer_id", async (req: Req) => {
    const t = requireTransfer(sim.world, callerOf(req), req.params["site_id"]!, req.params["transfer_id"]!);
    return transferView(t, sim.now());
  });

  app.delete("/v1/sites/:site_id/site_transfers/:transfer_id", async (req: Req, reply) => {
    const t = requireTransfer(sim.world, callerOf(req), req.params["site_id"]!, req.params["transfer_id"]!);
    const now = sim.now();
    const status = transferStatus(t, now);
    if (status === "in_progress" || status === "completed" || status === "failed") {
      throw new ApiError(409, "Transfer has already started and cannot be cancelled", [
        {
          resource: "site_transfer",
          field: "status",
          type: "value_unavailable",
          code: "transfer_started",
          message: `The transfer is ${status}`,
        },
      ]);
    }
    if (status !== "cancelled") {
      t.cancelled_at = now;
      sim.store.touch();
    }
    return reply.code(204).send();
  });
}
