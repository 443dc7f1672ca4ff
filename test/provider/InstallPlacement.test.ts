import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/InstallPlacement";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, deleteSays, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEDEV = SEED.installs.acmedev.id;
const ACMEPROD = SEED.installs.acmeprod.id;
const MARKETING = SEED.sites.acmeMarketing.id;
const BLOG = SEED.sites.acmeBlog.id; // holds only a production install
const GLOBEX_SITE = SEED.sites.globexCorporate.id;

const client = fixture.client;

const patches = () => fixture.sim.requests().filter((r) => r.method === "PATCH");

describe("InstallPlacement lifecycle", () => {
  it("moves the install on create, reads back the same outputs, and a second diff shows no changes", async () => {
    const { id, outs } = await createOk(provider, {
      installId: ACMEDEV,
      siteId: BLOG,
      environment: "staging",
    });
    expect(id).toBe(ACMEDEV);
    expect(outs).toMatchObject({
      installId: ACMEDEV,
      siteId: BLOG,
      environment: "staging",
      installName: "acmedev",
      accountId: SEED.accounts.acme.id,
    });
    const live = await client().installs.get(ACMEDEV);
    expect([live.site?.id, live.environment]).toEqual([BLOG, "staging"]);

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ installId: ACMEDEV, siteId: BLOG, environment: "staging" });
    expect(
      await diff(provider, id, outs, { installId: ACMEDEV, siteId: BLOG, environment: "Staging" }),
    ).toEqual({
      changes: false,
    });
  });

  it("sends nothing when the install is already where it should be", async () => {
    fixture.sim.clearRequests();
    const { outs } = await createOk(provider, {
      installId: ACMEDEV,
      siteId: MARKETING,
      environment: "development",
    });
    expect(outs["siteId"]).toBe(MARKETING);
    expect(patches()).toEqual([]);
  });

  it("moves the install in place on a change of site or environment; a new install replaces", async () => {
    const { id, outs } = await createOk(provider, {
      installId: ACMEDEV,
      siteId: BLOG,
      environment: "staging",
    });
    const news = await checkOk(
      provider,
      { installId: ACMEDEV, siteId: BLOG, environment: "development" },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, outs, news);
    expect(updated.outs).toMatchObject({
      installId: ACMEDEV,
      siteId: BLOG,
      environment: "development",
      installName: "acmedev",
    });
    expect((await client().installs.get(ACMEDEV)).environment).toBe("development");

    expect(
      await diff(provider, id, updated.outs!, {
        installId: SEED.installs.acmestg.id,
        siteId: BLOG,
        environment: "development",
      }),
    ).toEqual({ changes: true, replaces: ["installId"] });
  });

  it("sees an install moved out of band in read and diff", async () => {
    const { id, outs } = await createOk(provider, {
      installId: ACMEDEV,
      siteId: BLOG,
      environment: "staging",
    });
    await client().installs.update(ACMEDEV, { site_id: MARKETING, environment: "development" });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ siteId: MARKETING, environment: "development" });
    expect(read.inputs).toMatchObject({ siteId: MARKETING, environment: "development" });
    expect(
      await diff(provider, id, read.props!, { installId: ACMEDEV, siteId: BLOG, environment: "staging" }),
    ).toEqual({
      changes: true,
    });
  });

  it("delete leaves the install where it is; a read after the install is gone returns an empty id", async () => {
    const { id, outs } = await createOk(provider, {
      installId: ACMEDEV,
      siteId: BLOG,
      environment: "staging",
    });
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:InstallPlacement ${ACMEDEV}: forgotten only, nothing sent to the service: install acmedev stays in site ${BLOG} as its staging install`,
    ]);
    expect(fixture.sim.requests()).toEqual([]);
    const live = await client().installs.get(ACMEDEV);
    expect([live.site?.id, live.environment]).toEqual([BLOG, "staging"]);

    await client().installs.delete(ACMEDEV);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });
});

describe("InstallPlacement check", () => {
  it("names every rule's failure", async () => {
    expect(
      await checkFails(provider, { installId: "acmedev", siteId: BLOG, environment: "staging" }),
    ).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { installId: ACMEDEV, siteId: BLOG, environment: "qa" })).toEqual([
      "environment: environment must be one of production, staging, development",
    ]);
    expect(await checkFails(provider, { installId: ACMEDEV, environment: "staging" })).toEqual([
      "siteId: siteId is required and must be a string",
    ]);
    expect(await checkFails(provider, { installId: ACMEDEV, siteId: BLOG })).toEqual([
      "environment: environment is required: production, staging or development",
    ]);
  });

  it("normalises the environment's case and passes unknown values through", async () => {
    expect(
      (await checkOk(provider, { installId: ACMEDEV, siteId: BLOG, environment: " Staging" }))["environment"],
    ).toBe("staging");
    const inputs = await checkOk(provider, { installId: ACMEDEV, siteId: UNKNOWN, environment: UNKNOWN });
    expect(inputs).toMatchObject({ siteId: UNKNOWN, environment: UNKNOWN });
  });
});

describe("InstallPlacement adoption and service errors", () => {
  it("accepts adopt with or without it: an install always has a placement to take over", async () => {
    for (const adopt of [false, true]) {
      const { id, outs } = await createOk(provider, {
        installId: ACMEDEV,
        siteId: BLOG,
        environment: "staging",
        adopt,
      });
      expect(id).toBe(ACMEDEV);
      expect(outs["siteId"]).toBe(BLOG);
    }
  });

  it("turns a service refusal into a message naming the input", async () => {
    // acmeprod already fills production in Acme Marketing.
    await expect(
      provider.create(
        await checkOk(provider, { installId: ACMEDEV, siteId: MARKETING, environment: "production" }),
      ),
    ).rejects.toThrow(
      /wpengine:InstallPlacement create failed: .*already has a production install \(acmeprod\).*\(input "environment"\)/,
    );
    await expect(
      provider.create(
        await checkOk(provider, { installId: ACMEDEV, siteId: GLOBEX_SITE, environment: "staging" }),
      ),
    ).rejects.toThrow(/\(input "siteId"\)/);
    expect((await client().installs.get(ACMEPROD)).environment).toBe("production");
  });
});
