/**
 * The executable provider's schema, derived from the definitions, serves every token, property and
 * function the schema of 0.1.0 served (`test/fixtures/schema-0.1.0.json`, what the TypeScript-parsing
 * generator wrote), with the same types or a more precise one where 0.1.0 said `Any`.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import PKG from "../../package.json";
import { KINDS } from "../../provider/registry";
import { generateSchema } from "../../tools/schema";
import OLD from "../fixtures/schema-0.1.0.json";

type Json = Record<string, unknown>;
type Prop = { type?: string; $ref?: string; items?: Prop };
let NEW: Json;
beforeAll(() => {
  NEW = generateSchema({ ...PKG, version: "0.1.0" });
});

/** Why `now` cannot stand where `was` stood, or undefined when it can. */
function incompatible(was: Prop, now: Prop | undefined): string | undefined {
  if (!now) return "missing";
  if (was.$ref === "pulumi.json#/Any") return undefined;
  if (was.type !== now.type) return `type ${was.type ?? was.$ref} became ${now.type ?? now.$ref}`;
  if (was.items) return incompatible(was.items, now.items);
  return undefined;
}

const entries = (o: unknown) => Object.entries((o ?? {}) as Record<string, Prop>);

describe("the executable provider's schema against 0.1.0's", () => {
  it("keeps every resource token, input and output with a compatible type, and requires no new input", () => {
    const problems: string[] = [];
    const now = NEW["resources"] as Record<string, Json>;
    for (const [token, old] of Object.entries(OLD.resources as Record<string, Json>)) {
      const res = now[token];
      if (!res) {
        problems.push(`${token}: missing`);
        continue;
      }
      for (const [side, key] of [
        ["input", "inputProperties"],
        ["output", "properties"],
      ] as const)
        for (const [name, prop] of entries(old[key])) {
          const why = incompatible(prop, (res[key] as Record<string, Prop>)[name]);
          if (why) problems.push(`${token} ${side} ${name}: ${why}`);
        }
      const newlyRequired = (res["requiredInputs"] as string[]).filter(
        (k) => !(old["requiredInputs"] as string[]).includes(k),
      );
      if (newlyRequired.length) problems.push(`${token}: newly required ${newlyRequired.join(", ")}`);
    }
    expect(problems).toEqual([]);
  });

  it("keeps every function token with its inputs and outputs", () => {
    const problems: string[] = [];
    const now = NEW["functions"] as Record<string, { inputs: Json; outputs: Json }>;
    for (const [token, old] of Object.entries(
      OLD.functions as Record<string, { inputs: Json; outputs: Json }>,
    )) {
      const fn = now[token];
      if (!fn) {
        problems.push(`${token}: missing`);
        continue;
      }
      for (const side of ["inputs", "outputs"] as const)
        for (const [name, prop] of entries(old[side]["properties"])) {
          const why = incompatible(prop, (fn[side]["properties"] as Record<string, Prop>)[name]);
          if (why) problems.push(`${token} ${side} ${name}: ${why}`);
        }
    }
    expect(problems).toEqual([]);
  });

  it("marks the secrets: the provider password and every secret input", () => {
    const config = NEW["config"] as { variables: Record<string, { secret?: boolean }> };
    expect(config.variables["password"]?.secret).toBe(true);
    const cert = (
      NEW["resources"] as Record<string, { inputProperties: Record<string, { secret?: boolean }> }>
    )["wpengine:index:ThirdPartyCertificate"];
    expect(cert?.inputProperties["privateKey"]?.secret).toBe(true);
  });

  it("declares no input's default: pulumi do patch fills each declared default in, resetting what it was not given", () => {
    const resources = NEW["resources"] as Record<string, { inputProperties: Record<string, Json> }>;
    const declared = Object.entries(resources).flatMap(([token, res]) =>
      Object.entries(res.inputProperties)
        .filter(([, prop]) => "default" in prop)
        .map(([key]) => `${token}.${key}`),
    );
    expect(declared).toEqual([]);
    // The provider's check still applies them: a domain given no primary is not primary.
    expect(
      KINDS["Domain"]!.inputs.parse({ installId: "1e000000-0000-4000-8000-000000000001", name: "a.example" }),
    ).toMatchObject({
      primary: false,
    });
  });

  it("declares listInputs for every importable kind, and a profile input on every resource", () => {
    const resources = NEW["resources"] as Record<string, { listInputs?: Json; inputProperties: Json }>;
    const importable = Object.values(KINDS).filter((k) => typeof k.importId === "string");
    expect(importable.length).toBeGreaterThan(10);
    expect(
      importable.filter((k) => !resources[`wpengine:index:${k.kind}`]?.listInputs).map((k) => k.kind),
    ).toEqual([]);
    expect(resources["wpengine:index:Domain"]?.listInputs).toMatchObject({
      properties: { installId: { type: "string" } },
      required: ["installId"],
    });
    // What cannot be imported has nothing to list.
    expect(resources["wpengine:index:DomainSharingLink"]?.listInputs).toBeUndefined();
    for (const [token, res] of Object.entries(resources))
      expect(res.inputProperties, token).toHaveProperty("profile");
    const provider = NEW["provider"] as { inputProperties: Json; properties: Json };
    expect(provider.inputProperties).toHaveProperty("profile");
    expect(provider.inputProperties).toHaveProperty("profiles");
    // Secret provider settings are inputs only, never outputs.
    expect(provider.properties).not.toHaveProperty("profiles");
    expect(provider.properties).not.toHaveProperty("password");
  });

  it("leaves out of `required` what may be null, so Go and Python type it as possibly absent", () => {
    const resources = NEW["resources"] as Record<string, { required: string[]; properties: Json }>;
    const domain = resources["wpengine:index:Domain"]!;
    // Null once verified (the docs say "or null"): a Go StringPtrOutput, a Python Optional[str].
    expect(domain.properties).toHaveProperty("txtVerificationKey");
    expect(domain.required).not.toContain("txtVerificationKey");
    expect(domain.required).not.toContain("redirectTo");
    expect(domain.required).toEqual(expect.arrayContaining(["domainId", "name", "installId", "aRecords"]));
    const types = NEW["types"] as Record<string, { required?: string[] }>;
    expect(types["wpengine:index:DomainMappingsDomainMappings"]?.required).not.toContain("txtVerified");
  });

  it("offers as an enum's values only what can be set: no cookie cache exclusion, which check refuses", () => {
    const types = NEW["types"] as Record<string, { enum?: { value: string }[] }>;
    expect(types["wpengine:index:CacheExclusionsExclusionsType"]?.enum?.map((e) => e.value)).toEqual([
      "query arg",
      "url path",
    ]);
  });

  it("gives the Python package a README a PyPI reader can install and start from", () => {
    const python = (NEW["language"] as { python: { readme: string } }).python;
    expect(python.readme).toContain("pip install pulumi_wpengine==0.1.0");
    expect(python.readme).toContain(
      "pulumi plugin install resource wpengine 0.1.0 --server github://api.github.com/pulumi-wpengine/pulumi-wpengine",
    );
    expect(python.readme).toContain("import pulumi_wpengine as wpengine");
  });

  it("gives an explicit provider no environment defaults, so the SDKs never copy a password into the state", () => {
    const provider = NEW["provider"] as { inputProperties: Record<string, Json> };
    const config = (NEW["config"] as { variables: Record<string, Json> }).variables;
    expect(Object.keys(provider.inputProperties)).toEqual(Object.keys(config));
    expect(Object.values(provider.inputProperties).filter((p) => "defaultInfo" in p)).toEqual([]);
    // The committed SDKs, generated from this schema (test/cli/sdks.test.ts holds them current).
    const python = readFileSync("languages/python/pulumi_wpengine/provider.py", "utf8");
    const go = readFileSync("languages/go/wpengine/provider.go", "utf8");
    expect(python).not.toMatch(/get_env\('WPE_/);
    expect(go).not.toMatch(/GetEnvOrDefault\(.*"WPE_/);
  });
});
