/**
 * The importer's view of the service: a {@link WpEngineClient} that can only read, remembers every read
 * (the kinds' `read` methods ask again for what discovery listed a moment ago), answers a record's `get`
 * from the listing that already returned it. (The calls that reach the service are counted by the
 * transport's dispatcher: `connect.ts`.)
 */
import type { WpEngineClient } from "../sdk";

/** The sdk methods that read; everything else (create, update, delete, replace, ...) is refused. */
const READS = /^(get|list|iterate)/;

/** Page-size parameters: they change the number of calls, not the answer, so they are not part of a key. */
const PAGING = new Set(["limit", "pageSize"]);

function keyOf(area: string, method: string, args: unknown[]): string {
  // `iterate` and `list` of one collection answer the same records; a list that returns a page is the
  // exception (`list` with a `Page` result), told apart by the method name only where the sdk has both.
  const plain = args.map((a) =>
    a && typeof a === "object" && !Array.isArray(a)
      ? Object.fromEntries(Object.entries(a).filter(([k, v]) => !PAGING.has(k) && v !== undefined))
      : a,
  );
  while (plain.length && JSON.stringify(plain.at(-1)) === "{}") plain.pop();
  return `${area}.${method}(${JSON.stringify(plain)})`;
}

/** A read-only, remembering client and what it cost. */
export interface ReadOnlyClient {
  client: WpEngineClient;
  /** Answers `area.get(...args)` with `record` from now on (a listing already returned it). */
  seed(area: string, args: unknown[], record: unknown): void;
}

/**
 * Wraps `real`. `iterate` answers are collected into arrays (and replayed as async iterables), so a
 * listing is sent once however many readers walk it; a refused write throws before any request.
 */
export function readOnlyClient(real: WpEngineClient): ReadOnlyClient {
  const memo = new Map<string, Promise<unknown>>();
  const areas = new Map<string, unknown>();
  const client = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string" || value === null || typeof value !== "object") return value;
      let wrapped = areas.get(prop);
      if (!wrapped) {
        wrapped = areaProxy(prop, value as object);
        areas.set(prop, wrapped);
      }
      return wrapped;
    },
  });

  function areaProxy(area: string, api: object): object {
    return new Proxy(api, {
      get(target, method, receiver) {
        const fn = Reflect.get(target, method, receiver);
        if (typeof method !== "string" || typeof fn !== "function") return fn;
        if (!READS.test(method)) {
          return () => {
            throw new Error(`the importer never writes: ${area}.${method} refused`);
          };
        }
        return (...args: unknown[]) => {
          const key = keyOf(area, method, args);
          const iterating = method.startsWith("iterate");
          let answer = memo.get(key);
          if (!answer) {
            const first = (): unknown => fn.apply(target, args);
            answer = iterating ? collect(first() as AsyncIterable<unknown>) : Promise.resolve().then(first);
            memo.set(key, answer);
            // A failed read is not remembered: the caller decides what it means.
            answer.catch(() => memo.delete(key));
          }
          return iterating ? replay(answer as Promise<unknown[]>) : answer;
        };
      },
    });
  }

  return {
    client,
    seed(area, args, record) {
      memo.set(keyOf(area, "get", args), Promise.resolve(record));
    },
  };
}

async function collect(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* replay(items: Promise<unknown[]>): AsyncIterable<unknown> {
  yield* await items;
}
