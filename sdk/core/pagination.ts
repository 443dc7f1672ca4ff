import { z } from "zod";
import { WpEnginePaginationError } from "./errors";

/** One page of a list operation. */
export interface Page<T> {
  /** The records of this page. */
  items: T[];
  /** Total number of records across all pages, when the service reports it. */
  count?: number | undefined;
  /** URL of the next page (offset lists); null or absent on the last page. */
  next?: string | null | undefined;
  /** URL of the previous page (offset lists). */
  previous?: string | null | undefined;
  /** Token of the next page (application-hosting lists); absent or empty on the last page. */
  nextPageToken?: string | undefined;
}

/** Query parameters of a list request. */
export type Query = Record<string, string | number | boolean | undefined>;

/** limit/offset parameters of the Hosting Platform lists (limit 1..100, default 100; offset from 0). */
export const OffsetParamsSchema = z.strictObject({
  /** Records per page, 1 to 100 (the service default is 100). */
  limit: z.number().int().min(1).max(100).optional(),
  /** Index of the first record to return. */
  offset: z.number().int().min(0).optional(),
});
/** limit/offset parameters of the Hosting Platform lists. */
export type OffsetParams = z.infer<typeof OffsetParamsSchema>;

/** pageSize/pageToken parameters of the application-hosting lists. */
export const TokenParamsSchema = z.strictObject({
  /** Records per page. */
  pageSize: z.number().int().min(1).optional(),
  /** Token returned as `nextPageToken` by the previous page. */
  pageToken: z.string().min(1).optional(),
});
/** pageSize/pageToken parameters of the application-hosting lists. */
export type TokenParams = z.infer<typeof TokenParamsSchema>;

/**
 * Lenient schema of the Hosting Platform envelope `{previous, next, count, results}`; a bare array or
 * `{results}` alone are accepted as a single page.
 */
export function envelopeSchema<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (raw) => (Array.isArray(raw) ? { results: raw } : raw),
    z.looseObject({
      results: z.array(item),
      next: z.string().nullish(),
      previous: z.string().nullish(),
      count: z.number().nullish(),
    }),
  );
}

/** Converts a parsed envelope to a {@link Page}. */
export function envelopeToPage<T>(env: {
  results: T[];
  next?: string | null | undefined;
  previous?: string | null | undefined;
  count?: number | null | undefined;
}): Page<T> {
  const page: Page<T> = { items: env.results };
  if (typeof env.count === "number") page.count = env.count;
  if (env.next !== undefined) page.next = env.next;
  if (env.previous !== undefined) page.previous = env.previous;
  return page;
}

function serialize(q: Query): string {
  return JSON.stringify(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );
}

/**
 * Computes the query of the page after `page`, or undefined at the end. Follows `next` (taking only its
 * query; its origin must be the configured service, so credentials never go elsewhere) and refuses one
 * that does not advance. Without a `next` field, falls back to limit/offset arithmetic against `count`.
 */
export function nextOffsetQuery<T>(page: Page<T>, current: Query, baseUrl: string): Query | undefined {
  const currentOffset = Number(current["offset"] ?? 0);
  if (typeof page.next === "string" && page.next !== "") {
    const base = new URL(baseUrl);
    let nextUrl: URL;
    try {
      nextUrl = new URL(page.next, `${base.origin}${base.pathname}/`);
    } catch {
      throw new WpEnginePaginationError(`the next-page link is not a URL: ${page.next}`);
    }
    if (nextUrl.origin !== base.origin) {
      throw new WpEnginePaginationError(
        `the next-page link points to ${nextUrl.origin}, not the configured ${base.origin}; refusing to follow it`,
      );
    }
    const next: Query = { ...current };
    for (const [k, v] of nextUrl.searchParams) next[k] = v;
    if (nextUrl.searchParams.has("offset")) {
      const nextOffset = Number(nextUrl.searchParams.get("offset"));
      if (!Number.isFinite(nextOffset) || nextOffset <= currentOffset) {
        throw new WpEnginePaginationError(
          `the next-page link does not advance (offset ${currentOffset} -> ${nextUrl.searchParams.get("offset")})`,
        );
      }
      next["offset"] = nextOffset;
      if (nextUrl.searchParams.has("limit")) next["limit"] = Number(nextUrl.searchParams.get("limit"));
    } else if (serialize(next) === serialize(current) || page.items.length === 0) {
      throw new WpEnginePaginationError(`the next-page link does not advance: ${page.next}`);
    }
    return next;
  }
  if (page.next === undefined && typeof page.count === "number" && page.items.length > 0) {
    const nextOffset = currentOffset + page.items.length;
    return nextOffset < page.count ? { ...current, offset: nextOffset } : undefined;
  }
  return undefined;
}

/**
 * Iterates every record of an offset-paginated list, page by page. Refuses a query already read, so a
 * next link that cycles (A -> B -> A) ends with an error instead of reading forever.
 */
export async function* paginateOffset<T>(
  first: Query,
  fetchPage: (query: Query) => Promise<Page<T>>,
  baseUrl: string,
): AsyncGenerator<T, void, undefined> {
  let query: Query | undefined = first;
  const seen = new Set<string>();
  while (query) {
    const key = serialize(query);
    if (seen.has(key)) throw new WpEnginePaginationError(`pagination revisits a page already read (${key})`);
    seen.add(key);
    const page = await fetchPage(query);
    yield* page.items;
    query = nextOffsetQuery(page, query, baseUrl);
  }
}

/**
 * Iterates every record of a token-paginated list. Refuses any token already used, so a cycle of any
 * length (A -> B -> A, not only A -> A) ends with an error instead of reading forever.
 */
export async function* paginateToken<T>(
  fetchPage: (pageToken: string | undefined) => Promise<Page<T>>,
  firstToken?: string,
): AsyncGenerator<T, void, undefined> {
  let token: string | undefined = firstToken;
  const used = new Set<string>(firstToken ? [firstToken] : []);
  for (;;) {
    const page = await fetchPage(token);
    yield* page.items;
    const next = page.nextPageToken;
    if (!next) return;
    if (used.has(next)) throw new WpEnginePaginationError(`the nextPageToken does not advance (${next})`);
    used.add(next);
    token = next;
  }
}

/** Wraps a one-shot list (`{results}`, `{schedules}`, `{templates}`) as an async iterable. */
export async function* iterateAll<T>(load: () => Promise<T[]>): AsyncGenerator<T, void, undefined> {
  yield* await load();
}
