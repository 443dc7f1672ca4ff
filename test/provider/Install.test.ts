import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/Install";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { checkFails, checkOk, deleteSays, diff, refusedAtCheck } from "../support/provider";
import { useProviderConfig, useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { client, advancing } = fixture;
const { accounts: A, sites: S, installs: I } = SEED;

// Initech Portal holds only a production install: staging and development are free.
const blog = {
  name: "initechblog",
  accountId: A.initech.id,
  siteId: S.initechPortal.id,
  environment: "staging",
};

async function create(news: Record<string, unknown>) {
  const inputs = await checkOk(provider, news);
  const { id, outs } = await advancing(provider.create(inputs));
  return { id, outs: outs as Record<string, unknown> };
}

describe("Install lifecycle", () => {
  it("creates the install, waits until it is active; read equals the outputs; a second diff shows no changes", async () => {
    fixture.sim.clearRequests();
    const { id, outs } = await create(blog);
    expect(outs).toMatchObject({
      installId: id,
      name: "initechblog",
      accountId: A.initech.id,
      siteId: S.initechPortal.id,
      environment: "staging",
      status: "active",
      cname: "initechblog.wpengine.com",
      deletionProtection: true,
      timeoutSeconds: 1800,
    });
    // It was pending when made: create polled until the clock had provisioned it.
    const polls = fixture.sim.requests().filter((r) => r.method === "GET" && r.path === `/v1/installs/${id}`);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect((await client().installs.get(id)).status).toBe("active");
    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ ...blog, timeoutSeconds: 1800, deletionProtection: true });
    expect(await diff(provider, id, outs, { ...blog, environment: "Staging" })).toEqual({ changes: false });
  });

  it("moves to another environment or site in place; a new name replaces (refused while protected)", async () => {
    const { id, outs } = await create(blog);
    const news = await checkOk(provider, { ...blog, environment: "development" }, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, news);
    expect(updated.outs).toMatchObject({
      installId: id,
      environment: "development",
      siteId: S.initechPortal.id,
    });
    expect(fixture.sim.requests().filter((r) => r.method === "PATCH")).toHaveLength(1);
    expect((await client().installs.get(id)).environment).toBe("development");

    await expect(diff(provider, id, updated.outs!, { ...blog, name: "initechnew" })).rejects.toThrow(
      /wpengine:Install cannot be replaced: changing name replaces it, which deletes install initechblog .* for good, and deletionProtection is on/,
    );
    const open = { ...updated.outs!, deletionProtection: false };
    expect(
      await diff(provider, id, open, { ...blog, name: "initechnew", deletionProtection: false }),
    ).toEqual({
      changes: true,
      replaces: ["name"],
    });
    // A rename to a name the account already holds fails check, before a delete-first replacement.
    const [taken] = await checkFails(
      provider,
      { ...blog, name: "initechprod", deletionProtection: false },
      open,
    );
    expect(taken).toBe(
      `name: install initechprod already exists in account ${A.initech.id} (id ${I.initechprod.id}): renaming ` +
        "to it would delete install initechblog and then fail; choose a name the account does not hold",
    );
    // Taking over the install of that name (adopt) is what the user asked for: no refusal.
    const adopting = { ...blog, name: "initechprod", deletionProtection: false, adopt: true };
    expect((await provider.check!(open, adopting)).failures ?? []).toEqual([]);
    // A new name in the same site and environment: the slot is the old install's, so it goes first.
    const samePlace = { ...blog, environment: "development", name: "initechnew", deletionProtection: false };
    expect(await diff(provider, id, open, samePlace)).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
  });

  it("sees a move and a deletion made out of band", async () => {
    const { id, outs } = await create(blog);
    await client().installs.update(id, { environment: "development" });
    const read = await provider.read!(id, outs);
    expect(read.inputs).toMatchObject({ environment: "development" });
    expect(await diff(provider, id, read.props!, blog)).toEqual({ changes: true });
    // Out of its environment (the service's null): seen, and the update puts it back.
    await fetch(`${fixture.sim.apiUrl}/installs/${id}`, {
      method: "PATCH",
      headers: { authorization: `Basic ${btoa("demo:demo")}`, "content-type": "application/json" },
      body: JSON.stringify({ environment: null }),
    });
    const left = await provider.read!(id, read.props!);
    expect(left.inputs).toMatchObject({ environment: null });
    const news = await checkOk(provider, blog, left.inputs!);
    expect(await diff(provider, id, left.props!, news)).toEqual({ changes: true });
    expect((await provider.update!(id, left.props!, news)).outs).toMatchObject({ environment: "staging" });
    expect((await client().installs.get(id)).environment).toBe("staging");
    await client().installs.delete(id);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("refuses to delete while protected; with the guard off it deletes and says so", async () => {
    const { id, outs } = await create(blog);
    await expect(provider.delete!(id, outs)).rejects.toThrow(
      /wpengine:Install delete failed: deletionProtection is on: deleting would destroy install initechblog .* for good\. To delete it, set deletionProtection: false/,
    );
    expect((await client().installs.get(id)).name).toBe("initechblog");
    const news = await checkOk(provider, { ...blog, deletionProtection: false }, outs);
    const updated = await provider.update!(id, outs, news);
    expect(await deleteSays(provider, id, updated.outs!)).toEqual([
      `wpengine:Install ${id}: deleted on the service (deletionProtection was off): install initechblog (${id}) with its domains, backups and settings`,
    ]);
    await expect(client().installs.get(id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("Install adoption and service errors", () => {
  it("refuses an existing install without adopt; adopts it and places it as declared with adopt: true", async () => {
    const acmedev = { name: "acmedev", accountId: A.acme.id, siteId: S.acmeBlog.id, environment: "staging" };
    await expect(provider.create(await refusedAtCheck(provider, acmedev))).rejects.toThrow(
      `wpengine:Install create failed: install acmedev already exists in account ${A.acme.id} (id ${I.acmedev.id}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
    const { id, outs } = await create({ ...acmedev, adopt: true });
    expect(id).toBe(I.acmedev.id);
    expect(outs).toMatchObject({ siteId: S.acmeBlog.id, environment: "staging", status: "active" });
  });

  it("names the input the service refuses: a taken name, a filled environment", async () => {
    await expect(provider.create(await checkOk(provider, { ...blog, name: "acmeprod" }))).rejects.toThrow(
      /wpengine:Install create failed: .*acmeprod is taken.*\(input "name"\)/,
    );
    await expect(
      provider.create(await checkOk(provider, { ...blog, environment: "production" })),
    ).rejects.toThrow(/already has a production install \(initechprod\).*\(input "environment"\)/);
  });
});

describe("Install waits with its own deadline", () => {
  let slow: RunningSimulator;
  beforeAll(async () => {
    // Provisioning 1000 times slower than real time: it never ends within the test.
    slow = await startSimulator({ port: 0, quiet: true, pace: 0.001 });
    useProviderConfig(slow);
  });
  afterAll(async () => {
    useProviderConfig(fixture.sim);
    await slow.stop();
  });

  it("fails create after timeoutSeconds naming the wait, and the error carries the install's id", async () => {
    const err = await provider
      .create(await checkOk(provider, { ...blog, timeoutSeconds: 1 }))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      name: "CreatedButFailedError",
      id: expect.any(String),
      properties: expect.objectContaining({
        name: "initechblog",
        status: "pending",
        deletionProtection: true,
      }),
    });
    expect((err as Error).message).toMatch(
      /wpengine:Install create failed: timed out .* waiting for install initechblog to be provisioned \(status active; timeoutSeconds 1\)/,
    );
    // Recorded, not orphaned: the install exists (still provisioning) under the id the error carries.
    const slowClient = new WpEngineClient({ username: "demo", password: "demo", apiUrl: slow.apiUrl });
    expect((await slowClient.installs.get((err as { id: string }).id)).status).toBe("pending");
  });
});

describe("Install check", () => {
  it("names the field of a name outside ^[a-z][a-z0-9]{2,13}$ at preview", async () => {
    for (const name of ["ab", "Blog", "1blog", "my-blog", "averyveryverylongname"]) {
      expect(await checkFails(provider, { ...blog, name })).toEqual([
        "name: name must be 3 to 14 lower-case letters or digits, starting with a letter (^[a-z][a-z0-9]{2,13}$)",
      ]);
    }
    expect(
      await checkFails(provider, {
        name: "blog1",
        accountId: A.acme.id,
        environment: "qa",
        timeoutSeconds: 0,
      }),
    ).toEqual([
      "siteId: siteId is required and must be a string",
      "environment: environment must be one of production, staging, development",
      "timeoutSeconds: timeoutSeconds must be more than 0",
    ]);
  });

  it("lets unknown values through; an unknown site plans an in-place move", async () => {
    const inputs = await checkOk(provider, { ...blog, siteId: UNKNOWN });
    expect(inputs).toMatchObject({ siteId: UNKNOWN, deletionProtection: true });
    expect(await provider.diff!("x", { ...blog, deletionProtection: true }, inputs)).toEqual({
      changes: true,
    });
  });
});
