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
      expect.arrayContaining([
        "domain-verified",
        "certificate",
        "report-schedules",
        "app-hosting",
        "backups-and-copies",
        "site-moves",
        "offload-storage",
      ]),
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

  it("every resource class has a place in an example", () => {
    const declared = new Set<string>();
    for (const name of fs.readdirSync(EXAMPLES)) {
      const index = path.join(EXAMPLES, name, "index.ts");
      if (!fs.existsSync(index)) continue;
      for (const [, kind] of fs.readFileSync(index, "utf8").matchAll(/new wpengine\.(\w+)\(/g))
        declared.add(kind!);
    }
    // One docs page per resource class (plus the lookups and the wire format).
    const kinds = fs
      .readdirSync(path.join(REPO, "docs"))
      .filter((f) => /^[A-Z]\w+\.md$/.test(f))
      .map((f) => f.replace(/\.md$/, ""));
    expect(kinds.length).toBe(18);
    expect(kinds.filter((k) => !declared.has(k))).toEqual([]);
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

  it.concurrent("app-hosting: an app, two environments, active domain mappings, a cache clear and staging deployed from a directory", async () => {
    const config = {
      accountId: SEED.accounts.acme.id,
      appName: "storefront",
      domain: "storefront.example",
      // The program runs from the packed program directory: point at the example's own site/.
      stagingSource: path.join(EXAMPLES, "app-hosting", "site"),
    };
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
    // Staging runs the uploaded directory: its build succeeded and is listed by the lookup.
    expect(out["stagingBuildState"]).toBe("SUCCEEDED");
    expect(out["stagingBuild"]).toMatch(/\/apps\/storefront\/environments\/staging\/builds\/[^/]+$/);
    expect(out["stagingSourceHash"]).toMatch(/^[0-9a-f]{64}$/);
    expect(out["stagingBuildCount"]).toBeGreaterThanOrEqual(1);
    expect(out["wwwVerified"]).toBeUndefined();
    expectNoChanges(await engine("app-hosting", config).preview());

    // The user's DNS step for www, then the verification.
    const txt = (out["txtRecords"] as { name: string; value: string }[]).find(
      (r) => r.name === "_wpe_verification.www.storefront.example",
    );
    expect(txt).toBeDefined();
    sim.publishTxt(txt!.name, txt!.value);
    const verifying = { ...config, verifyWww: "true", retryIntervalSeconds: "1" };
    const verified = await engine("app-hosting", verifying).up();
    expectOk(verified);
    expect(verified.steps.filter((s) => s.op !== "same").map((s) => [s.name, s.op])).toEqual([
      ["www-verification", "create"],
    ]);
    expect(values(verified)["wwwVerified"]).toBe(true);

    expectNoChanges(await engine("app-hosting", verifying).preview());
    const destroyed = await engine("app-hosting", verifying).destroy();
    expectOk(destroyed);
    expect(destroyed.diagnostics).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^wpengine:DomainMappingVerification .*: forgotten only/),
      ]),
    );
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
    expect(out["backupCount"]).toBeGreaterThanOrEqual(1);
    expect(out["copySummary"]).toEqual(expect.any(String));
    expect(out["restoreSummary"]).toBeUndefined();
    const copies = (await world())["install_copies"] as unknown as { destination_environment_id: string }[];
    expect(copies.map((c) => c.destination_environment_id)).toContain(SEED.installs.acmestg.id);
    const backupId = out["backupId"] as string;
    expect((await world())["backups"]?.[backupId]).toMatchObject({ install_id: SEED.installs.acmestg.id });
    expectNoChanges(await engine("backups-and-copies", config).preview());

    // The rollback: the preview states what will be restored, and up restores staging from the backup.
    const withRollback = { ...config, rollback: "1" };
    const plan = await engine("backups-and-copies", withRollback).preview();
    expectOk(plan);
    expect(plan.steps.filter((s) => s.op !== "same").map((s) => [s.name, s.op])).toEqual([
      ["staging-rollback", "create"],
    ]);
    const restores = async () =>
      (await world())["restores"] as unknown as { install_id: string; backup_id: string }[];
    const before = (await restores()).length;
    const rolled = await engine("backups-and-copies", withRollback).up();
    expectOk(rolled);
    const summary = values(rolled)["restoreSummary"] as string;
    expect(summary).toMatch(/^DESTRUCTIVE: restore install /);
    expect(summary).toContain(SEED.installs.acmestg.id);
    expect(summary).toContain(backupId);
    expect(Date.parse(values(rolled)["restoredAt"] as string)).not.toBeNaN();
    const after = await restores();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ install_id: SEED.installs.acmestg.id, backup_id: backupId });
    expectNoChanges(await engine("backups-and-copies", withRollback).preview());

    expectOk(await engine("backups-and-copies", withRollback).destroy());
    expect(engine("backups-and-copies", config).state().resources).toEqual([]);
    // Every delete only forgets: the backup stays in the install's list, nothing is restored again.
    expect((await world())["backups"]?.[backupId]).toBeDefined();
    expect((await restores()).length).toBe(before + 1);
  }, 120_000);
  it.concurrent("site-moves: an install placed in a site, then the site's scheduled transfer, cancelled by destroy", async () => {
    const transferAt = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const config = {
      installId: SEED.installs.acmedev.id,
      siteId: SEED.sites.acmeBlog.id,
      destinationAccountId: SEED.accounts.initech.id,
      transferAt,
    };
    // An install of another account: the program says so before anything is sent.
    const wrong = await engine("site-moves", { ...config, installId: SEED.installs.globexprod.id }).preview();
    expect(wrong.ok).toBe(false);
    expect(wrong.errors.join("\n")).toMatch(/config installId: install globexprod belongs to account/);
    // A time outside the 1 hour to 7 days window is refused at preview, naming the input.
    const tooSoon = new Date(Date.now() + 600_000).toISOString();
    const early = await engine("site-moves", { ...config, transferAt: tooSoon }).preview();
    expect(early.ok).toBe(false);
    expect(early.errors.join("\n")).toMatch(/scheduledTime/);
    // Only the seeded (cancelled) transfer exists: nothing was sent.
    expect(Object.keys((await world())["site_transfers"] ?? {})).toEqual([
      SEED.siteTransfers.acmeBlogCancelled.id,
    ]);

    const up = await engine("site-moves", config).up();
    expectOk(up);
    const out = values(up);
    expect(out["placedInstall"]).toBe(`acmedev: site ${SEED.sites.acmeBlog.id} (staging)`);
    expect(out["transferStatus"]).toBe("scheduled");
    expect(Date.parse(out["transferScheduledTime"] as string)).toBe(Date.parse(transferAt));
    // The transfer takes the site's installs, the re-homed one included.
    expect(out["transferredInstalls"]).toEqual(expect.arrayContaining(["acmeblog", "acmedev"]));
    expect(out["transferRoute"]).toBe("Acme Blog: Acme Corp -> Initech");
    expect(out["siteAccountTransferCount"]).toBeGreaterThanOrEqual(2);
    const transferId = out["transferId"] as string;
    expect((await world())["installs"]?.[SEED.installs.acmedev.id]).toMatchObject({
      site_id: SEED.sites.acmeBlog.id,
      environment: "staging",
    });

    expectNoChanges(await engine("site-moves", config).preview());
    const destroyed = await engine("site-moves", config).destroy();
    expectOk(destroyed);
    // Each delete says what it did on the service.
    expect(destroyed.diagnostics).toEqual(
      expect.arrayContaining([
        `wpengine:SiteTransfer ${transferId}: cancelled on the service (it was scheduled)`,
        `wpengine:InstallPlacement ${SEED.installs.acmedev.id}: forgotten only, nothing sent to the service: install acmedev stays in site ${SEED.sites.acmeBlog.id} as its staging install`,
      ]),
    );
    expect(engine("site-moves", config).state().resources).toEqual([]);
    const w = await world();
    // The scheduled transfer was cancelled; the placement only forgot: the install stays where it was moved.
    expect(w["site_transfers"]?.[transferId]).toMatchObject({ cancelled_at: expect.any(Number) });
    expect(w["installs"]?.[SEED.installs.acmedev.id]).toMatchObject({
      site_id: SEED.sites.acmeBlog.id,
      environment: "staging",
    });
    expect(w["sites"]?.[SEED.sites.acmeBlog.id]).toMatchObject({ account_id: SEED.accounts.acme.id });
  }, 120_000);
  it.concurrent("offload-storage: uploads served from a bucket, applied before up returns; destroy forgets", async () => {
    const config = { installId: SEED.installs.globexstg.id, bucket: "globex-staging-uploads" };
    const up = await engine("offload-storage", config).up();
    expectOk(up);
    const out = values(up);
    expect(out["offloadStatus"]).toBe("applied");
    expect(out["offloadedPaths"]).toEqual(["wp-content/uploads/"]);
    expect(out["servedBy"]).toBe("globexstg: s3://globex-staging-uploads (us-east-1)");
    const live = () => world().then((w) => w["offload_settings"]?.[SEED.installs.globexstg.id]);
    expect(await live()).toMatchObject({
      settings: expect.objectContaining({ bucket: "globex-staging-uploads" }),
    });

    expectNoChanges(await engine("offload-storage", config).preview());
    expectOk(await engine("offload-storage", config).destroy());
    expect(engine("offload-storage", config).state().resources).toEqual([]);
    // Nothing deletes offload settings: the install keeps them.
    expect(await live()).toMatchObject({
      settings: expect.objectContaining({ bucket: "globex-staging-uploads" }),
    });
  }, 120_000);
});
