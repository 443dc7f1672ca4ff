import { afterEach, describe, expect, it } from "vitest";
import type { WpEngineValidationError } from "../../sdk";
import { AUTH, rejection, setup } from "./sdk-support";

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

const APP = "/v1/accounts/acc/apps/shop";
const ENV = `${APP}/environments/prod`;
const environment = {
  name: "accounts/acc/apps/shop/environments/prod",
  displayName: "Prod",
  branch: "main",
  reconciling: true,
};

describe("apps", () => {
  it("creates with appId in the query and {region, uploadable: {}} in the body", async () => {
    ctx = setup();
    ctx.apps("POST", "/v1/accounts/acc/apps?appId=shop", {
      status: 200,
      body: { name: "accounts/acc/apps/shop", region: "regions/EU-W", uploadable: {} },
    });
    const app = await ctx.client.apps.create("acc", "shop", { region: "EU-W" });
    expect(ctx.json()).toEqual({ region: "regions/EU-W", uploadable: {} });
    expect(ctx.seen[0]?.headers["authorization"]).toBe(AUTH);
    expect(app.appId).toBe("shop"); // filled from the resource name
  });

  it("refuses an unknown region and an app id with a slash", async () => {
    ctx = setup();
    const region = await rejection(ctx.client.apps.create("acc", "shop", { region: "regions/MARS" }));
    expect((region as WpEngineValidationError).field).toBe("region");
    await expect(ctx.client.apps.create("acc", "a/b", { region: "US-C" })).rejects.toThrow(
      /appId must not contain/,
    );
    expect(ctx.seen).toHaveLength(0);
  });

  it("gets and deletes", async () => {
    ctx = setup();
    ctx.apps("GET", APP, { status: 200, body: { name: "accounts/acc/apps/shop", appId: "shop" } });
    ctx.apps("DELETE", APP, { status: 200, body: {} });
    expect((await ctx.client.apps.get("acc", "shop")).name).toBe("accounts/acc/apps/shop");
    await ctx.client.apps.delete("acc", "shop");
  });
});

describe("environments", () => {
  it("creates with environmentId in the query", async () => {
    ctx = setup();
    ctx.apps("POST", `${APP}/environments?environmentId=prod`, { status: 200, body: environment });
    const env = await ctx.client.environments.create("acc", "shop", "prod", {
      displayName: "Prod",
      branch: "main",
    });
    expect(ctx.json()).toEqual({ displayName: "Prod", branch: "main" });
    expect(env).toMatchObject({ environmentId: "prod", reconciling: true });
  });

  it("computes updateMask from the keys given and passes validateOnly", async () => {
    ctx = setup();
    ctx.apps("PATCH", `${ENV}?updateMask=displayName%2CrootDirectory&validateOnly=true`, {
      status: 200,
      body: environment,
    });
    await ctx.client.environments.update(
      "acc",
      "shop",
      "prod",
      { displayName: "P", rootDirectory: "web" },
      { validateOnly: true },
    );
    expect(ctx.json()).toEqual({ displayName: "P", rootDirectory: "web" });
    ctx.apps("PATCH", `${ENV}?updateMask=branch`, { status: 200, body: environment });
    await ctx.client.environments.update("acc", "shop", "prod", { branch: "release" });
  });

  it("refuses an empty update", async () => {
    ctx = setup();
    await expect(ctx.client.environments.update("acc", "shop", "prod", {})).rejects.toThrow(
      /at least one of/,
    );
  });

  it("clears the cache with POST :clearCache {}", async () => {
    ctx = setup();
    ctx.apps("POST", `${ENV}:clearCache`, { status: 200, body: {} });
    await ctx.client.environments.clearCache("acc", "shop", "prod");
    expect(ctx.json()).toEqual({});
  });

  it("uploads the zip as the multipart field repository under /fu/v1 and returns the build", async () => {
    ctx = setup();
    ctx.apps("POST", `/fu${ENV}:upload`, {
      status: 200,
      body: { name: "accounts/acc/apps/shop/environments/prod/builds/b1", state: "QUEUED", source: "upload" },
    });
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    const build = await ctx.client.environments.upload("acc", "shop", "prod", zip, "site.zip");
    expect(build).toMatchObject({ buildId: "b1", state: "QUEUED" });
    const req = ctx.seen[0]!;
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(req.headers["content-type"] ?? "")?.[1];
    expect(boundary).toBeTruthy();
    expect(req.body).toContain('Content-Disposition: form-data; name="repository"; filename="site.zip"');
    expect(req.body).toContain("Content-Type: application/zip");
    expect(req.body).toContain(zip.toString("latin1"));
  });

  it("refuses an empty upload", async () => {
    ctx = setup();
    await expect(ctx.client.environments.upload("acc", "shop", "prod", Buffer.alloc(0))).rejects.toThrow(
      /zip: must be a non-empty/,
    );
  });

  it("deletes", async () => {
    ctx = setup();
    ctx.apps("DELETE", ENV, { status: 200, body: {} });
    await ctx.client.environments.delete("acc", "shop", "prod");
  });
});

describe("builds", () => {
  it("gets, lists and cancels", async () => {
    ctx = setup();
    const b = { name: `accounts/acc/apps/shop/environments/prod/builds/b1`, state: "BUILDING" };
    ctx.apps("GET", `${ENV}/builds/b1`, { status: 200, body: b });
    ctx.apps("GET", `${ENV}/builds`, { status: 200, body: { builds: [b] } });
    ctx.apps("POST", `${ENV}/builds/b1:cancel`, { status: 200, body: { ...b, state: "CANCELLED" } });
    expect((await ctx.client.builds.get("acc", "shop", "prod", "b1")).state).toBe("BUILDING");
    expect((await ctx.client.builds.list("acc", "shop", "prod")).items).toHaveLength(1);
    expect((await ctx.client.builds.cancel("acc", "shop", "prod", "b1")).state).toBe("CANCELLED");
  });
});

describe("domain mappings", () => {
  const mapping = {
    name: `accounts/acc/apps/shop/environments/prod/domainMappings/shop.example.com`,
    domain: "shop.example.com",
    primary: true,
    state: "CREATING",
  };

  it("replaces with the full set and returns the resulting mappings", async () => {
    ctx = setup();
    ctx.apps("POST", `${ENV}/domainMappings:replace`, { status: 200, body: { domainMappings: [mapping] } });
    const result = await ctx.client.domainMappings.replace("acc", "shop", "prod", {
      domainMappings: [{ domain: "shop.example.com", primary: true }],
    });
    expect(ctx.json()).toEqual({ domainMappings: [{ domain: "shop.example.com", primary: true }] });
    expect(result[0]?.state).toBe("CREATING");
  });

  it("refuses two primaries and duplicate domains", async () => {
    ctx = setup();
    const two = await rejection(
      ctx.client.domainMappings.replace("acc", "shop", "prod", {
        domainMappings: [
          { domain: "a.example.com", primary: true },
          { domain: "b.example.com", primary: true },
        ],
      }),
    );
    expect((two as Error).message).toMatch(/at most one mapping can be primary/);
    const dup = await rejection(
      ctx.client.domainMappings.replace("acc", "shop", "prod", {
        domainMappings: [{ domain: "a.example.com" }, { domain: "A.example.com" }],
      }),
    );
    expect((dup as WpEngineValidationError).field).toBe("domainMappings[1].domain");
  });

  it("markPrimary and revalidate POST {} to the mapping's custom method", async () => {
    ctx = setup();
    ctx.apps("POST", `${ENV}/domainMappings/shop.example.com:markPrimary`, { status: 200, body: mapping });
    ctx.apps("POST", `${ENV}/domainMappings/shop.example.com:revalidate`, {
      status: 200,
      body: { ...mapping, state: "ACTIVE" },
    });
    expect(
      (await ctx.client.domainMappings.markPrimary("acc", "shop", "prod", "shop.example.com")).primary,
    ).toBe(true);
    expect(
      (await ctx.client.domainMappings.revalidate("acc", "shop", "prod", "shop.example.com")).state,
    ).toBe("ACTIVE");
    expect(ctx.json()).toEqual({});
  });

  it("verifyTxtRecord unwraps {domainMapping}", async () => {
    ctx = setup();
    ctx.apps("POST", `${ENV}/domainMappings/shop.example.com:verifyTxtRecord`, {
      status: 200,
      body: { domainMapping: { ...mapping, txtVerification: { name: "_wpe", value: "v", verified: true } } },
    });
    const m = await ctx.client.domainMappings.verifyTxtRecord("acc", "shop", "prod", "shop.example.com");
    expect(m.txtVerification?.verified).toBe(true);
  });

  it("retries :replace on 502 (idempotent) but not the upload (creates a build)", async () => {
    ctx = setup();
    ctx.apps(
      "POST",
      `${ENV}/domainMappings:replace`,
      { status: 502 },
      { status: 200, body: { domainMappings: [] } },
    );
    await ctx.client.domainMappings.replace("acc", "shop", "prod", { domainMappings: [] });
    ctx.apps("POST", `/fu${ENV}:upload`, { status: 502 });
    await expect(
      ctx.client.environments.upload("acc", "shop", "prod", Buffer.from("PK")),
    ).rejects.toMatchObject({ status: 502 });
    expect(ctx.seen).toHaveLength(3);
  });
});
