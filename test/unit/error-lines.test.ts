/**
 * The pieces behind "one clean line per error" (issue 31): the dynamic-provider host's trace of an error
 * this provider raised is left out (the CLI test, test/cli/errors.test.ts, shows the whole), a failed
 * write that did nothing says what next, counted, and a long rate-limit wait is one line.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { explainError, noteSends, nothingDone } from "../../provider/core/errors";
import { hostLine, quietHostTrace, verbose } from "../../provider/dynamic/hostErrors";
import { WpEngineApiError, WpEngineConnectionError } from "../../sdk";
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

  it("names the settings when the service cannot be reached", () => {
    const err = new WpEngineConnectionError({
      method: "GET",
      path: "/v1/user",
      detail: "connect ECONNREFUSED",
    });
    expect(nothingDone("update", err)).toBe(
      "Nothing was changed: run `pulumi up` again once the API answers (check wpengine:apiUrl and " +
        "wpengine:appHostingUrl, and the network)",
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

describe("a rate-limit wait", () => {
  it("is one line when longer than two seconds, and nothing when shorter", () => {
    const lines: string[] = [];
    sayWait(12_000, (l) => lines.push(l));
    sayWait(1_500, (l) => lines.push(l));
    expect(lines).toEqual(["wpengine: waiting 12 s for the API's rate limit\n"]);
  });
});
