/**
 * The look-before-create of resources whose identity is a name among the children of a parent (the
 * domains of an install, the users of an account), at a cost linear in the work: one listing of a parent
 * per plugin process, shared by every create under it, instead of one listing (every page) per create.
 *
 * Why it stays as safe as listing before each create:
 * - concurrent creates of one parent await the same listing (single flight);
 * - what this process creates or deletes is recorded in the listing, so it stays current for it;
 * - a name the listing holds is confirmed with one GET of that object (it may have been deleted elsewhere
 *   since), so the duplicate guard and `adopt` act on the live object;
 * - a name the listing lacks may have been made elsewhere since: the service then refuses the create
 *   (`isRefusal`: a 400, 409 or 422), and the parent is listed again (one listing shared by the creates refused meanwhile) to
 *   find the object that holds the name.
 *
 * One plugin process serves one `pulumi up`/`refresh`/`destroy`, so a listing lives for one apply. Keyed by
 * the client object: a new configuration (a new client) starts over.
 */
import { isNotFound, isRefusal, type WpEngineClient } from "../../sdk";

/** How a resource lists, names and re-reads the children of a parent. */
export interface ChildrenOptions<T> {
  /** Every child of the parent, all pages. */
  list(client: WpEngineClient, parent: string): Promise<T[]>;
  /** The child's name as the resource compares it (e.g. lower case). */
  keyOf(item: T): string;
  /** The child as it is now; `undefined` when it is gone (404). */
  get(client: WpEngineClient, parent: string, item: T): Promise<T | undefined>;
}

/** What {@link Children.find} and {@link Children.create} resolve to: the live child and who made it. */
export interface Found<T> {
  item: T;
  /** True when this call created it; false when it already existed. */
  created: boolean;
}

interface Listing<T> {
  /**
   * When the listing was started (`performance.now()`; +Infinity until it starts), to tell whether it
   * can see the cause of a refusal.
   */
  startedAt: number;
  items: Promise<Map<string, T>>;
}

export interface Children<T> {
  /**
   * The live child named `key`, or `undefined`; lists the parent first unless this process already has
   * a listing started after `after` (`performance.now()`; any listing when omitted): a create whose
   * response was lost looks with a listing started after the loss.
   */
  find(client: WpEngineClient, parent: string, key: string, after?: number): Promise<Found<T> | undefined>;
  /**
   * Runs the create (`make`) of the child named `key` and records it. When the service refuses it (`isRefusal`)
   * and a listing made after the refusal holds the name, that child is returned (`created: false`);
   * otherwise the refusal is thrown as it came.
   */
  create(client: WpEngineClient, parent: string, key: string, make: () => Promise<T>): Promise<Found<T>>;
  /** Records that this process deleted (or tried to delete) the child named `key`. */
  forget(client: WpEngineClient, parent: string, key: string): void;
}

/** The shared listings of one resource kind's parents. */
export function sharedChildren<T>(opts: ChildrenOptions<T>): Children<T> {
  const byClient = new WeakMap<WpEngineClient, Map<string, Listing<T>>>();

  /** A listing of `parent` started after `after` (any listing when omitted), shared by its callers. */
  const listing = (client: WpEngineClient, parent: string, after = Number.NEGATIVE_INFINITY) => {
    const parents = byClient.get(client) ?? new Map<string, Listing<T>>();
    byClient.set(client, parents);
    const current = parents.get(parent);
    if (current && current.startedAt > after) return current.items;
    // Started on the next turn of the event loop, so the creates refused meanwhile share it: until then
    // its start lies in the future of every caller.
    const next: Listing<T> = { startedAt: Number.POSITIVE_INFINITY, items: Promise.resolve(new Map()) };
    next.items = new Promise((started) => setImmediate(started))
      .then(() => {
        next.startedAt = performance.now();
        return opts.list(client, parent);
      })
      .then((all) => new Map(all.map((i) => [opts.keyOf(i), i])));
    parents.set(parent, next);
    // A failed listing is not kept: the next caller lists again.
    next.items.catch(() => {
      if (parents.get(parent) === next) parents.delete(parent);
    });
    return next.items;
  };

  /** Applies a change this process made to the listing it holds (after the listing, if in flight). */
  const record = (client: WpEngineClient, parent: string, key: string, item: T | undefined) => {
    const current = byClient.get(client)?.get(parent);
    // No listing yet: the first one will see the change.
    void current?.items.then(
      (items) => (item === undefined ? items.delete(key) : items.set(key, item)),
      () => undefined,
    );
  };

  return {
    async find(client, parent, key, after) {
      const listed = (await listing(client, parent, after)).get(key);
      if (listed === undefined) return undefined;
      const live = await opts.get(client, parent, listed);
      record(client, parent, key, live);
      return live === undefined ? undefined : { item: live, created: false };
    },

    async create(client, parent, key, make) {
      try {
        const item = await make();
        record(client, parent, key, item);
        return { item, created: true };
      } catch (err) {
        if (!isRefusal(err)) throw err;
        const refusedAt = performance.now();
        // A listing that fails says nothing about the name: the refusal is the answer.
        const items = await listing(client, parent, refusedAt).catch(() => undefined);
        const holder = items?.get(key);
        if (holder === undefined) throw err;
        return { item: holder, created: false };
      }
    },

    forget(client, parent, key) {
      record(client, parent, key, undefined);
    },
  };
}

/** `get` that answers `undefined` for a 404. */
export async function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
