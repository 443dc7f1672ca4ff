/**
 * Each resource class through the REAL dynamic-provider plugin over gRPC, with the REAL serialized
 * `__provider` (captured by running a program under mocks in plain node, from the packed and installed
 * package), against the simulator: Configure, Check, Diff, Create, Read, Update, Delete, and what the
 * engine would record from each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIMANT } from "../../provider/core/identity";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type PackedProgram, packedProgram } from "../../tools/cli/pack";
import {
  PluginCallError,
  PluginClient,
  type PropertyMap,
  type RegisterMessage,
  unwrapSecrets,
} from "../../tools/plugin-harness";
import { providerOf010 } from "../fixtures/provider-0.1.0";
import { CASES } from "./cases";
import {
  allStrings,
  capture,
  distinctivePassword,
  missing,
  type ProgramItem,
  resourcesProgram,
  seed,
  simulatorConfig,
} from "./harness";

/**
 * `__provider` is stored twice per resource (inputs and outputs): keep it small. Installed, it is a
 * `require` of the stable entry and the kind in Pulumi's serialization frame (~350 bytes, deterministic).
 */
const PROVIDER_LIMIT_BYTES = 512;

/** Shared by every case: one simulator, one plugin, and one program run per variant for the whole table. */
let packed: PackedProgram;
let sim: RunningSimulator;
let plugin: PluginClient;
let password: string;
type Variant = "create" | "update" | "invalid" | "failing";
const registered = new Map<string, RegisterMessage>();
const nameOf = (kind: string, variant: Variant) => `${kind}-${variant}`;

beforeAll(async () => {
  packed = await packedProgram();
  password = distinctivePassword();
  sim = await startSimulator({ port: 0, quiet: true, password });
  const variants: Record<Variant, ProgramItem[]> = {
    create: CASES.map((c) => ({ c, name: nameOf(c.kind, "create"), args: c.args(seed) })),
    update: CASES.map((c) => ({ c, name: nameOf(c.kind, "update"), args: c.update(seed) })),
    invalid: CASES.map((c) => ({ c, name: nameOf(c.kind, "invalid"), args: c.invalid.args(seed) })),
    failing: CASES.flatMap((c) =>
      c.failAfterCreate ? [{ c, name: nameOf(c.kind, "failing"), args: c.failAfterCreate.args(seed) }] : [],
    ),
  };
  const t0 = Date.now();
  const programs = Object.entries(variants).map(([v, items]) =>
    packed.writeProgram(`grpc-${v}`, resourcesProgram(items)),
  );
  const [started, ...captures] = await Promise.all([
    PluginClient.start({ programDir: packed.dir, project: "engine-test", stack: "test" }),
    ...programs.map((p) => capture(packed.dir, p)),
  ]);
  plugin = started;
  console.log(
    `[resources] ${CASES.length} case(s): plugin start ${plugin.startupMs} ms; ${programs.length} programs captured in ${Date.now() - t0} ms`,
  );
  for (const cap of captures) {
    expect(cap.errors).toEqual([]);
    for (const r of cap.registrations) registered.set(r.name, r);
  }
  await plugin.configure(simulatorConfig(sim, password));
}, 300_000);

afterAll(async () => {
  await plugin?.close();
  await sim?.stop();
});

describe.each(CASES)("$kind through the real plugin", (c) => {
  let created: RegisterMessage;
  let updated: RegisterMessage;
  let invalid: RegisterMessage;
  let failing: RegisterMessage | undefined;
  /** Everything the engine would write into the state file. */
  const recorded: PropertyMap[] = [];
  const urn = `urn:pulumi:test::engine-test::pulumi-nodejs:dynamic/wpengine:${c.kind}::res`;
  // Each variant was registered under a name of its own; here they are the one resource of `urn`, which
  // claims its object by that name (provider/core/identity.ts).
  const inputsOf = (m: RegisterMessage) =>
    ({ ...(unwrapSecrets(m.inputs).value as PropertyMap), [CLAIMANT]: "res" }) as PropertyMap;
  let checked: PropertyMap;
  let id: string;
  let outputs: PropertyMap;

  beforeAll(async () => {
    created = registered.get(nameOf(c.kind, "create"))!;
    updated = registered.get(nameOf(c.kind, "update"))!;
    invalid = registered.get(nameOf(c.kind, "invalid"))!;
    failing = registered.get(nameOf(c.kind, "failing"));
    expect(created && updated && invalid).toBeTruthy();
    const client = new WpEngineClient({
      username: "demo",
      password,
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    await c.prepare?.(sim, client, seed);
  });

  it("registers the real serialized provider, and it is small", () => {
    const provider = created.inputs["__provider"];
    expect(typeof provider).toBe("string");
    const text = provider as string;
    const bytes = Buffer.byteLength(text);
    console.log(`[${c.kind}] serialized __provider: ${bytes} bytes (stored twice per resource)`);
    expect(bytes).toBeLessThan(PROVIDER_LIMIT_BYTES);
    expect(text).toContain('require("pulumi-wpengine/dist/provider/plugin.js")');
    expect(text).toContain(`.kind = "${c.kind}"`);
    expect(text).not.toContain("__vite_ssr");
    expect(text).not.toContain(password);
    // One provider object per kind: every program serialized the same text.
    expect(updated.inputs["__provider"]).toBe(text);
  });

  it("check accepts the inputs and fills the defaults", async () => {
    const res = await plugin.check(urn, {}, inputsOf(created));
    expect(res.failures).toEqual([]);
    expect(res.inputs["__provider"]).toBe(created.inputs["__provider"]);
    checked = res.inputs;
    recorded.push(checked);
  });

  it("check refuses invalid inputs, naming the property and the reason", async () => {
    const res = await plugin.check(urn, {}, inputsOf(invalid));
    expect(res.failures.length).toBeGreaterThan(0);
    // Through the plugin no property is named (the engine would print its value, a Go rendering of a whole
    // list, beside the reason): the field's path leads the reason, once.
    const failure = res.failures.find((f) => f.property === "" && f.reason.startsWith(c.invalid.property));
    expect(failure, JSON.stringify(res.failures)).toBeDefined();
    expect(failure!.reason).toMatch(c.invalid.reason);
  });

  it("create returns a real id and complete outputs", async () => {
    const res = await plugin.create(urn, checked);
    id = res.id;
    outputs = res.properties;
    recorded.push(outputs);
    expect(id).not.toBe("");
    expect(missing(outputs, c.required)).toEqual([]);
    expect(outputs["__provider"]).toBe(checked["__provider"]);
    // Secret outputs come back in plain text from the plugin: the engine must mark them (additionalSecretOutputs).
    for (const key of c.secretOutputs ?? []) expect(outputs, key).toHaveProperty(key);
    // No value went through String(undefined) on the way (a null where one is expected shows up above).
    const { __provider: _p, ...values } = outputs;
    expect(JSON.stringify(values)).not.toContain("undefined");
  });

  it("diff with the same inputs reports no changes", async () => {
    const diff = await plugin.diff(urn, id, outputs, checked, checked);
    expect(diff).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });
  });

  it("read returns the live object and the inputs that make it", async () => {
    const res = await plugin.read(urn, id, outputs, checked);
    expect(res.id).toBe(id);
    expect(missing(res.properties, c.required)).toEqual([]);
    expect(res.properties["__provider"]).toBe(outputs["__provider"]);
    expect(res.inputs).toBeDefined();
    recorded.push(res.properties, res.inputs!);
    // What refresh records still diffs clean against the program.
    const diff = await plugin.diff(urn, id, res.properties, checked, res.inputs);
    expect(diff.changes).toBe("none");
  });

  // A kind with no input updatable in place (every change replaces it) checks the replacement plan instead.
  const replaceOnUpdate = c.replaceOnUpdate;
  if (replaceOnUpdate) {
    it("a change of its inputs replaces the object, in the order the diff asks for", async () => {
      const news = await plugin.check(urn, checked, inputsOf(updated));
      expect(news.failures).toEqual([]);
      recorded.push(news.inputs);
      const diff = await plugin.diff(urn, id, outputs, news.inputs, checked);
      expect(diff.changes).toBe("some");
      expect([...diff.replaces].sort()).toEqual([...replaceOnUpdate].sort());
      // The replacement as the engine runs it: create then delete, or delete first when asked.
      let made: { id: string; properties: PropertyMap };
      if (diff.deleteBeforeReplace) {
        await plugin.delete(urn, id, outputs, checked);
        made = await plugin.create(urn, news.inputs);
      } else {
        made = await plugin.create(urn, news.inputs);
        await plugin.delete(urn, id, outputs, checked);
      }
      recorded.push(made.properties);
      expect(missing(made.properties, c.required)).toEqual([]);
      const again = await plugin.diff(urn, made.id, made.properties, news.inputs, news.inputs);
      expect(again.changes).toBe("none");
      id = made.id;
      outputs = made.properties;
      checked = news.inputs;
    });
  } else {
    it("update changes the object in place and returns the full outputs", async () => {
      const news = await plugin.check(urn, checked, inputsOf(updated));
      expect(news.failures).toEqual([]);
      const diff = await plugin.diff(urn, id, outputs, news.inputs, checked);
      expect(diff.changes).toBe("some");
      expect(diff.replaces).toEqual([]);
      const outs = await plugin.update(urn, id, outputs, news.inputs, checked);
      recorded.push(news.inputs, outs);
      expect(missing(outs, c.required)).toEqual([]);
      for (const key of c.updated) expect(outs[key], key).toEqual(news.inputs[key]);
      const again = await plugin.diff(urn, id, outs, news.inputs, news.inputs);
      expect(again.changes).toBe("none");
      outputs = outs;
    });
  }

  // Only cases that can be made to fail half-way (an injected fault after the create) have this test.
  const failAfterCreate = c.failAfterCreate;
  if (failAfterCreate) {
    it("a create that fails after the object exists reports its id and properties", async () => {
      expect(failing, "the failing variant was registered").toBeDefined();
      const news = await plugin.check(urn, {}, inputsOf(failing!));
      expect(news.failures).toEqual([]);
      sim.setFaults(failAfterCreate.faults);
      let error: unknown;
      try {
        await plugin.create(urn, news.inputs);
      } catch (e) {
        error = e;
      } finally {
        sim.setFaults([]);
      }
      expect(error).toBeInstanceOf(PluginCallError);
      const init = (error as PluginCallError).initFailed;
      expect(init, (error as Error).message).toBeDefined();
      expect(init!.id).not.toBe("");
      expect(init!.properties["__provider"]).toBe(news.inputs["__provider"]);
      expect((error as Error).message).toContain(`wpengine:${c.kind} create failed`);
      recorded.push(init!.properties);
      // What was recorded is enough to delete it.
      await plugin.delete(urn, init!.id, init!.properties, news.inputs);
    });
  }

  it("state written by 0.1.0 (its closure-shaped provider) still refreshes with this version", async () => {
    const old = { ...outputs, __provider: providerOf010(c.kind) };
    const res = await plugin.read(urn, id, old, { ...checked, __provider: old.__provider });
    const now = await plugin.read(urn, id, outputs, checked);
    expect(res.properties["__provider"]).toBe(old.__provider);
    // The same answer as through this version's provider.
    const blank = (r: typeof res) => ({
      id: r.id,
      properties: { ...r.properties, __provider: null },
      inputs: { ...r.inputs, __provider: null },
    });
    expect(blank(res)).toEqual(blank(now));
  });

  it("delete removes the object, and read then reports it gone", async () => {
    await plugin.delete(urn, id, outputs, checked);
    const res = await plugin.read(urn, id, outputs, checked);
    expect(res.id).toBe(c.goneAfterDelete === false ? id : "");
    // Delete of something already gone succeeds (a 404 is success).
    await plugin.delete(urn, id, outputs, checked);
  });

  it("the stack password appears in nothing the engine records", () => {
    expect(recorded.length).toBeGreaterThan(4);
    expect(allStrings(recorded).filter((s) => s.includes(password))).toEqual([]);
    expect(plugin.stdoutLines.join("\n")).not.toContain(password);
    // Nor in what the provider tells the user (its stderr lines, shown by the CLI).
    expect(plugin.stderrLines.join("\n")).not.toContain(password);
  });
});
