/**
 * The world behind proxies, so that no request pays for the size of the world:
 * - tables (objects of records by id) keep `Grouping`s, lookups by a field that never changes once a
 *   record is stored (a domain's install and name, ...), updated on every store and delete;
 * - with persistence on, every change is noted as the record (or top-level field) it touched, so a save
 *   appends those records to a journal instead of rewriting the world.
 * Route code reads and writes the world as plain objects and needs to know none of this.
 */

// biome-ignore lint/suspicious/noExplicitAny: the world's tables are walked generically.
type Any = any;

/** Ids of a table's records grouped by a key computed when each record is stored. */
export class Grouping<T> {
  private readonly groups = new Map<string, Set<string>>();
  private readonly keys = new Map<string, string>();

  constructor(
    readonly table: string,
    private readonly keyOf: (record: T) => string | null,
  ) {}

  /** Ids of the records of one group, in the order they were first stored. */
  ids(key: string): string[] {
    return [...(this.groups.get(key) ?? [])];
  }

  /** How many records a group holds. */
  size(key: string): number {
    return this.groups.get(key)?.size ?? 0;
  }

  stored(id: string, record: T): void {
    const key = this.keyOf(record);
    const before = this.keys.get(id);
    if (before === key) return;
    this.removed(id);
    if (key === null) return;
    this.keys.set(id, key);
    const group = this.groups.get(key) ?? new Set<string>();
    this.groups.set(key, group);
    group.add(id);
  }

  /** Forgets a record (also used when a record leaves the group for good, e.g. a finished transfer). */
  removed(id: string): void {
    const key = this.keys.get(id);
    if (key === undefined) return;
    this.keys.delete(id);
    const group = this.groups.get(key);
    group?.delete(id);
    if (group?.size === 0) this.groups.delete(key);
  }

  clear(): void {
    this.groups.clear();
    this.keys.clear();
  }
}

/** What changed since the last save: `table → ids` for tables of records, `field → true` otherwise. */
export type Changes = Map<string, Set<string> | true>;

/**
 * Wraps a world: its tables become proxies that keep `groupings` current; with `track`, records and
 * everything under them note their changes in the returned `changes`.
 */
export function trackWorld<W extends object>(
  raw: W,
  groupings: Grouping<Any>[],
  track: boolean,
): { world: W; changes: Changes } {
  const changes: Changes = new Map();
  const byTable = new Map<string, Grouping<Any>[]>();
  for (const g of groupings) byTable.set(g.table, [...(byTable.get(g.table) ?? []), g]);
  const isTable = (field: string, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && field !== "version";

  const noteRecord = (table: string, id: string) => {
    if (!track) return;
    const ids = changes.get(table);
    if (ids === true) return;
    if (ids) ids.add(id);
    else changes.set(table, new Set([id]));
  };
  const noteField = (field: string) => {
    if (track) changes.set(field, true);
  };

  // A proxy per object reached through the world, remembering which record (or field) it belongs to.
  const proxies = new WeakMap<object, Any>();
  // A proxy stored back (`table[id] = table[id] ?? []`) is stored as the object behind it.
  const targets = new WeakMap<object, Any>();
  const unwrap = (v: Any) => (v !== null && typeof v === "object" ? (targets.get(v) ?? v) : v);
  const deep = (target: Any, note: () => void): Any => {
    if (!track || target === null || typeof target !== "object") return target;
    let p = proxies.get(target);
    if (!p) {
      p = new Proxy(target, {
        get: (t, k) => deep(t[k], note),
        set: (t, k, v) => {
          t[k] = unwrap(v);
          note();
          return true;
        },
        deleteProperty: (t, k) => {
          delete t[k];
          note();
          return true;
        },
      });
      proxies.set(target, p);
      targets.set(p, target);
    }
    return p;
  };

  const tables = new Map<string, Any>();
  const wrapTable = (field: string, table: Any): Any => {
    const gs = byTable.get(field) ?? [];
    for (const g of gs) for (const [id, r] of Object.entries(table)) g.stored(id, r);
    return new Proxy(table, {
      get: (t, id) => (typeof id === "string" ? deep(t[id], () => noteRecord(field, id)) : t[id as Any]),
      set: (t, id, value) => {
        const record = unwrap(value);
        t[id as string] = record;
        for (const g of gs) g.stored(id as string, record);
        noteRecord(field, id as string);
        return true;
      },
      deleteProperty: (t, id) => {
        delete t[id as string];
        for (const g of gs) g.removed(id as string);
        noteRecord(field, id as string);
        return true;
      },
    });
  };
  for (const g of groupings) g.clear();
  for (const [field, v] of Object.entries(raw)) if (isTable(field, v)) tables.set(field, wrapTable(field, v));

  const world = new Proxy(raw as Any, {
    get: (t, field) => {
      if (typeof field !== "string") return t[field as Any];
      return tables.get(field) ?? deep(t[field], () => noteField(field));
    },
    set: (t, field, value) => {
      const v = unwrap(value);
      t[field as string] = v;
      if (isTable(field as string, v)) {
        tables.set(field as string, wrapTable(field as string, v));
        noteField(field as string);
      } else {
        tables.delete(field as string);
        noteField(field as string);
      }
      return true;
    },
  });
  return { world, changes };
}
