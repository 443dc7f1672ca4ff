/**
 * The local engine against a self-contained dynamic provider (no WP Engine code): every engine rule —
 * create, same, update, replace, delete of orphans, unknowns in previews, secrets, check failures,
 * created-but-failed, refresh, destroy — through the real plugin and a program run by plain node.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSummary, LocalEngine, type LocalEngineOptions, UNKNOWN } from "../../tools/engine";
import { ITEM_PROGRAM, linkedProgramDir, readStore } from "./fixture";

const TOKEN = "tok-9f2c61b7e0d4";

// Each test runs whole engine operations (two node processes each): slower than a unit test.
describe("LocalEngine (fixture provider)", { timeout: 120_000 }, () => {
  let dir: string;
  let store: string;
  let stateFile: string;
  const engine = (config: Record<string, string> = {}, extra: Partial<LocalEngineOptions> = {}) =>
    new LocalEngine({
      programDir: dir,
      stateFile,
      config: { "fixture:token": TOKEN, ...config },
      env: { FIXTURE_STORE: store },
      stack: "test",
      pluginTimeouts: { quickMs: 20_000, crudMs: 20_000 },
      programTimeoutMs: 60_000,
      ...extra,
    });
  const stateText = () => fs.readFileSync(stateFile, "utf8");
  const byName = (name: string) =>
    engine()
      .state()
      .resources.find((r) => r.name === name);

  beforeAll(() => {
    dir = linkedProgramDir(ITEM_PROGRAM);
    store = path.join(dir, "store.json");
    stateFile = path.join(dir, "state", "test.json");
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("up creates every resource with real ids, and dependents get real outputs", async () => {
    const s = await engine().up();
    console.log(formatSummary(s));
    expect(s.errors).toEqual([]);
    expect(s.ok).toBe(true);
    expect(s.steps.map((x) => [x.name, x.op])).toEqual([
      ["first", "create"],
      ["second", "create"],
    ]);
    const first = byName("first")!;
    const second = byName("second")!;
    expect(first.id).toBe("item-1");
    expect(first.type).toBe("pulumi-nodejs:dynamic/fixture:Item");
    expect(first.urn).toBe("urn:pulumi:test::fixture::pulumi-nodejs:dynamic/fixture:Item::first");
    expect(typeof first.inputs["__provider"]).toBe("string");
    expect(first.outputs["__provider"]).toBe(first.inputs["__provider"]);
    // Configure reached the provider (it saw the token) without the token reaching any state.
    expect(first.outputs["tokenSeen"]).toBe(true);
    expect(second.inputs["ref"]).toBe("c-one");
    expect(second.dependencies).toContain(first.urn);
    expect(s.outputs["firstId"]).toEqual({ value: "item-1", secret: false, known: true });
    expect(s.outputs["secondRef"]).toMatchObject({ value: "c-one", secret: true });
    expect(s.outputs["firstNote"]).toMatchObject({ value: "s3cr3t-note", secret: true });
    expect(s.timings.programMs).toBeGreaterThan(0);
    expect(s.timings.pluginStartMs).toBeGreaterThan(0);
  });

  it("keeps secrets and config out of the state file in plain text", async () => {
    const text = stateText();
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("s3cr3t-note");
    const first = byName("first")!;
    expect(first.secretInputs).toEqual(["note"]);
    expect(first.secretOutputs.sort()).toEqual(["computed", "note"]);
    // Decrypted on load.
    expect(first.outputs["note"]).toBe("s3cr3t-note");
    expect((await engine().outputs())["firstNote"]).toEqual({ value: "s3cr3t-note", secret: true });
  });

  it("preview of an unchanged program plans nothing and writes nothing", async () => {
    const before = stateText();
    const s = await engine().preview();
    expect(s.errors).toEqual([]);
    expect(s.steps.map((x) => x.op)).toEqual(["same", "same"]);
    expect(stateText()).toBe(before);
  });

  it("preview of a change reports the keys, and unknowns reach dependents", async () => {
    const s = await engine({ "fixture:label": "uno", "fixture:third": "true" }).preview();
    expect(s.errors).toEqual([]);
    const ops = Object.fromEntries(s.steps.map((x) => [x.name, x]));
    expect(ops["first"]).toMatchObject({ op: "update", changedKeys: ["label"] });
    // second.ref = first.computed: known (old outputs) during an update preview... but the engine
    // overlays the new inputs only, so computed stays the old value and second is unchanged.
    expect(ops["second"]?.op).toBe("same");
    // third.label = second.computed: known. A create of an unknown-dependent is covered below.
    expect(ops["third"]).toMatchObject({ op: "create" });
    expect(readStore(store).seq).toBe(2);
  });

  it("update changes in place and records new outputs", async () => {
    const s = await engine({ "fixture:label": "uno" }).up();
    expect(s.errors).toEqual([]);
    const ops = Object.fromEntries(s.steps.map((x) => [x.name, x]));
    expect(ops["first"]).toMatchObject({ op: "update", changedKeys: ["label"], id: "item-1" });
    expect(ops["second"]).toMatchObject({ op: "update", changedKeys: ["ref"] });
    expect(byName("first")!.outputs["computed"]).toBe("c-uno");
    expect(byName("second")!.inputs["ref"]).toBe("c-uno");
    expect(readStore(store).items["item-2"]?.["ref"]).toBe("c-uno");
  });

  it("replace creates the new object before deleting the old one, and unknowns flow in preview", async () => {
    const p = await engine({ "fixture:label": "uno", "fixture:kind": "fancy" }).preview();
    expect(p.errors).toEqual([]);
    const planned = Object.fromEntries(p.steps.map((x) => [x.name, x]));
    expect(planned["first"]).toMatchObject({ op: "replace", replaceKeys: ["kind"] });
    expect(p.outputs["firstId"]?.known).toBe(false);
    const s = await engine({ "fixture:label": "uno", "fixture:kind": "fancy" }).up();
    expect(s.errors).toEqual([]);
    const first = s.steps.find((x) => x.name === "first")!;
    expect(first).toMatchObject({ op: "replace", oldId: "item-1", id: "item-3" });
    const items = readStore(store).items;
    expect(Object.keys(items).sort()).toEqual(["item-2", "item-3"]);
    expect(engine().state().pendingDeletes).toEqual([]);
  });

  it("unknown inputs reach Check and Diff as the sentinel during preview", async () => {
    // first is replaced (kind changes) so its computed output is unknown; second.ref depends on it.
    const s = await engine({ "fixture:label": "uno", "fixture:kind": "plain" }).preview();
    expect(s.errors).toEqual([]);
    const second = s.steps.find((x) => x.name === "second")!;
    expect(second.op).toBe("update");
    expect(second.changedKeys).toEqual(["ref"]);
    expect(s.outputs["secondRef"]?.known).toBe(false);
    // The provider's check saw the sentinel in exactly that input.
    expect(UNKNOWN).toMatch(/^04da6b54/);
    expect(fs.readFileSync(`${store}.unknowns`, "utf8")).toContain("two:ref");
  });

  it("check failures fail the step with the property and the reason", async () => {
    const s = await engine({ "fixture:label": "" }).up();
    expect(s.ok).toBe(false);
    expect(s.errors.join("\n")).toContain(
      'fixture:Item first: invalid inputs: property "label": label must be',
    );
    // Nothing is deleted after a failed program, nothing changed on the service.
    expect(Object.keys(readStore(store).items).sort()).toEqual(["item-2", "item-3"]);
  });

  it("a created-but-failed resource is recorded with its id, and the next up updates it", async () => {
    const s = await engine({ "fixture:label": "uno", "fixture:kind": "fancy", "fixture:third": "true" }).up();
    expect(s.ok).toBe(true);
    const third = byName("third")!;
    expect(third.id).toBeTruthy();
    // Make a fresh stack whose first create fails after creating.
    const failing = path.join(dir, "state", "failing.json");
    const e = engine({ "fixture:failAfterCreate": "true" }, { stateFile: failing });
    const f = await e.up();
    expect(f.ok).toBe(false);
    const rec = e.state().resources.find((r) => r.name === "first")!;
    expect(rec.id).toMatch(/^item-/);
    expect(rec.initErrors?.[0]).toContain("created, then the follow-up step failed");
    expect(rec.outputs["partial"]).toBe(true);
    expect(f.errors[0]).toContain(`created (id ${rec.id}) but failed`);
    const again = await engine({}, { stateFile: failing }).up();
    expect(again.errors).toEqual([]);
    expect(again.steps.find((x) => x.name === "first")).toMatchObject({ op: "update", id: rec.id });
    expect(new LocalEngine({ programDir: dir, stateFile: failing }).state().resources[0]?.initErrors).toBe(
      undefined,
    );
    const d = await engine({}, { stateFile: failing }).destroy();
    expect(d.errors).toEqual([]);
  });

  it("refresh drops what is gone and records what changed on the service", async () => {
    const db = readStore(store);
    const third = byName("third")!;
    delete db.items[third.id!];
    const secondId = byName("second")!.id!;
    db.items[secondId]!["label"] = "changed-outside";
    fs.writeFileSync(store, JSON.stringify(db));
    const s = await engine().refresh();
    expect(s.errors).toEqual([]);
    const steps = Object.fromEntries(s.steps.map((x) => [x.name, x]));
    expect(steps["third"]?.op).toBe("delete");
    expect(steps["second"]).toMatchObject({ op: "update", changedKeys: ["label"] });
    expect(steps["first"]?.op).toBe("same");
    expect(byName("third")).toBeUndefined();
    expect(byName("second")!.inputs["label"]).toBe("changed-outside");
  });

  it("up deletes resources no longer in the program", async () => {
    const s = await engine({ "fixture:label": "uno", "fixture:kind": "fancy" }).up();
    expect(s.errors).toEqual([]);
    // second is updated back to its program value; third is not in state (refreshed away) anymore.
    expect(s.steps.find((x) => x.name === "second")).toMatchObject({ op: "update", changedKeys: ["label"] });
    const withMore = await engine({
      "fixture:label": "uno",
      "fixture:kind": "fancy",
      "fixture:third": "true",
      "fixture:group": "true",
    }).up();
    expect(withMore.errors).toEqual([]);
    expect(withMore.steps.filter((x) => x.op === "create").map((x) => [x.name, x.custom])).toEqual(
      expect.arrayContaining([
        ["third", true],
        ["grp", false],
        ["child", true],
      ]),
    );
    // A child's URN carries its parent's type; a component is recorded but never sent to the plugin.
    const child = byName("child")!;
    expect(child.urn).toBe(
      "urn:pulumi:test::fixture::fixture:Group$pulumi-nodejs:dynamic/fixture:Item::child",
    );
    expect(child.parent).toBe("urn:pulumi:test::fixture::fixture:Group::grp");
    expect(byName("grp")).toMatchObject({ custom: false, outputs: {} });
    expect(byName("grp")!.id).toBeUndefined();
    const without = await engine({ "fixture:label": "uno", "fixture:kind": "fancy" }).up();
    expect(without.errors).toEqual([]);
    const deleted = without.steps.filter((x) => x.op === "delete").map((x) => x.name);
    expect([...deleted].sort()).toEqual(["child", "grp", "third"]);
    expect(deleted.indexOf("child")).toBeLessThan(deleted.indexOf("grp"));
    expect(byName("child")).toBeUndefined();
    expect(Object.values(readStore(store).items).map((i) => i["label"])).not.toContain("in-group");
    expect(byName("third")).toBeUndefined();
  });

  it("destroy keeps a resource whose delete failed, and what it depends on", async () => {
    const firstId = byName("first")!.id!;
    const secondId = byName("second")!.id!;
    const s = await engine({}, { env: { FIXTURE_STORE: store, FIXTURE_FAIL_DELETE: secondId } }).destroy();
    expect(s.ok).toBe(false);
    expect(s.errors.join("\n")).toContain(`delete refused for ${secondId}`);
    expect(
      engine()
        .state()
        .resources.map((r) => r.id),
    ).toEqual([firstId, secondId]);
    const ok = await engine().destroy();
    expect(ok.errors).toEqual([]);
    expect(ok.steps.map((x) => x.name)).toEqual(["second", "first"]);
    expect(engine().state().resources).toEqual([]);
    expect(readStore(store).items).toEqual({});
    expect(engine().state().outputs).toEqual({});
  });
});
