/** The one camelCase mapping of the lookups (provider/lookups/camel.ts): its rules, at runtime and in types. */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { camelKey } from "../../provider/core/wire";
import { type Camel, mapOf, view } from "../../provider/lookups/camel";
import { Int64Schema } from "../../sdk";

const Ref = z.looseObject({ id: z.string() });
const Record = z.looseObject({
  id: z.string(),
  php_version: z.string().nullish(),
  stable_ips: z.array(z.string()).nullish(),
  is_multisite: z.boolean().nullish(),
  account: Ref.nullish(),
  by_type: z.record(z.string(), Int64Schema).nullish(),
  visit_count: Int64Schema,
  nested_thing: z.looseObject({ first_name: z.string().nullish() }).nullish(),
  state: z.custom<"A" | (string & {})>((v) => typeof v === "string"),
});

describe("the camelCase mapping", () => {
  it("camelCases keys", () => {
    expect(camelKey("php_version")).toBe("phpVersion");
    expect(camelKey("a_records")).toBe("aRecords");
    expect(camelKey("appId")).toBe("appId");
  });

  it("fills absent values: [] for a list, {} for a map, false for a boolean, null otherwise", () => {
    expect(view(Record).map({ id: "i", state: "A" })).toEqual({
      id: "i",
      phpVersion: null,
      stableIps: [],
      isMultisite: false,
      account: null,
      accountId: null,
      byType: {},
      visitCount: null,
      nestedThing: null,
      state: "A",
    });
  });

  it("maps nested records, gives `xId` of a reference, numbers of int64 metrics, and drops undeclared keys", () => {
    const out = view(Record).map({
      id: "i",
      state: "A",
      extra_key: 1,
      account: { id: "a", name: "kept out" },
      by_type: { production_env: "12" },
      visit_count: "7",
      nested_thing: {},
    });
    expect(out).toMatchObject({
      account: { id: "a" },
      accountId: "a",
      byType: { productionEnv: 12 },
      visitCount: 7,
      nestedThing: { firstName: null },
    });
    expect(out).not.toHaveProperty("extraKey");
    expect(out.account).not.toHaveProperty("name");
  });

  it("renames, nests and computes fields where a view says so", () => {
    const Inner = view(z.looseObject({ some_value: z.string() })).derive({
      upper: { schema: z.string(), from: (r) => r.someValue.toUpperCase() },
    });
    const Outer = view(
      z.looseObject({ uuid: z.string(), items: z.array(z.looseObject({ some_value: z.string() })) }),
      {
        rename: { id: "uuid" },
        nested: { items: Inner },
      },
    );
    expect(Outer.map({ uuid: "u", items: [{ some_value: "x" }] })).toEqual({
      id: "u",
      items: [{ someValue: "x", upper: "X" }],
    });
    expect(mapOf(Inner).map({ first_metric: { some_value: "y" } })).toEqual({
      firstMetric: { someValue: "y", upper: "Y" },
    });
  });

  it("describes the result in its schema: nullable where absent means null, required everywhere", () => {
    const json = z.toJSONSchema(view(Record).schema, { io: "output" }) as {
      properties: Record<string, { type?: string | string[] }>;
      required: string[];
    };
    expect(json.required).toContain("accountId");
    expect(json.properties["stableIps"]?.type).toBe("array");
    expect(json.properties["isMultisite"]?.type).toBe("boolean");
    expect(json.properties["visitCount"]?.type).toEqual(["number", "null"]);
    expect(json.properties["state"]?.type).toBe("string");
  });

  it("types the result as the mapping gives it", () => {
    type Out = Camel<z.output<typeof Record>>;
    expectTypeOf<Out["phpVersion"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Out["stableIps"]>().toEqualTypeOf<string[]>();
    expectTypeOf<Out["isMultisite"]>().toEqualTypeOf<boolean>();
    expectTypeOf<Out["accountId"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Out["visitCount"]>().toEqualTypeOf<number | null>();
    expectTypeOf<Out["byType"]>().toEqualTypeOf<{ [k: string]: number | null }>();
  });
});
