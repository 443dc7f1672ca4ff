/**
 * What each resource class registers, seen the way the Pulumi engine sees it: programs using the
 * packed and installed package run under `pulumi.runtime.setMocks` in a child `node` (never inside
 * vitest's module system), and every registration is recorded — type token, inputs (with the real
 * serialized `__provider`), the outputs the class declares, and its `additionalSecretOutputs`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { unwrapSecrets } from "../../tools/engine";
import { CASES } from "../engine/cases";
import { capture, resourceProgram, seed } from "../engine/harness";
import { type PackedProgram, packedProgram, REPO } from "../engine/pack";

const TOKEN = (kind: string) => `pulumi-nodejs:dynamic/wpengine:${kind}`;

/** What a class's source declares: its `<X>_OUTPUTS` list and the secret outputs passed to `super`. */
function declared(kind: string): { outputs: string[]; secretOutputs: string[] } {
  const text = fs.readFileSync(path.join(REPO, "provider", `${kind}.ts`), "utf8");
  const strings = (s: string | undefined) => [...(s ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const call = /super\(KIND,\s*name,\s*args,\s*(\w+),\s*opts(?:,\s*\[([^\]]*)\])?\s*\)/.exec(text);
  const list = call ? new RegExp(`const ${call[1]} = \\[([^\\]]*)\\]`).exec(text) : null;
  return { outputs: strings(list?.[1]), secretOutputs: strings(call?.[2]) };
}

let packed: PackedProgram;
beforeAll(async () => {
  packed = await packedProgram();
}, 300_000);

describe.each(CASES)("$kind registers", (c) => {
  it("its type token, its inputs as given, the serialized provider and every declared output", async () => {
    const args = c.args(seed);
    const program = packed.writeProgram(`reg-${c.kind}`, resourceProgram(c, args));
    const cap = await capture(packed.dir, program);
    expect(cap.errors).toEqual([]);
    expect(cap.registrations).toHaveLength(1);
    const reg = cap.registrations[0]!;
    expect(reg.type).toBe(TOKEN(c.kind));
    expect(reg.name).toBe("res");
    expect(reg.custom).toBe(true);
    const { __provider, ...inputs } = unwrapSecrets(reg.inputs).value as Record<string, unknown>;
    // Exactly the args: declared outputs are registered as undefined, which the engine never receives.
    expect(inputs).toEqual(args);
    expect(typeof __provider).toBe("string");
    const keys = cap.outputs["outputKeys"]?.value as string[];
    const expected = [...new Set([...c.declaredOutputs, ...Object.keys(args), "__provider"])].sort();
    expect(keys).toEqual(expected);
    expect(reg.options.additionalSecretOutputs).toEqual(c.secretOutputs ?? []);
    expect(cap.outputs["className"]?.value).toBe(c.kind);
  });

  it("the same in a preview, with the outputs unknown", async () => {
    const program = packed.writeProgram(`reg-${c.kind}`, resourceProgram(c, c.args(seed)));
    const cap = await capture(packed.dir, program, { preview: true });
    expect(cap.errors).toEqual([]);
    expect(cap.registrations.map((r) => r.type)).toEqual([TOKEN(c.kind)]);
    // capture() answers with an id; the class's own outputs are still registered.
    expect(cap.outputs["outputKeys"]?.value).toEqual(expect.arrayContaining(c.declaredOutputs));
  });

  it("merges the user's resource options with its own", async () => {
    const program = packed.writeProgram(
      `reg-${c.kind}-opts`,
      resourceProgram(c, c.args(seed), {
        options: `{ additionalSecretOutputs: ["userSecret"], protect: true, deleteBeforeReplace: true, ignoreChanges: ["adopt"] }`,
      }),
    );
    const cap = await capture(packed.dir, program);
    expect(cap.errors).toEqual([]);
    const reg = cap.registrations[0]!;
    expect(reg.options.additionalSecretOutputs.sort()).toEqual(
      ["userSecret", ...(c.secretOutputs ?? [])].sort(),
    );
    expect(reg.options).toMatchObject({ protect: true, deleteBeforeReplace: true, ignoreChanges: ["adopt"] });
  });
});

describe("every resource class of the package", () => {
  it("registers pulumi-nodejs:dynamic/wpengine:<Class> with its declared outputs and secret outputs", async () => {
    // Finds the classes in the INSTALLED package, instantiates each with a probe input.
    const program = packed.writeProgram(
      "reg-all-classes",
      `"use strict";
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const dir = path.dirname(require.resolve("pulumi-wpengine/dist/provider/resource.js"));
const { WpEngineResource } = require(path.join(dir, "resource.js"));
const classes = {};
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".js")).sort()) {
  for (const [name, value] of Object.entries(require(path.join(dir, file)))) {
    if (typeof value !== "function" || !(value.prototype instanceof WpEngineResource)) continue;
    const res = new value("probe-" + name, { probe: "x" });
    classes[name] = {
      file,
      outputKeys: Object.keys(res).filter((k) => pulumi.Output.isInstance(res[k]) && k !== "urn" && k !== "id").sort(),
    };
  }
}
exports.classes = classes;
`,
    );
    const cap = await capture(packed.dir, program);
    expect(cap.errors).toEqual([]);
    const classes = cap.outputs["classes"]?.value as Record<string, { file: string; outputKeys: string[] }>;
    const names = Object.keys(classes).sort();
    console.log(`[program] ${names.length} resource classes: ${names.join(", ")}`);
    expect(names).toContain("Domain");
    const sizes: string[] = [];
    for (const name of names) {
      const reg = cap.registrations.find((r) => r.name === `probe-${name}`);
      expect(reg, name).toBeDefined();
      expect(reg!.type, name).toBe(TOKEN(name));
      expect(classes[name]!.file, name).toBe(`${name}.js`);
      const { __provider, ...inputs } = reg!.inputs;
      expect(inputs, name).toEqual({ probe: "x" });
      expect(typeof __provider, name).toBe("string");
      expect(__provider as string, name).toContain(`kind: "${name}"`);
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
