/**
 * The simulator never answers in its web framework's shapes: a malformed URL, header or body, a request
 * too large or one that never arrives whole gets the service's error body (`{message, errors: [{resource,
 * type, code, message}]}`, spec section 7), with `Connection: close` and the socket closed when what is
 * left on it cannot be read; control characters in names are refused naming the field.
 */
import * as net from "node:net";
import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

/** The request timeout of this file's simulator: short, so a body that never comes is answered soon. */
const TIMEOUT_MS = 500;
const sim = useSimulator({ requestTimeoutMs: TIMEOUT_MS });
const AUTH = `Basic ${Buffer.from("demo:demo").toString("base64")}`;
const DOMAINS = `/v1/installs/${SEED.installs.acmestg.id}/domains`;
const USERS = `/v1/accounts/${SEED.accounts.acme.id}/account_users`;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field.
  body: any;
  /** The server closed the connection. */
  closed: boolean;
}

/**
 * Writes `text` on a fresh connection and reads the first answer; `closed` tells whether the server then
 * closed the socket (waited for up to `closeWithinMs`: a kept socket stays open past it).
 */
function raw(text: string, closeWithinMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(sim().url).port), "127.0.0.1");
    let data = "";
    let closed = false;
    const finish = () => {
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no answer: ${JSON.stringify(data)}`));
      const [statusLine, ...lines] = data.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
      );
      const text = data.slice(end + 4);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: JSON.parse(text), closed });
      socket.destroy();
    };
    const timer = setTimeout(finish, closeWithinMs);
    socket.on("data", (d) => {
      data += d.toString("latin1");
    });
    socket.on("close", () => {
      closed = true;
      clearTimeout(timer);
      finish();
    });
    socket.on("error", () => {});
    socket.write(text);
  });
}

/** The service's error body naming the request, with this code. */
function serviceError(answer: RawAnswer | { body: unknown }, code: string): void {
  expect(answer.body).toMatchObject({
    message: expect.any(String),
    errors: [{ resource: "request", type: "invalid_value", code, message: expect.any(String) }],
  });
  expect(JSON.stringify(answer.body)).not.toMatch(/FST_|statusCode/);
}

describe("malformed requests get the service's error shape", () => {
  it("a bad percent-encoding in the URL: 400, the connection still usable", async () => {
    const a = await raw(
      `GET /v1/accounts/%ff%fe HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n\r\n`,
      1_000,
    );
    expect(a.status).toBe(400);
    serviceError(a, "bad_url");
    expect(a.body.message).toContain("/v1/accounts/%ff%fe");
    expect(a.closed).toBe(false);
  });

  it("a 60 KB URL: 431 with Connection: close, and the socket closed", async () => {
    const a = await raw(
      `GET /v1/accounts/${"a".repeat(60_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\n\r\n`,
    );
    expect(a.status).toBe(431);
    serviceError(a, "header_too_large");
    expect(a.headers["connection"]).toBe("close");
    expect(a.closed).toBe(true);
  });

  it("a malformed header or Content-Length: 400 with Connection: close, and the socket closed", async () => {
    for (const header of ["Bad Header: y", "Content-Length: abc"]) {
      const a = await raw(`POST ${DOMAINS} HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`);
      expect(a.status, header).toBe(400);
      serviceError(a, "malformed_request");
      expect(a.headers["connection"]).toBe("close");
      expect(a.closed).toBe(true);
    }
  });

  it("a body shorter than its Content-Length: 408 once the request timeout passes, the socket closed", async () => {
    const a = await raw(
      `POST ${DOMAINS} HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
      60_000,
    );
    expect(a.status).toBe(408);
    serviceError(a, "request_timeout");
    expect(a.body.message).toContain(`within ${TIMEOUT_MS / 1000} s`);
    expect(a.headers["connection"]).toBe("close");
    expect(a.closed).toBe(true);
    // Nothing was made of the half body.
    const listed = await call(sim(), "GET", DOMAINS);
    expect(listed.body.results.map((d: { name: string }) => d.name)).toEqual([
      SEED.domains.stagingAcmeExample.name,
    ]);
  });

  it("a body that is not JSON: 400 in the service's shape", async () => {
    const a = await call(sim(), "POST", DOMAINS, undefined, {
      headers: { "content-type": "application/json" },
      raw: '{"name"',
    });
    expect(a.status).toBe(400);
    serviceError(a, "invalid_json");
  });
});

describe("control characters", () => {
  const user = (fields: Record<string, string>) => ({
    user: {
      account_id: SEED.accounts.acme.id,
      first_name: "Erin",
      last_name: "Editor",
      email: "erin@control.example",
      roles: "full",
      ...fields,
    },
  });

  it("in an account user's first or last name: 400 naming the field, and no user made", async () => {
    for (const [field, value] of [
      ["first_name", "Er\u0000in"],
      ["last_name", "Edi\ntor"],
      ["first_name", "\u001b[31mErin"],
    ] as const) {
      const a = await call(sim(), "POST", USERS, user({ [field]: value }));
      expect(a.status, JSON.stringify(value)).toBe(400);
      expect(a.body.errors[0]).toMatchObject({
        resource: "account_user",
        field: `user.${field}`,
        code: "invalid_characters",
      });
      expect(a.body.message).toContain(`user.${field} must not contain control characters`);
    }
    const users = await call(sim(), "GET", USERS);
    expect(JSON.stringify(users.body)).not.toContain("erin@control.example");
    // The same user with a clean name is made.
    expect((await call(sim(), "POST", USERS, user({}))).status).toBe(201);
  });

  it("a NUL in any other text: 400 naming the field; a newline there is fine", async () => {
    const backups = `/v1/installs/${SEED.installs.acmestg.id}/backups`;
    const emails = ["ops@control.example"];
    const nul = await call(sim(), "POST", backups, {
      description: "nightly\u0000",
      notification_emails: emails,
    });
    expect(nul.status).toBe(400);
    expect(nul.body.errors[0]).toMatchObject({
      resource: "backup",
      field: "description",
      code: "invalid_characters",
    });
    const lines = await call(sim(), "POST", backups, {
      description: "two\nlines",
      notification_emails: emails,
    });
    expect(lines.status).toBe(202);
  });
});
