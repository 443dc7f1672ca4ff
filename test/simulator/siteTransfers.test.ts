import { describe, expect, it } from "vitest";
import { call, realTimePasses, SEED, useSimulator } from "./helpers";

const { sites: S, accounts: A, installs: I } = SEED;
const transfer = (siteId: string) => `/v1/sites/${siteId}/site_transfers`;
const HOUR = 3_600_000;

async function simNow(sim: ReturnType<ReturnType<typeof useSimulator>>): Promise<number> {
  return Date.parse((await call(sim, "GET", "/__sim/clock")).body.now);
}

describe("site transfers (the seven constraints)", () => {
  const sim = useSimulator();

  it("accepts an immediate transfer (202 pending), which completes on the clock and moves the site", async () => {
    const r = await call(sim(), "POST", transfer(S.acmeBlog.id), { destination_account_id: A.initech.id });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      site: "Acme Blog",
      installs: ["acmeblog"],
      origin_account: "Acme Corp",
      destination_account: "Initech",
      status: "pending",
      scheduled_time: null,
    });
    sim().advance(1);
    const mid = await call(sim(), "GET", `${transfer(S.acmeBlog.id)}/${r.body.id}`);
    expect(mid.body.status).toBe("in_progress");
    sim().advance(5);
    const done = await call(sim(), "GET", `${transfer(S.acmeBlog.id)}/${r.body.id}`);
    expect(done.body.status).toBe("completed");
    expect((await call(sim(), "GET", `/v1/sites/${S.acmeBlog.id}`)).body.account.id).toBe(A.initech.id);
    expect((await call(sim(), "GET", `/v1/installs/${I.acmeblog.id}`)).body.account.id).toBe(A.initech.id);
    // The record keeps the state at transfer time.
    await call(sim(), "PATCH", `/v1/sites/${S.acmeBlog.id}`, { name: "Renamed" });
    const listed = await call(sim(), "GET", `/v1/accounts/${A.acme.id}/site_transfers`);
    expect(listed.body.results.find((t: { id: string }) => t.id === r.body.id).site).toBe("Acme Blog");
  });

  it("completes by itself in real time at the default pace", async () => {
    const r = await call(sim(), "POST", transfer(S.acmeBlog.id), { destination_account_id: A.initech.id });
    const undo = realTimePasses(2200);
    try {
      expect((await call(sim(), "GET", `${transfer(S.acmeBlog.id)}/${r.body.id}`)).body.status).toBe(
        "completed",
      );
    } finally {
      undo();
    }
  });

  it("constraint 1: origin and destination must differ (422)", async () => {
    const r = await call(sim(), "POST", transfer(S.acmeBlog.id), { destination_account_id: A.acme.id });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({
      resource: "site_transfer",
      field: "destination_account_id",
      code: "same_account",
    });
  });

  it("constraint 2: a sandbox site cannot be transferred (409)", async () => {
    const r = await call(sim(), "POST", transfer(S.acmeSandbox.id), { destination_account_id: A.initech.id });
    expect(r.status).toBe(409);
    expect(r.body.errors[0].code).toBe("sandbox_site");
  });

  it("constraint 3: the destination needs a preferred data center (409, not eligible)", async () => {
    const r = await call(sim(), "POST", transfer(S.acmeBlog.id), { destination_account_id: A.globex.id });
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatchObject({
      field: "destination_account_id",
      code: "no_preferred_data_center",
    });
  });

  it("constraint 4: scheduled_time must be between 1 hour and 7 days ahead (422), and a valid one is scheduled", async () => {
    const now = await simNow(sim());
    for (const at of [now + 30 * 60_000, now + 8 * 24 * HOUR, now - HOUR]) {
      const r = await call(sim(), "POST", transfer(S.acmeBlog.id), {
        destination_account_id: A.initech.id,
        scheduled_time: new Date(at).toISOString(),
      });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe("scheduled_time");
    }
    const at = new Date(now + 2 * HOUR).toISOString();
    const ok = await call(sim(), "POST", transfer(S.acmeBlog.id), {
      destination_account_id: A.initech.id,
      scheduled_time: at,
    });
    expect(ok.status).toBe(202);
    expect(ok.body).toMatchObject({ status: "scheduled", scheduled_time: at });
    sim().advance(3600);
    expect((await call(sim(), "GET", `${transfer(S.acmeBlog.id)}/${ok.body.id}`)).body.status).toBe(
      "scheduled",
    );
    sim().advance(3600 + 10);
    expect((await call(sim(), "GET", `${transfer(S.acmeBlog.id)}/${ok.body.id}`)).body.status).toBe(
      "completed",
    );
  });

  it("parameters that fail validation are Unprocessable Entity (422) naming the field", async () => {
    const bad = [
      { destination_account_id: A.initech.id, scheduled_time: "tomorrow" },
      { destination_account_id: "initech" },
      { destination_account_id: A.initech.id, maintenance_mode: "yes" },
    ];
    const fields: string[] = [];
    for (const body of bad) {
      const r = await call(sim(), "POST", transfer(S.acmeBlog.id), body);
      expect(r.status).toBe(422);
      fields.push(r.body.errors[0].field);
    }
    expect(fields).toEqual(["scheduled_time", "destination_account_id", "maintenance_mode"]);
    // Nothing was created: Acme Corp still lists only the seeded, cancelled transfer.
    expect((await call(sim(), "GET", `/v1/accounts/${A.acme.id}/site_transfers`)).body.count).toBe(1);
  });

  it("a body without destination_account_id, or with an unknown field, is a malformed request (400)", async () => {
    const missing = await call(sim(), "POST", transfer(S.acmeBlog.id), {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ field: "destination_account_id", code: "required" });
    const unknown = await call(sim(), "POST", transfer(S.acmeBlog.id), {
      destination_account_id: A.initech.id,
      when: "now",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: "when", code: "unknown_field" });
  });

  it("constraint 5: needs Owner or Full with Billing on both accounts (403 otherwise)", async () => {
    const body = { destination_account_id: A.initech.id };
    expect((await call(sim(), "POST", transfer(S.acmeBlog.id), body, { user: "full" })).status).toBe(403);
    expect(
      (await call(sim(), "POST", transfer(S.acmeBlog.id), body, { user: "partialBilling" })).status,
    ).toBe(403);
    // An owner of the origin without a role on the destination.
    expect((await call(sim(), "POST", transfer(S.acmeBlog.id), body, { user: "owner" })).status).toBe(403);
    expect((await call(sim(), "POST", transfer(S.acmeBlog.id), body, { user: "fullBilling" })).status).toBe(
      202,
    );
  });

  it("constraint 6: conflict when the site already has an active transfer or is not transferable", async () => {
    const body = { destination_account_id: A.initech.id };
    expect((await call(sim(), "POST", transfer(S.acmeBlog.id), body)).status).toBe(202);
    const again = await call(sim(), "POST", transfer(S.acmeBlog.id), body);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe("transfer_in_progress");
    const notTransferable = await call(sim(), "POST", transfer(S.acmeMarketing.id), body);
    expect(notTransferable.status).toBe(409);
    expect(notTransferable.body.errors[0].code).toBe("site_not_transferable");
  });

  it("constraint 7: 422 when the transfer parameters fail validation (unknown destination)", async () => {
    const r = await call(sim(), "POST", transfer(S.acmeBlog.id), {
      destination_account_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].field).toBe("destination_account_id");
  });

  it("answers 404 for an unknown site and 400 for a missing destination", async () => {
    expect(
      (
        await call(sim(), "POST", transfer("00000000-0000-4000-8000-000000000000"), {
          destination_account_id: A.initech.id,
        })
      ).status,
    ).toBe(404);
    const missing = await call(sim(), "POST", transfer(S.acmeBlog.id), {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ field: "destination_account_id", type: "invalid_value" });
  });

  it("lists the transfers of an account for Owner or Full with Billing only", async () => {
    const list = await call(sim(), "GET", `/v1/accounts/${A.acme.id}/site_transfers`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, previous: null, next: null });
    expect(list.body.results[0]).toMatchObject({
      id: SEED.siteTransfers.acmeBlogCancelled.id,
      status: "cancelled",
    });
    expect(
      (await call(sim(), "GET", `/v1/accounts/${A.acme.id}/site_transfers`, undefined, { user: "full" }))
        .status,
    ).toBe(403);
    expect(
      (
        await call(sim(), "GET", `/v1/accounts/${A.acme.id}/site_transfers`, undefined, {
          user: "fullBilling",
        })
      ).status,
    ).toBe(200);
  });

  it("cancels a scheduled transfer (204) but not one that has started (409)", async () => {
    const now = await simNow(sim());
    const scheduled = await call(sim(), "POST", transfer(S.acmeBlog.id), {
      destination_account_id: A.initech.id,
      scheduled_time: new Date(now + 2 * HOUR).toISOString(),
    });
    expect((await call(sim(), "DELETE", `${transfer(S.acmeBlog.id)}/${scheduled.body.id}`)).status).toBe(204);
    expect((await call(sim(), "GET", `${transfer(S.acmeBlog.id)}/${scheduled.body.id}`)).body.status).toBe(
      "cancelled",
    );
    const immediate = await call(sim(), "POST", transfer(S.acmeBlog.id), {
      destination_account_id: A.initech.id,
    });
    sim().advance(1);
    const late = await call(sim(), "DELETE", `${transfer(S.acmeBlog.id)}/${immediate.body.id}`);
    expect(late.status).toBe(409);
  });
});
