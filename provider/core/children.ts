/**
 * The children of a parent (an install's domains, an account's users), listed once per parent and client
 * per process and shared by every create and read under it. By name (the look-before-create, as safe as a
 * listing per create): this process's creates and deletes are recorded in it; a name it holds is confirmed
 * by a GET; a name made elsewhere since makes the create refused (`isRefusal`), and a listing started after
 * that finds its holder. By id (reads): a listing started after this process's last write under the parent
 * (a write may change other children: a new primary domain, the last owner); an id it lacks, by a GET.
 */
import { isNotFound, isRefusal, type WpEngineClient } from "../../sdk";

/** How a resource lists, names and re-reads the children of a parent. */
export interface ChildrenOptions<T> {
  /** Every child of the parent, all pages. */
  list(client: WpEngineClient, parent: string): Promise<T[]>;
  /** The child's name as the resource compares it (e.g. lower case). */
  keyOf(item: T): string;
  idOf(item: T): string;
  /** The child with `id` as it is now; `undefined` when it is gone (404). */
  get(client: WpEngineClient, parent: string, id: string): Promise<T | undefined>;
}

/** The children by name, and when the listing started (`performance.now()`; +Infinity until then). */
type Listing<T> = { startedAt: number; items: Promise<Map<string, T>> };

interface Parent<T> {
  /** Its start tells whether it can see a refusal's cause or a write. */
  listing?: Listing<T>;
  /** When this process's last write under the parent settled: a listing started before it serves no read. */
  wroteAt: number;
}

/** The shared listings of one kind's parents: each lookup resolves to the live child and whether this call `created` it. */
export function sharedChildren<T>(opts: ChildrenOptions<T>) {
  const byClient = new WeakMap<WpEngineClient, Map<string, Parent<T>>>();
  /** A listing's children by id, built at its first read (a refresh reads every child of it). */
  const byId = new WeakMap<Map<string, T>, Map<string, T>>();

  const parentOf = (client: WpEngineClient, parent: string) => {
    const parents = byClient.get(client) ?? new Map<string, Parent<T>>();
    byClient.set(client, parents);
    const p = parents.get(parent) ?? { wroteAt: Number.NEGATIVE_INFINITY };
    parents.set(parent, p);
    return p;
  };

  /** A listing of `parent` started after `after` (any listing when omitted), shared by its callers. */
  const listing = (client: WpEngineClient, parent: string, after = Number.NEGATIVE_INFINITY) => {
    const p = parentOf(client, parent);
    if (p.listing && p.listing.startedAt > after) return p.listing.items;
    // Started on the next turn, so the creates refused meanwhile share it.
    const next: Listing<T> = { startedAt: Number.POSITIVE_INFINITY, items: Promise.resolve(new Map()) };
    next.items = new Promise((started) => setImmediate(started))
      .then(() => {
        next.startedAt = performance.now();
        return opts.list(client, parent);
      })
      .then((all) => new Map(all.map((i) => [opts.keyOf(i), i])));
    p.listing = next;
    // A failed listing is not kept: the next caller lists again.
    next.items.catch(() => {
      if (p.listing === next) delete p.listing;
    });
    return next.items;
  };

  /** Applies a change this process made to the listing it holds (after the listing, if in flight). */
  const record = (client: WpEngineClient, parent: string, key: string, item: T | undefined) => {
    // No listing yet: the first one will see the change.
    void parentOf(client, parent).listing?.items.then(
      (items) => {
        byId.delete(items);
        return item === undefined ? items.delete(key) : items.set(key, item);
      },
      () => undefined,
    );
  };

  const writing = <R>(client: WpEngineClient, parent: string, write: Promise<R>) =>
    write.finally(() => {
      parentOf(client, parent).wroteAt = performance.now();
    });

  return {
    /** The live child named `key`, from a listing started after `after` if given (a lost create's look). */
    async find(client: WpEngineClient, parent: string, key: string, after?: number) {
      const listed = (await listing(client, parent, after)).get(key);
      if (listed === undefined) return undefined;
      const live = await opts.get(client, parent, opts.idOf(listed));
      record(client, parent, key, live);
      return live === undefined ? undefined : { item: live, created: false };
    },

    /** Runs `make` (a write) and records the child; refused, the child a later listing finds under `key`, else the refusal. */
    async create(client: WpEngineClient, parent: string, key: string, make: () => Promise<T>) {
      try {
        const item = await writing(client, parent, make());
        record(client, parent, key, item);
        return { item, created: true };
      } catch (err) {
        if (!isRefusal(err)) throw err;
        // A listing that fails says nothing about the name: the refusal is the answer.
        const holder = (await listing(client, parent, performance.now()).catch(() => undefined))?.get(key);
        if (holder === undefined) throw err;
        return { item: holder, created: false };
      }
    },

    /** The child with `id` as a listing started after this process's last write there saw it, else a GET; `undefined` when gone. */
    async read(client: WpEngineClient, parent: string, id: string): Promise<T | undefined> {
      const items = await listing(client, parent, parentOf(client, parent).wroteAt);
      const ids = byId.get(items) ?? new Map([...items.values()].map((i) => [opts.idOf(i), i]));
      byId.set(items, ids);
      return ids.get(id) ?? opts.get(client, parent, id);
    },

    /** A write under the parent other than a create or delete: later reads list again once it settles, whatever the outcome. */
    writing,

    /** Records that this process deleted (or tried to delete) the child named `key`: a write. */
    forget(client: WpEngineClient, parent: string, key: string) {
      record(client, parent, key, undefined);
      parentOf(client, parent).wroteAt = performance.now();
    },
  };
}

/** `get` that answers `undefined` for a 404. */
export function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  return read.catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
}
