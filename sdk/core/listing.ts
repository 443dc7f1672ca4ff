/**
 * The Hosting Platform's paginated lists in one place: GET a path, parse the envelope
 * (`{results, next, previous, count}`), and follow the pages. Areas keep only their paths and
 * parameter validation.
 */
import type { z } from "zod";
import { envelopeSchema, envelopeToPage, type Page, paginateOffset, type Query } from "./pagination";
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
}
