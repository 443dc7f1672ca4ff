import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const APP = SEED.apps.acmeFrontend;
const A = SEED.accounts.acme.id;
const apps = `/v1/accounts/${A}/apps`;
const app = `${apps}/${APP.appId}`;
const envs = `${app}/environments`;
const prod = `${envs}/production`;
// The smallest valid zip: an empty archive's end-of-central-directory record.
const EMPTY_ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);

async function upload(
  sim: ReturnType<ReturnType<typeof useSimulator>>,
  env: string,
  data: Buffer,
  field = "repository",
) {
  const form = new FormData();
  form.append(field, new Blob([data], { type: "application/zip" }), "site.zip");
  return call(sim, "POST", `/fu/v1/accounts/${A}/apps/${APP.appId}/environments/${env}:upload`, undefined, {
    raw: form,
  });
}

describe("application hosting: apps and environments", () => {
  const sim = useSimulator();

  it("creates an app with ?appId (200), lists it, reads it, refuses a taken id (409)", async () => {
    const r = await call(sim(), "POST", `${apps}?appId=shop`, { region: "regions/EU-W", uploadable: {} });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: `accounts/${A}/apps/shop`, appId: "shop", region: "regions/EU-W" });
    const list = await call(sim(), "GET", apps);
    expect(list.body.apps.map((a: { appId: string }) => a.appId)).toEqual([APP.appId, "shop"]);
    expect((await call(sim(), "GET", `${apps}/shop`)).body.appId).toBe("shop");
    expect((await call(sim(), "POST", `${apps}?appId=shop`, { region: "regions/EU-W" })).status).toBe(409);
    expect((await call(sim(), "POST", `${apps}?appId=x1`, { region: "regions/MARS" })).status).toBe(400);
    expect((await call(sim(), "POST", apps, { region: "regions/UK" })).status).toBe(400);
  });

  it("pages apps with pageSize and nextPageToken", async () => {
    for (const id of ["a1", "a2", "a3"])
      await call(sim(), "POST", `${apps}?appId=${id}`, { region: "regions/UK" });
    const first = await call(sim(), "GET", `${apps}?pageSize=2`);
    expect(first.body.apps).toHaveLength(2);
    const second = await call(sim(), "GET", `${apps}?pageSize=2&pageToken=${first.body.nextPageToken}`);
    expect(second.body.apps).toHaveLength(2);
    expect(second.body.nextPageToken).toBeUndefined();
  });

  it("creates an environment that is reconciling, then not, on the clock", async () => {
    const r = await call(sim(), "POST", `${envs}?environmentId=preview`, {
      displayName: "Preview",
      branch: "uploadable",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: `accounts/${A}/apps/${APP.appId}/environments/preview`,
      displayName: "Preview",
      branch: "uploadable",
      rootDirectory: "",
      domains: [],
      build: "",
      reconciling: true,
    });
    sim().advance(2);
    expect((await call(sim(), "GET", `${envs}/preview`)).body.reconciling).toBe(false);
    const missing = await call(sim(), "POST", `${envs}?environmentId=other`, { displayName: "Other" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ resource: "environment", field: "branch" });
  });

  it("updates an environment with updateMask; validateOnly changes nothing", async () => {
    const dry = await call(sim(), "PATCH", `${prod}?updateMask=displayName&validateOnly=true`, {
      displayName: "Live",
    });
    expect(dry.body.displayName).toBe("Live");
    expect((await call(sim(), "GET", prod)).body.displayName).toBe("Production");
    const r = await call(sim(), "PATCH", `${prod}?updateMask=displayName,rootDirectory`, {
      displayName: "Live",
      rootDirectory: "web",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ displayName: "Live", rootDirectory: "web", reconciling: true });
    expect((await call(sim(), "PATCH", `${prod}?updateMask=name`, {})).status).toBe(400);
  });

  it("accepts output-only fields sent back in a create or patch body and ignores them; unknown fields are refused", async () => {
    // A client reads a record, edits a field and sends it back whole.
    const read = (await call(sim(), "GET", prod)).body;
    expect(read).toMatchObject({
      name: expect.any(String),
      createTime: expect.any(String),
      domains: [APP.domain],
    });
    const copy = await call(sim(), "POST", `${envs}?environmentId=copy`, { ...read, displayName: "Copy" });
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({
      name: `accounts/${A}/apps/${APP.appId}/environments/copy`,
      environmentId: "copy",
      displayName: "Copy",
      domains: [],
      build: "",
      reconciling: true,
    });
    expect(copy.body.createTime).not.toBe(read.createTime);

    const patched = await call(sim(), "PATCH", prod, { ...read, displayName: "Live" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: read.name, displayName: "Live", domains: [APP.domain] });

    const unknown = await call(sim(), "POST", `${envs}?environmentId=other`, { ...read, colour: "red" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: "colour", code: "unknown_field" });
    expect((await call(sim(), "PATCH", prod, { displayName: "x", colour: "red" })).status).toBe(400);

    const appRead = (await call(sim(), "GET", app)).body;
    const newApp = await call(sim(), "POST", `${apps}?appId=again`, appRead);
    expect(newApp.status).toBe(200);
    expect(newApp.body).toMatchObject({ name: `accounts/${A}/apps/again`, appId: "again" });
  });

  it("filters environments by parentEnvironment and clears the cache", async () => {
    expect(
      (await call(sim(), "GET", `${envs}?filter=${encodeURIComponent('parentEnvironment=""')}`)).body
        .environments,
    ).toHaveLength(2);
    expect(
      (await call(sim(), "GET", `${envs}?filter=${encodeURIComponent('parentEnvironment="production"')}`))
        .body.environments,
    ).toEqual([]);
    expect((await call(sim(), "GET", `${envs}?filter=bogus`)).status).toBe(400);
    const clear = await call(sim(), "POST", `${prod}:clearCache`, {});
    expect(clear.status).toBe(200);
    expect(clear.body).toEqual({});
  });

  it("deletes an environment and an app (200 {}), then 404", async () => {
    expect((await call(sim(), "DELETE", `${envs}/staging`)).body).toEqual({});
    expect((await call(sim(), "GET", `${envs}/staging`)).status).toBe(404);
    expect((await call(sim(), "DELETE", app)).status).toBe(200);
    expect((await call(sim(), "GET", prod)).status).toBe(404);
  });

  it("keeps partial users out (403)", async () => {
    expect((await call(sim(), "GET", apps, undefined, { user: "partial" })).status).toBe(403);
  });
});

describe("application hosting: uploads and builds", () => {
  const sim = useSimulator();

  it("builds an uploaded zip: QUEUED, BUILDING, SUCCEEDED; the environment points at the build", async () => {
    const r = await upload(sim(), "staging", EMPTY_ZIP);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ state: "QUEUED", source: "upload", buildId: expect.any(String) });
    expect((await call(sim(), "GET", `${envs}/staging`)).body).toMatchObject({
      build: r.body.name,
      reconciling: true,
    });
    sim().advance(0.5);
    const builds = `${envs}/staging/builds`;
    expect((await call(sim(), "GET", `${builds}/${r.body.buildId}`)).body.state).toBe("BUILDING");
    sim().advance(2);
    expect((await call(sim(), "GET", `${builds}/${r.body.buildId}`)).body.state).toBe("SUCCEEDED");
    expect((await call(sim(), "GET", builds)).body.builds[0].buildId).toBe(r.body.buildId);
  });

  it("fails the build of an upload that is not a zip, and refuses an upload without the repository field", async () => {
    const r = await upload(sim(), "staging", Buffer.from("not a zip"));
    sim().advance(3);
    expect((await call(sim(), "GET", `${envs}/staging/builds/${r.body.buildId}`)).body.state).toBe("FAILED");
    expect((await upload(sim(), "staging", EMPTY_ZIP, "file")).status).toBe(400);
  });

  it("cancels a running build; a finished one cannot be cancelled", async () => {
    const r = await upload(sim(), "staging", EMPTY_ZIP);
    const cancel = `${envs}/staging/builds/${r.body.buildId}:cancel`;
    const cancelled = await call(sim(), "POST", cancel, {});
    expect(cancelled.body.state).toBe("CANCELLED");
    expect((await call(sim(), "POST", cancel, {})).status).toBe(400);
  });

  it("refuses uploads to an environment that does not build from uploads", async () => {
    await call(sim(), "POST", `${envs}?environmentId=git`, { displayName: "Git", branch: "main" });
    expect((await upload(sim(), "git", EMPTY_ZIP)).status).toBe(400);
  });
});

describe("application hosting: domain mappings", () => {
  const sim = useSimulator();
  const mappings = `${prod}/domainMappings`;

  it("replaces the set: afterwards exactly those mappings exist; new ones go CREATING then ACTIVE, removed ones DELETING", async () => {
    const r = await call(sim(), "POST", `${mappings}:replace`, {
      domainMappings: [
        { domain: "shop.example.com", primary: true },
        { domain: "www.shop.example.com", destinationDomainMapping: "shop.example.com" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.domainMappings.map((m: { domain: string; state: string }) => [m.domain, m.state])).toEqual([
      ["shop.example.com", "CREATING"],
      ["www.shop.example.com", "CREATING"],
    ]);
    const during = (await call(sim(), "GET", mappings)).body.domainMappings;
    expect(during.find((m: { domain: string }) => m.domain === APP.domain).state).toBe("DELETING");
    sim().advance(2);
    const after = (await call(sim(), "GET", mappings)).body.domainMappings;
    expect(after.map((m: { domain: string; state: string }) => [m.domain, m.state])).toEqual([
      ["shop.example.com", "ACTIVE"],
      ["www.shop.example.com", "ACTIVE"],
    ]);
    expect(after[1]).toMatchObject({
      destinationDomainMapping: "shop.example.com",
      destinationDomainMappingState: "ACTIVE",
    });
    expect((await call(sim(), "GET", prod)).body.domains).toEqual([
      "shop.example.com",
      "www.shop.example.com",
    ]);
  });

  it("takes back the mappings it listed, output-only fields and all, and refuses an unknown field", async () => {
    const listed = (await call(sim(), "GET", mappings)).body.domainMappings;
    expect(listed[0]).toMatchObject({
      name: expect.any(String),
      state: "ACTIVE",
      txtVerification: expect.any(Object),
    });
    const again = await call(sim(), "POST", `${mappings}:replace`, { domainMappings: listed });
    expect(again.status).toBe(200);
    expect(again.body.domainMappings.map((m: { domain: string }) => m.domain)).toEqual([APP.domain]);
    const unknown = await call(sim(), "POST", `${mappings}:replace`, {
      domainMappings: [{ domain: "x.example.com", weight: 1 }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: "domainMappings.0.weight", code: "unknown_field" });
  });

  it("validates the set: one primary at most, redirects inside the set, no domain of another environment", async () => {
    const two = await call(sim(), "POST", `${mappings}:replace`, {
      domainMappings: [
        { domain: "a.example.com", primary: true },
        { domain: "b.example.com", primary: true },
      ],
    });
    expect(two.status).toBe(400);
    const dangling = await call(sim(), "POST", `${mappings}:replace`, {
      domainMappings: [{ domain: "a.example.com", destinationDomainMapping: "z.example.com" }],
    });
    expect(dangling.status).toBe(400);
    const taken = await call(sim(), "POST", `${envs}/staging/domainMappings:replace`, {
      domainMappings: [{ domain: APP.domain }],
    });
    expect(taken.status).toBe(409);
    const dry = await call(sim(), "POST", `${mappings}:replace`, { domainMappings: [], validateOnly: true });
    expect(dry.body.domainMappings).toEqual([]);
    expect((await call(sim(), "GET", mappings)).body.domainMappings).toHaveLength(1);
  });

  it("marks a mapping primary", async () => {
    await call(sim(), "POST", `${mappings}:replace`, {
      domainMappings: [{ domain: APP.domain, primary: true }, { domain: "second.example.com" }],
    });
    const r = await call(sim(), "POST", `${mappings}/second.example.com:markPrimary`, {});
    expect(r.status).toBe(200);
    expect(r.body.primary).toBe(true);
    const list = (await call(sim(), "GET", mappings)).body.domainMappings;
    expect(
      list.filter((m: { primary: boolean }) => m.primary).map((m: { domain: string }) => m.domain),
    ).toEqual(["second.example.com"]);
    expect((await call(sim(), "POST", `${mappings}/nope.example.com:markPrimary`, {})).status).toBe(404);
  });

  it("verifies the TXT record only once it is published; revalidate returns the mapping", async () => {
    const created = await call(sim(), "POST", `${mappings}:replace`, {
      domainMappings: [{ domain: "txt.example.com" }],
    });
    const { name, value, verified } = created.body.domainMappings[0].txtVerification;
    expect(verified).toBe(false);
    const before = await call(sim(), "POST", `${mappings}/txt.example.com:verifyTxtRecord`, {});
    expect(before.status).toBe(400);
    expect(before.body.message).toMatch(/not found/i);
    sim().publishTxt(name, value);
    const after = await call(sim(), "POST", `${mappings}/txt.example.com:verifyTxtRecord`, {});
    expect(after.status).toBe(200);
    expect(after.body.domainMapping.txtVerification.verified).toBe(true);
    expect((await call(sim(), "POST", `${mappings}/txt.example.com:revalidate`, {})).body.domain).toBe(
      "txt.example.com",
    );
  });
});
