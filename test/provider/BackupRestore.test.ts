import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKUP_POLL, UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/BackupRestore";
import { SEED } from "../../simulator";
import { assertPlain, checkFails, checkOk, createOk, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const COMPLETED = SEED.backups.acmeprodCompleted.id;
const ABORTED = SEED.backups.acmeprodAborted.id;

const client = fixture.client;

const saved = { ...BACKUP_POLL };
beforeAll(() => Object.assign(BACKUP_POLL, { intervalMs: 10, maxIntervalMs: 50 }));
afterAll(() => Object.assign(BACKUP_POLL, saved));

const wanted = { installId: ACMEPROD, backupId: COMPLETED, notificationEmails: ["ops@acme.example"] };
const SUMMARY =
  `DESTRUCTIVE: restore install ${ACMEPROD} from backup ${COMPLETED}: overwrites its files and database; ` +
  "database: yes; checkpoint first: yes; notify: ops@acme.example";

const restores = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/restore"));

/** A second completed backup of acmeprod (the seed has one), completed by moving the clock. */
async function completedBackup(): Promise<string> {
  const backup = await client().backups.create(ACMEPROD, {
    description: "another point to restore",
    notification_emails: ["ops@acme.example"],
  });
  fixture.sim.advance(60);
  return backup.id;
}

/** Resolves once the simulator has answered a restore request. */
const restoreServed = () => fixture.sim.served((r) => r.method === "POST" && r.path.endsWith("/restore"));

describe("BackupRestore lifecycle", () => {
  it("restores once on create, waits for the install, reads back the same outputs, and a second diff is empty", async () => {
    const inputs = await checkOk(provider, wanted);
    fixture.sim.clearRequests();
    const pending = provider.create(inputs);
    await restoreServed();
    fixture.sim.advance(60);
    const { id, outs } = await pending;
    assertPlain(outs);
    expect(outs).toEqual({
      ...wanted,
      restoreDatabase: true,
      createCheckpoint: true,
      wait: true,
      timeoutSeconds: 3600,
      summary: SUMMARY,
      restoreCount: 1,
      lastRestoredAt: expect.any(String),
      installStatus: "active",
    });
    expect(restores()).toHaveLength(1);
    // The install is back at the state of the backup (its WordPress version was 6.7.2).
    expect((await client().installs.get(ACMEPROD)).cms_version).toBe("6.7.2");

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(await diff(provider, id, outs, wanted)).toEqual({ changes: false });
  });

  it("a restore whose answer is lost is not sent again: the failure says so and names the step that recovers", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false, triggers: ["one"] });
    const news = await checkOk(provider, { ...wanted, wait: false, triggers: ["two"] }, outs);
    fixture.sim.clearRequests();
    fixture.sim.setFaults([{ method: "POST", path: "*/restore", after: true, drop: true, count: 1 }]);
    await expect(provider.update!(id, outs, news)).rejects.toThrow(
      `wpengine:BackupRestore update failed: POST /v1/installs/${ACMEPROD}/backups/${COMPLETED}/restore: connection failed: ` +
        "other side closed. The connection was cut before an answer came, so whether the request took effect is unknown (an action: the " +
        `service keeps no record of a restore to find): see in the User Portal whether install ${ACMEPROD} was ` +
        `restored from backup ${COMPLETED}; \`pulumi up\` restores again`,
    );
    expect(restores()).toHaveLength(1);
  });

  it("restores again, in place, when triggers change; returns the full outputs", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false, triggers: ["one"] });
    const news = { ...wanted, wait: false, triggers: ["two"] };
    expect(await diff(provider, id, outs, news)).toEqual({ changes: true });

    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, await checkOk(provider, news, outs));
    assertPlain(updated.outs);
    expect(restores()).toHaveLength(1);
    expect(updated.outs).toEqual({
      ...news,
      restoreDatabase: true,
      createCheckpoint: true,
      timeoutSeconds: 3600,
      summary: SUMMARY,
      restoreCount: 2,
      lastRestoredAt: expect.any(String),
      installStatus: "pending",
    });
  });

  // The docs: every input the restore uses restores again when it changes (only wait settings do not).
  it.each([
    ["backupId", async () => ({ backupId: await completedBackup() })],
    ["notificationEmails", async () => ({ notificationEmails: ["dev@acme.example"] })],
    ["restoreDatabase", async () => ({ restoreDatabase: false })],
    ["createCheckpoint", async () => ({ createCheckpoint: false })],
    ["triggers", async () => ({ triggers: ["again"] })],
  ])("restores again, with the new value, when %s changes", async (key, change) => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    const news = await checkOk(provider, { ...wanted, wait: false, ...(await change()) }, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, news);
    expect(restores(), key).toHaveLength(1);
    expect(updated.outs).toMatchObject({ [key]: news[key], restoreCount: 2 });
  });

  it("does not restore again when only the wait settings change", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    const news = { ...wanted, wait: false, timeoutSeconds: 60 };
    expect(await diff(provider, id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, await checkOk(provider, news, outs));
    expect(restores()).toHaveLength(0);
    expect(updated.outs).toMatchObject({
      timeoutSeconds: 60,
      restoreCount: 1,
      lastRestoredAt: outs["lastRestoredAt"],
    });
  });

  it("shows no change for the same addresses in another order or case", async () => {
    const emails = ["ops@acme.example", "dev@acme.example"];
    const { id, outs } = await createOk(provider, { ...wanted, wait: false, notificationEmails: emails });
    const again = { ...wanted, wait: false, notificationEmails: ["Dev@Acme.example", "ops@acme.example"] };
    expect(await diff(provider, id, outs, again)).toEqual({ changes: false });
  });

  it("read reports the action gone (empty id) once the install and its backups are deleted out of band", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    await client().installs.delete(ACMEPROD);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("delete only forgets: nothing is sent to the service", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false });
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
    // The action is still readable afterwards: delete did not touch the backup it names.
    expect((await provider.read!(id, outs)).id).toBe(id);
  });

  it("turns the service's refusal into a message naming the input (an aborted backup cannot be restored)", async () => {
    const inputs = await checkOk(provider, { ...wanted, backupId: ABORTED });
    fixture.sim.clearRequests();
    await expect(provider.create(inputs)).rejects.toThrow(
      /wpengine:BackupRestore create failed: .*400 Bad Request: backup_id: .*Only a completed backup can be restored.*\(input "backupId"\)/,
    );
    expect(restores()).toHaveLength(1);
  });
});

describe("BackupRestore check", () => {
  it("fills the defaults and says in the summary exactly what will be restored", async () => {
    expect(await checkOk(provider, wanted)).toEqual({
      ...wanted,
      restoreDatabase: true,
      createCheckpoint: true,
      wait: true,
      timeoutSeconds: 3600,
      summary: SUMMARY,
    });
    const filesOnly = await checkOk(provider, { ...wanted, restoreDatabase: false, createCheckpoint: false });
    expect(filesOnly["summary"]).toBe(
      `DESTRUCTIVE: restore install ${ACMEPROD} from backup ${COMPLETED}: overwrites its files only ` +
        "(the database is kept); database: no; checkpoint first: no; notify: ops@acme.example",
    );
  });

  it("recomputes a summary given as input (it is never taken from the program)", async () => {
    expect((await checkOk(provider, { ...wanted, summary: "nothing to see" }))["summary"]).toBe(SUMMARY);
  });

  it("names each invalid input", async () => {
    expect(await checkFails(provider, { ...wanted, backupId: "latest" })).toEqual([
      "backupId: backupId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { ...wanted, installId: 7 })).toEqual([
      "installId: installId must be a string",
    ]);
    expect(await checkFails(provider, { ...wanted, notificationEmails: [] })).toEqual([
      "notificationEmails: notificationEmails needs at least one email address",
    ]);
    expect(await checkFails(provider, { ...wanted, restoreDatabase: "yes" })).toEqual([
      "restoreDatabase: restoreDatabase must be true or false",
    ]);
    expect(await checkFails(provider, { ...wanted, triggers: "again" })).toEqual([
      "triggers: triggers must be a list of values",
    ]);
    expect(await checkFails(provider, { ...wanted, adopt: true })).toEqual([
      "adopt: BackupRestore has no adopt: it is an action, there is no object to take over",
    ]);
  });

  it("lets unknown values through and shows them as such in the summary", async () => {
    const checked = await checkOk(provider, { ...wanted, backupId: UNKNOWN, triggers: [UNKNOWN] });
    expect(checked).toMatchObject({ backupId: UNKNOWN, triggers: [UNKNOWN] });
    expect(checked["summary"]).toBe(
      `DESTRUCTIVE: restore install ${ACMEPROD} from backup (known after apply): overwrites its files and ` +
        "database; database: yes; checkpoint first: yes; notify: ops@acme.example",
    );
  });

  it("diff of an unknown trigger means restoring again, decided without calling the service", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, wait: false, triggers: ["one"] });
    fixture.sim.clearRequests();
    const news = await checkOk(provider, { ...wanted, wait: false, triggers: [UNKNOWN] }, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    expect(fixture.sim.requests()).toEqual([]);
  });
});
