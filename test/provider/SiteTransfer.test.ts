import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/SiteTransfer";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, deleteSays, diff, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const BLOG = SEED.sites.acmeBlog.id; // transferable, owned by Acme
const SANDBOX = SEED.sites.acmeSandbox.id;
const ACME = SEED.accounts.acme.id;
const INITECH = SEED.accounts.initech.id; // has a preferred data center
const GLOBEX = SEED.accounts.globex.id; // has none

const client = fixture.client;

/** A time `hours` ahead of the simulator's clock, whole minutes, RFC 3339 without milliseconds. */
const simHoursAhead = (hours: number) => {
  const now = Date.parse(fixture.sim.advance(0));
  const d = new Date(now + hours * 3_600_000);
  d.setUTCSeconds(0, 0);
  return d.toISOString().replace(".000Z", "Z");
};
const wallHoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

const deletes = () => fixture.sim.requests().filter((r) => r.method === "DELETE");

describe("SiteTransfer lifecycle", () => {
  it("creates a scheduled transfer, reads back the same outputs, and a second diff shows no changes", async () => {
    const when = simHoursAhead(3);
    const args = { siteId: BLOG, destinationAccountId: INITECH, scheduledTime: when, maintenanceMode: true };
    const { id, outs } = await createOk(provider, args);
    expect(outs).toMatchObject({
      transferId: id,
      status: "scheduled",
      scheduledTime: new Date(when).toISOString(),
      maintenanceMode: true,
      site: "Acme Blog",
      installs: ["acmeblog"],
      originAccount: "Acme Corp",
      destinationAccount: "Initech",
    });
    expect(typeof outs["createdAt"]).toBe("string");
    expect((await client().siteTransfers.get(BLOG, id)).status).toBe("scheduled");

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({
      siteId: BLOG,
      destinationAccountId: INITECH,
      scheduledTime: new Date(when).toISOString(),
      maintenanceMode: true,
    });
    expect(await diff(provider, id, outs, args)).toEqual({ changes: false });
    // The same instant written with an offset is no change.
    const offset = new Date(Date.parse(when) + 2 * 3_600_000).toISOString().replace(".000Z", "+02:00");
    expect(await diff(provider, id, outs, { ...args, scheduledTime: offset })).toEqual({ changes: false });
  });

  it("follows the status on read until completed, and its diff never fails once the time has passed", async () => {
    const args = { siteId: BLOG, destinationAccountId: INITECH, scheduledTime: simHoursAhead(2) };
    const { id, outs, inputs } = await createOk(provider, args);
    const simNow = Date.parse(fixture.sim.advance(0));
    fixture.sim.advance((Date.parse(args.scheduledTime) - simNow) / 1000 + 0.5);
    expect((await provider.read!(id, outs)).props?.["status"]).toBe("in_progress");
    fixture.sim.advance(5);
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ status: "completed", scheduledTime: outs["scheduledTime"] });
    expect((await client().sites.get(BLOG)).account?.id).toBe(INITECH);
    // check of an existing transfer (olds = its inputs) accepts a time that is now in the past.
    const past = { ...inputs, scheduledTime: "2020-01-01T00:00:00Z" };
    await checkOk(provider, past, past);
    expect(await diff(provider, id, read.props!, args)).toEqual({ changes: false });
  });

  it("replaces on any change, deleting (cancelling) the old transfer first, and has no update", async () => {
    const args = { siteId: BLOG, destinationAccountId: INITECH, scheduledTime: simHoursAhead(3) };
    const { id, outs } = await createOk(provider, args);
    expect(await diff(provider, id, outs, { ...args, maintenanceMode: true })).toEqual({
      changes: true,
      replaces: ["maintenanceMode"],
      deleteBeforeReplace: true,
    });
    expect(await diff(provider, id, outs, { ...args, scheduledTime: simHoursAhead(4) })).toEqual({
      changes: true,
      replaces: ["scheduledTime"],
      deleteBeforeReplace: true,
    });
    expect(await diff(provider, id, outs, { ...args, scheduledTime: null })).toEqual({
      changes: true,
      replaces: ["scheduledTime"],
      deleteBeforeReplace: true,
    });
    await expect(provider.update!(id, outs, outs)).rejects.toThrow(
      /every input of this resource replaces it/,
    );
  });

  it("sees a cancel made out of band: read reports the transfer gone, so the next up requests it again", async () => {
    const args = { siteId: BLOG, destinationAccountId: INITECH, scheduledTime: simHoursAhead(3) };
    const { id, outs } = await createOk(provider, args);
    await client().siteTransfers.cancel(BLOG, id);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    // With no state left, the engine creates it again from the same inputs.
    const again = await createOk(provider, args);
    expect(again.id).not.toBe(id);
  });

  it("cancels a scheduled transfer on delete; a read afterwards returns an empty id", async () => {
    const { id, outs } = await createOk(provider, {
      siteId: BLOG,
      destinationAccountId: INITECH,
      scheduledTime: simHoursAhead(3),
    });
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:SiteTransfer ${id}: cancelled on the service (it was scheduled)`,
    ]);
    expect(deletes().map((r) => r.path)).toEqual([`/v1/sites/${BLOG}/site_transfers/${id}`]);
    expect((await client().siteTransfers.get(BLOG, id)).status).toBe("cancelled");
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:SiteTransfer ${id}: already cancelled on the service; nothing sent`,
    ]);
  });

  it("only forgets a transfer that has begun: delete sends nothing", async () => {
    const { id, outs } = await createOk(provider, { siteId: BLOG, destinationAccountId: INITECH });
    expect(outs["status"]).toBe("pending");
    expect(outs["scheduledTime"]).toBeNull();
    fixture.sim.advance(1);
    expect((await provider.read!(id, outs)).props?.["status"]).toBe("in_progress");
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:SiteTransfer ${id}: forgotten only, nothing sent to the service: the transfer is in_progress and can no longer be cancelled`,
    ]);
    expect(deletes()).toEqual([]);
    fixture.sim.advance(5);
    expect((await client().siteTransfers.get(BLOG, id)).status).toBe("completed");
  });

  it("only forgets a transfer that starts between the read and the cancel (409), saying so", async () => {
    const { id, outs } = await createOk(provider, { siteId: BLOG, destinationAccountId: INITECH });
    expect(outs["status"]).toBe("pending");
    // The transfer starts once delete has read it as scheduled, before its cancel arrives.
    fixture.sim.clearRequests();
    const said = deleteSays(provider, id, outs);
    await fixture.sim.served((r) => r.method === "GET" && r.path.endsWith(`/site_transfers/${id}`));
    fixture.sim.advance(1);
    expect(await said).toEqual([
      `wpengine:SiteTransfer ${id}: forgotten only: the transfer started before it could be cancelled (the service refused the cancel, 409)`,
    ]);
    expect((await client().siteTransfers.get(BLOG, id)).status).toBe("in_progress");
  });
});

describe("SiteTransfer check", () => {
  it("names every rule's failure", async () => {
    const ok = { siteId: BLOG, destinationAccountId: INITECH };
    expect(await checkFails(provider, { ...ok, siteId: "acme-blog" })).toEqual([
      "siteId: siteId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { siteId: BLOG })).toEqual([
      "destinationAccountId: destinationAccountId is required and must be a string",
    ]);
    expect(await checkFails(provider, { ...ok, scheduledTime: "tomorrow" })).toEqual([
      "scheduledTime: scheduledTime must be an RFC 3339 date-time with a zone, e.g. 2026-06-01T14:30:00Z",
    ]);
    expect(await checkFails(provider, { ...ok, maintenanceMode: "yes" })).toEqual([
      "maintenanceMode: maintenanceMode must be a boolean",
    ]);
    for (const soon of [wallHoursAhead(0.5), wallHoursAhead(8 * 24), "2020-01-01T00:00:00Z"]) {
      expect(await checkFails(provider, { ...ok, scheduledTime: soon })).toEqual([
        expect.stringMatching(
          /^scheduledTime: scheduledTime must be between 1 hour and 7 days from now \(now is .*, got .*\); omit it to transfer immediately$/,
        ),
      ]);
    }
  });

  it("validates the window only for a transfer about to be created", async () => {
    const past = {
      siteId: BLOG,
      destinationAccountId: INITECH,
      scheduledTime: "2020-01-01T00:00:00.000Z",
      maintenanceMode: false,
    };
    await checkOk(provider, past, past); // an existing transfer: its time may be past
    // Any change replaces, i.e. creates a new transfer: then the window applies again.
    expect(await checkFails(provider, { ...past, maintenanceMode: true }, past)).toEqual([
      expect.stringMatching(/^scheduledTime: scheduledTime must be between 1 hour and 7 days/),
    ]);
    await checkOk(provider, { ...past, scheduledTime: wallHoursAhead(2) }, past);
  });

  it("passes unknown values through and skips the window check", async () => {
    const inputs = await checkOk(provider, {
      siteId: UNKNOWN,
      destinationAccountId: INITECH,
      scheduledTime: UNKNOWN,
    });
    expect(inputs).toMatchObject({ siteId: UNKNOWN, scheduledTime: UNKNOWN, maintenanceMode: false });
  });
});

describe("SiteTransfer adoption and service errors", () => {
  it("fails on the site's active transfer without adopt, and takes it over with it", async () => {
    const when = simHoursAhead(5);
    const existing = await client().siteTransfers.create(BLOG, {
      destination_account_id: INITECH,
      scheduled_time: when,
      maintenance_mode: false,
    });
    const args = { siteId: BLOG, destinationAccountId: INITECH, scheduledTime: when };
    await expect(provider.create(await refusedAtCheck(provider, args))).rejects.toThrow(
      `wpengine:SiteTransfer create failed: site ${BLOG} already has an active transfer ${existing.id} (status scheduled); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, { ...args, adopt: true });
    expect(id).toBe(existing.id);
    expect(outs["status"]).toBe("scheduled");
    expect(fixture.sim.requests().filter((r) => r.method === "POST")).toEqual([]);
    expect(await diff(provider, id, outs, { ...args, adopt: true })).toEqual({ changes: false });
  });

  it("refuses to adopt a transfer made with other settings, saying which", async () => {
    const when = simHoursAhead(5);
    const existing = await client().siteTransfers.create(BLOG, {
      destination_account_id: INITECH,
      scheduled_time: when,
    });
    // Refused at preview already; create, sent past the check, says the same.
    const refusal = `cannot adopt transfer ${existing.id} of site ${BLOG}: its scheduled time is ${new Date(when).toISOString()}`;
    const inputs = await refusedAtCheck(
      provider,
      { siteId: BLOG, destinationAccountId: INITECH, scheduledTime: simHoursAhead(6), adopt: true },
      refusal,
    );
    await expect(provider.create(inputs)).rejects.toThrow(refusal);
    const unchangeable = /its scheduled time is .*A transfer cannot be changed/;
    await expect(
      provider.create(
        await refusedAtCheck(
          provider,
          { siteId: BLOG, destinationAccountId: INITECH, adopt: true },
          unchangeable,
        ),
      ),
    ).rejects.toThrow(unchangeable);
  });

  it("creates normally with adopt when there is nothing to adopt", async () => {
    const { outs } = await createOk(provider, {
      siteId: BLOG,
      destinationAccountId: INITECH,
      scheduledTime: simHoursAhead(2),
      adopt: true,
    });
    expect(outs["status"]).toBe("scheduled");
  });

  it("turns the service's refusals into messages naming the input", async () => {
    const create = async (args: Record<string, unknown>) => provider.create(await checkOk(provider, args));
    await expect(create({ siteId: BLOG, destinationAccountId: ACME })).rejects.toThrow(
      /wpengine:SiteTransfer create failed: .*422 Unprocessable Entity.*must differ.*\(input "destinationAccountId"\)/,
    );
    await expect(create({ siteId: BLOG, destinationAccountId: GLOBEX })).rejects.toThrow(
      /409 Conflict.*preferred data center.*\(input "destinationAccountId"\)/,
    );
    await expect(create({ siteId: SANDBOX, destinationAccountId: INITECH })).rejects.toThrow(
      /409 Conflict.*Sandbox sites cannot be transferred.*\(input "siteId"\)/,
    );
  });
});
