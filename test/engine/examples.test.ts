/**
 * The runnable examples (`examples/<name>/index.ts`) as a user runs them: compiled to CommonJS, run from
 * a program directory with the packed package installed, through the local engine (the real dynamic-
 * provider plugin) against the simulator, with the config each README gives for the simulator. Each one:
 * `up` gives the outputs a user relies on, a second `preview` plans nothing, `destroy` leaves nothing
 * behind where the resource's delete really deletes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { type EngineSummary, formatSummary, LocalEngine } from "../../tools/engine";
import { selfSigned } from "../fixtures/self-signed";
import { type PackedProgram, packedProgram, REPO, tempDir } from "./pack";

const EXAMPLES = path.join(REPO, "examples");

/** The example's `index.ts` compiled to CommonJS, written into the program directory. */
function compile(packed: PackedProgram, name: string): string {
  const source = fs.readFileSync(path.join(EXAMPLES, name, "index.ts"), "utf8");
  const out = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      strict: true,
    },
    fileName: `${name}.ts`,
  });
  return packed.writeProgram(`example-${name}`, out.outputText);
}

/** `name:` of the example's Pulumi.yaml (the namespace of its own config keys). */
function projectOf(name: string): string {
  const yaml = fs.readFileSync(path.join(EXAMPLES, name, "Pulumi.yaml"), "utf8");
  const project = /^name:\s*(\S+)\s*$/m.exec(yaml)?.[1];
  if (!project) throw new Error(`examples/${name}/Pulumi.yaml has no name`);
  return project;
}

/** Every value of a summary's outputs, unwrapped. */
function values(s: EngineSummary): Record<string, unknown> {
  return Object.fromEntries(Object.entries(s.outputs).map(([k, v]) => [k, v.value]));
}

function expectOk(s: EngineSummary): void {
  if (!s.ok || s.errors.length > 0) console.log(formatSummary(s));
  expect(s.errors).toEqual([]);
  expect(s.ok).toBe(true);
}

function expectNoChanges(s: EngineSummary): void {
  expectOk(s);
  expect(
    s.steps.filter((x) => x.op !== "same").map((x) => `${x.name}: ${x.op} ${x.changedKeys.join(",")}`),
  ).toEqual([]);
}

describe("examples through the local engine and the simulator", () => {
  let packed: PackedProgram;
  let sim: RunningSimulator;
  let stateDir: string;
  let certDir: string;

  /** A local engine for one example, with the simulator config of its README plus `config` (the example's own keys). */
  const engine = (name: string, config: Record<string, string>, secretKeys: string[] = []) => {
    const project = projectOf(name);
    const own = Object.fromEntries(Object.entries(config).map(([k, v]) => [`${project}:${k}`, v]));
    return new LocalEngine({
      programDir: packed.dir,
      program: `example-${name}.js`,
      project,
      stack: "dev",
      stateFile: path.join(stateDir, `${name}.json`),
      config: {
        "wpengine:apiUrl": sim.apiUrl,
        "wpengine:appHostingUrl": sim.appHostingUrl,
        "wpengine:username": "demo",
        "wpengine:password": "demo",
        ...own,
      },
      secretConfigKeys: ["wpengine:password", ...secretKeys.map((k) => `${project}:${k}`)],
      passphrase: "examples-test",
      pluginTimeouts: { quickMs: 30_000, crudMs: 60_000 },
      programTimeoutMs: 60_000,
    });
  };

  /** The simulator's whole world (control API). */
  const world = async (): Promise<Record<string, Record<string, unknown>>> => {
    const res = await fetch(`${sim.url}/__sim/state`);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, Record<string, unknown>>;
  };

  beforeAll(async () => {
    packed = await packedProgram();
    sim = await startSimulator({ port: 0, quiet: true });
    stateDir = tempDir("wpe-examples-state-");
    certDir = tempDir("wpe-examples-cert-");
    for (const name of fs.readdirSync(EXAMPLES)) {
      if (fs.existsSync(path.join(EXAMPLES, name, "index.ts")) && name !== "quickstart")
        compile(packed, name);
    }
  }, 300_000);

  afterAll(async () => {
    await sim?.stop();
    if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
    if (certDir) fs.rmSync(certDir, { recursive: true, force: true });
  });

  it("every example has Pulumi.yaml, index.ts and a README naming its config keys", () => {
    const names = fs.readdirSync(EXAMPLES).filter((n) => fs.statSync(path.join(EXAMPLES, n)).isDirectory());
    expect(names).toEqual(
      expect.arrayContaining(["domain-verified", "certificate", "report-schedules", "app-hosting"]),
    );
    for (const name of names.filter((n) => n !== "quickstart")) {
      const dir = path.join(EXAMPLES, name);
      const yaml = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
      expect(yaml).toMatch(/^runtime: nodejs$/m);
      expect(yaml).toMatch(/^description: \S/m);
      const index = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
      expect(index).toContain('import * as wpengine from "pulumi-wpengine"');
      const readme = fs.readFileSync(path.join(dir, "README.md"), "utf8");
      for (const [, kind, key] of index.matchAll(/config\.(require|get)\w*\("(\w+)"\)/g)) {
        // Required keys get a `pulumi config set` line; optional ones are at least documented.
        if (kind === "require") {
          expect(readme, `examples/${name}/README.md sets ${key}`).toMatch(
            new RegExp(`config set (--secret )?${key}\\b`),
          );
        } else expect(readme, `examples/${name}/README.md documents ${key}`).toContain(`\`${key}\``);
      }
      for (const key of [
        "wpengine:apiUrl",
        "wpengine:appHostingUrl",
        "wpengine:username",
        "wpengine:password",
      ]) {
        expect(readme, `examples/${name}/README.md sets ${key}`).toContain(key);
      }
    }
  });

  it.concurrent("domain-verified: the domain, then its verification once the TXT record is published", async () => {
    const config = {
      installId: SEED.installs.acmeprod.id,
      domainName: "shop.acme.example",
      retryIntervalSeconds: "1",
    };
    const first = await engine("domain-verified", config).up();
    expectOk(first);
    const out = values(first);
    expect(out["ownershipStatus"]).toBe("TXT_VERIFICATION_PENDING");
    expect(out["txtRecordName"]).toBe("_wpe_verification.shop.acme.example");
    expect(out["txtRecordValue"]).toEqual(expect.any(String));
    expect(out["domainVerifiedTime"]).toBeUndefined();
    const domainId = out["domainId"] as string;

    // The user's DNS step.
    sim.publishTxt(out["txtRecordName"] as string, out["txtRecordValue"] as string);
    const verified = await engine("domain-verified", { ...config, verify: "true" }).up();
    expectOk(verified);
    expect(verified.steps.map((s) => [s.name, s.op])).toEqual([
      ["domain", "same"],
      ["domain", "create"],
    ]);
    expect(values(verified)["ownershipStatus"]).toBe("TXT_VERIFIED");
    expect(Date.parse(values(verified)["domainVerifiedTime"] as string)).not.toBeNaN();
    expect((await world())["domains"]?.[domainId]).toBeDefined();

    expectNoChanges(await engine("domain-verified", { ...config, verify: "true" }).preview());
    const destroyed = await engine("domain-verified", { ...config, verify: "true" }).destroy();
    expectOk(destroyed);
    expect(engine("domain-verified", config).state().resources).toEqual([]);
    // Domain's delete deletes it; the verification only forgets.
    expect((await world())["domains"]?.[domainId]).toBeUndefined();
  }, 120_000);

  it.concurrent("certificate: imports the PEM chain read from a file, with the key from secret config", async () => {
    const pair = selfSigned(["www.acme.example", "acme.example"]);
    const certificatePath = path.join(certDir, "chain.pem");
    fs.writeFileSync(certificatePath, pair.certificate);
    const config = { installId: SEED.installs.acmeprod.id, certificatePath, privateKey: pair.privateKey };
    const up = await engine("certificate", config, ["privateKey"]).up();
    expectOk(up);
    const out = values(up);
    expect(out["subject"]).toContain("CN=www.acme.example");
    expect(out["names"]).toEqual(expect.arrayContaining(["www.acme.example", "acme.example"]));
    expect(Date.parse(out["notAfter"] as string)).toBeGreaterThan(Date.now());
    expect(out["fingerprint"]).toMatch(/[0-9A-Fa-f]{2}(:?[0-9A-Fa-f]{2}){19,}/);
    expect((await world())["certificates"]?.[SEED.installs.acmeprod.id]).toBeDefined();
    // The key stays encrypted in the state file.
    const stateText = fs.readFileSync(path.join(stateDir, "certificate.json"), "utf8");
    expect(stateText).not.toContain(pair.privateKey.split("\n")[1]);

    expectNoChanges(await engine("certificate", config, ["privateKey"]).preview());
    const destroyed = await engine("certificate", config, ["privateKey"]).destroy();
    expectOk(destroyed);
    expect(engine("certificate", config).state().resources).toEqual([]);
    // Nothing deletes an imported certificate: the install keeps serving it.
    expect((await world())["certificates"]?.[SEED.installs.acmeprod.id]).toBeDefined();
  }, 120_000);

  it.concurrent("report-schedules: a weekly and a monthly schedule from the account's templates", async () => {
    const firstReportDate = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const config = {
      accountId: SEED.accounts.acme.id,
      siteId: SEED.sites.acmeMarketing.id,
      firstReportDate,
      recipientEmail: "reports@acme.example",
    };
    const up = await engine("report-schedules", config).up();
    expectOk(up);
    const out = values(up);
    expect(out["templateSections"]).toEqual({
      [SEED.templates.siteReport.name]: SEED.templates.siteReport.sections,
      [SEED.templates.performanceReport.name]: SEED.templates.performanceReport.sections,
    });
    expect(out["monthlySections"]).toEqual(["cover", "overview", "usage", "themes"]);
    const ids = [out["weeklyScheduleId"], out["monthlyScheduleId"]] as string[];
    const schedules = (await world())["report_schedules"]!;
    for (const id of ids) expect(schedules[id]).toBeDefined();

    expectNoChanges(await engine("report-schedules", config).preview());
    expectOk(await engine("report-schedules", config).destroy());
    const after = (await world())["report_schedules"]!;
    for (const id of ids) expect(after[id]).toBeUndefined();
    // The seeded schedule is untouched.
    expect(after[SEED.reportSchedules.acmeMonthly.uuid]).toBeDefined();
  }, 120_000);

  it.concurrent("app-hosting: an app, two environments, active domain mappings and a cache clear", async () => {
    const config = { accountId: SEED.accounts.acme.id, appName: "storefront", domain: "storefront.example" };
    const up = await engine("app-hosting", config).up();
    expectOk(up);
    const out = values(up);
    expect(out["primaryDomain"]).toBe("www.storefront.example");
    expect(out["mappingStates"]).toEqual({
      "www.storefront.example": "ACTIVE",
      "storefront.example": "ACTIVE",
    });
    expect(out["environments"]).toEqual([
      expect.stringContaining("production"),
      expect.stringContaining("staging"),
    ]);
    expect(Date.parse(out["cacheClearedAt"] as string)).not.toBeNaN();
    expect(JSON.stringify((await world())["apps"])).toContain("storefront");

    expectNoChanges(await engine("app-hosting", config).preview());
    expectOk(await engine("app-hosting", config).destroy());
    const w = await world();
    // The app's delete takes its environments and mappings with it.
    expect(JSON.stringify([w["apps"], w["environments"], w["domain_mappings"]])).not.toContain("storefront");
    expect(JSON.stringify(w["apps"])).toContain("acme-frontend");
  }, 120_000);

  it.concurrent("backups-and-copies: a completed backup, then a copy of production over staging", async () => {
    const config = {
      productionInstallId: SEED.installs.acmeprod.id,
      stagingInstallId: SEED.installs.acmestg.id,
      notificationEmail: "ops@acme.example",
    };
    const up = await engine("backups-and-copies", config).up();
    expectOk(up);
    const out = values(up);
    expect(out["backupStatus"]).toBe("completed");
    expect(out["copied"]).toBe("acmeprod -> acmestg");
    expect(out["backupCount"]).toBeGreaterThanOrEqual(3);
    expect(out["copySummary"]).toEqual(expect.any(String));
    const copies = (await world())["install_copies"] as unknown as { destination_environment_id: string }[];
    expect(copies.map((c) => c.destination_environment_id)).toContain(SEED.installs.acmestg.id);

    expectNoChanges(await engine("backups-and-copies", config).preview());
    expectOk(await engine("backups-and-copies", config).destroy());
    expect(engine("backups-and-copies", config).state().resources).toEqual([]);
    // Both deletes only forget: the backup stays in the install's list.
    expect((await world())["backups"]?.[out["backupId"] as string]).toBeDefined();
  }, 120_000);
});
