/**
 * The pieces behind "one clean line per error" (issue 31): the dynamic-provider host's trace of an error
 * this provider raised is left out (the CLI test, test/cli/errors.test.ts, shows the whole), a failed
 * write that did nothing says what next, counted, and a long rate-limit wait is one line.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { withProviderInstance } from "../../provider/core/config";
import { explainError, noteSends, nothingDone } from "../../provider/core/errors";
import { hostLine, quietHostTrace, verbose } from "../../provider/dynamic/hostErrors";
import { WpEngineApiError, WpEngineConnectionError, WpEngineTimeoutError } from "../../sdk";
import { sayWait } from "../../sdk/core/pace";

describe("the host's trace of an error", () => {
  const error = console.error;
  afterEach(() => {
    console.error = error;
    vi.unstubAllEnvs();
  });

  it("is dropped once for a marked error; every other line passes", () => {
    const seen: unknown[][] = [];
    console.error = (...args: unknown[]) => void seen.push(args);
    vi.stubEnv("PULUMI_WPENGINE_DEBUG", "");
    const err = new Error("wpengine: missing wpengine:username");
    quietHostTrace(err);
    // What Pulumi's dynamic-provider host writes for a failed check.
    console.error(`${err}: ${err.stack}`);
    console.error("something else");
    console.error(`${err}: ${err.stack}`);
    expect(seen).toEqual([["something else"], [hostLine(err)]]);
  });

  it("is kept when the plugin runs verbose", () => {
    expect(verbose(["node", "index.js", "-v=9"], {})).toBe(true);
    expect(verbose(["node", "index.js"], { PULUMI_WPENGINE_DEBUG: "1" })).toBe(true);
    expect(verbose(["node", "index.js", "--logtostderr"], {})).toBe(false);
  });
});

describe("a failed write says what next", () => {
  const refused = () =>
    new WpEngineApiError({ status: 503, method: "POST", path: "/v1/installs/x/domains/bulk" });

  it("counts the sends and says nothing was created", () => {
    const err = refused();
    noteSends(err, 3);
    expect(explainError("Domain", "create", err, nothingDone("create", err)).message).toBe(
      "wpengine:Domain create failed: POST /v1/installs/x/domains/bulk: 503 Service unavailable (sent 3 times). " +
        "Nothing was created: run `pulumi up` again once the service answers.",
    );
  });

  it("says to run again once the API answers when the service cannot be reached", () => {
    const err = new WpEngineConnectionError({
      method: "GET",
      path: "/v1/user",
      detail: "connect ECONNREFUSED",
    });
    expect(nothingDone("update", err)).toBe(
      "Nothing was changed: run `pulumi up` again once the API answers",
    );
    expect(nothingDone("read", err)).toBeUndefined();
  });

  it("says one send as it is", () => {
    const err = refused();
    noteSends(err, 1);
    expect(explainError("Domain", "create", err).message).toBe(
      "wpengine:Domain create failed: POST /v1/installs/x/domains/bulk: 503 Service unavailable",
    );
  });
});

describe("a request that cannot reach its API (ut-retest52 F4)", () => {
  const stackUrl = "http://127.0.0.1:18852/v1";
  // An explicit provider (the executable one's arguments) without apiUrl, under a stack that sets wpengine:apiUrl.
  const explicit = { config: { profile: "acme" }, clientSlot: Symbol(), fromArguments: true };
  const unreached = (api: "hosting" | "appHosting", baseUrl: string, method = "GET") =>
    new WpEngineConnectionError({
      method,
      path: api === "hosting" ? "/v1/accounts/ac3/account_users" : "/v1/accounts/ac3/apps",
      code: "ENOTFOUND",
      detail: `getaddrinfo ENOTFOUND ${new URL(baseUrl).hostname}`,
      api,
      baseUrl,
    });
  afterEach(() => vi.unstubAllEnvs());

  it("says, for a read (pulumi import, refresh), delete or create alike, which URL it used and where that came from", () => {
    vi.stubEnv("PULUMI_CONFIG", JSON.stringify({ apiUrl: stackUrl }));
    vi.stubEnv("WPE_API_URL", "");
    const api = unreached("hosting", "https://api.wpengineapi.com/v1");
    const said = (action: string, err: WpEngineConnectionError) =>
      withProviderInstance(explicit, () => explainError("AccountUser", action, err).message);
    const source =
      "That URL is the default: this provider has no apiUrl argument and WPE_API_URL is unset. The stack's " +
      `wpengine:apiUrl (${stackUrl}) configures the default provider only, not an explicit provider: pass ` +
      `apiUrl: "${stackUrl}" to this provider, or set WPE_API_URL. Check it and the network`;
    expect(said("read", api)).toBe(
      "wpengine:AccountUser read failed: GET /v1/accounts/ac3/account_users: connection failed: getaddrinfo " +
        `ENOTFOUND api.wpengineapi.com. It was sent to the API at https://api.wpengineapi.com/v1. ${source}`,
    );
    for (const action of ["delete", "create", "update"]) expect(said(action, api)).toContain(source);
  });

  it("names App Hosting's URL and its own setting when that is the one it could not reach", () => {
    vi.stubEnv("PULUMI_CONFIG", JSON.stringify({ apiUrl: stackUrl }));
    vi.stubEnv("WPE_APP_HOSTING_URL", "");
    const app = unreached("appHosting", "https://js.wpengineapi.com");
    const message = withProviderInstance(explicit, () => explainError("App", "read", app).message);
    expect(message).toContain(
      "It was sent to App Hosting's API at https://js.wpengineapi.com. That URL is the default: this provider " +
        "has no appHostingUrl argument and WPE_APP_HOSTING_URL is unset: set wpengine:appHostingUrl (the default " +
        "provider), the appHostingUrl argument of an explicit provider, or WPE_APP_HOSTING_URL. Check it and the network",
    );
    expect(message).not.toContain("apiUrl (");
    // The Node.js classes' provider (the stack's config): the stack's key, whichever URL it is.
    const program = { config: { appHostingUrl: "http://127.0.0.1:9" }, clientSlot: Symbol() };
    expect(
      withProviderInstance(
        program,
        () => explainError("App", "delete", unreached("appHosting", "http://127.0.0.1:9", "DELETE")).message,
      ),
    ).toContain(
      "It was sent to App Hosting's API at http://127.0.0.1:9. That URL is the stack's wpengine:appHostingUrl. Check it and the network",
    );
  });
});

describe("a request with no answer in time", () => {
  it("says which URL it went to and where that came from, as a request that could not reach it", () => {
    const program = { config: { apiUrl: "http://127.0.0.1:9/v1" }, clientSlot: Symbol() };
    const late = new WpEngineTimeoutError({
      method: "GET",
      path: "/v1/installs/x/domains",
      timeoutMs: 30_000,
      api: "hosting",
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(withProviderInstance(program, () => explainError("Domain", "read", late).message)).toBe(
      "wpengine:Domain read failed: GET /v1/installs/x/domains: no response within 30000 ms. It was sent to " +
        "the API at http://127.0.0.1:9/v1. That URL is the stack's wpengine:apiUrl. Check it and the network",
    );
  });
});

describe("a rate-limit wait", () => {
  it("is one line when longer than two seconds, and nothing when shorter", () => {
    const lines: string[] = [];
    sayWait(12_000, (l) => lines.push(l));
    sayWait(1_500, (l) => lines.push(l));
    expect(lines).toEqual(["wpengine: waiting 12 s for the API's rate limit\n"]);
  });
});
