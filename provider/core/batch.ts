/** Fewer calls for many resources under one parent: the engine's creates or reads, gathered per process. */
import { sendingOf } from "./journal";

/** One item's outcome of a batch: its result, or its own error. */
export type Outcome<R> = R | Error;

/** How a batch is gathered and sent. */
export interface GatherOptions<C extends object, T, R> {
  /** The most items of one batch. */
  max: number;
  /** A batch leaves when no item has joined it for this long (ms)... */
  quietMs: number;
  /** ...or this long after its first item (ms), whichever comes first. */
  maxWaitMs: number;
  /** Sends one batch; resolves to one outcome per item, in the items' order (it never rejects). */
  send(client: C, parent: string, items: T[]): Promise<Outcome<R>[]>;
}

interface Waiting<T, R> {
  /** Each item, its caller's settling, and its create journal `sending` (journal.ts), run as it leaves. */
  entries: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void; sending?: () => void }[];
  first: number;
  timer?: NodeJS.Timeout;
}

interface Parent<T, R> {
  open?: Waiting<T, R>;
  /** Items added and not yet answered; the most there were when a batch left (0 before the first). */
  outstanding: number;
  most: number;
}

/**
 * Gathers the calls of each (client, parent) into batches, each caller getting its own outcome. A batch
 * leaves at `max` items, at as many as were outstanding when an earlier one left (the engine's parallelism,
 * learned), or after a quiet spell or the longest wait (the engine may send creates one by one).
 */
export function gathered<C extends object, T, R>(
  opts: GatherOptions<C, T, R>,
): (client: C, parent: string, item: T) => Promise<R> {
  const byClient = new WeakMap<C, Map<string, Parent<T, R>>>();

  const flush = (p: Parent<T, R>, client: C, parent: string, batch: Waiting<T, R>) => {
    if (p.open === batch) delete p.open;
    clearTimeout(batch.timer);
    p.most = Math.max(p.most, p.outstanding);
    for (const e of batch.entries) e.sending?.();
    const items = batch.entries.map((e) => e.item);
    const done = () => {
      p.outstanding -= items.length;
    };
    opts.send(client, parent, items).then(
      (outcomes) => {
        done();
        batch.entries.forEach(({ resolve, reject }, i) => {
          const o = outcomes[i];
          if (o instanceof Error) reject(o);
          else if (o === undefined) reject(new Error("the batch gave no outcome for this item"));
          else resolve(o);
        });
      },
      (err) => {
        done();
        for (const { reject } of batch.entries) reject(err);
      },
    );
  };

  return (client, parent, item) => {
    const parents = byClient.get(client) ?? new Map<string, Parent<T, R>>();
    byClient.set(client, parents);
    const p = parents.get(parent) ?? { outstanding: 0, most: 0 };
    parents.set(parent, p);
    p.outstanding++;
    const batch = p.open ?? { entries: [], first: performance.now() };
    p.open = batch;
    const result = new Promise<R>((resolve, reject) =>
      batch.entries.push({ item, resolve, reject, sending: sendingOf() }),
    );
    clearTimeout(batch.timer);
    if (batch.entries.length >= opts.max) flush(p, client, parent, batch);
    else {
      // Every item to expect now is here: sent on the next turn, with the items of this one.
      const all = p.most > 0 && batch.entries.length >= p.most;
      const left = batch.first + opts.maxWaitMs - performance.now();
      const wait = all ? 0 : Math.max(0, Math.min(opts.quietMs, left));
      batch.timer = setTimeout(() => flush(p, client, parent, batch), wait);
    }
    return result;
  };
}

/** How a parent is listed for reads. */
export interface ListingOptions<C extends object, T> {
  /** Every child of the parent, all pages at the largest page size. */
  list(client: C, parent: string): Promise<T[]>;
  /** The child's id, as a read asks for it. */
  idOf(item: T): string;
}

/** The reads' shared listings of one kind's parents. */
export interface ReadListings<C extends object, T> {
  /** The child with `id` as this process's listing of the parent saw it; `undefined` when absent. */
  find(client: C, parent: string, id: string): Promise<T | undefined>;
  /** Forgets the parent's listing: this process wrote under the parent. */
  drop(client: C, parent: string): void;
  /** A write under the parent: its listing forgotten once the write settles, whatever the outcome. */
  writing<R>(client: C, parent: string, write: Promise<R>): Promise<R>;
}

/** One listing of each (client, parent) serves this process's reads until it writes there (`drop`). */
export function readListings<C extends object, T>(opts: ListingOptions<C, T>): ReadListings<C, T> {
  const byClient = new WeakMap<C, Map<string, Promise<Map<string, T>>>>();
  const drop = (client: C, parent: string) => {
    byClient.get(client)?.delete(parent);
  };
  return {
    async find(client, parent, id) {
      const parents = byClient.get(client) ?? new Map<string, Promise<Map<string, T>>>();
      byClient.set(client, parents);
      let current = parents.get(parent);
      if (!current) {
        const next = opts.list(client, parent).then((all) => new Map(all.map((i) => [opts.idOf(i), i])));
        parents.set(parent, next);
        // A failed listing is not kept: the next read lists again.
        next.catch(() => {
          if (parents.get(parent) === next) parents.delete(parent);
        });
        current = next;
      }
      return (await current).get(id);
    },
    drop,
    writing: (client, parent, write) => write.finally(() => drop(client, parent)),
  };
}
