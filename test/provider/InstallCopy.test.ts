import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/InstallCopy";
import { SEED } from "../../simulator";
import { assertPlain, checkFails, checkOk, createOk, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;
const ACMEDEV = SEED.installs.acmedev.id;
const GLOBEXPROD = SEED.installs.globexprod.id;

const client = fixture.client;

const wanted = {
  sourceEnvironmentId: ACMEPROD,
  destinationEnvironmentId: ACMESTG,
  notificationEmails: ["ops@acme.example"],
};
const SUMMARY =
  `DESTRUCTIVE: copy files and the whole database from environment ${ACMEPROD} over environment ` +
  `${ACMESTG}; notify: ops@acme.example`;

const copies = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path === "/v1/install_copy");

/** Makes acmeprod's WordPress version differ from the others (6.7.2), so a copy of its files shows. */
async function markSource(): Promise<void> {
  await client().backups.restore(ACMEPROD, SEED.backups.acmeprodCompleted.id, {
    notification_emails: ["ops@acme.example"],
  });
}

describe("InstallCopy lifecycle", () => {
  it("copies once on create, reads back the same outputs, and a second diff is empty", async () => {
    await markSource();
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, wanted);
    expect(outs).toEqual({
      ...wanted,
      includeFiles: true,
      includeDb: true,
      summary: SUMMARY,
      requestCount: 1,
      lastRequestedAt: expect.any(String),
      lastMessage: "Install copy initiated",
    });
    expect(copies()).toHaveLength(1);
    // The files (and the WordPress version with them) landed on the destination.
    expect((await client().installs.get(ACMESTG)).cms_version).toBe("6.7.2");

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(await diff(provider, id, outs, wanted)).toEqual({ changes: false });
  });

  it("copies again, in place, when triggers change; returns the full outputs", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, includeFiles: false, triggers: ["a"] });
    const news = { ...wanted, includeFiles: false, triggers: ["b"] };
    expect(await diff(provider, id, outs, news)).toEqual({ changes: true });

    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, await checkOk(provider, news, outs));
    assertPlain(updated.outs);
    expect(copies()).toHaveLength(1);
    expect(updated.outs).toEqual({
      ...news,
      includeDb: true,
      summary: `DESTRUCTIVE: copy the whole database from environment ${ACMEPROD} over environment ${ACMESTG}; notify: ops@acme.example`,
      requestCount: 2,
      lastRequestedAt: expect.any(String),
      lastMessage: "Install copy initiated",
    });
  });

  it("copies only the database when includeFiles is false (the destination keeps its files)", async () => {
    await markSource();
    await createOk(provider, { ...wanted, includeFiles: false, dbTables: ["wp_posts", "wp_postmeta"] });
    expect((await client().installs.get(ACMESTG)).cms_version).toBe("6.8.1");
  });

  it("shows no change for tables and addresses in another order", async () => {
    const news = {
      ...wanted,
      dbTables: ["wp_posts", "wp_options"],
      notificationEmails: ["b@x.io", "a@x.io"],
    };
    const { id, outs } = await createOk(provider, news);
    const again = { ...news, dbTables: ["wp_options", "wp_posts"], notificationEmails: ["A@x.io", "b@x.io"] };
    expect(await diff(provider, id, outs, again)).toEqual({ changes: false });
  });

  it("read reports the action gone (empty id) once the destination is deleted out of band", async () => {
    const { id, outs } = await createOk(provider, { ...wanted, destinationEnvironmentId: ACMEDEV });
    await client().installs.delete(ACMEDEV);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("delete only forgets: nothing is sent to the service", async () => {
    const { id, outs } = await createOk(provider, wanted);
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
  });

  it("turns the service's same-account rule into a message naming the input", async () => {
    const inputs = await checkOk(provider, { ...wanted, destinationEnvironmentId: GLOBEXPROD });
    await expect(provider.create(inputs)).rejects.toThrow(
      /wpengine:InstallCopy create failed: .*400 Bad Request: destination_environment_id: .*same account.*\(input "destinationEnvironmentId"\)/,
    );
  });
});

describe("InstallCopy check", () => {
  it("fills the defaults and says in the summary exactly what will be copied", async () => {
    expect(await checkOk(provider, wanted)).toEqual({
      ...wanted,
      includeFiles: true,
      includeDb: true,
      summary: SUMMARY,
    });
    const tables = await checkOk(provider, {
      sourceEnvironmentId: ACMEPROD,
      destinationEnvironmentId: ACMESTG,
      dbTables: ["wp_posts"],
    });
    expect(tables["summary"]).toBe(
      `DESTRUCTIVE: copy files and database tables wp_posts from environment ${ACMEPROD} over environment ` +
        `${ACMESTG}; notify: (nobody: completion is only announced by email)`,
    );
  });

  it("refuses a copy onto its own source", async () => {
    expect(await checkFails(provider, { ...wanted, destinationEnvironmentId: ACMEPROD })).toEqual([
      "destinationEnvironmentId: destinationEnvironmentId must differ from sourceEnvironmentId",
    ]);
  });

  it("refuses dbTables without includeDb", async () => {
    expect(await checkFails(provider, { ...wanted, includeDb: false, dbTables: ["wp_posts"] })).toEqual([
      "dbTables: dbTables must not be given when includeDb is false",
    ]);
  });

  it("refuses a copy of nothing", async () => {
    expect(await checkFails(provider, { ...wanted, includeDb: false, includeFiles: false })).toEqual([
      "includeFiles: nothing to copy: includeFiles and includeDb are both false",
    ]);
  });

  it("refuses a copy of nothing at preview while dbTables is still unknown, and judges dbTables once known", async () => {
    expect(
      await checkFails(provider, { ...wanted, includeDb: false, includeFiles: false, dbTables: UNKNOWN }),
    ).toEqual(["includeFiles: nothing to copy: includeFiles and includeDb are both false"]);
    expect(
      await checkFails(provider, {
        ...wanted,
        includeDb: false,
        includeFiles: false,
        dbTables: ["wp_posts"],
      }),
    ).toEqual([
      "dbTables: dbTables must not be given when includeDb is false",
      "includeFiles: nothing to copy: includeFiles and includeDb are both false",
    ]);
  });

  it("names each invalid input", async () => {
    expect(await checkFails(provider, { ...wanted, sourceEnvironmentId: "acmeprod" })).toEqual([
      "sourceEnvironmentId: sourceEnvironmentId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { ...wanted, notificationEmails: ["ops"] })).toEqual([
      "notificationEmails[0]: notificationEmails[] must be an email address such as ops@example.com",
    ]);
    expect(await checkFails(provider, { ...wanted, dbTables: [] })).toEqual([
      "dbTables: dbTables must name at least one table; leave it out to copy the whole database",
    ]);
    expect(await checkFails(provider, { ...wanted, dbTables: [" "] })).toEqual([
      "dbTables[0]: a table name must not be empty",
    ]);
    expect(await checkFails(provider, { ...wanted, adopt: true })).toEqual([
      "adopt: InstallCopy has no adopt: it is an action, there is no object to take over",
    ]);
  });

  it("skips the rules that read an unknown value and shows it in the summary", async () => {
    const news = { ...wanted, destinationEnvironmentId: UNKNOWN, includeDb: UNKNOWN, dbTables: ["wp_posts"] };
    const checked = await checkOk(provider, news);
    expect(checked).toMatchObject({ destinationEnvironmentId: UNKNOWN, includeDb: UNKNOWN });
    expect(checked["summary"]).toBe(
      "DESTRUCTIVE: copy files and database tables wp_posts if includeDb is true from environment " +
        `${ACMEPROD} over environment (known after apply); notify: ops@acme.example`,
    );
  });
});
