/**
 * The shared listing of a parent's children (provider/core/children.ts) over a fake service: how many
 * listings its callers cause, what a refused create finds, and when a read lists again.
 */
import { describe, expect, it } from "vitest";
import { sharedChildren } from "../../provider/core/children";
import type { WpEngineClient } from "../../sdk";

interface Item {
  id: string;
  name: string;
}

/** A fake service: one parent's children, with counters, and listings that answer when released. */
function fakeService(initial: string[]) {
  const live = new Map(initial.map((name, i) => [name, { id: `id-${i}`, name }]));
  const state = { lists: 0, gets: 0, failNextList: false };
  const children = sharedChildren<Item>({
    list: async () => {
      state.lists++;
      await new Promise((r) => setTimeout(r, 1));
      if (state.failNextList) {
        state.failNextList = false;
        throw new Error("listing failed");
      }
      return [...live.values()];
    },
    keyOf: (i) => i.name,
    idOf: (i) => i.id,
    get: async (_c, _p, id) => {
      state.gets++;
      return [...live.values()].find((i) => i.id === id);
    },
  });
  const refused = Object.assign(new Error("already exists"), { status: 400 });
  const make = (name: string) => async () => {
    if (live.has(name)) throw refused;
    const item = { id: `new-${name}`, name };
    live.set(name, item);
    return item;
  };
  return { live, state, children, make, refused, client: {} as WpEngineClient };
}

describe("shared children listing", () => {
  it("concurrent lookups under one parent share one listing; what this process creates is recorded", async () => {
    const s = fakeService(["a"]);
    const names = Array.from({ length: 20 }, (_, i) => `n${i}`);
    const made = await Promise.all(
      names.map(
        async (n) =>
          (await s.children.find(s.client, "p", n)) ?? s.children.create(s.client, "p", n, s.make(n)),
      ),
    );
    expect(made.every((m) => m.created)).toBe(true);
    expect(s.state.lists).toBe(1);
    // Found from the recorded create, confirmed with one GET, no new listing.
    expect(await s.children.find(s.client, "p", "n3")).toEqual({
      item: { id: "new-n3", name: "n3" },
      created: false,
    });
    expect(s.state).toMatchObject({ lists: 1, gets: 1 });
    // Another parent, or another client (a new configuration), lists on its own.
    await s.children.find(s.client, "q", "x");
    await s.children.find({} as WpEngineClient, "p", "x");
    expect(s.state.lists).toBe(3);
  });

  it("a listed child deleted elsewhere is not found (the GET says it is gone), and a forgotten one is not looked up", async () => {
    const s = fakeService(["a", "b"]);
    await s.children.find(s.client, "p", "x");
    s.live.delete("a");
    expect(await s.children.find(s.client, "p", "a")).toBeUndefined();
    s.children.forget(s.client, "p", "b");
    expect(await s.children.find(s.client, "p", "b")).toBeUndefined();
    expect(s.state).toMatchObject({ lists: 1, gets: 1 });
  });

  it("creates refused meanwhile share one new listing, which finds what holds the name", async () => {
    const s = fakeService([]);
    await s.children.find(s.client, "p", "x");
    s.live.set("dup", { id: "elsewhere", name: "dup" });
    const results = await Promise.all(
      [1, 2, 3].map(() => s.children.create(s.client, "p", "dup", s.make("dup"))),
    );
    expect(results).toEqual(
      [1, 2, 3].map(() => ({ item: { id: "elsewhere", name: "dup" }, created: false })),
    );
    expect(s.state.lists).toBe(2);
  });

  it("a refusal whose name no listing holds, or any other error, is thrown as it came", async () => {
    const s = fakeService([]);
    await expect(s.children.create(s.client, "p", "n", () => Promise.reject(s.refused))).rejects.toBe(
      s.refused,
    );
    expect(s.state.lists).toBe(1);
    const boom = Object.assign(new Error("boom"), { status: 500 });
    await expect(s.children.create(s.client, "p", "n", () => Promise.reject(boom))).rejects.toBe(boom);
    expect(s.state.lists).toBe(1);
  });

  it("reads by id share the looks' listing until this process writes under the parent", async () => {
    const s = fakeService(["a"]);
    await s.children.find(s.client, "p", "x");
    expect(await s.children.read(s.client, "p", "id-0")).toEqual({ id: "id-0", name: "a" });
    expect(s.state).toMatchObject({ lists: 1, gets: 0 });
    // An id the listing lacks is confirmed by a GET: gone, or made elsewhere since.
    expect(await s.children.read(s.client, "p", "id-9")).toBeUndefined();
    s.live.set("z", { id: "id-z", name: "z" });
    expect(await s.children.read(s.client, "p", "id-z")).toEqual({ id: "id-z", name: "z" });
    expect(s.state).toMatchObject({ lists: 1, gets: 2 });
    s.live.delete("z");
    // A create, another write, a delete: each makes the next read list again, once.
    await s.children.create(s.client, "p", "n", s.make("n"));
    expect(await s.children.read(s.client, "p", "new-n")).toEqual({ id: "new-n", name: "n" });
    expect(await s.children.read(s.client, "p", "id-0")).toEqual({ id: "id-0", name: "a" });
    expect(s.state.lists).toBe(2);
    await s.children.writing(s.client, "p", Promise.resolve());
    await s.children.read(s.client, "p", "id-0");
    expect(s.state.lists).toBe(3);
    s.live.delete("n");
    s.children.forget(s.client, "p", "n");
    expect(await s.children.read(s.client, "p", "new-n")).toBeUndefined();
    expect(s.state).toMatchObject({ lists: 4, gets: 3 });
    // The looks use the reads' listing too.
    expect(await s.children.find(s.client, "p", "a")).toEqual({
      item: { id: "id-0", name: "a" },
      created: false,
    });
    expect(s.state).toMatchObject({ lists: 4, gets: 4 });
  });

  it("a failed listing fails its callers and is not kept: the next caller lists again", async () => {
    const s = fakeService(["a"]);
    s.state.failNextList = true;
    await expect(s.children.find(s.client, "p", "a")).rejects.toThrow("listing failed");
    expect(await s.children.find(s.client, "p", "a")).toEqual({
      item: { id: "id-0", name: "a" },
      created: false,
    });
    expect(s.state.lists).toBe(2);
  });
});
