import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldMeta } from "../../provider/core/define";
import { camelKey, inputOfField, snakeKey, wireOf } from "../../provider/core/wire";
import { KINDS } from "../../provider/registry";

const inputs = z
  .object({
    installId: z.string().meta({ replaces: true }),
    secureAllUrls: z.boolean().default(false),
    redirectTo: z
      .string()
      .nullable()
      .default(null)
      .meta({ wire: { read: "redirects_to.0.id", write: "redirect_to" } }),
    frequency: z.object({ value: z.number(), unitName: z.string().meta({ wire: "unit" }) }),
    recipients: z.array(z.object({ fullName: z.string() })).optional(),
    adopt: z.boolean().optional().meta({ setting: true }),
  })
  .strict();
const outputs = z.object({
  domainId: z.string().meta({ wire: "id" }),
  cname: z.string().nullable().meta({ wire: "network_details.dns_config_info.cname" }),
  aRecords: z.array(z.string()).meta({ wire: "network_details.dns_config_info.a_records" }),
  duplicate: z.boolean(),
});
const wire = wireOf(inputs, outputs);

describe("the wire mapping of a definition", () => {
  it("maps names both ways", () => {
    expect(snakeKey("secureAllUrls")).toBe("secure_all_urls");
    expect(snakeKey("aRecords")).toBe("a_records");
    expect(camelKey(snakeKey("txtVerifiedTime"))).toBe("txtVerifiedTime");
  });

  it("reads outputs at the wire paths, absent values as the schema says", () => {
    const record = {
      id: "d1",
      secure_all_urls: true,
      redirects_to: [{ id: "r1" }],
      frequency: { value: 7, unit: "DAYS" },
      recipients: [{ full_name: "Ops" }],
      network_details: { dns_config_info: { cname: "x.wpeng.net", a_records: ["1.2.3.4"] } },
      adopt: true,
    };
    expect(wire.outputs(record, { installId: "i1" })).toEqual({
      installId: "i1",
      secureAllUrls: true,
      redirectTo: "r1",
      frequency: { value: 7, unitName: "DAYS" },
      recipients: [{ fullName: "Ops" }],
      domainId: "d1",
      cname: "x.wpeng.net",
      aRecords: ["1.2.3.4"],
      duplicate: false,
    });
    // Absent: the default, null when nullable, nothing when optional, else [], false, "" or 0; an input
    // without a default is left out (the lifecycle carries it over from the state).
    const empty = wire.outputs({ frequency: {} }) as Record<string, unknown>;
    expect(empty).toEqual({
      secureAllUrls: false,
      redirectTo: null,
      frequency: { value: 0, unitName: "" },
      domainId: "",
      cname: null,
      aRecords: [],
      duplicate: false,
    });
    expect(Object.keys(wire.outputs({}))).not.toContain("installId");
    expect("recipients" in empty).toBe(false);
  });

  it("writes bodies and patches at the wire paths, settings never", () => {
    const given = {
      installId: "i1",
      secureAllUrls: true,
      redirectTo: null,
      frequency: { value: 1, unitName: "MONTHLY" },
      adopt: true,
    };
    expect(wire.body(given)).toEqual({
      install_id: "i1",
      secure_all_urls: true,
      frequency: { value: 1, unit: "MONTHLY" },
    });
    expect(wire.body(given, ["secureAllUrls"])).toEqual({ secure_all_urls: true });
    const have = wire.outputs({ redirects_to: [{ id: "r1" }], frequency: { value: 1, unit: "MONTHLY" } });
    // Only updatable inputs that differ; a null clears; a replacing input never.
    expect(wire.patch(have, { ...given, installId: "other" })).toEqual({
      secure_all_urls: true,
      redirect_to: null,
    });
    expect(wire.patch(have, have)).toBeUndefined();
  });

  it("names the input a service's error field points at", () => {
    expect(inputOfField(inputs, "redirect_to")).toBe("redirectTo");
    expect(inputOfField(inputs, "frequency.unit")).toBe("frequency.unitName");
    expect(inputOfField(inputs, "recipients.0.full_name")).toBe("recipients.fullName");
    expect(inputOfField(inputs, "user.secure_all_urls")).toBe("secureAllUrls");
    expect(inputOfField(undefined, "domains.0.bucket_region")).toBe("bucketRegion");
    // An API that spells names as they are (App Hosting's), its field declared under another name.
    const hosted = z.object({
      mappings: z.array(z.object({ isPrimary: z.boolean() })).meta({ wire: "domainMappings" }),
    });
    expect(inputOfField(hosted, "domainMappings.0.isPrimary")).toBe("mappings.isPrimary");
  });

  it("maps a field declared at the record's root to an API that answers and takes a bare list", () => {
    const listed = z.object({
      installId: z.string().meta({ replaces: true, parent: true }),
      rules: z.array(z.object({ ruleType: z.string() })).meta({ wire: "" }),
    });
    const bare = wireOf(listed, z.object({}));
    expect(bare.outputs([{ rule_type: "url path" }])).toEqual({ rules: [{ ruleType: "url path" }] });
    expect(bare.body({ installId: "i", rules: [{ ruleType: "query arg" }] })).toEqual([
      { rule_type: "query arg" },
    ]);
    expect(inputOfField(listed, "rules.0.rule_type")).toBe("rules.ruleType");
  });
});

/**
 * The lines of a kind's file that map a property by hand: they spell its wire field (its snake_case, or the
 * root of its declared wire path) or copy it key for key (`name: x.name`, `name: x.snake_name`).
 */
function handMapped(text: string, name: string, wire: readonly string[]): string[] {
  const snake = snakeKey(name);
  // A one-word wire name (`id`) is too common a word to tell; a snake_case or dotted one is not.
  const spelled = [...new Set([snake, ...wire])]
    .filter((w) => w !== name && /[_.]/.test(w))
    .map((w) => w.replace(/\./g, "\\."));
  const word = (w: string) => `(?<![\\w$-])${w}(?![\\w$-])`;
  const res = [
    ...spelled.map((w) => new RegExp(word(w))),
    // A copy; a transformation (`name: d.name.toLowerCase()`) is code the kind means.
    new RegExp(`${word(name)}\\??:\\s*[\\w$.?]+[.?]${`(${name}|${snake})`}\\s*(,|\\?\\?|\\}|\\)|$)`),
  ];
  const lines = text.split("\n");
  return lines.filter(
    (l, i) =>
      !/^\s*(\/\/|\/?\*)/.test(l) &&
      // A definition that takes a shared schema (`accountId: environmentAddress.accountId`) is the definition.
      !/:\s*\w*(Address|Inputs?|INPUTS|Shape)\.\w+,?$/.test(l) &&
      // A listing's `name` (`pulumi do ... list`) is what the listing shows, not the property.
      !lines.slice(Math.max(0, i - 2), i + 1).some((p) => p.includes("fields: {")) &&
      res.some((re) => re.test(l)),
  );
}

describe("no kind maps a property by hand", () => {
  const root = path.join(__dirname, "..", "..", "provider", "kinds");
  for (const kind of Object.values(KINDS)) {
    it(`${kind.kind}: its definition, and its wire name where that differs`, () => {
      const text = readFileSync(path.join(root, `${kind.kind}.ts`), "utf8");
      const offenders: string[] = [];
      for (const [name, m] of Object.entries(fieldMeta(kind.inputs))) {
        if (m.setting) continue;
        const wire = !m.wire ? [] : typeof m.wire === "string" ? [m.wire] : [m.wire.read, m.wire.write];
        // The one line that may spell the wire field is the `.meta({ wire })` that declares it.
        const lines = handMapped(text, name, wire).filter((l) => !/\bwire:/.test(l));
        if (lines.length) offenders.push(`${name}:\n    ${lines.map((l) => l.trim()).join("\n    ")}`);
      }
      expect(offenders, `mapped by hand:\n${offenders.join("\n")}`).toEqual([]);
    });
  }
});
