/**
 * Every resource case in ONE stack through the LocalEngine: what the engine records for each (id,
 * outputs, secrets), a preview right after `up` that plans nothing (the second Diff with the same inputs
 * reports no change), and a destroy that empties the stack. Three operations, whatever the table's size.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type EngineSummary, formatSummary, LocalEngine } from "../../tools/engine";
import { CASES } from "./cases";
import { allStrings, distinctivePassword, missing, resourcesProgram, seed, simulatorConfig } from "./harness";
import { type PackedProgram, packedProgram, tempDir } from "./pack";

const nameOf = (kind: string) => `all-${kind}`;
const TOKEN = (kind: string) => `pulumi-nodejs:dynamic/wpengine:${kind}`;

// Each test runs whole engine operations (two node processes each): slower than a unit test.
describe("every resource case in one stack", { timeout: 120_000 }, () => {
  let packed: PackedProgram;
  let sim: RunningSimulator;
  let password: string;
  let stateDir: string;
  let stateFile: string;
  let program: string;
  const engine = () =>
    new LocalEngine({
      programDir: packed.dir,
      program,
      stateFile,
      project: "engine-test",
      stack: "all",
      config: simulatorConfig(sim, password),
      pluginTimeouts: { quickMs: 30_000, crudMs: 120_000 },
      programTimeoutMs: 300_000,
    });
  const ok = (s: EngineSummary) => {
    if (!s.ok) console.log(formatSummary(s));
    expect(s.errors).toEqual([]);
    return s;
  };
  /** Plain-text values of every secret arg: none may appear in the state file. */
  const secretValues = () =>
    CASES.flatMap((c) => (c.secretArgs ?? []).flatMap((k) => allStrings(c.args(seed)[k]))).filter(
      (v) => v.length > 8,
    );

  beforeAll(async () => {
    packed = await packedProgram();
    password = distinctivePassword();
    sim = await startSimulator({ port: 0, quiet: true, password });
    stateDir = tempDir("engine-stack-all-");
    stateFile = path.join(stateDir, "all.json");
    program = packed.writeProgram(
      "stack-all",
      resourcesProgram(CASES.map((c) => ({ c, name: nameOf(c.kind), args: c.args(seed) }))),
    );
  }, 300_000);

  afterAll(async () => {
    await sim?.stop();
    if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it("up creates every resource and records ids, outputs and secrets as declared", async () => {
    const s = ok(await engine().up());
    console.log(formatSummary(s));
    expect(s.steps.map((x) => [x.type, x.op]).sort()).toEqual(
      CASES.map((c) => [TOKEN(c.kind), "create"]).sort(),
    );
    const state = engine().state();
    for (const c of CASES) {
      const r = state.resources.find((x) => x.name === nameOf(c.kind));
      expect(r, c.kind).toBeDefined();
      expect(r!.id, c.kind).toBeTruthy();
      expect(missing(r!.outputs, c.required), c.kind).toEqual([]);
      expect(r!.outputs["__provider"], c.kind).toBe(r!.inputs["__provider"]);
      // Secret: the class's additionalSecretOutputs and every secret input, and nothing else.
      const expected = [...new Set([...(c.secretOutputs ?? []), ...(c.secretArgs ?? [])])].sort();
      expect([...r!.secretOutputs].sort(), c.kind).toEqual(expected);
      expect([...r!.secretInputs].sort(), c.kind).toEqual([...(c.secretArgs ?? [])].sort());
    }
    const text = fs.readFileSync(stateFile, "utf8");
    expect(text).not.toContain(password);
    for (const v of secretValues()) expect(text).not.toContain(v);
  });

  it("a preview right after up plans no change", async () => {
    const s = ok(await engine().preview());
    expect(s.steps.filter((x) => x.op !== "same").map((x) => `${x.name} ${x.op} ${x.changedKeys}`)).toEqual(
      [],
    );
  });

  it("destroy empties the stack", async () => {
    const s = ok(await engine().destroy());
    expect(s.steps.map((x) => x.op)).toEqual(CASES.map(() => "delete"));
    expect(engine().state().resources).toEqual([]);
    expect(fs.readFileSync(stateFile, "utf8")).not.toContain(password);
  });
});
