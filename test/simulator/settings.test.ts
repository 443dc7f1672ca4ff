import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WpEngineClient } from "../../sdk";
import { startSimulator } from "../../simulator";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I } = SEED;
const domains = `/v1/installs/${I.acmedev.id}/domains`;

describe("rate limit", () => {
  const sim = useSimulator({ rate: "3/s" });
  // Real time stands still unless a test moves it: no bucket refills while a busy machine is slow.
  let frozen = 0;
  beforeEach(() => {
    frozen = performance.now();
    vi.spyOn(performance, "now").mockImplementation(() => frozen);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it("lets a burst of N through, then answers 429 with Retry-After in the service's shape, the operation not done", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sim(), "GET", "/v1/installs")).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await call(sim(), "POST", domains, { name: "late.acme.example" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.body).toEqual({ message: "Rate limit exceeded - too many requests" });
    expect(sim().requests().at(-1)).toMatchObject({ method: "POST", status: 429 });
    const state = (await call(sim(), "GET", "/__sim/state")).body;
    expect(Object.values<{ name: string }>(state.domains).map((d) => d.name)).not.toContain(
      "late.acme.example",
    );
  });

  it("lets requests through again as real time passes (the simulated clock does not refill it)", async () => {
    for (let i = 0; i < 3; i++) await call(sim(), "GET", "/v1/installs");
    sim().advance(3600);
    expect((await call(sim(), "GET", "/v1/installs")).status).toBe(429);
    frozen += 1000;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(sim(), "GET", "/v1/installs")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("never limits the control API", async () => {
    for (let i = 0; i < 10; i++) expect((await call(sim(), "GET", "/__sim/clock")).status).toBe(200);
  });

  it("is changed and lifted through /__sim/settings, refused when malformed, and restored by reset", async () => {
    expect((await call(sim(), "GET", "/__sim/settings")).body).toEqual({
      rate: "3/s",
      bulkDomains: "array",
      latencyMs: 0,
    });
    expect((await call(sim(), "PUT", "/__sim/settings", { rate: null })).body.rate).toBeNull();
    for (let i = 0; i < 10; i++) expect((await call(sim(), "GET", "/v1/installs")).status).toBe(200);
    expect((await call(sim(), "PUT", "/__sim/settings", { rate: "60/m" })).body.rate).toBe("60/m");
    const bad = await call(sim(), "PUT", "/__sim/settings", { rate: "fast" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ resource: "settings", field: "rate" });
    await call(sim(), "POST", "/__sim/reset");
    expect((await call(sim(), "GET", "/__sim/settings")).body.rate).toBe("3/s");
  });

  it("is read from WPE_SIM_RATE and WPE_SIM_BULK_DOMAINS when the options do not say", async () => {
    vi.stubEnv("WPE_SIM_RATE", "7/m");
    vi.stubEnv("WPE_SIM_BULK_DOMAINS", "object");
    const other = await startSimulator({ quiet: true });
    try {
      expect((await call(other, "GET", "/__sim/settings")).body).toEqual({
        rate: "7/m",
        bulkDomains: "object",
        latencyMs: 0,
      });
    } finally {
      await other.stop();
    }
  });
});

describe("the bulk domain create's answer, either shape", () => {
  const sim = useSimulator();
  const client = () => new WpEngineClient({ username: "demo", password: "demo", apiUrl: sim().apiUrl });
  const body = {
    domains: [{ name: "a.acme.example" }, { name: "b.acme.example", redirect_to: "a.acme.example" }],
  };

  it("answers a list of records by default; the sdk returns them all", async () => {
    const r = await call(sim(), "POST", `${domains}/bulk`, body);
    expect(r.body.map((d: { name: string }) => d.name)).toEqual(["a.acme.example", "b.acme.example"]);
    await call(sim(), "POST", "/__sim/reset");
    const list = await client().domains.createBulk(I.acmedev.id, body);
    expect(list.map((d) => d.name)).toEqual(["a.acme.example", "b.acme.example"]);
    expect(list[1]!.redirects_to).toEqual([{ id: list[0]!.id, name: "a.acme.example" }]);
  });

  it("answers one DomainOrRedirect (the first domain's) with bulkDomains object; the sdk returns a list of it", async () => {
    sim().configure({ bulkDomains: "object" });
    const r = await call(sim(), "POST", `${domains}/bulk`, body);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "a.acme.example", ownership_status: "TXT_VERIFICATION_PENDING" });
    await call(sim(), "POST", "/__sim/reset");
    sim().configure({ bulkDomains: "object" });
    const list = await client().domains.createBulk(I.acmedev.id, body);
    expect(list.map((d) => d.name)).toEqual(["a.acme.example"]);
    // Both were created all the same.
    const names = (await client().domains.list(I.acmedev.id)).items.map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(["a.acme.example", "b.acme.example"]));
  });

  it("refuses another shape", async () => {
    const r = await call(sim(), "PUT", "/__sim/settings", { bulkDomains: "map" });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ field: "bulkDomains" });
  });
});

describe("latency (--latency, latencyMs)", () => {
  const sim = useSimulator({ latencyMs: 1 });

  it("is read and changed through /__sim/settings, refused when not a whole number of ms, and restored by reset", async () => {
    expect((await call(sim(), "GET", "/__sim/settings")).body.latencyMs).toBe(1);
    expect((await call(sim(), "PUT", "/__sim/settings", { latencyMs: 20 })).body.latencyMs).toBe(20);
    // Every API request still answers, after the wait.
    expect((await call(sim(), "GET", "/v1/installs")).status).toBe(200);
    for (const bad of [-1, 1.5, 600_001]) {
      const r = await call(sim(), "PUT", "/__sim/settings", { latencyMs: bad });
      expect(r.status, String(bad)).toBe(400);
      expect(r.body.errors[0]).toMatchObject({ resource: "settings", field: "latencyMs" });
    }
    await call(sim(), "POST", "/__sim/reset");
    expect((await call(sim(), "GET", "/__sim/settings")).body.latencyMs).toBe(1);
  });
});
