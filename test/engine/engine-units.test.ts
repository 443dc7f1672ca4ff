/** The engine's pure parts: ordering, key diffs, secrets, state round trip, printing, the CLI's arguments. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  changedKeys,
  deletionOrder,
  type EngineSummary,
  formatStep,
  formatSummary,
  type ResourceState,
  type StepSummary,
  unwrapSecrets,
} from "../../tools/engine";
import { parseArgs } from "../../tools/engine/cli";
import { loadState, SECRET_SIG, SECRET_SIG_KEY, SecretBox, saveState } from "../../tools/engine/state";

const res = (name: string, deps: string[] = [], parent?: string): ResourceState => ({
  urn: `urn:${name}`,
  type: "pulumi-nodejs:dynamic/wpengine:Domain",
  name,
  custom: true,
  id: `${name}-id`,
  inputs: {},
  outputs: {},
  dependencies: deps.map((d) => `urn:${d}`),
  ...(parent ? { parent: `urn:${parent}` } : {}),
  secretInputs: [],
  secretOutputs: [],
  created: "",
  modified: "",
});

describe("deletionOrder", () => {
  it("deletes dependents first, then in reverse creation order", () => {
    // b was created first but depends on c (a later update made it so).
    const order = deletionOrder([res("a"), res("b", ["c"]), res("c"), res("d", [], "a")]);
    expect(order.map((r) => r.name)).toEqual(["d", "b", "c", "a"]);
  });
});

describe("changedKeys", () => {
  it("compares top-level values deeply, null and absent alike, without __provider", () => {
    expect(
      changedKeys(
        { a: 1, b: { x: [1, 2] }, c: null, __provider: "old" },
        { a: 1, b: { x: [1, 3] }, d: 2, __provider: "new" },
      ),
    ).toEqual(["b", "d"]);
    expect(changedKeys({ __provider: "old" }, { __provider: "new" }, true)).toEqual(["__provider"]);
  });
});

describe("unwrapSecrets", () => {
  it("removes Pulumi's secret wrappers anywhere and says whether there was one", () => {
    const wire = { [SECRET_SIG_KEY]: SECRET_SIG, value: "pw" };
    expect(unwrapSecrets({ a: 1, b: [wire] })).toEqual({ value: { a: 1, b: ["pw"] }, secret: true });
    expect(unwrapSecrets({ a: 1 })).toEqual({ value: { a: 1 }, secret: false });
  });
});

describe("state file", () => {
  it("encrypts secret keys at rest and decrypts them on load", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-state-"));
    const file = path.join(dir, "s.json");
    for (const passphrase of [undefined, "correct horse"]) {
      const box = new SecretBox(file, passphrase);
      const state = loadState(file, box, "p", "s");
      state.resources = [{ ...res("a"), outputs: { key: "PRIVATE-KEY-TEXT", n: 1 }, secretOutputs: ["key"] }];
      state.outputs = { k: { value: "PRIVATE-KEY-TEXT", secret: true }, plain: { value: 2, secret: false } };
      saveState(file, box, state);
      const text = fs.readFileSync(file, "utf8");
      expect(text).not.toContain("PRIVATE-KEY-TEXT");
      expect(text).toContain(SECRET_SIG);
      const again = loadState(file, new SecretBox(file, passphrase), "p", "s");
      expect(again.resources[0]?.outputs).toEqual({ key: "PRIVATE-KEY-TEXT", n: 1 });
      expect(again.outputs).toEqual(state.outputs);
      fs.rmSync(file);
    }
    // Without a passphrase the key lives beside the state, readable by its owner only.
    expect(fs.statSync(`${file}.key`).mode & 0o077).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("formatSummary", () => {
  const step = (s: Partial<StepSummary>): StepSummary => ({
    urn: "u",
    type: "pulumi-nodejs:dynamic/wpengine:Domain",
    name: "www",
    op: "create",
    custom: true,
    changedKeys: [],
    durationMs: 0,
    ...s,
  });

  it("prints one line per step like pulumi up", () => {
    expect(formatStep(step({ id: "d-1" }))).toBe("+ wpengine:Domain www created (id d-1)");
    expect(formatStep(step({ op: "update", id: "d-1", changedKeys: ["primary"], durationMs: 1500 }))).toBe(
      "~ wpengine:Domain www updated (id d-1): primary [1.5s]",
    );
    expect(formatStep(step({ op: "replace", oldId: "d-1", id: "d-2", replaceKeys: ["name"] }))).toBe(
      "+- wpengine:Domain www replaced (id d-1 -> d-2): name",
    );
    expect(formatStep(step({ op: "create" }), "preview")).toBe("+ wpengine:Domain www to create");
    expect(formatStep(step({ op: "delete", id: "d-1" }), "refresh")).toBe(
      "- wpengine:Domain www gone from the service (id d-1)",
    );
    expect(formatStep(step({ error: "wpengine:Domain www: create failed: boom" }))).toBe(
      "! wpengine:Domain www create failed\n    wpengine:Domain www: create failed: boom",
    );
  });

  it("prints outputs (secrets hidden, unknowns named), counts, what the provider said and errors", () => {
    const summary: EngineSummary = {
      kind: "up",
      ok: false,
      project: "p",
      stack: "dev",
      steps: [step({ id: "d-1" })],
      errors: ["something failed"],
      outputs: {
        name: { value: "www.example.com", secret: false, known: true },
        key: { value: "x", secret: true },
        later: { value: null, secret: false, known: false },
      },
      changes: { create: 1, update: 0, replace: 0, delete: 0, same: 0 },
      durationMs: 2345,
      timings: {},
      diagnostics: [
        "program output",
        "wpengine:Backup b-1: forgotten only, nothing sent to the service: why",
      ],
    };
    expect(formatSummary(summary)).toBe(
      [
        "Updating (p/dev):",
        "  + wpengine:Domain www created (id d-1)",
        "Outputs:",
        '  name: "www.example.com"',
        "  key: [secret]",
        "  later: (known after up)",
        "Resources: 1 created",
        "Diagnostics:",
        "  wpengine:Backup b-1: forgotten only, nothing sent to the service: why",
        "Errors (1):",
        "  something failed",
        "Duration: 2.3s (FAILED)",
      ].join("\n"),
    );
  });
});

describe("cli arguments", () => {
  it("parses the command, the program and repeated config", () => {
    expect(
      parseArgs([
        "up",
        "--dir",
        "ex",
        "--program",
        "p.js",
        "--config",
        "wpengine:simulator=true",
        "-c",
        "a:b=c=d",
      ]),
    ).toEqual({
      command: "up",
      dir: "ex",
      program: "p.js",
      stack: "dev",
      config: { "wpengine:simulator": "true", "a:b": "c=d" },
    });
    expect(() => parseArgs(["deploy", "--dir", "x"])).toThrow(/usage/);
    expect(() => parseArgs(["up"])).toThrow(/--dir is required/);
  });
});
