/**
 * The LocalEngine driving a real program (the packed package, installed) against the simulator:
 * up → preview (no changes) → change an input → up (update) → refresh → destroy, checking the state
 * file after each step and that destroy leaves nothing on the simulator.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type EngineSummary, formatSummary, LocalEngine } from "../../tools/engine";
import { CASES } from "./cases";
import { distinctivePassword, resourceProgram, seed, simulatorConfig } from "./harness";
import { type PackedProgram, packedProgram, tempDir } from "./pack";

const DOMAIN = CASES.find((c) => c.kind === "Domain")!;
const NAME = "stack.engine-test.example.com";
const INSTALL = seed.installs.acmeprod.id;

// Each test runs whole engine operations (two node processes each): slower than a unit test.
describe("LocalEngine: a Domain stack against the simulator", { timeout: 120_000 }, () => {
  let packed: PackedProgram;
  let sim: RunningSimulator;
  let password: string;
  let stateDir: string;
  let stateFile: string;
  const programs: Record<"v1" | "v2", string> = { v1: "", v2: "" };

  const engine = (program: string) =>
    new LocalEngine({
      programDir: packed.dir,
      program,
      stateFile,
      project: "engine-test",
      stack: "domain-stack",
      config: simulatorConfig(sim, password),
      pluginTimeouts: { quickMs: 30_000, crudMs: 60_000 },
      programTimeoutMs: 120_000,
    });
  const show = (s: EngineSummary) => {
    console.log(formatSummary(s));
    return s;
  };
  const stateText = () => fs.readFileSync(stateFile, "utf8");
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${sim.apiUrl}${p}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`demo:${password}`).toString("base64")}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, text: await res.text() };
  };
  const domainsOnSimulator = async () => (await api("GET", `/installs/${INSTALL}/domains?limit=100`)).text;

  beforeAll(async () => {
    packed = await packedProgram();
    password = distinctivePassword();
    sim = await startSimulator({ port: 0, quiet: true, password });
    stateDir = tempDir("engine-domain-stack-");
    stateFile = path.join(stateDir, "domain-stack.json");
    const v1 = { installId: INSTALL, name: NAME };
    const v2 = { installId: INSTALL, name: NAME, secureAllUrls: true };
    programs.v1 = packed.writeProgram("stack-domain-v1", resourceProgram(DOMAIN, v1, { name: "www" }));
    programs.v2 = packed.writeProgram("stack-domain-v2", resourceProgram(DOMAIN, v2, { name: "www" }));
  }, 300_000);

  afterAll(async () => {
    await sim?.stop();
    if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it("up creates the domain on the simulator and records it", async () => {
    const s = show(await engine(programs.v1).up());
    expect(s.errors).toEqual([]);
    expect(s.steps.map((x) => [x.type, x.name, x.op])).toEqual([
      ["pulumi-nodejs:dynamic/wpengine:Domain", "www", "create"],
    ]);
    const [r] = engine(programs.v1).state().resources;
    expect(r?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r?.outputs["domainId"]).toBe(r?.id);
    expect(r?.outputs["ownershipStatus"]).toBe("TXT_VERIFICATION_PENDING");
    expect(r?.inputs).toMatchObject({ installId: INSTALL, name: NAME, primary: false, secureAllUrls: false });
    expect(typeof r?.outputs["__provider"]).toBe("string");
    expect(s.outputs["id"]).toEqual({ value: r?.id, secret: false, known: true });
    expect(formatSummary(s)).toContain(`+ wpengine:Domain www created (id ${r?.id})`);
    expect(await domainsOnSimulator()).toContain(NAME);
    expect(stateText()).not.toContain(password);
  });

  it("preview of the same program plans no change and writes nothing", async () => {
    const before = stateText();
    const s = show(await engine(programs.v1).preview());
    expect(s.errors).toEqual([]);
    expect(s.steps.map((x) => x.op)).toEqual(["same"]);
    expect(s.changes.same).toBe(1);
    expect(stateText()).toBe(before);
  });

  it("a changed input updates the domain in place", async () => {
    const id = engine(programs.v1).state().resources[0]?.id;
    const p = await engine(programs.v2).preview();
    expect(p.steps.map((x) => [x.op, x.changedKeys])).toEqual([["update", ["secureAllUrls"]]]);
    const s = show(await engine(programs.v2).up());
    expect(s.errors).toEqual([]);
    expect(s.steps.map((x) => [x.op, x.id, x.changedKeys])).toEqual([["update", id, ["secureAllUrls"]]]);
    const [r] = engine(programs.v2).state().resources;
    expect(r?.outputs["secureAllUrls"]).toBe(true);
    expect(r?.inputs["secureAllUrls"]).toBe(true);
    expect((await api("GET", `/installs/${INSTALL}/domains/${id}`)).text).toContain('"secure_all_urls":true');
    expect(stateText()).not.toContain(password);
  });

  it("refresh notices a change made outside the stack", async () => {
    const id = engine(programs.v2).state().resources[0]?.id;
    expect(
      (await api("PATCH", `/installs/${INSTALL}/domains/${id}`, { secure_all_urls: false })).status,
    ).toBe(200);
    const s = show(await engine(programs.v2).refresh());
    expect(s.errors).toEqual([]);
    expect(s.steps.map((x) => [x.op, x.changedKeys])).toEqual([["update", ["secureAllUrls"]]]);
    const [r] = engine(programs.v2).state().resources;
    expect(r?.outputs["secureAllUrls"]).toBe(false);
    expect(r?.inputs["secureAllUrls"]).toBe(false);
    // The next up puts it back.
    const up = await engine(programs.v2).up();
    expect(up.steps.map((x) => [x.op, x.changedKeys])).toEqual([["update", ["secureAllUrls"]]]);
    expect(stateText()).not.toContain(password);
  });

  it("destroy deletes the domain and leaves an empty stack", async () => {
    const id = engine(programs.v2).state().resources[0]?.id;
    const s = show(await engine(programs.v2).destroy());
    expect(s.errors).toEqual([]);
    expect(s.steps.map((x) => [x.op, x.id])).toEqual([["delete", id]]);
    expect(engine(programs.v2).state().resources).toEqual([]);
    expect(await domainsOnSimulator()).not.toContain(NAME);
    expect((await api("GET", `/installs/${INSTALL}/domains/${id}`)).status).toBe(404);
    expect(sim.requests().some((r) => r.method === "DELETE" && r.path.endsWith(`/domains/${id}`))).toBe(true);
    expect(stateText()).not.toContain(password);
  });
});
