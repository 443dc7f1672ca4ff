import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Caller } from "./auth";
import { ApiError, badRequest, fromZod } from "./errors";

/** A request with string path parameters and a parsed query string. */
export type Req = FastifyRequest<{
  Params: Record<string, string>;
  Querystring: Record<string, string | string[] | undefined>;
}>;

const callers = new WeakMap<object, Caller>();

/** Remembers who sent a request (set by the authentication hook). */
export function setCaller(req: FastifyRequest, caller: Caller): void {
  callers.set(req, caller);
}

/** The authenticated caller of a `/v1` or `/fu/v1` request. */
export function callerOf(req: FastifyRequest): Caller {
  const caller = callers.get(req);
  if (!caller) throw new ApiError(401, "Bad Credentials");
  return caller;
}

/**
 * Validates a request body strictly: a 400 naming every missing or invalid field (`invalidStatus` for
 * known fields whose values fail, see `fromZod`).
 */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  resource: string,
  invalidStatus = 400,
): z.infer<S> {
  // reportInput tells a missing field (input undefined) from a mistyped one.
  const result = schema.safeParse(body ?? {}, { reportInput: true });
  if (!result.success) throw fromZod(resource, result.error, invalidStatus);
  refuseControlCharacters(result.data, resource);
  return result.data;
}

/** A field that names something (`name`, `first_name`, `display_name`, `title`): no control character at all. */
const NAME_FIELD = /(^|_)(name|title)$|[a-z]Name$/;

/** The index of the first control character (C0, DEL or C1; only NUL when `nulOnly`), or -1. */
function controlAt(text: string, nulOnly: boolean): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0 || (!nulOnly && (c < 0x20 || (c >= 0x7f && c <= 0x9f)))) return i;
  }
  return -1;
}

/**
 * A 400 naming the first field that holds a control character where none belongs: any in a name or
 * title (a NUL, a newline or an escape in a user's first name is a mistake, never a name), and a NUL
 * anywhere (no text field of the service takes one; PEM certificates and descriptions keep their newlines).
 */
function refuseControlCharacters(value: unknown, resource: string, field = ""): void {
  if (typeof value === "string") {
    const at = controlAt(value, !NAME_FIELD.test(field.slice(field.lastIndexOf(".") + 1)));
    if (at < 0) return;
    const char = `U+${value.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0")}`;
    throw badRequest(
      resource,
      field || undefined,
      `${field || "body"} must not contain control characters (${char} at position ${at})`,
      "invalid_characters",
    );
  }
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries())
      refuseControlCharacters(v, resource, field ? `${field}.${i}` : `${i}`);
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value))
      refuseControlCharacters(v, resource, field ? `${field}.${k}` : k);
  }
}

/** One query parameter as a string (the first when repeated). */
export function queryParam(req: Req, name: string): string | undefined {
  const v = req.query[name];
  return Array.isArray(v) ? v[0] : v;
}

function intParam(
  req: Req,
  name: string,
  fallback: number,
  min: number,
  max: number,
  resource: string,
): number {
  const raw = queryParam(req, name);
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || n < min || n > max) {
    throw badRequest(resource, name, `${name} must be an integer between ${min} and ${max}`, "out_of_range");
  }
  return n;
}

/** The hosting API's pagination envelope: limit (1–100, default 100), offset, full-URL previous/next, count. */
export function paginate<T, V = T>(
  req: Req,
  items: T[],
  /** Builds the view of each record of the page only (a view may be costly). */
  view?: (item: T) => V,
): { previous: string | null; next: string | null; count: number; results: V[] } {
  const limit = intParam(req, "limit", 100, 1, 100, "pagination");
  const offset = intParam(req, "offset", 0, 0, Number.MAX_SAFE_INTEGER, "pagination");
  const url = new URL(req.url, `${req.protocol}://${req.host}`);
  const link = (o: number) => {
    const u = new URL(url);
    u.searchParams.set("limit", String(limit));
    u.searchParams.set("offset", String(o));
    return u.toString();
  };
  return {
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    next: offset + limit < items.length ? link(offset + limit) : null,
    count: items.length,
    results: items.slice(offset, offset + limit).map((item) => (view ? view(item) : (item as unknown as V))),
  };
}

/** Application-hosting paging: `pageSize` (1–1000, default 50) and an opaque `pageToken`. */
export function page<T>(req: Req, items: T[]): { items: T[]; nextPageToken?: string } {
  const size = intParam(req, "pageSize", 50, 1, 1000, "page");
  const token = queryParam(req, "pageToken");
  let offset = 0;
  if (token) {
    const decoded = /^o(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
    if (!decoded) throw badRequest("page", "pageToken", "pageToken is not valid", "invalid_page_token");
    offset = Number(decoded[1]);
  }
  const slice = items.slice(offset, offset + size);
  const end = offset + size;
  return end < items.length
    ? { items: slice, nextPageToken: Buffer.from(`o${end}`).toString("base64url") }
    : { items: slice };
}
