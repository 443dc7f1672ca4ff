/** Shared fixtures of the sdk unit tests: a client wired to an undici MockAgent, no network. */
import type { IncomingHttpHeaders } from "node:http";
import { type Interceptable, MockAgent } from "undici";
import { type ClientOptions, WpEngineClient } from "../../sdk";

export const API_ORIGIN = "https://api.wpengine.test";
export const API_URL = `${API_ORIGIN}/v1`;
export const JS_ORIGIN = "https://js.wpengine.test";
export const USERNAME = "ci-api-user";
export const PASSWORD = "pa55-Very-Secret-Word";
export const AUTH = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`;

/** One request as the mock server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  rawBody: unknown;
}

/** A reply: status, JSON (or raw string) body, response headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: IncomingHttpHeaders;
}

function headersOf(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (Array.isArray(h)) {
    for (let i = 0; i + 1 < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
  } else if (typeof (h as Headers).get === "function") {
    (h as Headers).forEach((v, k) => {
      out[k.toLowerCase()] = v;
    });
  } else {
    for (const [k, v] of Object.entries(h as Record<string, unknown>)) out[k.toLowerCase()] = String(v);
  }
  return out;
}

export function setup(options: ClientOptions = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const sleeps: number[] = [];
  const seen: SeenRequest[] = [];
  const client = new WpEngineClient({
    username: USERNAME,
    password: PASSWORD,
    apiUrl: API_URL,
    appHostingUrl: JS_ORIGIN,
    dispatcher: agent,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  const hosting = agent.get(API_ORIGIN) as Interceptable;
  const js = agent.get(JS_ORIGIN) as Interceptable;

  /** Expects one request `method path` (path with query) and answers `reply`; records what was sent. */
  function expect(pool: Interceptable, method: string, path: string, ...replies: Reply[]) {
    for (const reply of replies) {
      pool.intercept({ method, path }).reply((opts) => {
        const raw = opts.body;
        seen.push({
          method: opts.method,
          path: opts.path,
          headers: headersOf(opts.headers),
          body: typeof raw === "string" ? raw : Buffer.isBuffer(raw) ? raw.toString("latin1") : undefined,
          rawBody: raw,
        });
        const data =
          reply.body === undefined
            ? ""
            : typeof reply.body === "string"
              ? reply.body
              : JSON.stringify(reply.body);
        return {
          statusCode: reply.status,
          data,
          responseOptions: { headers: { "content-type": "application/json", ...reply.headers } },
        };
      });
    }
  }

  return {
    agent,
    client,
    sleeps,
    seen,
    /** Expects requests on the Hosting Platform origin (paths include /v1). */
    api: (method: string, path: string, ...replies: Reply[]) => expect(hosting, method, path, ...replies),
    /** Expects requests on the application-hosting origin. */
    apps: (method: string, path: string, ...replies: Reply[]) => expect(js, method, path, ...replies),
    hosting,
    js,
    /** The JSON body of the n-th request seen. */
    json: (n = 0): unknown => JSON.parse(seen[n]?.body ?? "null"),
    /** Fails if an expected request was not made, then closes the agent. */
    done: async () => {
      agent.assertNoPendingInterceptors();
      await agent.close();
    },
  };
}

/** Catches the rejection of a promise (fails the test if it resolves). */
export async function rejection(p: Promise<unknown> | (() => Promise<unknown>)): Promise<unknown> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

/** An error shaped like the ones undici raises for socket failures. */
export function sysError(code: string, message = `${code} happened`): Error {
  return Object.assign(new Error(message), { code });
}

export const INSTALL = { id: "1f6e2a7c-0000-4000-8000-000000000001", name: "mysite" };
export const DOMAIN_ID = "2a6e2a7c-0000-4000-8000-000000000002";
