import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  isAuthenticationError,
  isBadRequest,
  isConflict,
  isLostWrite,
  isNotAuthorized,
  isNotFound,
  isRateLimited,
  isRefusal,
  isServerError,
  isUnprocessable,
  isValidationError,
  mayHaveActed,
  pollUntil,
  resolveClientConfig,
  WpEngineApiError,
  WpEngineClient,
  WpEngineConfigError,
  WpEngineConnectionError,
  WpEngineResponseError,
  WpEngineTimeoutError,
  WpEngineValidationError,
  WpEngineWaitTimeoutError,
  wasTurnedAway,
} from "../../sdk";
import { AUTH, DOMAIN_ID, INSTALL, PASSWORD, rejection, setup, sysError } from "./sdk-support";

const DOMAINS_PATH = `/v1/installs/${INSTALL.id}/domains`;
const TOKEN = AUTH.slice("Basic ".length);

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

describe("error mapping", () => {
  it("formats METHOD path: status kind: field: type - message, without the query string", async () => {
    ctx = setup();
    ctx.api("POST", DOMAINS_PATH, {
      status: 400,
      body: {
        message: "Invalid domain",
        documentation_url: "https://docs.example/errors",
        errors: [
          {
            resource: "Domain",
            field: "name",
            type: "invalid_value",
            code: "invalid",
            message: "Name is not valid",
          },
        ],
      },
      headers: { "x-request-id": "req-123" },
    });
    const err = (await rejection(
      ctx.client.domains.create(INSTALL.id, { name: "bad.example.com" }),
    )) as WpEngineApiError;
    expect(err).toBeInstanceOf(WpEngineApiError);
    expect(err.message).toBe(
      `POST ${DOMAINS_PATH}: 400 Bad Request: name: invalid_value - Name is not valid; Invalid domain`,
    );
    expect(err.status).toBe(400);
    expect(err.kind).toBe("Bad Request");
    expect(err.method).toBe("POST");
    expect(err.path).toBe(DOMAINS_PATH);
    expect(err.serverMessage).toBe("Invalid domain");
    expect(err.errors).toEqual([
      {
        resource: "Domain",
        field: "name",
        type: "invalid_value",
        code: "invalid",
        message: "Name is not valid",
      },
    ]);
    expect(err.requestId).toBe("req-123");
    expect(err.documentationUrl).toBe("https://docs.example/errors");
    expect(isBadRequest(err)).toBe(true);
    expect(isNotFound(err)).toBe(false);
  });

  it("keeps the query string out of the error path", async () => {
    ctx = setup();
    ctx.api("GET", "/v1/installs?limit=5", { status: 401, body: { message: "Bad credentials" } });
    const err = (await rejection(ctx.client.installs.list({ limit: 5 }))) as WpEngineApiError;
    expect(err.path).toBe("/v1/installs");
    expect(err.message).toBe("GET /v1/installs: 401 Authentication Error: Bad credentials");
    expect(isAuthenticationError(err)).toBe(true);
  });

  it.each([
    [400, "Bad Request", isBadRequest],
    [401, "Authentication Error", isAuthenticationError],
    [403, "Not authorized", isNotAuthorized],
    [404, "Not found", isNotFound],
    [409, "Conflict", isConflict],
    [422, "Unprocessable Entity", isUnprocessable],
    [429, "Too many requests", isRateLimited],
    [500, "Internal Server Error", isServerError],
    [502, "Invalid response from an upstream server", isServerError],
    [503, "Service unavailable", isServerError],
  ] as const)("maps %i to the kind %s", async (status, kind, predicate) => {
    ctx = setup({ maxRetries: 0 });
    ctx.api("GET", `/v1/installs/${INSTALL.id}`, { status, body: status === 502 ? "" : { message: "m" } });
    const err = (await rejection(ctx.client.installs.get(INSTALL.id))) as WpEngineApiError;
    expect(err.kind).toBe(kind);
    expect(predicate(err)).toBe(true);
    expect(err.message.startsWith(`GET /v1/installs/${INSTALL.id}: ${status} ${kind}`)).toBe(true);
  });

  it("reads a Google-style error body of the application-hosting API", async () => {
    ctx = setup();
    ctx.apps("POST", "/v1/accounts/acc/apps?appId=my-app", {
      status: 409,
      body: {
        error: {
          code: 409,
          status: "ALREADY_EXISTS",
          message: "app my-app already exists",
          details: [{ fieldViolations: [{ field: "appId", description: "taken" }] }],
        },
      },
    });
    const err = (await rejection(
      ctx.client.apps.create("acc", "my-app", { region: "US-C" }),
    )) as WpEngineApiError;
    expect(isConflict(err)).toBe(true);
    expect(err.serverMessage).toBe("app my-app already exists");
    expect(err.errors).toEqual([{ field: "appId", type: "invalid_value", message: "taken" }]);
    expect(err.message).toBe(
      "POST /v1/accounts/acc/apps: 409 Conflict: appId: invalid_value - taken; app my-app already exists",
    );
  });

  it("keeps a non-JSON error body as text", async () => {
    ctx = setup({ maxRetries: 0 });
    ctx.api("GET", `/v1/installs/${INSTALL.id}`, { status: 502, body: "<html>Bad Gateway</html>" });
    const err = (await rejection(ctx.client.installs.get(INSTALL.id))) as WpEngineApiError;
    expect(err.body).toBe("<html>Bad Gateway</html>");
  });

  it("reports a 2xx body that does not match the record, field by field", async () => {
    ctx = setup();
    ctx.api("GET", `/v1/installs/${INSTALL.id}`, { status: 200, body: { id: INSTALL.id } });
    const err = (await rejection(ctx.client.installs.get(INSTALL.id))) as WpEngineResponseError;
    expect(err).toBeInstanceOf(WpEngineResponseError);
    expect(err.issues.map((i) => i.path)).toContain("name");
  });

  it("rejects invalid requests before any HTTP, naming the field and the reason", async () => {
    ctx = setup();
    const err = (await rejection(
      ctx.client.domains.createBulk(INSTALL.id, {
        domains: [{ name: "ok.example.com" }, { name: "not a domain" }],
      }),
    )) as WpEngineValidationError;
    expect(isValidationError(err)).toBe(true);
    expect(err.field).toBe("domains[1].name");
    expect(err.message).toMatch(
      /^domains\.createBulk: invalid input: domains\[1\]\.name: expected a domain name/,
    );
    const unknown = (await rejection(
      // @ts-expect-error: an unknown field is refused at run time too
      ctx.client.domains.update(INSTALL.id, DOMAIN_ID, { primry: true }),
    )) as WpEngineValidationError;
    expect(unknown.message).toBe("domains.update: invalid input: primry: unknown field");
    expect(ctx.seen).toHaveLength(0);
  });
});

describe("credentials never leak", () => {
  function assertClean(value: unknown) {
    const texts = [inspect(value, { depth: 10, showHidden: true }), JSON.stringify(value), String(value)];
    for (const text of texts) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(TOKEN);
    }
  }

  it("in API errors, even when the server echoes the credentials", async () => {
    ctx = setup({ maxRetries: 0 });
    ctx.api("GET", `/v1/installs/${INSTALL.id}`, {
      status: 401,
      body: { message: `bad password ${PASSWORD} for header ${AUTH}`, errors: [{ message: PASSWORD }] },
    });
    const err = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(err).toBeInstanceOf(WpEngineApiError);
    assertClean(err);
  });

  it("in connection errors, even when the underlying error quotes the Authorization header", async () => {
    ctx = setup({ maxRetries: 0 });
    ctx.hosting
      .intercept({ method: "GET", path: `/v1/installs/${INSTALL.id}` })
      .replyWithError(
        sysError("ECONNRESET", `socket hang up; headers {"authorization":"${AUTH}"} pw=${PASSWORD}`),
      );
    const err = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(err).toBeInstanceOf(WpEngineConnectionError);
    expect((err as Error).message).toContain("[redacted]");
    assertClean(err);
    assertClean((err as Error).cause);
  });

  it("in timeout, validation, response, config and wait errors, and in the client itself", async () => {
    ctx = setup({ timeoutMs: 20, maxRetries: 0 });
    ctx.hosting
      .intercept({ method: "GET", path: `/v1/installs/${INSTALL.id}` })
      .reply(200, INSTALL)
      .delay(300);
    const timeout = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(timeout).toBeInstanceOf(WpEngineTimeoutError);
    ctx.api("GET", `/v1/installs/${INSTALL.id}`, { status: 200, body: "not json" });
    const response = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(response).toBeInstanceOf(WpEngineResponseError);
    const validation = await rejection(ctx.client.domains.create(INSTALL.id, { name: "" }));
    expect(validation).toBeInstanceOf(WpEngineValidationError);
    const config = (() => {
      try {
        resolveClientConfig({ username: "u", password: PASSWORD, apiUrl: "http://example.com" }, {});
      } catch (e) {
        return e;
      }
    })();
    expect(config).toBeInstanceOf(WpEngineConfigError);
    const wait = await rejection(
      pollUntil({ deadlineMs: 0, intervalMs: 1, describe: "x", check: () => ({ done: false }) }),
    );
    expect(wait).toBeInstanceOf(WpEngineWaitTimeoutError);
    for (const e of [timeout, response, validation, config, wait]) assertClean(e);
    assertClean(ctx.client);
    assertClean(new WpEngineClient({ username: "u", password: PASSWORD }));
  });

  it("never exposes request headers as enumerable fields of an error", async () => {
    ctx = setup({ maxRetries: 0 });
    ctx.api("GET", `/v1/installs/${INSTALL.id}`, { status: 404, body: { message: "Install not found" } });
    const err = await rejection(ctx.client.installs.get(INSTALL.id));
    expect(Object.keys(err as object).sort()).toEqual(
      [
        "body",
        "documentationUrl",
        "errors",
        "kind",
        "method",
        "path",
        "requestId",
        "retryAfterMs",
        "serverMessage",
        "status",
      ].sort(),
    );
  });
});

describe("the one rule of 'may the service have acted'", () => {
  const api = (status: number, method = "POST") => new WpEngineApiError({ status, method, path: "/x" });
  const conn = (code: string | undefined) =>
    new WpEngineConnectionError({ method: "POST", path: "/x", code, detail: "cut" });

  it("only a 429, a 4xx refusal, a request refused before sending or a connection never made proves nothing happened", () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429])
      expect(mayHaveActed(api(status)), `${status}`).toBe(false);
    expect(
      mayHaveActed(new WpEngineValidationError("domains.create", [{ path: "name", message: "bad" }])),
    ).toBe(false);
    for (const code of ["ECONNREFUSED", "ENOTFOUND", "UND_ERR_CONNECT_TIMEOUT"])
      expect(mayHaveActed(conn(code)), code).toBe(false);
  });

  it("a 503 (like any 5xx), a timeout, a connection cut after sending or a 2xx not understood may have acted", () => {
    for (const status of [500, 502, 503, 504, 599]) expect(mayHaveActed(api(status)), `${status}`).toBe(true);
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", undefined])
      expect(mayHaveActed(conn(code)), String(code)).toBe(true);
    expect(mayHaveActed(new WpEngineTimeoutError({ method: "POST", path: "/x", timeoutMs: 1 }))).toBe(true);
    expect(
      mayHaveActed(new WpEngineResponseError({ method: "POST", path: "/x", status: 201, reason: "?" })),
    ).toBe(true);
  });

  it("a lost write is a write that may have acted; a failed read is never one", () => {
    expect(isLostWrite(api(503))).toBe(true);
    expect(isLostWrite(api(503, "GET"))).toBe(false);
    expect(isLostWrite(api(429))).toBe(false);
  });

  it("a 429 or a connection never made was turned away: nothing done, and it may pass later; a refusal or a lost answer was not", () => {
    expect(wasTurnedAway(api(429))).toBe(true);
    expect(wasTurnedAway(conn("ECONNREFUSED"))).toBe(true);
    for (const status of [400, 404, 409, 422, 500, 503])
      expect(wasTurnedAway(api(status)), `${status}`).toBe(false);
    expect(wasTurnedAway(conn("ECONNRESET"))).toBe(false);
    expect(wasTurnedAway(new WpEngineTimeoutError({ method: "POST", path: "/x", timeoutMs: 1 }))).toBe(false);
  });

  it("a 400, 409 or 422 refuses what the request holds, on the sdk's errors and on the errors that keep their status", () => {
    for (const status of [400, 409, 422]) {
      expect(isRefusal(api(status)), `${status}`).toBe(true);
      expect(isRefusal(Object.assign(new Error("wrapped"), { status })), `wrapped ${status}`).toBe(true);
    }
    for (const status of [401, 403, 404, 429, 503]) expect(isRefusal(api(status)), `${status}`).toBe(false);
    expect(isRefusal(conn("ECONNRESET"))).toBe(false);
    expect(isRefusal(new Error("no status"))).toBe(false);
  });
});
