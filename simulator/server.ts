import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { authenticate } from "./auth";
import { registerControl } from "./control";
import { ApiError, badRequest } from "./errors";
import type { FaultRule } from "./faults";
import { setCaller, usernameOf } from "./http";
import { registerAccounts } from "./routes/accounts";
import { registerAccountUsers } from "./routes/accountUsers";
import { registerApps } from "./routes/apps";
import { registerBackups } from "./routes/backups";
import { registerBuilds } from "./routes/builds";
import { registerCacheExclusions } from "./routes/cacheExclusions";
import { registerCachePurge } from "./routes/cachePurge";
import { registerCertificates } from "./routes/certificates";
import { registerDomainMappings } from "./routes/domainMappings";
import { registerDomainStatus } from "./routes/domainStatus";
import { registerDomains } from "./routes/domains";
import { registerEnvironments } from "./routes/environments";
import { registerInstallCopy } from "./routes/installCopy";
import { registerInstalls } from "./routes/installs";
import { registerOffloadSettings } from "./routes/offloadSettings";
import { registerReportSchedules } from "./routes/reportSchedules";
import { registerSites } from "./routes/sites";
import { registerSiteTransfers } from "./routes/siteTransfers";
import { registerSshKeys } from "./routes/sshKeys";
import { registerSwagger } from "./routes/swagger";
import { registerUsage } from "./routes/usage";
import type { Sim } from "./sim";

/** Requests of the two simulated APIs (logged, authenticated, subject to faults); the rest is /__sim. */
function apiPath(req: FastifyRequest): string | null {
  const raw = req.url.split("?")[0] ?? "";
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // Keep the raw path when it is not valid percent-encoding.
  }
  return path.startsWith("/v1/") || path.startsWith("/fu/v1/") ? path : null;
}

/** Operations the Swagger gives no security requirement: answered without credentials. */
const PUBLIC = new Set(["/v1/status", "/v1/swagger"]);

const STATUS_MESSAGES: Record<number, string> = {
  429: "Rate limit exceeded - too many requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service temporarily unavailable",
  504: "Gateway Timeout",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds a request has to arrive whole (line, headers and body) before it is answered 408 and closed. */
export const REQUEST_TIMEOUT_S = 30;

/**
 * An answer written on the socket itself, for a request the web framework never saw (malformed, too
 * large, or never finished): the service's error body, then `Connection: close` and the socket closed,
 * since what is left on it cannot be read as a next request.
 */
function answerOnSocket(socket: Duplex, status: number, message: string, code: string): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(badRequest("request", undefined, message, code).body());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** Builds the fastify app serving both APIs and the control API for one simulator. */
export async function buildServer(
  sim: Sim,
  options: { quiet?: boolean; requestTimeoutMs?: number } = {},
): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_S * 1000;
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // A request whose body never arrives whole (shorter than its Content-Length) is answered, not held.
    requestTimeout,
    http: {
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, requestTimeout / 4)),
    },
    // What the HTTP parser refuses before the framework sees a request, in the service's error shape.
    clientErrorHandler: (err, socket) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ECONNRESET" || code === "EPIPE") return socket.destroy();
      if (code === "ERR_HTTP_REQUEST_TIMEOUT")
        return answerOnSocket(
          socket,
          408,
          `The request did not arrive whole within ${requestTimeout / 1000} s (a body shorter than its Content-Length?): send it again`,
          "request_timeout",
        );
      if (code === "HPE_HEADER_OVERFLOW")
        return answerOnSocket(
          socket,
          431,
          "The request line and headers are larger than 16 KB: shorten the URL or the headers",
          "header_too_large",
        );
      const reason = (err as { reason?: string }).reason ?? err.message;
      return answerOnSocket(socket, 400, `Malformed HTTP request: ${reason}`, "malformed_request");
    },
    // A URL the router cannot read (bad percent-encoding, an overlong parameter), in the service's shape.
    frameworkErrors: (err, _req, reply) => {
      const message =
        err.code === "FST_ERR_BAD_URL"
          ? `The URL is not valid: ${err.message.replace(/ is not a valid url component$/, " is not valid percent-encoding")}`
          : `The URL is not valid: ${err.message}`;
      const code = err.code === "FST_ERR_BAD_URL" ? "bad_url" : "bad_path";
      (reply as FastifyReply).code(400).send(badRequest("request", undefined, message, code).body());
    },
  });

  // An empty JSON body (a bodiless POST that still says application/json) reads as no body.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(
        new ApiError(400, "Request body is not valid JSON", [
          {
            resource: "request",
            type: "invalid_value",
            code: "invalid_json",
            message: (err as Error).message,
          },
        ]),
        undefined,
      );
    }
  });
  // Any other type: a bodiless request is fine whatever it says (axios sends an empty POST as
  // application/x-www-form-urlencoded); a body the service cannot read is a 400 in its own error shape.
  app.addContentTypeParser("*", { parseAs: "string" }, (req, body, done) => {
    if (String(body) === "") return done(null, undefined);
    const message = `Unsupported Content-Type ${req.headers["content-type"] ?? "(none)"}: send application/json`;
    done(badRequest("request", undefined, message, "unsupported_media_type"), undefined);
  });
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 5 } });

  const dropped = new WeakSet<object>();
  const after = new WeakMap<object, FaultRule>();
  const drop = (req: FastifyRequest, path: string) => {
    dropped.add(req);
    sim.record({
      method: req.method,
      path,
      query: queryOf(req),
      status: 0,
      time: sim.clock.iso(),
      dropped: true,
    });
    req.raw.socket.destroy();
  };

  app.addHook("onRequest", async (req, reply) => {
    sim.store.catchUp();
    sim.settle();
    const path = apiPath(req);
    if (path === null) return;
    if (sim.latencyMs > 0) await sleep(sim.latencyMs);
    const wait = sim.rate?.take();
    if (wait != null) {
      return reply.code(429).header("retry-after", String(wait)).send({ message: STATUS_MESSAGES[429] });
    }
    const fault = sim.faults.pick(req.method, path);
    if (fault) {
      if (fault.latencyMs && !fault.after) await sleep(fault.latencyMs);
      if (fault.after) {
        after.set(req, fault);
      } else if (fault.drop) {
        reply.hijack();
        drop(req, path);
        return reply;
      } else if (fault.status) {
        if (fault.retryAfter !== undefined) reply.header("retry-after", String(fault.retryAfter));
        return reply.code(fault.status).send({ message: STATUS_MESSAGES[fault.status] ?? "Injected fault" });
      }
    }
    if (!PUBLIC.has(path)) setCaller(req, authenticate(req.headers.authorization, sim.users));
  });

  app.addHook("onSend", async (req, reply, payload) => {
    // On disk before the answer leaves: a client that saw a success can never lose it to a kill.
    await sim.store.commit();
    const fault = after.get(req);
    if (!fault) return payload;
    // The operation happened (and is on disk); the answer is late, or the client never learns it.
    if (fault.latencyMs) await sleep(fault.latencyMs);
    if (!fault.drop && !fault.status) return payload;
    if (fault.drop) {
      drop(req, apiPath(req) ?? req.url);
      return payload;
    }
    if (fault.retryAfter !== undefined) reply.header("retry-after", String(fault.retryAfter));
    reply.code(fault.status!).header("content-type", "application/json; charset=utf-8");
    return JSON.stringify({ message: STATUS_MESSAGES[fault.status!] });
  });

  app.addHook("onResponse", async (req, reply) => {
    const path = apiPath(req);
    if (path === null || dropped.has(req)) return;
    const user = usernameOf(req);
    sim.record({
      method: req.method,
      path,
      query: queryOf(req),
      status: reply.statusCode,
      time: sim.clock.iso(),
      ...(user !== undefined ? { user } : {}),
    });
  });

  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.headers ?? {})) reply.header(name, value);
      return reply.code(err.status).send(err.body());
    }
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      const status = e.statusCode === 404 || e.statusCode === 413 ? e.statusCode : 400;
      // The web framework's own errors (FST_ERR_...) in the service's shape, without the framework's names.
      const code = e.code?.replace(/^FST_(ERR_)?(CTP_)?/, "").toLowerCase();
      return reply
        .code(status)
        .send(badRequest("request", undefined, e.message ?? "Bad Request", code).body());
    }
    if (!options.quiet) console.error(err);
    return reply.code(500).send({ message: "Internal Server Error" });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ message: `Not Found: ${req.method} ${req.url.split("?")[0]}` });
  });

  registerControl(app, sim);
  registerSwagger(app); // first: it lists the routes registered after it
  registerAccounts(app, sim);
  registerSites(app, sim);
  registerInstalls(app, sim);
  registerDomains(app, sim);
  registerBackups(app, sim);
  registerCacheExclusions(app, sim);
  registerOffloadSettings(app, sim);
  registerCertificates(app, sim);
  registerSiteTransfers(app, sim);
  registerAccountUsers(app, sim);
  registerInstallCopy(app, sim);
  registerReportSchedules(app, sim);
  registerSshKeys(app, sim);
  registerApps(app, sim);
  registerEnvironments(app, sim);
  registerBuilds(app, sim);
  registerDomainMappings(app, sim);
  registerCachePurge(app, sim);
  registerDomainStatus(app, sim);
  registerUsage(app, sim);
  return app;
}

function queryOf(req: FastifyRequest): string {
  const i = req.url.indexOf("?");
  return i < 0 ? "" : req.url.slice(i + 1);
}
