import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I } = SEED;
const domains = `/v1/installs/${I.acmeprod.id}/domains`;

describe("control API: reset, clock, DNS, request log", () => {
  const sim = useSimulator();

  it("POST /__sim/reset returns to the seeded world", async () => {
    await call(sim(), "DELETE", `${domains}/${SEED.domains.wwwAcmeExample.id}`);
    expect((await call(sim(), "GET", domains)).body.count).toBe(1);
    const r = await call(sim(), "POST", "/__sim/reset", undefined, { user: null });
    expect(r.status).toBe(200);
    expect((await call(sim(), "GET", domains)).body.count).toBe(2);
  });

  it("POST /__sim/advance moves the clock by the given seconds", async () => {
    const before = Date.parse((await call(sim(), "GET", "/__sim/clock")).body.now);
    const r = await call(sim(), "POST", "/__sim/advance", { seconds: 3600 });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now) - before).toBeGreaterThanOrEqual(3600_000);
    expect((await call(sim(), "POST", "/__sim/advance", { seconds: -1 })).status).toBe(400);
  });

  it("POST /__sim/dns/txt publishes a TXT record, listed by GET", async () => {
    const r = await call(sim(), "POST", "/__sim/dns/txt", { name: "_x.example.com.", value: "v" });
    expect(r.status).toBe(201);
    const list = await call(sim(), "GET", "/__sim/dns/txt");
    expect(list.body.records).toContainEqual({ name: "_x.example.com", value: "v" });
    expect((await call(sim(), "POST", "/__sim/dns/txt", { name: "n" })).status).toBe(400);
  });

  it("GET /__sim/requests logs method, path, query and status of every API request, newest last", async () => {
    await call(sim(), "GET", "/v1/installs?limit=1");
    await call(sim(), "GET", "/v1/installs/00000000-0000-4000-8000-000000000000");
    await call(sim(), "GET", "/v1/sites", undefined, { user: null });
    const log = (await call(sim(), "GET", "/__sim/requests")).body.requests;
    expect(
      log.map((r: { method: string; path: string; status: number }) => [r.method, r.path, r.status]),
    ).toEqual([
      ["GET", "/v1/installs", 200],
      ["GET", "/v1/installs/00000000-0000-4000-8000-000000000000", 404],
      ["GET", "/v1/sites", 401],
    ]);
    expect(log[0].query).toBe("limit=1");
    expect(log[0].time).toEqual(expect.any(String));
    expect((await call(sim(), "DELETE", "/__sim/requests")).status).toBe(204);
    expect((await call(sim(), "GET", "/__sim/requests")).body.requests).toEqual([]);
  });

  it("PUT /__sim/users/:username changes a password: the old one is refused, reset brings it back", async () => {
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`demo:${password}`).toString("base64")}`,
    });
    const r = await call(sim(), "PUT", "/__sim/users/demo", { password: "rotated-2" }, { user: null });
    expect(r).toMatchObject({ status: 200, body: { username: "demo" } });
    expect((await call(sim(), "GET", "/v1/user")).status).toBe(401);
    expect(
      (await call(sim(), "GET", "/v1/user", undefined, { user: null, headers: basic("rotated-2") })).status,
    ).toBe(200);
    expect((await call(sim(), "PUT", "/__sim/users/nobody", { password: "x" })).status).toBe(404);
    expect((await call(sim(), "PUT", "/__sim/users/demo", { password: "" })).status).toBe(400);
    await call(sim(), "POST", "/__sim/reset");
    expect((await call(sim(), "GET", "/v1/user")).status).toBe(200);
  });

  it("PUT /__sim/users/:username with a userId makes an API user seeing what that account user may; reset removes it", async () => {
    const initech = SEED.accounts.initech.id;
    const made = await call(sim(), "POST", `/v1/accounts/${initech}/account_users`, {
      user: {
        account_id: initech,
        first_name: "Ann",
        last_name: "Agency",
        email: "api@agency.example",
        roles: "owner",
      },
    });
    expect(made.status).toBe(201);
    const userId = made.body.account_user.user_id as string;
    const basic = { authorization: `Basic ${Buffer.from("agency:agency-pw").toString("base64")}` };
    expect((await call(sim(), "GET", "/v1/user", undefined, { user: null, headers: basic })).status).toBe(
      401,
    );
    const r = await call(
      sim(),
      "PUT",
      "/__sim/users/agency",
      { password: "agency-pw", userId },
      { user: null },
    );
    expect(r).toMatchObject({ status: 200, body: { username: "agency" } });
    const accounts = await call(sim(), "GET", "/v1/accounts", undefined, { user: null, headers: basic });
    expect(accounts.body.results.map((a: { id: string }) => a.id)).toEqual([initech]);
    const log = (await call(sim(), "GET", "/__sim/requests")).body.requests;
    expect(log.at(-1)).toMatchObject({ path: "/v1/accounts", user: "agency" });
    await call(sim(), "POST", "/__sim/reset");
    expect((await call(sim(), "GET", "/v1/user", undefined, { user: null, headers: basic })).status).toBe(
      401,
    );
  });

  it("never serves the control API under /v1", async () => {
    expect((await call(sim(), "POST", "/v1/__sim/reset")).status).toBe(404);
  });
});

describe("control API: injected faults", () => {
  const sim = useSimulator();

  it("answers 429 with Retry-After before the handler runs: the operation does not happen", async () => {
    const put = await call(sim(), "PUT", "/__sim/faults", {
      rules: [{ method: "POST", path: "/v1/installs/*/domains", status: 429, retryAfter: 2, count: 1 }],
    });
    expect(put.status).toBe(200);
    const limited = await call(sim(), "POST", domains, { name: "shop.acme.example" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect((await call(sim(), "GET", domains)).body.count).toBe(2);
    expect((await call(sim(), "POST", domains, { name: "shop.acme.example" })).status).toBe(201);
  });

  it("answers 429 without Retry-After when none is set", async () => {
    sim().setFaults([{ path: "/v1/sites", status: 429, count: 1 }]);
    const r = await call(sim(), "GET", "/v1/sites");
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBeNull();
  });

  it("injects 500, 502 and 503 by count, then serves normally", async () => {
    await call(sim(), "PUT", "/__sim/faults", {
      rules: [
        { path: "/v1/installs", method: "GET", status: 500, count: 1 },
        { path: "/v1/installs", method: "GET", status: 502, count: 1 },
        { path: "/v1/installs", method: "GET", status: 503, count: 1 },
      ],
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sim(), "GET", "/v1/installs")).status);
    expect(statuses).toEqual([500, 502, 503, 200]);
    const listed = (await call(sim(), "GET", "/__sim/faults")).body.rules;
    expect(listed.map((r: { remaining: number; fired: number }) => [r.remaining, r.fired])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
  });

  it("lets the first `skip` matching requests through, then fires", async () => {
    sim().setFaults([{ path: "/v1/installs", method: "GET", status: 503, skip: 2, count: 1 }]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sim(), "GET", "/v1/installs")).status);
    expect(statuses).toEqual([200, 200, 503, 200]);
  });

  it("matches by method and by regular expression", async () => {
    sim().setFaults([{ method: "DELETE", path: "^/v1/installs/[^/]+/domains/", status: 503 }]);
    expect((await call(sim(), "GET", `${domains}/${SEED.domains.acmeExample.id}`)).status).toBe(200);
    expect((await call(sim(), "DELETE", `${domains}/${SEED.domains.wwwAcmeExample.id}`)).status).toBe(503);
    expect((await call(sim(), "GET", domains)).body.count).toBe(2);
  });

  it("applies a probability: 0 never fires, 1 always fires", async () => {
    sim().setFaults([{ path: "/v1/sites", status: 503, probability: 0 }]);
    expect((await call(sim(), "GET", "/v1/sites")).status).toBe(200);
    sim().setFaults([{ path: "/v1/sites", status: 503, probability: 1 }]);
    expect((await call(sim(), "GET", "/v1/sites")).status).toBe(503);
  });

  it("adds latency", async () => {
    sim().setFaults([{ path: "/v1/sites", latencyMs: 300, count: 1 }]);
    const start = Date.now();
    const r = await call(sim(), "GET", "/v1/sites");
    expect(r.status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(290);
  });

  it("drops the connection without an answer, and logs it", async () => {
    sim().setFaults([{ path: "/v1/sites", drop: true, count: 1 }]);
    await expect(call(sim(), "GET", "/v1/sites")).rejects.toThrow();
    expect((await call(sim(), "GET", "/v1/sites")).status).toBe(200);
    const log = sim().requests();
    expect(log[0]).toMatchObject({ path: "/v1/sites", status: 0, dropped: true });
  });

  it("with after, applies the write and then drops the connection: the client never learns it", async () => {
    sim().setFaults([{ method: "POST", path: "/v1/installs/*/domains", after: true, drop: true, count: 1 }]);
    await expect(call(sim(), "POST", domains, { name: "lost.acme.example" })).rejects.toThrow();
    const names = (await call(sim(), "GET", domains)).body.results.map((d: { name: string }) => d.name);
    expect(names).toContain("lost.acme.example");
    expect(sim().requests()[0]).toMatchObject({ method: "POST", status: 0, dropped: true });
  });

  it("with after, applies the write and then answers the 5xx in the service's shape", async () => {
    sim().setFaults([
      { method: "POST", path: "/v1/installs/*/domains", after: true, status: 503, retryAfter: 1, count: 1 },
    ]);
    const r = await call(sim(), "POST", domains, { name: "applied.acme.example" });
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("1");
    expect(r.body).toEqual({ message: "Service temporarily unavailable" });
    // Sent again, the create finds the first one: it had happened.
    expect((await call(sim(), "POST", domains, { name: "applied.acme.example" })).body.errors[0].code).toBe(
      "already_exists",
    );
    expect(
      sim()
        .requests()
        .map((q) => q.status),
    ).toEqual([503, 400]);
  });

  it("with after and latencyMs, applies the write at once and answers late: the object exists while the client waits", async () => {
    sim().setFaults([
      { method: "POST", path: "/v1/installs/*/domains", after: true, latencyMs: 3_000, count: 1 },
    ]);
    let answeredYet = false;
    const answered = call(sim(), "POST", domains, { name: "slow.acme.example" }).finally(() => {
      answeredYet = true;
    });
    let listed: string[] = [];
    while (!listed.includes("slow.acme.example") && !answeredYet)
      listed = (await call(sim(), "GET", domains)).body.results.map((d: { name: string }) => d.name);
    expect(answeredYet, "the create was answered before the domain was listed").toBe(false);
    expect((await answered).status).toBe(201);
  });

  it("with after and a probability, fires on some requests only, each applied", async () => {
    sim().setFaults([
      { method: "POST", path: "/v1/installs/*/domains", after: true, status: 500, probability: 0.5 },
    ]);
    const statuses = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await call(sim(), "POST", domains, { name: `p${i}.acme.example` })).status);
    expect(statuses).toContain(500);
    expect(statuses).toContain(201);
    expect((await call(sim(), "GET", domains)).body.count).toBe(42);
  });

  it("refuses after with a 429 (it says nothing happened) or with nothing to do", async () => {
    for (const rule of [
      { path: "/v1/x", after: true, status: 429 },
      { path: "/v1/x", after: true },
    ]) {
      const r = await call(sim(), "PUT", "/__sim/faults", { rules: [rule] });
      expect(r.status).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ field: "rules.0.after" });
    }
  });

  it("rejects an invalid rule with 400 and is cleared by reset", async () => {
    expect(
      (await call(sim(), "PUT", "/__sim/faults", { rules: [{ path: "/v1/x", status: 418 }] })).status,
    ).toBe(400);
    expect((await call(sim(), "PUT", "/__sim/faults", { rules: [{ path: "^(" }] })).status).toBe(400);
    sim().setFaults([{ path: "/v1/sites", status: 503 }]);
    await call(sim(), "POST", "/__sim/reset");
    expect((await call(sim(), "GET", "/__sim/faults")).body.rules).toEqual([]);
  });
});

describe("error bodies (spec section 7)", () => {
  const sim = useSimulator();

  it("answers malformed JSON and a non-JSON body with 400 {message, errors}", async () => {
    const bad = await call(sim(), "POST", domains, undefined, {
      raw: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      message: expect.any(String),
      errors: [expect.objectContaining({ resource: "request" })],
    });
    const text = await call(sim(), "POST", domains, undefined, {
      raw: "name=x",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(400);
  });

  it("accepts a bodiless POST whatever its content type (axios sends application/x-www-form-urlencoded)", async () => {
    const verify = `${domains}/${SEED.domains.acmeExample.id}/verification`;
    for (const type of ["application/x-www-form-urlencoded", "text/xml", "application/json"]) {
      const r = await call(sim(), "POST", verify, undefined, {
        headers: { "content-type": type, "content-length": "0" },
      });
      expect(r.status, type).toBe(200);
      expect(r.body.id, type).toBe(SEED.domains.acmeExample.id);
    }
    const form = await call(sim(), "POST", domains, undefined, {
      raw: "name=x.acme.example",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
    expect(form.body.errors[0]).toMatchObject({ resource: "request", code: "unsupported_media_type" });
  });

  it("answers the web framework's own errors in the service's shape, without its names", async () => {
    const big = await call(sim(), "POST", domains, { name: "x".repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      message: expect.any(String),
      errors: [
        { resource: "request", type: "invalid_value", code: "body_too_large", message: expect.any(String) },
      ],
    });
    expect(JSON.stringify(big.body)).not.toMatch(/FST_/);
  });

  it("answers unknown ids and unknown paths with 404 {message}", async () => {
    const r = await call(sim(), "GET", `${domains}/00000000-0000-4000-8000-000000000000`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: expect.any(String) });
    expect((await call(sim(), "GET", "/v1/no/such/thing")).body.message).toEqual(expect.any(String));
  });

  it("rejects an unknown field in a body with 400 naming it", async () => {
    const r = await call(sim(), "POST", domains, { name: "x.acme.example", primray: true });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ resource: "domain", field: "primray", type: "invalid_value" });
    expect(r.body.message).toMatch(/primray/);
  });
});
