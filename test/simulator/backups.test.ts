import { describe, expect, it } from "vitest";
import { call, realTimePasses, SEED, useSimulator } from "./helpers";

const { installs: I, backups: B } = SEED;
const backups = `/v1/installs/${I.acmestg.id}/backups`;
const body = { description: "Before the upgrade", notification_emails: ["ops@acme.example"] };

describe("backups, archives and restore", () => {
  const sim = useSimulator();

  it("accepts a backup (202, requested) that moves to in_progress then completed on the clock", async () => {
    const r = await call(sim(), "POST", backups, body);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      status: "requested",
      description: "Before the upgrade",
      complete_time: null,
      cms_version: "6.8.1",
      create_time: expect.any(String),
    });
    sim().advance(0.5);
    expect((await call(sim(), "GET", `${backups}/${r.body.id}`)).body.status).toBe("in_progress");
    sim().advance(1);
    const done = await call(sim(), "GET", `${backups}/${r.body.id}`);
    expect(done.body.status).toBe("completed");
    expect(done.body.complete_time).toEqual(expect.any(String));
  });

  it("lists backups in all states with the pagination envelope", async () => {
    const r = await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}/backups`);
    expect(r.body.count).toBe(2);
    expect(r.body.results.map((b: { status: string }) => b.status).sort()).toEqual(["aborted", "completed"]);
  });

  it("requires description and notification_emails (400 naming the field)", async () => {
    const r = await call(sim(), "POST", backups, { description: "x" });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ resource: "backup", field: "notification_emails" });
  });

  it("makes an archive from a completed backup: requested, then completed with a download URL", async () => {
    const b = (await call(sim(), "POST", backups, body)).body;
    const archives = `/v1/installs/${I.acmestg.id}/archives`;
    expect((await call(sim(), "GET", archives)).body.count).toBe(0);
    sim().advance(1);
    const requested = (await call(sim(), "GET", archives)).body.results[0];
    expect(requested).toMatchObject({ backup: { id: b.id }, state: "requested", download_uri: null });
    sim().advance(2);
    const completed = (await call(sim(), "GET", archives)).body.results[0];
    expect(completed).toMatchObject({
      state: "completed",
      download_uri: expect.any(String),
      complete_time: expect.any(String),
    });
  });

  it("restores from a completed backup (202) and refuses one that is not completed (400)", async () => {
    const ok = await call(
      sim(),
      "POST",
      `/v1/installs/${I.acmeprod.id}/backups/${B.acmeprodCompleted.id}/restore`,
      {
        notification_emails: ["ops@acme.example"],
      },
    );
    expect(ok.status).toBe(202);
    const install = (await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}`)).body;
    expect(install).toMatchObject({ status: "pending", cms_version: "6.7.2" });
    sim().advance(2);
    expect((await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}`)).body.status).toBe("active");
    const aborted = await call(
      sim(),
      "POST",
      `/v1/installs/${I.acmeprod.id}/backups/${B.acmeprodAborted.id}/restore`,
      {
        notification_emails: ["ops@acme.example"],
      },
    );
    expect(aborted.status).toBe(400);
    const missing = await call(
      sim(),
      "POST",
      `/v1/installs/${I.acmeprod.id}/backups/${B.acmeprodCompleted.id}/restore`,
      {},
    );
    expect(missing.status).toBe(400);
  });

  it("answers 404 for a backup of another install", async () => {
    expect((await call(sim(), "GET", `${backups}/${B.acmeprodCompleted.id}`)).status).toBe(404);
  });
});

describe("pace", () => {
  const sim = useSimulator({ pace: 10 });

  it("runs asynchronous work ten times faster in real time at pace 10", async () => {
    const r = await call(sim(), "POST", backups, body);
    // 250 ms of real time are 2.5 simulated seconds: past the backup's 1.3.
    const undo = realTimePasses(250);
    try {
      expect((await call(sim(), "GET", `${backups}/${r.body.id}`)).body.status).toBe("completed");
    } finally {
      undo();
    }
    const clock = await call(sim(), "GET", "/__sim/clock");
    expect(clock.body.pace).toBe(10);
  });
});
