/** Fewer calls for many resources under one parent: the engine's creates, gathered per process. */
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
    opts.send(client, parent, items).then(
      (outcomes) => {
        p.outstanding -= items.length;
        batch.entries.forEach(({ resolve, reject }, i) => {
          const o = outcomes[i];
          if (o instanceof Error) reject(o);
          else if (o === undefined) reject(new Error("the batch gave no outcome for this item"));
          else resolve(o);
        });
      },
      (err) => {
        p.outstanding -= items.length;
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
