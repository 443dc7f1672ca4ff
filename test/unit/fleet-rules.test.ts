/**
 * The guardrails' logic (fleet/rules.ts), each rule with an estate or a program that breaks it and one
 * that meets it; the policy config file the report shares with the pack (fleet/cli.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StackValidationPolicy } from "@pulumi/policy";
import Ajv from "ajv";
import { describe, expect, it, vi } from "vitest";
import { readPolicyConfig } from "../../fleet/cli";
import { apiUsersOf, mergeFleets } from "../../fleet/read";
import { renderReport } from "../../fleet/report";
import {
  auditFleet,
  checkDeclared,
  type Declared,
  type Fleet,
  kindOfType,
  parsePolicyConfig,
  phpBelow,
  RULES,
  type RuleName,
} from "../../fleet/rules";
import { useTempTrees } from "../support/files";

// The pack's module serves it to the engine when loaded: here it is loaded for its policies only.
vi.mock("@pulumi/policy", async (original) => ({
  ...(await original<typeof import("@pulumi/policy")>()),
  PolicyPack: class {},
}));

const NOW = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** An estate that meets every audit rule; each test breaks one thing. */
function fleet(): Fleet {
  return {
    readAt: iso(NOW),
    accounts: [
      {
        id: "a1",
        name: "Acme",
        plan: [
          { metric: "visitors", used: 100, limit: 1000, unit: "visits" },
          { metric: "storage", used: 10, limit: 100, unit: "GB" },
          { metric: "bandwidth", used: 5, limit: null, unit: "GB" },
        ],
      },
    ],
    sites: [{ id: "s1", name: "Site", accountId: "a1" }],
    installs: [
      {
        id: "i1",
        name: "prod",
        accountId: "a1",
        siteId: "s1",
        environment: "production",
        phpVersion: "8.2",
        createdAt: iso(NOW - 400 * DAY),
      },
      {
        id: "i2",
        name: "stg",
        accountId: "a1",
        siteId: "s1",
        environment: "staging",
        phpVersion: "7.4",
        createdAt: iso(NOW - 2 * DAY),
      },
    ],
    domains: [
      {
        id: "d1",
        name: "example.com",
        installId: "i1",
        ownershipStatus: "TXT_VERIFIED",
        sslStatus: "active",
      },
      // Pending, but on an install younger than the grace period.
      {
        id: "d2",
        name: "new.example.com",
        installId: "i2",
        ownershipStatus: "TXT_VERIFICATION_PENDING",
        sslStatus: "pending",
      },
    ],
    certificates: [
      {
        installId: "i1",
        commonName: "example.com",
        source: "THIRD_PARTY",
        status: "ENABLED",
        expiresTime: iso(NOW + 90 * DAY),
      },
    ],
    users: [
      {
        userId: "u1",
        accountId: "a1",
        email: "o1@x",
        roles: "owner",
        mfaEnabled: true,
        inviteAccepted: true,
        installIds: [],
      },
      {
        userId: "u2",
        accountId: "a1",
        email: "o2@x",
        roles: "owner",
        mfaEnabled: true,
        inviteAccepted: true,
        installIds: [],
      },
      {
        userId: "u3",
        accountId: "a1",
        email: "p@x",
        roles: "partial",
        mfaEnabled: false,
        inviteAccepted: true,
        installIds: ["i1"],
      },
    ],
    installUsage: [],
  };
}

const rules = (f: Fleet, settings = {}) =>
  auditFleet(f, settings, NOW).map((x) => `${x.rule} ${x.subject.name}`);

describe("audit rules", () => {
  it("an estate that meets every rule has no finding", () => {
    expect(rules(fleet())).toEqual([]);
  });

  it("wpengine-php-minimum: a production install below the minimum (staging is not judged)", () => {
    const f = fleet();
    f.installs[0]!.phpVersion = "8.0";
    expect(rules(f)).toEqual(["wpengine-php-minimum prod"]);
    expect(rules(f, { minimumVersion: "8.0" })).toEqual([]);
    expect(phpBelow("7.4", "8.1")).toBe(true);
    expect(phpBelow("8.10", "8.9")).toBe(false);
    expect(phpBelow(null, "8.1")).toBe(false);
  });

  it("wpengine-domain-verified: pending TXT or SSL not active past the grace period", () => {
    const f = fleet();
    f.domains[0]!.ownershipStatus = "TXT_VERIFICATION_PENDING";
    f.domains[0]!.sslStatus = "pending";
    expect(rules(f)).toEqual([
      "wpengine-domain-verified example.com",
      "wpengine-domain-verified example.com",
    ]);
    // Each finding names the next step.
    expect(auditFleet(f, {}, NOW).map((x) => x.message)).toContain(
      "domain example.com on prod has SSL pending, not active: point its DNS at the install and declare a LetsEncryptCertificate (or renew its certificate)",
    );
    // The other pending domain is on an install 2 days old: within 7, not within 1.
    expect(rules(f, { graceDays: 1 })).toContain("wpengine-domain-verified new.example.com");
  });

  it("wpengine-certificate-expiry: within the warning period, or expired", () => {
    const f = fleet();
    f.certificates[0]!.expiresTime = iso(NOW + 10 * DAY);
    expect(auditFleet(f, {}, NOW).map((x) => x.message)).toEqual([
      `third-party certificate example.com on prod expires in 10 days (${iso(NOW + 10 * DAY)}), within 30: renew or replace it`,
    ]);
    expect(rules(f, { warnDays: 5 })).toEqual([]);
    f.certificates[0]!.expiresTime = iso(NOW - 3 * DAY);
    expect(auditFleet(f, {}, NOW)[0]!.message).toContain("expired 3 days ago");
  });

  it("wpengine-owner-mfa, wpengine-invitation-accepted, wpengine-partial-user-installs", () => {
    const f = fleet();
    f.users[0]!.mfaEnabled = false;
    f.users[1]!.inviteAccepted = false;
    f.users[2]!.installIds = [];
    expect(rules(f)).toEqual([
      "wpengine-owner-mfa o1@x",
      "wpengine-invitation-accepted o2@x",
      "wpengine-partial-user-installs p@x",
    ]);
  });

  it("wpengine-multiple-owners: an account with a single owner", () => {
    const f = fleet();
    f.users[1]!.roles = "full";
    expect(rules(f)).toEqual(["wpengine-multiple-owners Acme"]);
  });

  it("wpengine-usage-below-plan: a metric above the threshold of its limit (none when no limit)", () => {
    const f = fleet();
    f.accounts[0]!.plan[1]!.used = 85;
    f.accounts[0]!.plan[2]!.used = 1e9;
    expect(auditFleet(f, {}, NOW).map((x) => x.message)).toEqual([
      "account Acme used 85% of its storage limit (85.0 of 100 GB), above 80%: move to a larger plan or reduce the use",
    ]);
    expect(rules(f, { thresholdPercent: 90 })).toEqual([]);
  });
});

describe("declared rules", () => {
  const PROD = "11111111-1111-4111-8111-111111111111";
  const copy = (props: Record<string, unknown> = {}): Declared => ({
    kind: "InstallCopy",
    name: "copy",
    props: { sourceEnvironmentId: "x", destinationEnvironmentId: PROD, ...props },
  });

  it("kinds from both front doors' type tokens", () => {
    expect(kindOfType("pulumi-nodejs:dynamic/wpengine:Install")).toBe("Install");
    expect(kindOfType("wpengine:index:InstallCopy")).toBe("InstallCopy");
    expect(kindOfType("aws:s3/bucket:Bucket")).toBeUndefined();
  });

  it("wpengine-deletion-protection: a production install or a site with it off", () => {
    const found = checkDeclared([
      {
        kind: "Install",
        name: "p",
        props: { name: "p", environment: "production", deletionProtection: false },
      },
      { kind: "Install", name: "s", props: { name: "s", environment: "staging", deletionProtection: false } },
      { kind: "Install", name: "q", props: { name: "q", environment: "production" } },
      { kind: "Site", name: "site", props: { name: "Site", deletionProtection: false } },
      { kind: "Site", name: "kept", props: { name: "Kept", deletionProtection: true } },
    ]);
    expect(found.map((f) => `${f.rule} ${f.subject.name}`)).toEqual([
      "wpengine-deletion-protection p",
      "wpengine-deletion-protection Site",
    ]);
  });

  it("wpengine-backup-before-risky-change: a copy or restore into production needs a Backup of it", () => {
    const prod = new Set([PROD]);
    expect(checkDeclared([copy()], prod).map((f) => f.rule)).toEqual(["wpengine-backup-before-risky-change"]);
    const restore: Declared = { kind: "BackupRestore", name: "r", props: { installId: PROD, backupId: "b" } };
    expect(checkDeclared([restore], prod)[0]!.message).toContain(
      `BackupRestore r restores a backup over production install ${PROD}`,
    );
    const backup: Declared = { kind: "Backup", name: "b", urn: "urn:b", props: { installId: PROD } };
    const waiting = { ...copy(), dependsOn: ["urn:b"] };
    expect(checkDeclared([waiting, { ...restore, dependsOn: ["urn:x", "urn:b"] }, backup], prod)).toEqual([]);
    // A Backup the change does not wait for may be taken after it.
    expect(checkDeclared([copy(), backup], prod)[0]!.message).toContain("does not depend on Backup b of it");
    // Not production, or not known yet (an output of another resource): nothing to say.
    expect(checkDeclared([copy()], new Set())).toEqual([]);
    expect(checkDeclared([copy({ destinationEnvironmentId: undefined })], prod)).toEqual([]);
    // Production because the program declares it so.
    const install: Declared = {
      kind: "Install",
      name: "i",
      props: { installId: PROD, environment: "production" },
    };
    expect(checkDeclared([install, copy()]).map((f) => f.rule)).toEqual([
      "wpengine-backup-before-risky-change",
    ]);
  });
});

describe("wpengine-backup-before-risky-change in the pack: the change waits for the Backup", () => {
  const PROD = "11111111-1111-4111-8111-111111111111";
  const res = (type: string, name: string, props: Record<string, unknown>, dependencies: object[] = []) => ({
    type: `pulumi-nodejs:dynamic/wpengine:${type}`,
    name,
    urn: `urn:${name}`,
    props,
    dependencies,
    propertyDependencies: {},
  });
  const install = res("Install", "prod", { installId: PROD, environment: "production" });
  const backup = res("Backup", "before-copy", { installId: PROD, description: "Before the copy" });
  const copy = (dependencies: object[]) =>
    res(
      "InstallCopy",
      "stg-to-prod",
      { sourceEnvironmentId: "x", destinationEnvironmentId: PROD },
      dependencies,
    );

  /** What the pack's rule reports on `resources`, without credentials (only declared production counts). */
  async function violations(resources: object[]) {
    const saved = process.env;
    process.env = {};
    try {
      const { policies } = await import("../../fleet/pack");
      const policy = policies.find((p) => p.name === "wpengine-backup-before-risky-change");
      const reported: string[] = [];
      await (policy as StackValidationPolicy).validateStack(
        { resources, getConfig: () => ({}) } as never,
        (message: string) => void reported.push(message),
      );
      return reported;
    } finally {
      process.env = saved;
    }
  }

  it("a copy that does not depend on the Backup is reported, naming both and the way to wait", async () => {
    expect(await violations([install, backup, copy([])])).toEqual([
      `InstallCopy stg-to-prod copies over production install ${PROD} and does not depend on Backup before-copy of it, so both run at once and the backup may be taken after the copy: make the change depend on it (add dependsOn: [backup] to the options of stg-to-prod)`,
    ]);
  });

  it("a copy that depends on the Backup, directly or through another resource, passes", async () => {
    expect(await violations([install, backup, copy([backup])])).toEqual([]);
    const between = res("Install", "between", {}, [backup]);
    expect(await violations([install, backup, between, copy([between])])).toEqual([]);
    // By an input (a property dependency) too.
    expect(
      await violations([install, backup, { ...copy([]), propertyDependencies: { x: [backup] } }]),
    ).toEqual([]);
  });
});

describe("the policy config file", () => {
  const tree = useTempTrees("wpe-policy-config-");

  it("reads levels and settings as --policy-pack-config takes them, and names an unknown rule", () => {
    const dir = tree({
      "ok.json": JSON.stringify({
        "wpengine-php-minimum": { enforcementLevel: "mandatory", minimumVersion: "8.2" },
        "wpengine-owner-mfa": "disabled",
      }),
    });
    expect(readPolicyConfig(join(dir, "ok.json"))).toEqual({
      settings: { minimumVersion: "8.2" },
      levels: { "wpengine-php-minimum": "mandatory", "wpengine-owner-mfa": "disabled" },
    });
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ "wpengine-php": "mandatory" }));
    expect(() => readPolicyConfig(join(dir, "bad.json"))).toThrow(/wpengine-php is not a rule of the pack/);
  });

  it("refuses what --policy-pack-config refuses, in one line naming the rule, the field and what it takes", () => {
    const refused = (config: unknown) => {
      const file = join(tree({ "c.json": JSON.stringify(config) }), "c.json");
      try {
        readPolicyConfig(file);
      } catch (err) {
        return (err as Error).message.replace(`${file}: `, "");
      }
      return "accepted";
    };
    const LEVELS = "advisory, mandatory, remediate or disabled";
    expect(refused({ "wpengine-certificate-expiry": { warnDays: "x" } })).toBe(
      'wpengine-certificate-expiry: warnDays takes a number, e.g. 30, not "x"',
    );
    expect(refused({ "wpengine-php-minimum": "mandatroy" })).toBe(
      `wpengine-php-minimum: "mandatroy" is not an enforcement level: give ${LEVELS}`,
    );
    expect(refused({ "wpengine-php-minimum": { enforcementLevel: 1 } })).toBe(
      `wpengine-php-minimum: 1 is not an enforcement level: give ${LEVELS}`,
    );
    expect(refused({ "wpengine-php-minimum": { minimumVersion: 8.5 } })).toBe(
      'wpengine-php-minimum: minimumVersion takes a string, e.g. "8.1", not 8.5',
    );
    expect(refused({ "wpengine-usage-below-plan": { thresholdPercent: null } })).toBe(
      "wpengine-usage-below-plan: thresholdPercent takes a number, e.g. 80, not null",
    );
    expect(refused({ "wpengine-owner-mfa": null })).toBe(
      `wpengine-owner-mfa takes a level (${LEVELS}) or an object of a level, not null`,
    );
    expect(refused({ "wpengine-domain-verified": [7] })).toBe(
      `wpengine-domain-verified takes a level (${LEVELS}) or an object of a level and its settings (graceDays), not [7]`,
    );
    expect(refused([1, 2])).toBe(
      'the file must be a JSON object of rule names, e.g. {"wpengine-php-minimum": {"enforcementLevel": "mandatory", "minimumVersion": "8.2"}} (docs/policy.md), not [1,2]',
    );
    // The engine lets these by and the pack ignores them: a misspelt name would change nothing.
    expect(refused({ "wpengine-owner-mfa": { warnDays: 3 } })).toBe(
      "wpengine-owner-mfa: warnDays is not a setting of the rule (it has none)",
    );
    expect(refused({ "wpengine-certificate-expiry": { warnday: 3 } })).toBe(
      "wpengine-certificate-expiry: warnday is not a setting of the rule (its settings: warnDays)",
    );
    expect(refused({ all: { warnDays: 3 } })).toBe(
      "all: warnDays is not a setting of every rule: all takes a level only",
    );
  });

  it("checks each setting against the pack's own configSchema, as the engine does (JSON Schema)", async () => {
    const { policies } = await import("../../fleet/pack");
    const ajv = new Ajv();
    const schemas = policies.filter((p) => p.configSchema);
    expect(schemas.map((p) => p.name).sort()).toEqual(
      (Object.keys(RULES) as RuleName[]).filter((r) => Object.keys(RULES[r].settings).length).sort(),
    );
    for (const p of schemas) {
      // The engine's wrapping of a policy's schema (pkg/resource/analyzer/config.go, convertSchema).
      const engine = ajv.compile({ type: "object", properties: p.configSchema!.properties });
      for (const [key, field] of Object.entries(p.configSchema!.properties))
        for (const value of [field.default, "x", 8.5, null, true, [1], {}]) {
          const props = { [key]: value };
          let ours = true;
          try {
            parsePolicyConfig({ [p.name]: props });
          } catch {
            ours = false;
          }
          expect(ours, `${p.name}: ${JSON.stringify(props)}`).toBe(engine(props));
        }
    }
  });

  it("takes all's level for every rule, a rule's own above it; remediate; an empty file is no config", () => {
    expect(
      parsePolicyConfig({ "wpengine-owner-mfa": { enforcementLevel: "remediate" }, all: "disabled" }),
    ).toEqual({
      settings: {},
      levels: Object.fromEntries(
        Object.keys(RULES).map((r) => [r, r === "wpengine-owner-mfa" ? "remediate" : "disabled"]),
      ),
    });
    expect(readPolicyConfig(join(tree({ "empty.json": " \n" }), "empty.json"))).toEqual({
      settings: {},
      levels: {},
    });
  });

  it("a rule at remediate shows as mandatory on the page (@pulumi/policy reports a stack policy so)", () => {
    const f = fleet();
    f.users[0]!.mfaEnabled = false;
    const findings = auditFleet(f, {}, NOW).filter((x) => x.rule === "wpengine-owner-mfa");
    const row = (level: "remediate" | "advisory") =>
      /<tr data-id="[^"]*" data-rule="wpengine-owner-mfa">.*?<\/tr>/.exec(
        renderReport(f, findings, { levels: { "wpengine-owner-mfa": level } }),
      )?.[0];
    expect(row("remediate")).toContain('<span class="b bad">mandatory</span>');
    expect(row("advisory")).toContain('<span class="b warn">advisory</span>');
  });

  it("the pack's version is the package's (@pulumi/policy reports it)", () => {
    const root = join(__dirname, "..", "..");
    const version = (f: string) => JSON.parse(readFileSync(join(root, f), "utf8")).version;
    expect(version("policy-pack/package.json")).toBe(version("package.json"));
    expect(Object.keys(RULES)).toHaveLength(10);
  });
});

describe("pulumi-wpengine report's arguments", () => {
  const tree = useTempTrees("wpe-report-args-");

  /** What `report args` says on stderr in `env`, and its exit code. */
  async function report(args: string[], env: NodeJS.ProcessEnv = {}) {
    const { reportMain } = await import("../../fleet/cli");
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => errors.push(s) > 0) as typeof process.stderr.write;
    try {
      return { code: await reportMain(args, env), errors };
    } finally {
      process.stderr.write = write;
    }
  }

  it("refuses a missing --out and missing credentials in one line, before any read", async () => {
    const r = await report([]);
    expect(r.code).toBe(2);
    expect(r.errors.join("")).toContain("--out FILE is required");
    const { code, errors } = await report(["--out", join(tree({}), "fleet.html")]);
    expect(code).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^pulumi-wpengine report: .*WPE_API_USER_ID/);
  });

  it("names an --out whose directory is missing, or that is a directory, before the credentials are read", async () => {
    // No credentials either: the --out line comes first, so nothing was read.
    expect(await report(["--out", "/nonexistent/dir/f.html"])).toEqual({
      code: 2,
      errors: [
        "pulumi-wpengine report: --out /nonexistent/dir/f.html: the directory /nonexistent/dir does not exist: create it, or write the page elsewhere\n",
      ],
    });
    const dir = tree({});
    expect((await report(["--out", dir])).errors).toEqual([
      `pulumi-wpengine report: --out ${dir} is a directory: name the page's file, e.g. ${join(dir, "fleet.html")}\n`,
    ]);
  });

  it("says a missing --policy-config file does not exist, its path and what it is for", async () => {
    const dir = tree({ "bad.json": "{bad" });
    const missing = join(dir, "missing.json");
    expect(await report(["--out", join(dir, "f.html"), "--policy-config", missing])).toEqual({
      code: 2,
      errors: [
        `pulumi-wpengine report: --policy-config: ${missing} does not exist: give the policy pack's config file (the JSON of pulumi preview --policy-pack-config: rule settings and levels, docs/policy.md)\n`,
      ],
    });
    const bad = join(dir, "bad.json");
    expect((await report(["--out", join(dir, "f.html"), "--policy-config", bad])).errors[0]).toMatch(
      `pulumi-wpengine report: --policy-config: ${bad} is not JSON: `,
    );
  });

  it("names an --out through a file, and a --policy-config that is a directory, in one line", async () => {
    const dir = tree({ "index.js": "x" });
    const out = join(dir, "index.js", "x.html");
    for (const through of [out, join(dir, "index.js", "sub", "x.html")])
      expect(await report(["--out", through])).toEqual({
        code: 2,
        errors: [
          `pulumi-wpengine report: --out ${through}: ${join(dir, "index.js")} is a file, not a directory: write the page in a directory, e.g. ${join(dir, "x.html")}\n`,
        ],
      });
    expect(await report(["--out", join(dir, "f.html"), "--policy-config", dir])).toEqual({
      code: 2,
      errors: [
        `pulumi-wpengine report: --policy-config: ${dir} is a directory, not the policy pack's config file (the JSON of pulumi preview --policy-pack-config: rule settings and levels, docs/policy.md)\n`,
      ],
    });
  });

  it("refuses a --policy-config the pack refuses before any read: exit 2, one line", async () => {
    const dir = tree({ "wd.json": '{"wpengine-certificate-expiry":{"warnDays":"x"}}' });
    // No credentials either: the config's line comes first, so nothing was read.
    expect(await report(["--out", join(dir, "f.html"), "--policy-config", join(dir, "wd.json")])).toEqual({
      code: 2,
      errors: [
        `pulumi-wpengine report: --policy-config: ${join(dir, "wd.json")}: wpengine-certificate-expiry: warnDays takes a number, e.g. 30, not "x"\n`,
      ],
    });
  });

  it("a profile without credentials: one line, the command's own prefix only", async () => {
    const { code, errors } = await report(["--out", join(tree({}), "f.html"), "--profile", "nobody"]);
    expect(code).toBe(1);
    expect(errors[0]).toMatch(
      /^pulumi-wpengine report: profile nobody has no API user id: set it in WPE_PROFILES=/,
    );
  });

  it("the usage words --out as required, with an example, not a default", async () => {
    const { REPORT_USAGE } = await import("../../fleet/cli");
    expect(REPORT_USAGE).toContain("--out FILE             the page to write, e.g. fleet.html (required");
  });
});

describe("the API users the policy pack audits as", () => {
  const resources = [
    { type: "pulumi-nodejs:dynamic/wpengine:Domain", props: { profile: "b" } },
    {
      type: "wpengine:index:Install",
      props: {},
      provider: { type: "pulumi:providers:wpengine", props: { profile: "a" } },
    },
    { type: "pulumi:providers:wpengine", props: { profile: "a" } },
    { type: "wpengine:index:Site", props: {} },
    { type: "aws:s3/bucket:Bucket", props: { profile: "not-ours" } },
  ];

  it("each profile the resources or their wpengine providers name, WPE_PROFILE's, the default credentials when set", () => {
    expect(apiUsersOf(resources, {})).toEqual(["a", "b"]);
    expect(apiUsersOf(resources, { WPE_PROFILE: "c", WPE_API_USER_ID: "u", WPE_API_PASSWORD: "p" })).toEqual([
      undefined,
      "a",
      "b",
      "c",
    ]);
    expect(apiUsersOf([], { WPE_API_USER_ID: "u" })).toEqual([]);
    // The simulator's one user serves every profile.
    expect(apiUsersOf(resources, { WPE_SIMULATOR: "true" })).toEqual([undefined]);
  });
});

describe("mergeFleets (report --profile A --profile B)", () => {
  it("adds what only the second API user sees; an account both see is taken once, from the first", () => {
    const a = fleet();
    const b = fleet();
    b.accounts.push({ id: "a2", name: "Beta", plan: [] });
    b.sites.push({ id: "s2", name: "Beta site", accountId: "a2" });
    b.installs.push({ ...b.installs[0]!, id: "i3", name: "beta", accountId: "a2", siteId: "s2" });
    b.domains.push({ ...b.domains[0]!, id: "d3", name: "beta.example", installId: "i3" });
    b.users.push({ ...b.users[0]!, userId: "u9", accountId: "a2" });
    // What the second read of Acme says differs: the first read stands.
    b.domains[0]!.sslStatus = "pending";
    const m = mergeFleets([a, b]);
    expect(m.accounts.map((x) => x.id)).toEqual(["a1", "a2"]);
    expect(m.installs.map((x) => x.id).sort()).toEqual(["i1", "i2", "i3"]);
    expect(m.domains.map((x) => x.id).sort()).toEqual(["d1", "d2", "d3"]);
    expect(m.domains.find((x) => x.id === "d1")!.sslStatus).toBe("active");
    expect(m.certificates).toHaveLength(1);
    expect(m.users.filter((u) => u.accountId === "a1")).toHaveLength(3);
    expect(m.users.filter((u) => u.accountId === "a2")).toHaveLength(1);
  });
});
