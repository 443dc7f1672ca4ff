/**
 * What each resource class registers, seen the way the Pulumi engine sees it: programs using the
 * packed and installed package run under `pulumi.runtime.setMocks` in a child `node` (never inside
 * vitest's module system), and every registration is recorded — type token, inputs (with the real
 * serialized `__provider`), the outputs the class declares, and its `additionalSecretOutputs`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { KINDS } from "../../provider/registry";
import { type PackedProgram, packedProgram, REPO } from "../../tools/cli/pack";
import { unwrapSecrets } from "../../tools/plugin-harness";
import { CASES } from "../engine/cases";
import { type Capture, capture, type ProgramItem, resourcesProgram, seed } from "../engine/harness";

const TOKEN = (kind: string) => `pulumi-nodejs:dynamic/wpengine:${kind}`;

/** What a class's source declares: its `<X>_OUTPUTS` list and the secret outputs passed to `super`. */
function declared(kind: string): { outputs: string[]; secretOutputs: string[] } {
  const def = KINDS[kind];
  if (def)
    return {
      outputs: [...Object.keys(def.inputs.shape), ...Object.keys(def.outputs.shape)],
      secretOutputs: [...(def.secrets ?? [])],
    };
  const text = fs.readFileSync(path.join(REPO, "provider", "kinds", `${kind}.ts`), "utf8");
  const strings = (s: string | undefined) => [...(s ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const call =
    /super\(KIND,\s*name,\s*args,\s*(\w+),\s*opts(?:,\s*(?:\[([^\]]*)\]|provider\.definition\.secrets))?\s*\)/.exec(
      text,
    );
  const list = call ? new RegExp(`const ${call[1]} = \\[([^\\]]*)\\]`).exec(text) : null;
  // Secrets given to super as a list, or as the definition's own `secrets` (shared with the executable provider).
  const secrets = call?.[0].includes("definition.secrets")
    ? /\bsecrets: \[([^\]]*)\]/.exec(text)?.[1]
    : call?.[2];
  return { outputs: strings(list?.[1]), secretOutputs: strings(secrets) };
}

/**
 * Finds the resource classes the INSTALLED package exports (what a program imports) and instantiates each
 * with a probe input.
 */
const ALL_CLASSES_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { WpEngineResource } = require("pulumi-wpengine/dist/provider/dynamic/resource.js");
const classes = {};
for (const [name, value] of Object.entries(require("pulumi-wpengine"))) {
  if (typeof value !== "function" || !(value.prototype instanceof WpEngineResource)) continue;
  const res = new value("probe-" + name, { probe: "x" });
  classes[name] = {
    className: value.name,
    outputKeys: Object.keys(res).filter((k) => pulumi.Output.isInstance(res[k]) && k !== "urn" && k !== "id").sort(),
  };
}
exports.classes = classes;
`;

const USER_OPTIONS = `{ additionalSecretOutputs: ["userSecret"], protect: true, deleteBeforeReplace: true, ignoreChanges: ["adopt"] }`;

let packed: PackedProgram;
/** One program run per variant for the whole table (a child process each, run side by side). */
let plain: Capture;
let preview: Capture;
let withOptions: Capture;
let allClasses: Capture;
/** The plain program's lines, to find where it declares each resource. */
let plainLines: string[];

beforeAll(async () => {
  packed = await packedProgram();
  const items = (options?: string): ProgramItem[] =>
    CASES.map((c) => ({ c, name: `res-${c.kind}`, args: c.args(seed), ...(options ? { options } : {}) }));
  const plainFile = packed.writeProgram("reg-cases", resourcesProgram(items()));
  const optionsFile = packed.writeProgram("reg-cases-options", resourcesProgram(items(USER_OPTIONS)));
  const allFile = packed.writeProgram("reg-all-classes", ALL_CLASSES_PROGRAM);
  plainLines = fs.readFileSync(path.resolve(packed.dir, plainFile), "utf8").split("\n");
  [plain, preview, withOptions, allClasses] = await Promise.all([
    capture(packed.dir, plainFile),
    capture(packed.dir, plainFile, { preview: true }),
    capture(packed.dir, optionsFile),
    capture(packed.dir, allFile),
  ]);
}, 300_000);

const registration = (cap: Capture, kind: string) => {
  expect(cap.errors).toEqual([]);
  const found = cap.registrations.filter((r) => r.name === `res-${kind}`);
  expect(found).toHaveLength(1);
  return found[0]!;
};
type Info = { outputKeys: string[]; className: string };
const info = (cap: Capture, kind: string): Info => {
  const all = (cap.outputs["resources"]?.value ?? {}) as Record<string, Info>;
  expect(all[`res-${kind}`], kind).toBeDefined();
  return all[`res-${kind}`]!;
};

describe.each(CASES)("$kind registers", (c) => {
  it("its type token, its inputs as given, the serialized provider and every declared output", () => {
    const reg = registration(plain, c.kind);
    expect(reg.type).toBe(TOKEN(c.kind));
    expect(reg.custom).toBe(true);
    const { __provider, __claimant, ...inputs } = unwrapSecrets(reg.inputs).value as Record<string, unknown>;
    // Exactly the args: declared outputs are registered as undefined, which the engine never receives.
    expect(inputs).toEqual(c.args(seed));
    expect(typeof __provider).toBe("string");
    // The resource's name, by which the plugin refuses a second claim of one object (core/identity.ts).
    expect(__claimant).toBe(`res-${c.kind}`);
    const expected = [
      ...new Set([...declared(c.kind).outputs, ...Object.keys(c.args(seed)), "__provider", "__claimant"]),
    ].sort();
    expect(info(plain, c.kind).outputKeys).toEqual(expected);
    expect(reg.options.additionalSecretOutputs).toEqual(c.secretOutputs ?? []);
    expect(info(plain, c.kind).className).toBe(c.kind);
    // Secret args stay secret on the wire.
    for (const key of c.secretArgs ?? []) expect(unwrapSecrets(reg.inputs[key]).secret, key).toBe(true);
  });

  it("where the program declares it, as the state's source position (not the package's class)", () => {
    const reg = registration(plain, c.kind);
    const line = plainLines.findIndex((l) => l.includes(`new (load(${JSON.stringify(c.kind)}))`)) + 1;
    expect(line).toBeGreaterThan(0);
    expect(reg.sourcePosition?.uri).toMatch(/\/reg-cases\.js$/);
    expect(reg.sourcePosition?.line).toBe(line);
  });

  it("the same in a preview", () => {
    const reg = registration(preview, c.kind);
    expect(reg.type).toBe(TOKEN(c.kind));
    expect(reg.inputs).toEqual(registration(plain, c.kind).inputs);
  });

  it("merges the user's resource options with its own", () => {
    const reg = registration(withOptions, c.kind);
    expect([...reg.options.additionalSecretOutputs].sort()).toEqual(
      ["userSecret", ...(c.secretOutputs ?? [])].sort(),
    );
    expect(reg.options).toMatchObject({ protect: true, deleteBeforeReplace: true, ignoreChanges: ["adopt"] });
  });
});

describe("every resource class of the package", () => {
  it("registers pulumi-nodejs:dynamic/wpengine:<Class> with its declared outputs and secret outputs", () => {
    const cap = allClasses;
    expect(cap.errors).toEqual([]);
    const classes = cap.outputs["classes"]?.value as Record<
      string,
      { className: string; outputKeys: string[] }
    >;
    const names = Object.keys(classes).sort();
    console.log(`[program] ${names.length} resource classes: ${names.join(", ")}`);
    // Every class has its case in test/engine/cases.ts (so it runs through the real plugin too).
    expect(names).toEqual(CASES.map((c) => c.kind).sort());
    const sizes: string[] = [];
    for (const name of names) {
      const reg = cap.registrations.find((r) => r.name === `probe-${name}`);
      expect(reg, name).toBeDefined();
      expect(reg!.type, name).toBe(TOKEN(name));
      expect(classes[name]!.className, name).toBe(name);
      const { __provider, __claimant, ...inputs } = reg!.inputs;
      expect(inputs, name).toEqual({ probe: "x" });
      expect(__claimant, name).toBe(`probe-${name}`);
      expect(typeof __provider, name).toBe("string");
      expect(__provider as string, name).toContain(`.kind = "${name}"`);
      sizes.push(`${name} ${Buffer.byteLength(__provider as string)}`);
      const source = declared(name);
      expect(
        source.outputs.length,
        `${name}: no <X>_OUTPUTS list found in provider/${name}.ts`,
      ).toBeGreaterThan(0);
      expect(classes[name]!.outputKeys, name).toEqual(expect.arrayContaining(source.outputs));
      expect([...reg!.options.additionalSecretOutputs].sort(), name).toEqual(
        [...source.secretOutputs].sort(),
      );
    }
    console.log(`[program] serialized __provider bytes: ${sizes.join(", ")}`);
  });
});
