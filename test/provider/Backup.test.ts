import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKUP_POLL, UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/Backup";
import { SEED } from "../../simulator";
import { assertPlain, checkFails, checkOk, createOk, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMEDEV = SEED.installs.acmedev.id;
const ABORTED = SEED.backups.acmeprodAborted.id;

const client = fixture.client;

const saved = { ...BACKUP_POLL };
beforeAll(() => Object.assign(BACKUP_POLL, { intervalMs: 10, maxIntervalMs: 50 }));
afterAll(() => Object.assign(BACKUP_POLL, saved));

const wanted = {
  installId: ACMEPROD,
  description: "Before the upgrade",
  notificationEmails: ["ops@acme.example"],
};

/** Runs a create that waits, moving the simulator's clock once the backup has been requested. */
async function createWaiting(news: Record<string, unknown>) {
  const inputs = await checkOk(provider, news);
  fixture.sim.clearRequests();
  const pending = provider.create(inputs);
  await fixture.sim.served((r) => r.method === "POST" && /\/installs\/[^/]+\/backups$/.test(r.path));
  fixture.sim.advance(60);
  const result = await pending;
  assertPlain(result.outs);
  return { id: result.id, outs: result.outs as Record<string, unknown>, inputs };
}

describe("Backup lifecycle", () => {
  it("requests a backup, waits until it is completed, reads back the same outputs, and a second diff is empty", async () => {
    const { id, outs } = await createWaiting(wanted);
    expect(outs).toMatchObject({
      ...wanted,
      wait: true,
      timeoutSeconds: 3600,
      backupId: id,
      status: "completed",
      cmsVersion: "6.8.1",
    });
    expect(outs["createTime"]).toEqual(expect.any(String));
    expect(outs["completeTime"]).toEqual(expect.any(String));
    const live = await client().backups.get(ACMEPROD, id);
    expect(live).toMatchObject({ status: "completed", description: wanted.description });

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ ...wanted, wait: true, timeoutSeconds: 3600 });

    expect(await diff(provider, id, outs, wanted)).toEqual({ changes: false });
  });

  it("with wait: false returns once accepted; read then shows the service finishing it", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    expect(["requested", "in_progress"]).toContain(outs["status"]);
    expect(outs["completeTime"]).toBeNull();

    fixture.sim.advance(60);
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ status: "completed", completeTime: expect.any(String) });
    // The status is the service's, not an input: it never shows as a change.
    expect(await diff(provider, id, read.props!, { ...wanted, wait: false })).toEqual({ changes: false });
  });

  it("shows no change for the same addresses in another order or case", async () => {
    const emails = ["ops@acme.example", "dev@acme.example"];
    const { id, outs } = await createOk(provider, { ...wanted, notificationEmails: emails, wait: false });
    const again = { ...wanted, notificationEmails: ["DEV@acme.example", "ops@acme.example"], wait: false };
    expect(await diff(provider, id, outs, again)).toEqual({ changes: false });
  });

  it("replaces on a new description, install or address list (a backup cannot change)", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    expect(await diff(provider, id, outs, { ...wanted, wait: false, description: "Another" })).toEqual({
      changes: true,
      replaces: ["description"],
    });
    expect(await diff(provider, id, outs, { ...wanted, wait: false, installId: ACMEDEV })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
    const emails = { ...wanted, wait: false, notificationEmails: ["dev@acme.example"] };
    expect(await diff(provider, id, outs, emails)).toEqual({
      changes: true,
      replaces: ["notificationEmails"],
    });
  });

  it("updates wait and timeoutSeconds in place, waiting for the backup and returning the full outputs", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    const news = { ...wanted, wait: true, timeoutSeconds: 600 };
    expect(await diff(provider, id, outs, news)).toEqual({ changes: true });

    const inputs = await checkOk(provider, news, outs);
    fixture.sim.advance(60);
    const updated = await provider.update!(id, outs, inputs);
    assertPlain(updated.outs);
    expect(updated.outs).toEqual({
      ...news,
      backupId: id,
      status: "completed",
      createTime: outs["createTime"],
      completeTime: expect.any(String),
      cmsVersion: "6.8.1",
    });
  });

  it("sees an abort through read; the next diff requests a new backup and an update fails with the reason", async () => {
    // State as a create would have left it, for the seeded backup the service aborted.
    const outs = {
      ...wanted,
      description: "Interrupted nightly snapshot",
      wait: true,
      timeoutSeconds: 3600,
      backupId: ABORTED,
      status: "in_progress",
      createTime: "2025-01-11T02:00:00.000Z",
      completeTime: null,
      cmsVersion: "6.7.2",
    };
    const read = await provider.read!(ABORTED, outs);
    expect(read.props).toMatchObject({ status: "aborted" });
    const news = { ...wanted, description: "Interrupted nightly snapshot" };
    expect(await diff(provider, ABORTED, read.props!, news)).toEqual({ changes: true, replaces: ["status"] });

    const inputs = await checkOk(provider, news, read.props!);
    await expect(provider.update!(ABORTED, outs, inputs)).rejects.toThrow(
      /wpengine:Backup update failed: backup b0000000-0000-4000-8000-000000000002 of install .* was aborted by the service/,
    );
  });

  it("delete only forgets: the backup stays on the service", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
    expect((await client().backups.get(ACMEPROD, id)).id).toBe(id);
  });

  it("read reports the backup gone (empty id) once its install is deleted out of band", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, installId: ACMEDEV, wait: false });
    await client().installs.delete(ACMEDEV);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("turns a field error of the service into a message naming the input", async () => {
    // Passes the local check (the service has the last word on addresses); the service refuses it.
    const inputs = await checkOk(provider, {
      ...wanted,
      wait: false,
      notificationEmails: ["ops@acme..example"],
    });
    await expect(provider.create(inputs)).rejects.toThrow(
      /wpengine:Backup create failed: .*400 Bad Request.*\(input "notificationEmails"\)/,
    );
  });

  it("fails create for an install that does not exist, recording nothing", async () => {
    const inputs = await checkOk(provider, { ...wanted, installId: "1e000000-0000-4000-8000-0000000000ff" });
    const err = await provider.create(inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(/wpengine:Backup create failed: .*404/);
    expect((err as { id?: string }).id).toBeUndefined();
  });
});

describe("Backup check", () => {
  it("fills the defaults", async () => {
    expect(await checkOk(provider, wanted)).toEqual({ ...wanted, wait: true, timeoutSeconds: 3600 });
  });

  it("names each invalid input", async () => {
    expect(await checkFails(provider, { ...wanted, installId: "acmeprod" })).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { ...wanted, description: "  " })).toEqual([
      "description: description must not be empty",
    ]);
    expect(await checkFails(provider, { installId: ACMEPROD, description: "x" })).toEqual([
      "notificationEmails: notificationEmails is required: a list of at least one email address",
    ]);
    expect(await checkFails(provider, { ...wanted, notificationEmails: [] })).toEqual([
      "notificationEmails: notificationEmails needs at least one email address",
    ]);
    expect(await checkFails(provider, { ...wanted, notificationEmails: ["ops"] })).toEqual([
      "notificationEmails[0]: notificationEmails[] must be an email address such as ops@example.com",
    ]);
    expect(await checkFails(provider, { ...wanted, timeoutSeconds: 0 })).toEqual([
      "timeoutSeconds: timeoutSeconds must be more than 0",
    ]);
  });

  it("refuses adopt: every create requests a new backup", async () => {
    expect(await checkFails(provider, { ...wanted, adopt: true })).toEqual([
      "adopt: Backup has no adopt: every create requests a new backup (backups cannot be taken over)",
    ]);
  });

  it("lets values unknown during preview through untouched", async () => {
    const news = { ...wanted, installId: UNKNOWN, notificationEmails: [UNKNOWN] };
    expect(await checkOk(provider, news)).toEqual({ ...news, wait: true, timeoutSeconds: 3600 });
  });

  it("diff of an unknown install replaces without calling the service", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    fixture.sim.clearRequests();
    const d = await provider.diff!(id, outs, {
      ...wanted,
      wait: false,
      timeoutSeconds: 3600,
      installId: UNKNOWN,
    });
    expect(d).toEqual({ changes: true, replaces: ["installId"] });
    expect(fixture.sim.requests()).toEqual([]);
  });
});
