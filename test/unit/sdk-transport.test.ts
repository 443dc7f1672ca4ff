import type { Dispatcher } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  closeSharedPools,
  isConnectionError,
  isRateLimited,
  isTimeoutError,
  mayHaveActed,
  parseRetryAfter,
  resolveClientConfig,
  sharedPool,
  WpEngineApiError,
  WpEngineClient,
  WpEngineConfigError,
  WpEngineConnectionError,
  type WpEngineTimeoutError,
} from "../../sdk";
import {
  API_URL,
  AUTH,
  DOMAIN_ID,
  INSTALL,
  PASSWORD,
  rejection,
  setup,
  sysError,
  USERNAME,
} from "./sdk-support";

const INSTALL_PATH = `/v1/installs/${INSTALL.id}`;
const DOMAINS_PATH = `${INSTALL_PATH}/domains`;
const DOMAIN = { id: DOMAIN_ID, name: "www.example.com", redirects_to: [] };

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

describe("requests", () => {
  it("sends Basic auth, JSON accept, the user agent and the JSON body", async () => {
    ctx = setup({ userAgent: "ci-tests/1" });
    ctx.api("POST", DOMAINS_PATH, { status: 201, body: DOMAIN });
    await ctx.client.domains.create(INSTALL.id, { name: "www.example.com", primary: true });
    const req = ctx.seen[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(DOMAINS_PATH);
    expect(req.headers["authorization"]).toBe(AUTH);
    expect(req.headers["accept"]).toBe("application/json");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toBe("ci-tests/1");
    expect(ctx.json()).toEqual({ name: "www.example.com", primary: true });
  });

  it("calls beforeWrite before a write leaves, never before a read (the create journal's hook)", async () => {
    const order: string[] = [];
    ctx = setup({ beforeWrite: () => order.push("beforeWrite") });
    ctx.api("GET", DOMAINS_PATH, {
      status: 200,
      body: { results: [], count: 0, next: null, previous: null },
    });
    ctx.api("POST", DOMAINS_PATH, { status: 201, body: DOMAIN });
    await ctx.client.domains.list(INSTALL.id);
    order.push(`sent ${ctx.seen.length}`);
    await ctx.client.domains.create(INSTALL.id, { name: "www.example.com" });
    order.push(`sent ${ctx.seen.length}`);
    expect(order).toEqual(["sent 1", "beforeWrite", "sent 2"]);
  });

  it("percent-encodes path parameters so an id cannot add a segment", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/installs/a%2F..%2Fb%3Fx%3D1", { status: 200, body: INSTALL });
    await ctx.client.installs.get("a/../b?x=1");
    expect(ctx.seen[0]!.path).toBe("/v1/installs/a%2F..%2Fb%3Fx%3D1");
  });

  it("refuses empty and dot-segment ids before sending", async () => {
    ctx = setup();
    await expect(ctx.client.installs.get("")).rejects.toThrow(/non-empty identifier/);
    await expect(ctx.client.installs.get("..")).rejects.toThrow(/not a valid identifier/);
    expect(ctx.seen).toHaveLength(0);
  });
});

describe("retries", () => {
  it("retries a GET on 429 and waits exactly the Retry-After seconds", async () => {
    ctx = setup();
    ctx.api(
      "GET",
      INSTALL_PATH,
      { status: 429, body: { message: "slow down" }, headers: { "retry-after": "3" } },
      { status: 200, body: INSTALL },
    );
    const install = await ctx.client.installs.get(INSTALL.id);
    expect(install.name).toBe("mysite");
    expect(ctx.seen).toHaveLength(2);
    expect(ctx.sleeps).toEqual([3000]);
  });

  it("honours a Retry-After given as an HTTP date", async () => {
    ctx = setup();
    const at = new Date(Date.now() + 5_000).toUTCString();
    ctx.api(
      "GET",
      INSTALL_PATH,
      { status: 503, headers: { "retry-after": at } },
      { status: 200, body: INSTALL },
    );
    await ctx.client.installs.get(INSTALL.id);
    expect(ctx.sleeps).toHaveLength(1);
    expect(ctx.sleeps[0]).toBeGreaterThan(3_000);
    expect(ctx.sleeps[0]).toBeLessThanOrEqual(5_000);
  });

  it("gives up at once when Retry-After exceeds maxRetryAfterMs, and reports the wait asked for", async () => {
    ctx = setup({ maxRetryAfterMs: 10_000 });
    ctx.api("GET", INSTALL_PATH, { status: 429, headers: { "retry-after": "120" } });
    const err = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(isRateLimited(err)).toBe(true);
    expect((err as WpEngineApiError).retryAfterMs).toBe(120_000);
    expect(ctx.sleeps).toEqual([]);
  });

  it.each([502, 503, 504])("retries a GET on %i with exponential backoff", async (status) => {
    ctx = setup({ retryBaseMs: 100, retryMaxDelayMs: 10_000 });
    ctx.api("GET", INSTALL_PATH, { status }, { status }, { status }, { status: 200, body: INSTALL });
    await ctx.client.installs.get(INSTALL.id);
    expect(ctx.sleeps).toHaveLength(3);
    // Equal jitter: each delay lies in [exp/2, exp] with exp = 100, 200, 400.
    ctx.sleeps.forEach((ms, i) => {
      const exp = 100 * 2 ** i;
      expect(ms).toBeGreaterThanOrEqual(exp / 2);
      expect(ms).toBeLessThanOrEqual(exp);
    });
  });

  it("caps each backoff delay at retryMaxDelayMs", async () => {
    ctx = setup({ retryBaseMs: 1_000, retryMaxDelayMs: 1_500, maxRetries: 4 });
    ctx.api(
      "GET",
      INSTALL_PATH,
      { status: 503 },
      { status: 503 },
      { status: 503 },
      { status: 503 },
      {
        status: 200,
        body: INSTALL,
      },
    );
    await ctx.client.installs.get(INSTALL.id);
    expect(ctx.sleeps).toHaveLength(4);
    for (const ms of ctx.sleeps.slice(1)) expect(ms).toBeLessThanOrEqual(1_500);
  });

  it("stops after maxRetries and throws the last error", async () => {
    ctx = setup({ maxRetries: 2 });
    ctx.api(
      "GET",
      INSTALL_PATH,
      { status: 503 },
      { status: 503 },
      { status: 503, body: { message: "down" } },
    );
    const err = (await rejection(ctx.client.installs.get(INSTALL.id))) as WpEngineApiError;
    expect(err.status).toBe(503);
    expect(err.kind).toBe("Service unavailable");
    expect(ctx.seen).toHaveLength(3);
  });

  it("does not retry 500 or 4xx answers", async () => {
    ctx = setup();
    ctx.api("GET", INSTALL_PATH, { status: 500, body: { message: "boom" } });
    await expect(ctx.client.installs.get(INSTALL.id)).rejects.toMatchObject({ status: 500 });
    ctx.api("GET", INSTALL_PATH, { status: 409, body: { message: "conflict" } });
    await expect(ctx.client.installs.get(INSTALL.id)).rejects.toMatchObject({ status: 409 });
    expect(ctx.seen).toHaveLength(2);
  });

  it("retries a creating POST on 429 (the server did not act)", async () => {
    ctx = setup();
    ctx.api("POST", DOMAINS_PATH, { status: 429 }, { status: 201, body: DOMAIN });
    const d = await ctx.client.domains.create(INSTALL.id, { name: "www.example.com" });
    expect(d.id).toBe(DOMAIN_ID);
    expect(ctx.seen).toHaveLength(2);
  });

  it.each([500, 502, 503, 504])(
    "does not retry a creating POST on %i (the service may have created it)",
    async (status) => {
      ctx = setup();
      ctx.api("POST", DOMAINS_PATH, { status });
      const err = await rejection(ctx.client.domains.create(INSTALL.id, { name: "www.example.com" }));
      expect((err as WpEngineApiError).status).toBe(status);
      expect(mayHaveActed(err)).toBe(true);
      expect(ctx.seen).toHaveLength(1);
    },
  );

  // No resource sends the bulk create (the provider tests' table checks the creates resources send).
  it.each([502, 503])("does not retry the bulk domain create on %i", async (status) => {
    ctx = setup();
    ctx.api("POST", `${DOMAINS_PATH}/bulk`, { status });
    const err = await rejection(
      ctx.client.domains.createBulk(INSTALL.id, { domains: [{ name: "a.example.com" }] }),
    );
    expect((err as WpEngineApiError).status).toBe(status);
    expect(ctx.seen).toHaveLength(1);
  });

  it("retries an idempotent POST (domain verification) on 502", async () => {
    ctx = setup();
    ctx.api(
      "POST",
      `${DOMAINS_PATH}/${DOMAIN_ID}/verification`,
      { status: 502 },
      { status: 200, body: { id: DOMAIN_ID, txt_verified_time: "2026-01-01T00:00:00Z" } },
    );
    const v = await ctx.client.domains.verify(INSTALL.id, DOMAIN_ID);
    expect(v.txt_verified_time).toBe("2026-01-01T00:00:00Z");
    expect(ctx.seen).toHaveLength(2);
  });

  it("retries a PATCH (absolute values) on 504", async () => {
    ctx = setup();
    ctx.api("PATCH", `${DOMAINS_PATH}/${DOMAIN_ID}`, { status: 504 }, { status: 200, body: DOMAIN });
    await ctx.client.domains.update(INSTALL.id, DOMAIN_ID, { secure_all_urls: true });
    expect(ctx.seen).toHaveLength(2);
  });

  it("retries a creating POST after ECONNREFUSED (nothing was sent)", async () => {
    ctx = setup();
    ctx.hosting.intercept({ method: "POST", path: DOMAINS_PATH }).replyWithError(sysError("ECONNREFUSED"));
    ctx.api("POST", DOMAINS_PATH, { status: 201, body: DOMAIN });
    const d = await ctx.client.domains.create(INSTALL.id, { name: "www.example.com" });
    expect(d.id).toBe(DOMAIN_ID);
    expect(ctx.sleeps).toHaveLength(1);
  });

  it("does not retry a creating POST after ECONNRESET (it may have been processed)", async () => {
    ctx = setup();
    ctx.hosting.intercept({ method: "POST", path: DOMAINS_PATH }).replyWithError(sysError("ECONNRESET"));
    const err = await rejection(ctx.client.domains.create(INSTALL.id, { name: "www.example.com" }));
    expect(err).toBeInstanceOf(WpEngineConnectionError);
    expect((err as WpEngineConnectionError).code).toBe("ECONNRESET");
    expect(ctx.sleeps).toHaveLength(0);
  });

  it("retries a GET after ECONNRESET", async () => {
    ctx = setup();
    ctx.hosting.intercept({ method: "GET", path: INSTALL_PATH }).replyWithError(sysError("ECONNRESET"));
    ctx.api("GET", INSTALL_PATH, { status: 200, body: INSTALL });
    await expect(ctx.client.installs.get(INSTALL.id)).resolves.toMatchObject({ id: INSTALL.id });
  });

  it("reports a connection failure apart from API errors once retries run out", async () => {
    ctx = setup({ maxRetries: 1 });
    ctx.hosting
      .intercept({ method: "GET", path: INSTALL_PATH })
      .replyWithError(sysError("ENOTFOUND"))
      .times(2);
    const err = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(isConnectionError(err)).toBe(true);
    expect(err).not.toBeInstanceOf(WpEngineApiError);
    expect((err as Error).message).toMatch(new RegExp(`^GET ${INSTALL_PATH}: connection failed`));
  });
});

describe("deadlines", () => {
  it("turns a slow answer into a WpEngineTimeoutError and retries a GET", async () => {
    ctx = setup({ timeoutMs: 30, maxRetries: 1 });
    ctx.hosting.intercept({ method: "GET", path: INSTALL_PATH }).reply(200, INSTALL).delay(500);
    ctx.api("GET", INSTALL_PATH, { status: 200, body: INSTALL });
    await expect(ctx.client.installs.get(INSTALL.id)).resolves.toMatchObject({ name: "mysite" });
    expect(ctx.sleeps).toHaveLength(1);
  });

  it("does not retry a creating POST that timed out", async () => {
    ctx = setup({ timeoutMs: 30 });
    ctx.hosting.intercept({ method: "POST", path: DOMAINS_PATH }).reply(201, DOMAIN).delay(500);
    const err = await rejection(ctx.client.domains.create(INSTALL.id, { name: "www.example.com" }));
    expect(isTimeoutError(err)).toBe(true);
    expect((err as WpEngineTimeoutError).timeoutMs).toBe(30);
    expect((err as Error).message).toBe(`POST ${DOMAINS_PATH}: no response within 30 ms`);
    // Which API and URL it was, so the message can say where that URL came from.
    expect(err).toMatchObject({ api: "hosting", baseUrl: ctx.client.apiUrl });
    expect(ctx.sleeps).toHaveLength(0);
  });
});

describe("process-wide budget of requests in flight", () => {
  function slowDispatcher(stats: { inFlight: number; max: number; calls: number }): Dispatcher {
    return {
      request: async () => {
        stats.calls++;
        stats.inFlight++;
        stats.max = Math.max(stats.max, stats.inFlight);
        await new Promise((r) => setTimeout(r, 15));
        stats.inFlight--;
        return { statusCode: 200, headers: {}, body: { text: async () => JSON.stringify(INSTALL) } };
      },
    } as unknown as Dispatcher;
  }

  it("holds across every client of the process", async () => {
    ctx = setup();
    const stats = { inFlight: 0, max: 0, calls: 0 };
    const opts = {
      username: USERNAME,
      password: PASSWORD,
      apiUrl: API_URL,
      dispatcher: slowDispatcher(stats),
    };
    const a = new WpEngineClient({ ...opts, maxConcurrency: 2 });
    const b = new WpEngineClient(opts); // no explicit limit: shares the one set above
    await Promise.all([
      ...Array.from({ length: 4 }, () => a.installs.get(INSTALL.id)),
      ...Array.from({ length: 4 }, () => b.installs.get(INSTALL.id)),
    ]);
    expect(stats.calls).toBe(8);
    expect(stats.max).toBe(2);
    new WpEngineClient({ ...opts, maxConcurrency: 8 }); // restore the default for later tests
  });

  it("is one pace even when the module is loaded twice", async () => {
    ctx = setup();
    const first = await import("../../sdk/core/pace");
    vi.resetModules();
    const second = await import("../../sdk/core/pace");
    expect(second.Pace).not.toBe(first.Pace);
    expect(second.processPace()).toBe(first.processPace());
  });
});

describe("shared back-off after a 429", () => {
  const OTHER_PATH = `${INSTALL_PATH}/domains`;
  const LIST = { results: [], count: 0, next: null, previous: null };

  // The pace is the process's: a test that fails while a pause is held must not hold the next one.
  const sleeping: Array<() => void> = [];
  const wakeAll = () => {
    for (const r of sleeping.splice(0)) r();
  };
  afterEach(wakeAll);

  /** A sleep that ends only when the test says: what the client waits for, and when. */
  function heldSleep() {
    const asked: number[] = [];
    const sleep = (ms: number) => {
      asked.push(ms);
      return new Promise<void>((r) => sleeping.push(r));
    };
    return { asked, sleep, wake: wakeAll };
  }
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it("holds back every caller of the same service and user, not only the one that got it", async () => {
    const held = heldSleep();
    ctx = setup({ sleep: held.sleep });
    ctx.api(
      "GET",
      INSTALL_PATH,
      { status: 429, headers: { "retry-after": "2" } },
      { status: 200, body: INSTALL },
    );
    ctx.api("GET", OTHER_PATH, { status: 200, body: LIST });
    const first = ctx.client.installs.get(INSTALL.id);
    await settle();
    expect(held.asked).toEqual([2000]);
    // Another caller, after the 429: it waits for the same pause instead of sending.
    const second = ctx.client.domains.list(INSTALL.id);
    await settle();
    expect(ctx.seen.map((r) => r.path)).toEqual([INSTALL_PATH]);
    held.wake();
    await Promise.all([first, second]);
    expect(ctx.seen.map((r) => r.path)).toEqual([INSTALL_PATH, INSTALL_PATH, OTHER_PATH]);
    expect(held.asked).toEqual([2000]); // one wait, shared
  });

  it("pauses for the backoff when the 429 has no Retry-After", async () => {
    const held = heldSleep();
    ctx = setup({ sleep: held.sleep, retryBaseMs: 400 });
    ctx.api("POST", DOMAINS_PATH, { status: 429 }, { status: 201, body: DOMAIN });
    ctx.api("GET", OTHER_PATH, { status: 200, body: LIST });
    const create = ctx.client.domains.create(INSTALL.id, { name: "www.example.com" });
    await settle();
    const list = ctx.client.domains.list(INSTALL.id);
    await settle();
    expect(ctx.seen).toHaveLength(1);
    expect(held.asked[0]).toBeGreaterThanOrEqual(200);
    expect(held.asked[0]).toBeLessThanOrEqual(400);
    held.wake();
    await Promise.all([create, list]);
    expect(ctx.seen).toHaveLength(3);
  });

  it("does not count a 429 against maxRetries while the service went on serving others since the last", async () => {
    const held = heldSleep();
    ctx = setup({ sleep: held.sleep, maxRetries: 1 });
    ctx.api("GET", INSTALL_PATH, { status: 429, headers: { "retry-after": "1" } });
    ctx.hosting
      .intercept({ method: "GET", path: INSTALL_PATH })
      .reply(429, {}, { headers: { "retry-after": "1" } })
      .delay(50);
    ctx.api("GET", INSTALL_PATH, { status: 200, body: INSTALL });
    ctx.api("GET", OTHER_PATH, { status: 200, body: LIST });
    const waiting = ctx.client.installs.get(INSTALL.id);
    await settle();
    const other = ctx.client.domains.list(INSTALL.id); // served while the first waits for its second 429
    held.wake();
    await other;
    await vi.waitFor(() => expect(held.asked).toHaveLength(2));
    held.wake();
    await expect(waiting).resolves.toMatchObject({ id: INSTALL.id });
    // Three 429-or-200 answers with maxRetries 1 (the delayed 429 is not in `seen`; `done` checks it was sent).
    expect(ctx.seen.map((r) => r.path)).toEqual([INSTALL_PATH, OTHER_PATH, INSTALL_PATH]);
  });

  it("counts a 429 when nothing was served since the last: a service that only refuses ends the retries", async () => {
    ctx = setup({ maxRetries: 2 });
    const limited = { status: 429, headers: { "retry-after": "1" } };
    ctx.api("GET", INSTALL_PATH, limited, limited, limited);
    expect(isRateLimited(await rejection(ctx.client.installs.get(INSTALL.id)))).toBe(true);
    expect(ctx.seen).toHaveLength(3);
  });

  it("does not hold back another API user, nor callers after a 503", async () => {
    const held = heldSleep();
    ctx = setup({ sleep: held.sleep });
    const other = new WpEngineClient({
      username: "another-api-user",
      password: PASSWORD,
      apiUrl: API_URL,
      dispatcher: ctx.agent,
      sleep: held.sleep,
    });
    ctx.api("GET", INSTALL_PATH, { status: 429, headers: { "retry-after": "5" } });
    ctx.api(
      "GET",
      INSTALL_PATH,
      { status: 503 },
      { status: 200, body: INSTALL },
      { status: 200, body: INSTALL },
    );
    ctx.api("GET", OTHER_PATH, { status: 200, body: LIST }, { status: 200, body: LIST });
    const limited = ctx.client.installs.get(INSTALL.id);
    await settle();
    await expect(other.domains.list(INSTALL.id)).resolves.toMatchObject({ items: [] });
    const unavailable = other.installs.get(INSTALL.id); // 503: its own backoff, in the held sleep
    await settle();
    // The 503 paused nobody: the other user's next request goes out at once.
    await expect(other.domains.list(INSTALL.id)).resolves.toMatchObject({ items: [] });
    expect(held.asked).toHaveLength(2);
    held.wake();
    await Promise.all([limited, unavailable]);
  });
});

describe("shared pools", () => {
  it("creates no pool before the first request and reuses one pool per origin", async () => {
    ctx = setup();
    const key = Symbol.for("pulumi-wpengine.pools");
    await closeSharedPools();
    new WpEngineClient({ username: USERNAME, password: PASSWORD });
    expect((globalThis as Record<symbol, unknown>)[key]).toBeUndefined();
    const p1 = sharedPool("https://api.wpengine.test");
    expect(sharedPool("https://api.wpengine.test")).toBe(p1);
    expect(sharedPool("https://js.wpengine.test")).not.toBe(p1);
    await closeSharedPools();
  });
});

describe("configuration", () => {
  it("reads credentials and URLs from the environment, explicit options first", () => {
    const env = {
      WPE_API_USER_ID: "env-user",
      WPE_API_PASSWORD: "env-pass",
      WPE_API_URL: "https://api.example.test/v1/",
      WPE_APP_HOSTING_URL: "https://js.example.test",
    };
    const fromEnv = resolveClientConfig({}, env);
    expect(fromEnv).toMatchObject({
      username: "env-user",
      password: "env-pass",
      apiUrl: "https://api.example.test/v1",
      appHostingUrl: "https://js.example.test",
    });
    expect(resolveClientConfig({ username: "explicit" }, env).username).toBe("explicit");
  });

  it("defaults to the real services", () => {
    const c = resolveClientConfig({ username: "u", password: "p" }, {});
    expect(c.apiUrl).toBe("https://api.wpengineapi.com/v1");
    expect(c.appHostingUrl).toBe("https://js.wpengineapi.com");
    expect(c.timeoutMs).toBe(30_000);
    expect(c.maxRetries).toBe(4);
  });

  it("fromEnv builds a client from the environment; the constructor ignores it", () => {
    const env = { WPE_API_USER_ID: "u", WPE_API_PASSWORD: "p", WPE_API_URL: "http://127.0.0.1:9999/v1" };
    expect(WpEngineClient.fromEnv({}, env).apiUrl).toBe("http://127.0.0.1:9999/v1");
    expect(() => new WpEngineClient({})).toThrow(
      /username is required \(option username or WPE_API_USER_ID\)/,
    );
  });

  it("refuses plain http except to loopback", () => {
    const base = { username: "u", password: "p" };
    expect(() => resolveClientConfig({ ...base, apiUrl: "http://api.example.com/v1" }, {})).toThrow(
      WpEngineConfigError,
    );
    expect(() => resolveClientConfig({ ...base, appHostingUrl: "http://10.0.0.5" }, {})).toThrow(
      /plain http/,
    );
    for (const url of ["http://127.0.0.1:8080/v1", "http://localhost:3000/v1", "http://[::1]:3000/v1"]) {
      expect(resolveClientConfig({ ...base, apiUrl: url }, {}).apiUrl).toBe(url);
    }
  });

  it("refuses credentials embedded in a URL without echoing them", () => {
    const err = (() => {
      try {
        resolveClientConfig(
          { username: "u", password: "p", apiUrl: "https://u:hunter22@api.example.com/v1" },
          {},
        );
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(WpEngineConfigError);
    expect(err?.message).not.toContain("hunter22");
  });

  it("parses Retry-After in both forms", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(
      parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:50 GMT")),
    ).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});
