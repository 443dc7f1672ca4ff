/**
 * Wrong credentials fail `check` (so `pulumi preview`) with a clear error, proven by one `GET /user` per
 * client; the right ones and the documented skip pass; the password never appears in the message.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Config as HostConfig } from "@pulumi/pulumi/cmd/dynamic-provider/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resetClient } from "../../provider/core/client";
import { defaultConcurrency, setStackConfig } from "../../provider/core/config";
import { definition } from "../../provider/kinds/Domain";
import { configure as configurePlugin } from "../../provider/plugin";
import { DEFAULT_MAX_CONCURRENCY, processPace } from "../../sdk/core/pace";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
// The simulator's acmeprod: check looks a new domain up on its install, and refuses an install it lacks.
const INSTALL = "1e000000-0000-4000-8000-000000000001";

function configure(password: string, extra: Record<string, string> = {}) {
  const config: Record<string, string> = {
    "wpengine:username": "demo",
    "wpengine:password": password,
    "wpengine:apiUrl": fixture.sim.apiUrl,
    "wpengine:appHostingUrl": fixture.sim.appHostingUrl,
    ...extra,
  };
  setStackConfig((key) => config[key]);
  resetClient();
}

const userCalls = () =>
  fixture.sim.requests().filter((r) => r.method === "GET" && r.path === "/v1/user").length;

describe("credentials at check time", () => {
  afterEach(() => configure("demo"));

  it("refuses a wrong password with a message naming the config keys, not the password", async () => {
    configure("not-the-password-x9");
    const err = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain("refused the credentials of API user demo (401 Unauthorized");
    expect(err.message).toContain("wpengine:password");
    expect(err.message).not.toContain("not-the-password-x9");
  });

  it("names only the credential that is missing, with the one command and variable that set it", async () => {
    vi.stubEnv("WPE_API_PASSWORD", "");
    try {
      configure("");
      await expect(provider.check!({}, { installId: INSTALL, name: "www.example.com" })).rejects.toThrow(
        "wpengine: missing wpengine:password. Set it with `pulumi config set --secret wpengine:password <api password>` (or the environment variable WPE_API_PASSWORD), or try the program against the bundled simulator with `pulumi config set wpengine:simulator true`.",
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("passes with the right credentials, proving them once per client", async () => {
    configure("demo");
    const before = userCalls();
    for (const name of ["a.example.com", "b.example.com", "c.example.com"]) {
      const res = await provider.check!({}, { installId: INSTALL, name });
      expect(res.failures ?? []).toEqual([]);
    }
    expect(userCalls() - before).toBe(1);
  });

  it("refuses an apiUrl that is not the API (its /v1 left out: GET /user is a 404) at check, naming where it was set", async () => {
    configure("demo", { "wpengine:apiUrl": fixture.sim.url });
    const err = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch((e) => e);
    expect(err.message).toBe(
      `wpengine: wpengine:apiUrl is ${fixture.sim.url}, which is not the hosting API (GET /user answered 404 Not Found): ` +
        "set it to the API's base URL, which ends in /v1 (e.g. https://api.wpengineapi.com/v1).",
    );
    configure("demo", { "wpengine:apiUrl": "" });
    vi.stubEnv("WPE_API_URL", fixture.sim.url);
    try {
      const fromEnv = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch(
        (e) => e,
      );
      expect(fromEnv.message).toContain(
        `wpengine: WPE_API_URL is ${fixture.sim.url}, which is not the hosting API`,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("refuses an apiUrl that answers a web page rather than the API's JSON", async () => {
    const page = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html></html>"),
    );
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
      configure("demo", { "wpengine:apiUrl": url });
      const err = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch((e) => e);
      expect(err.message).toContain(
        `wpengine:apiUrl is ${url}, which is not the hosting API (GET /user answered 200 with a body that is not JSON)`,
      );
    } finally {
      page.close();
    }
  });

  it("refuses a misspelt wpengine:* key of the stack (the dynamic provider's configure sees them all)", async () => {
    const stack: Record<string, string> = {
      "wpengine:username": "demo",
      "wpengine:password": "demo",
      "wpengine:apiUrl": fixture.sim.apiUrl,
      "wpengine:simulater": "true",
      "myproject:installId": INSTALL,
    };
    // The dynamic-provider host's own config object, holding every key of the stack.
    await configurePlugin({ config: new HostConfig(stack, "myproject") });
    await resetClient();
    const err = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch((e) => e);
    expect(err.message).toBe(
      "wpengine:simulater is not a setting of this provider: did you mean wpengine:simulator? (remove it with `pulumi config rm wpengine:simulater`)",
    );
  });

  it("finds every stack key where plugin.ts reads it: the host's Config keeps them in its private rawConfig", () => {
    // The host's Config interface reads one key at a time; were a Pulumi upgrade to drop this field, the
    // misspelt-key check above would stop silently (configure would see no keys), so this fails loudly.
    const stack = { "wpengine:simulater": "true", "myproject:installId": INSTALL };
    const config = new HostConfig(stack, "myproject") as unknown as { rawConfig?: unknown };
    expect(
      config.rawConfig,
      "@pulumi/pulumi's dynamic-provider Config has no rawConfig: provider/plugin.ts's configure must find the stack's keys another way",
    ).toEqual(stack);
  });

  it("is skipped with wpengine:skipCredentialsCheck (offline previews)", async () => {
    configure("wrong", { "wpengine:skipCredentialsCheck": "true" });
    const before = userCalls();
    const res = await provider.check!({}, { installId: INSTALL, name: "www.example.com" });
    expect(res.failures ?? []).toEqual([]);
    expect(userCalls()).toBe(before);
  });
});

describe("wpengine:maxConcurrency", () => {
  afterEach(() => configure("demo"));

  it("is refused at check time unless a whole number of at least 1, naming the key", async () => {
    configure("demo", { "wpengine:maxConcurrency": "0" });
    const err = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch((e) => e);
    expect(String(err.message)).toContain("wpengine:maxConcurrency must be a whole number of at least 1");
  });

  it("follows PULUMI_PARALLEL (the engine's --parallel) when unset, up to 40; the config key wins", async () => {
    try {
      for (const [parallel, config, max] of [
        ["24", undefined, 24],
        ["2147483647", undefined, 40],
        ["24", "5", 5],
        [undefined, undefined, defaultConcurrency({})],
      ] as const) {
        if (parallel === undefined) delete process.env["PULUMI_PARALLEL"];
        else process.env["PULUMI_PARALLEL"] = parallel;
        configure("demo", config ? { "wpengine:maxConcurrency": config } : {});
        await provider.check!({}, { installId: INSTALL, name: "www.example.com" });
        expect(processPace().max).toBe(max);
      }
    } finally {
      delete process.env["PULUMI_PARALLEL"];
      configure("demo", { "wpengine:maxConcurrency": String(DEFAULT_MAX_CONCURRENCY) });
      await provider.check!({}, { installId: INSTALL, name: "www.example.com" });
    }
  });

  it("without PULUMI_PARALLEL, follows the engine's own default --parallel (4 × the CPUs), up to 40", () => {
    expect(defaultConcurrency({}, 2)).toBe(8);
    expect(defaultConcurrency({}, 8)).toBe(32);
    expect(defaultConcurrency({}, 64)).toBe(40);
    expect(defaultConcurrency({ PULUMI_PARALLEL: "12" }, 64)).toBe(12);
    expect(defaultConcurrency({ PULUMI_PARALLEL: "many" }, 2)).toBe(8);
  });

  it("sizes the process's shared budget of requests in flight", async () => {
    configure("demo", { "wpengine:maxConcurrency": "3" });
    await provider.check!({}, { installId: INSTALL, name: "www.example.com" });
    expect(processPace().max).toBe(3);
  });
});

describe("wpengine:maxRetries", () => {
  afterEach(() => {
    fixture.sim.setFaults([]);
    configure("demo");
  });

  it("is refused at check time unless a whole number of at least 0, naming the key", async () => {
    for (const value of ["-1", "many", "1.5"]) {
      configure("demo", { "wpengine:maxRetries": value });
      const err = await provider.check!({}, { installId: INSTALL, name: "www.example.com" }).catch((e) => e);
      expect(String(err.message)).toContain("wpengine:maxRetries must be a whole number of at least 0");
    }
  });

  it("sets how often one request is sent again after a 503 (0: once; 2: three times)", async () => {
    for (const [retries, attempts] of [
      ["0", 1],
      ["2", 3],
    ] as const) {
      configure("demo", { "wpengine:maxRetries": retries });
      fixture.sim.setFaults([{ method: "GET", path: "/v1/user", status: 503 }]);
      const before = userCalls();
      // A 503 on the credentials' proof is a passing fault, left to the calls that follow: check passes.
      const res = await provider.check!({}, { installId: INSTALL, name: "www.example.com" });
      expect(res.failures ?? []).toEqual([]);
      expect(userCalls() - before).toBe(attempts);
    }
  });
});
