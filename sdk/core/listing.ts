/**
 * The paginated lists of both APIs in one place: GET a path, parse the page, and follow the pages.
 * The Hosting Platform answers an envelope (`{results, next, previous, count}`, followed by offset);
 * application hosting answers `{<items>: [...], nextPageToken}`. Areas keep only their paths and
 * parameter validation.
 */
import { z } from "zod";
import {
  envelopeSchema,
  envelopeToPage,
  type Page,
  paginateOffset,
  paginateToken,
  type Query,
  type TokenParams,
} from "./pagination";
import type { Transport } from "./transport";

type Envelope<T> = { results: T[]; next?: string | null; previous?: string | null; count?: number | null };

/** A list endpoint answering the pagination envelope with records of one schema. */
export class EnvelopeListing<T> {
  readonly #schema: z.ZodType<Envelope<T>>;

  constructor(
    private readonly transport: Transport,
    item: z.ZodType<T>,
  ) {
    this.#schema = envelopeSchema(item) as unknown as z.ZodType<Envelope<T>>;
  }

  /** One page of the list at `listPath`. */
  async page(listPath: string, query: Query): Promise<Page<T>> {
    return envelopeToPage(
      await this.transport.request({ method: "GET", path: listPath, query }, this.#schema),
    );
  }

  /** Every record of the list, following the pages from `first` (the offset is the iterator's). */
  all(listPath: string, first: Query): AsyncIterable<T> {
    return paginateOffset(first, (q) => this.page(listPath, q), this.transport.apiUrl);
  }

  /**
   * Every record of the list at once: the first page gives the count, and the pages after it are asked
   * for together (the process's pace bounds how many are in flight), not one round trip after another.
   * Without a count, page by page. A record made or removed meanwhile may shift the pages: each once, by
   * `idOf`.
   */
  async collect(listPath: string, limit: number, idOf: (item: T) => string): Promise<T[]> {
    const first = await this.page(listPath, { limit });
    if (typeof first.count !== "number") {
      if (!first.next) return first.items;
      const all: T[] = [];
      for await (const item of this.all(listPath, { limit })) all.push(item);
      return all;
    }
    const offsets: number[] = [];
    for (let offset = first.items.length; first.items.length && offset < first.count; offset += limit)
      offsets.push(offset);
    const pages = await Promise.all(offsets.map((offset) => this.page(listPath, { limit, offset })));
    const byId = new Map(first.items.concat(...pages.map((p) => p.items)).map((i) => [idOf(i), i]));
    return [...byId.values()];
  }
}

/** An application-hosting list: `{<key>: [...], nextPageToken}` (a bare array is one page). */
export class TokenListing<T> {
  readonly #schema: z.ZodType<{ items: T[]; nextPageToken?: string | null }>;

  constructor(
    private readonly transport: Transport,
    /** The name of the list in the answer: `apps`, `environments`, `builds`, `domainMappings`. */
    key: string,
    item: z.ZodType<T>,
  ) {
    this.#schema = z.preprocess(
      (raw) => {
        if (Array.isArray(raw)) return { items: raw };
        const o = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
        return { items: o[key] ?? [], nextPageToken: o["nextPageToken"] };
      },
      z.object({ items: z.array(item), nextPageToken: z.string().nullish() }),
    ) as unknown as z.ZodType<{ items: T[]; nextPageToken?: string | null }>;
  }

  /** One page of the list at `listPath`. */
  async page(listPath: string, query: Query & TokenParams): Promise<Page<T>> {
    const res = await this.transport.request(
      { api: "appHosting", method: "GET", path: listPath, query },
      this.#schema,
    );
    return { items: res.items, nextPageToken: res.nextPageToken ?? undefined };
  }

  /** Every record of the list, following the page tokens (the token is the iterator's). */
  all(listPath: string, query: Query & Omit<TokenParams, "pageToken">): AsyncIterable<T> {
    return paginateToken((pageToken) => this.page(listPath, { ...query, pageToken }));
  }
}
