import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I, accounts: A } = SEED;

describe("authentication (spec section 5)", () => {
  const sim = useSimulator();

  it("answers 401 with a message when credentials are missing, on /v1 and /fu/v1", async () => {
    const v1 = await call(sim(), "GET", "/v1/installs", undefined, { user: null });
    expect(v1.status).toBe(401);
    expect(v1.body.message).toEqual(expect.any(String));
    const fu = await call(
      sim(),
      "POST",
      `/fu/v1/accounts/${A.acme.id}/apps/acme-frontend/environments/production:upload`,
      undefined,
      {
        user: null,
      },
    );
    expect(fu.status).toBe(401);
  });

  it("answers 401 for a wrong password and for an unknown user", async () => {
    const wrong = Buffer.from("demo:nope").toString("base64");
    const r1 = await call(sim(), "GET", "/v1/sites", undefined, {
      user: null,
      headers: { authorization: `Basic ${wrong}` },
    });
    expect(r1.status).toBe(401);
    const unknown = Buffer.from("mallory:demo").toString("base64");
    const r2 = await call(sim(), "GET", "/v1/sites", undefined, {
      user: null,
      headers: { authorization: `Basic ${unknown}` },
    });
    expect(r2.status).toBe(401);
    const bearer = await call(sim(), "GET", "/v1/sites", undefined, {
      user: null,
      headers: { authorization: "Bearer x" },
    });
    expect(bearer.status).toBe(401);
  });

  it("authenticates before routing: an unknown /v1 path without credentials is 401, with them 404", async () => {
    expect((await call(sim(), "GET", "/v1/nothing-here", undefined, { user: null })).status).toBe(401);
    expect((await call(sim(), "GET", "/v1/nothing-here")).status).toBe(404);
  });

  it("lets every seeded user log in with its own password", async () => {
    for (const key of Object.keys(SEED.users) as (keyof typeof SEED.users)[]) {
      const r = await call(sim(), "GET", "/v1/user", undefined, { user: key });
      expect(r.status, key).toBe(200);
      expect(r.body.id).toBe(SEED.users[key].userId);
    }
  });

  it("shows a partial user only the installs it holds, and 403 on the others", async () => {
    const list = await call(sim(), "GET", "/v1/installs", undefined, { user: "partial" });
    expect(list.body.results.map((i: { id: string }) => i.id)).toEqual([I.acmeprod.id]);
    expect(
      (await call(sim(), "GET", `/v1/installs/${I.acmeprod.id}`, undefined, { user: "partial" })).status,
    ).toBe(200);
    expect(
      (await call(sim(), "GET", `/v1/installs/${I.acmestg.id}`, undefined, { user: "partial" })).status,
    ).toBe(403);
    const domain = await call(
      sim(),
      "POST",
      `/v1/installs/${I.acmestg.id}/domains`,
      { name: "x.acme.example" },
      { user: "partial" },
    );
    expect(domain.status).toBe(403);
  });

  it("hides accounts the caller has no role on (403 on direct access)", async () => {
    const owner = await call(sim(), "GET", "/v1/accounts", undefined, { user: "owner" });
    expect(owner.body.results.map((a: { id: string }) => a.id)).toEqual([A.acme.id]);
    expect(
      (await call(sim(), "GET", `/v1/accounts/${A.initech.id}`, undefined, { user: "owner" })).status,
    ).toBe(403);
    expect(
      (await call(sim(), "GET", `/v1/installs/${I.initechprod.id}`, undefined, { user: "owner" })).status,
    ).toBe(403);
  });

  it("needs no credentials on the control API", async () => {
    expect((await call(sim(), "GET", "/__sim/clock", undefined, { user: null })).status).toBe(200);
  });
});
