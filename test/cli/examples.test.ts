/**
 * The runnable examples (`examples/<name>`) under the real `pulumi` CLI, as a user runs them: the
 * TypeScript program run by the CLI itself, from a project directory with the packed package installed,
 * against the simulator, with the config each README gives for the simulator. Each one: `up` gives the
 * outputs a user relies on, a preview plans nothing (with and without a refresh: no phantom drift),
 * `destroy` leaves nothing behind where the resource's delete really deletes, and what cannot be deleted
 * says so in the CLI's diagnostics. (The quickstart has its own file.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { tempDir } from "../../tools/cli/pack";
import { CliProject, changes, REPO } from "../../tools/cli/project";
import { CASES } from "../engine/cases";
import { selfSigned } from "../fixtures/self-signed";
import { demoConfig } from "../support/simulator";

const EXAMPLES = path.join(REPO, "examples");

describe("examples under the pulumi CLI and the simulator", { timeout: 15 * 60_000 }, () => {
  let sim: RunningSimulator;
  let certDir: string;
  const projects: CliProject[] = [];

  /** A stack of one example with the simulator config of its README plus `config` (its own keys). */
  const example = async (
    name: string,
    config: Record<string, string>,
    secrets: Record<string, string> = {},
  ) => {
    const project = await CliProject.create({
      from: path.join(EXAMPLES, name),
      config: {
        ...demoConfig(sim),
        ...config,
      },
      secrets: { "wpengine:password": "demo", ...secrets },
      // Type-checking is `npm run typecheck`'s job; the CLI runs the same TypeScript, transpiled.
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
    });
    projects.push(project);
    return project;
  };

  /** up, then the checks every example shares: no changes planned, none found by a refresh. */
  const upSettled = async (project: CliProject) => {
    const { outputs, result } = await project.up();
    await project.expectNoChanges(["--refresh"]);
    return { out: outputs, result };
  };

  /** The simulator's whole world (control API). */
  const world = async (): Promise<Record<string, Record<string, unknown>>> => {
    const res = await fetch(`${sim.url}/__sim/state`);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, Record<string, unknown>>;
  };

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    certDir = tempDir("wpe-examples-cert-");
  }, 300_000);

  afterAll(async () => {
    for (const p of projects) p.dispose();
    await sim?.stop();
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
        "sites-and-installs",
      ]),
    );
    // The quickstart has its own file; the Python and Go quickstarts their own tier (languages.test.ts).
    for (const name of names.filter((n) => !["quickstart", "python", "go"].includes(n))) {
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
    // Every resource class of the package (each has a case: test/program/registrations.test.ts).
    expect(kinds.sort()).toEqual(CASES.map((c) => c.kind).sort());
    expect(kinds.filter((k) => !declared.has(k))).toEqual([]);
  });

  it.concurrent("domain-verified: the domain, then its verification once the TXT record is published, and a sharing link", async () => {
    const project = await example("domain-verified", {
      installId: SEED.installs.acmeprod.id,
      domainName: "shop.acme.example",
      retryIntervalSeconds: "1",
    });
    const { out } = await upSettled(project);
    expect(out["ownershipStatus"]).toBe("TXT_VERIFICATION_PENDING");
    expect(out["txtRecordName"]).toBe("_wpe_verification.shop.acme.example");
    expect(out["txtRecordValue"]).toEqual(expect.any(String));
    expect(out["domainVerifiedTime"]).toBeUndefined();
    const domainId = out["domainId"] as string;

    // The user's DNS step, then the verification.
    sim.publishTxt(out["txtRecordName"] as string, out["txtRecordValue"] as string);
    // With the verification, a sharing link for whoever holds the DNS (the simulator's new domains are on AN).
    await project.setConfig({ verify: "true", shareLink: "true" });
    expect(changes(await project.preview())).toEqual(["domain: create", "domain: create"]);
    const verified = await upSettled(project);
    expect(verified.out["ownershipStatus"]).toBe("TXT_VERIFIED");
    expect(verified.out["sharingLink"]).toMatch(/^https:\/\//);
    expect(Date.parse(verified.out["domainVerifiedTime"] as string)).not.toBeNaN();
    expect((await world())["domains"]?.[domainId]).toBeDefined();

    const destroyed = await project.destroy();
    expect(await project.resources()).toEqual([]);
    // Domain's delete deletes it; the verification only forgets, and says so.
    expect((await world())["domains"]?.[domainId]).toBeUndefined();
    expect(destroyed.stdout).toMatch(/wpengine:DomainVerification .*: forgotten only/);
  });

  it.concurrent("certificate: imports the PEM chain read from a file, with the key from secret config", async () => {
    const pair = selfSigned(["www.acme.example", "acme.example"]);
    const certificatePath = path.join(certDir, "chain.pem");
    fs.writeFileSync(certificatePath, pair.certificate);
    const project = await example(
      "certificate",
      { installId: SEED.installs.acmeprod.id, certificatePath },
      { privateKey: pair.privateKey },
    );
    const { out } = await upSettled(project);
    expect(out["subject"]).toContain("CN=www.acme.example");
    expect(out["names"]).toEqual(expect.arrayContaining(["www.acme.example", "acme.example"]));
    expect(Date.parse(out["notAfter"] as string)).toBeGreaterThan(Date.now());
    expect(out["fingerprint"]).toMatch(/[0-9A-Fa-f]{2}(:?[0-9A-Fa-f]{2}){19,}/);
    expect((await world())["certificates"]?.[SEED.installs.acmeprod.id]).toBeDefined();
    // The key is in the exported state only encrypted.
    const keyLine = pair.privateKey.split("\n")[1]!;
    expect(await project.exportText()).not.toContain(keyLine);

    const destroyed = await project.destroy();
    expect(await project.resources()).toEqual([]);
    // Nothing deletes an imported certificate: the install keeps serving it, and destroy says so.
    expect((await world())["certificates"]?.[SEED.installs.acmeprod.id]).toBeDefined();
    expect(destroyed.stdout).toMatch(/wpengine:ThirdPartyCertificate .*: forgotten only/);
    expect(destroyed.stdout + destroyed.stderr).not.toContain(keyLine);
  });

  it.concurrent("report-schedules: a weekly and a monthly schedule from the account's templates", async () => {
    const firstReportDate = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const project = await example("report-schedules", {
      accountId: SEED.accounts.acme.id,
      siteId: SEED.sites.acmeMarketing.id,
      firstReportDate,
      recipientEmail: "reports@acme.example",
    });
    const { out } = await upSettled(project);
    expect(out["templateSections"]).toEqual({
      [SEED.templates.siteReport.name]: SEED.templates.siteReport.sections,
      [SEED.templates.performanceReport.name]: SEED.templates.performanceReport.sections,
    });
    expect(out["monthlySections"]).toEqual(["cover", "overview", "usage", "themes"]);
    const ids = [out["weeklyScheduleId"], out["monthlyScheduleId"]] as string[];
    const schedules = (await world())["report_schedules"]!;
    for (const id of ids) expect(schedules[id]).toBeDefined();

    await project.destroy();
    const after = (await world())["report_schedules"]!;
    for (const id of ids) expect(after[id]).toBeUndefined();
    // The seeded schedule is untouched.
    expect(after[SEED.reportSchedules.acmeMonthly.uuid]).toBeDefined();
  });

  it.concurrent("app-hosting: an app, two environments, active domain mappings, a cache clear and staging deployed from a directory", async () => {
    const project = await example("app-hosting", {
      accountId: SEED.accounts.acme.id,
      appName: "storefront",
      domain: "storefront.example",
    });
    const { out } = await upSettled(project);
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
    // Staging runs the uploaded site/ directory (the example's default): its build succeeded.
    expect(out["stagingBuildState"]).toBe("SUCCEEDED");
    expect(out["stagingBuild"]).toMatch(/\/apps\/storefront\/environments\/staging\/builds\/[^/]+$/);
    expect(out["stagingSourceHash"]).toMatch(/^[0-9a-f]{64}$/);
    expect(out["stagingBuildCount"]).toBeGreaterThanOrEqual(1);
    expect(out["wwwVerified"]).toBeNull();

    // The user's DNS step for www, then the verification.
    const txt = (out["txtRecords"] as { name: string; value: string }[]).find(
      (r) => r.name === "_wpe_verification.www.storefront.example",
    );
    expect(txt).toBeDefined();
    sim.publishTxt(txt!.name, txt!.value);
    await project.setConfig({ verifyWww: "true", retryIntervalSeconds: "1" });
    expect(changes(await project.preview())).toEqual(["www-verification: create"]);
    const verified = await upSettled(project);
    expect(verified.out["wwwVerified"]).toBe(true);

    const destroyed = await project.destroy();
    expect(destroyed.stdout).toMatch(/wpengine:DomainMappingVerification .*: forgotten only/);
    const w = await world();
    // The app's delete takes its environments and mappings with it.
    expect(JSON.stringify([w["apps"], w["environments"], w["domain_mappings"]])).not.toContain("storefront");
    expect(JSON.stringify(w["apps"])).toContain("acme-frontend");
  });

  it.concurrent("backups-and-copies: a completed backup, then a copy of production over staging, then a rollback", async () => {
    const project = await example("backups-and-copies", {
      productionInstallId: SEED.installs.acmeprod.id,
      stagingInstallId: SEED.installs.acmestg.id,
      notificationEmail: "ops@acme.example",
    });
    const { out } = await upSettled(project);
    expect(out["backupStatus"]).toBe("completed");
    expect(out["copied"]).toBe("acmeprod -> acmestg");
    expect(out["backupCount"]).toBeGreaterThanOrEqual(1);
    expect(out["copySummary"]).toEqual(expect.any(String));
    expect(out["restoreSummary"]).toBeNull();
    const copies = (await world())["install_copies"] as unknown as { destination_environment_id: string }[];
    expect(copies.map((c) => c.destination_environment_id)).toContain(SEED.installs.acmestg.id);
    const backupId = out["backupId"] as string;
    expect((await world())["backups"]?.[backupId]).toMatchObject({ install_id: SEED.installs.acmestg.id });

    // The rollback: the preview states what will be restored, and up restores staging from the backup.
    await project.setConfig({ rollback: "1" });
    const plan = await project.run(["preview", "--diff"]);
    expect(plan.stdout).toMatch(/\+ pulumi-nodejs:dynamic\/wpengine:BackupRestore: \(create\)/);
    expect(plan.stdout).toMatch(/summary\s*: "DESTRUCTIVE: restore install/);
    const restores = async () =>
      (await world())["restores"] as unknown as { install_id: string; backup_id: string }[];
    const before = (await restores()).length;
    const rolled = await upSettled(project);
    const summary = rolled.out["restoreSummary"] as string;
    expect(summary).toMatch(/^DESTRUCTIVE: restore install /);
    expect(summary).toContain(SEED.installs.acmestg.id);
    expect(summary).toContain(backupId);
    expect(Date.parse(rolled.out["restoredAt"] as string)).not.toBeNaN();
    const after = await restores();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)).toMatchObject({ install_id: SEED.installs.acmestg.id, backup_id: backupId });

    const destroyed = await project.destroy();
    expect(await project.resources()).toEqual([]);
    // Every delete only forgets, and says so: the backup stays, nothing is restored again.
    expect((await world())["backups"]?.[backupId]).toBeDefined();
    expect((await restores()).length).toBe(before + 1);
    expect(destroyed.stdout).toMatch(/wpengine:Backup .*: forgotten only/);
  });

  it.concurrent("site-moves: an install placed in a site, then the site's scheduled transfer, cancelled by destroy", async () => {
    const transferAt = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const config = {
      installId: SEED.installs.acmedev.id,
      siteId: SEED.sites.acmeBlog.id,
      destinationAccountId: SEED.accounts.initech.id,
      transferAt,
    };
    const project = await example("site-moves", { ...config, installId: SEED.installs.globexprod.id });
    // An install of another account: the program says so before anything is sent.
    const wrong = await project.run(["preview"], { allowFail: true });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(/config installId: install globexprod belongs to account/);
    // A time outside the 1 hour to 7 days window is refused at preview, naming the input.
    await project.setConfig({
      installId: config.installId,
      transferAt: new Date(Date.now() + 600_000).toISOString(),
    });
    const early = await project.run(["preview"], { allowFail: true });
    expect(early.code).not.toBe(0);
    expect(early.stdout).toMatch(/scheduledTime/);
    // Only the seeded (cancelled) transfer exists: nothing was sent.
    expect(Object.keys((await world())["site_transfers"] ?? {})).toEqual([
      SEED.siteTransfers.acmeBlogCancelled.id,
    ]);

    await project.setConfig({ transferAt });
    const { out } = await upSettled(project);
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

    const destroyed = await project.destroy();
    // Each delete says what it did on the service, in the CLI's diagnostics.
    expect(destroyed.stdout).toContain(
      `wpengine:SiteTransfer ${transferId}: cancelled on the service (it was scheduled)`,
    );
    expect(destroyed.stdout).toContain(
      `wpengine:InstallPlacement ${SEED.installs.acmedev.id}: forgotten only, nothing sent to the service`,
    );
    expect(await project.resources()).toEqual([]);
    const w = await world();
    expect(w["site_transfers"]?.[transferId]).toMatchObject({ cancelled_at: expect.any(Number) });
    expect(w["installs"]?.[SEED.installs.acmedev.id]).toMatchObject({
      site_id: SEED.sites.acmeBlog.id,
      environment: "staging",
    });
    expect(w["sites"]?.[SEED.sites.acmeBlog.id]).toMatchObject({ account_id: SEED.accounts.acme.id });
  });

  it.concurrent("offload-storage: uploads served from a bucket, applied before up returns; destroy forgets", async () => {
    const project = await example("offload-storage", {
      installId: SEED.installs.globexstg.id,
      bucket: "globex-staging-uploads",
    });
    const { out } = await upSettled(project);
    expect(out["offloadStatus"]).toBe("applied");
    expect(out["offloadedPaths"]).toEqual(["wp-content/uploads/"]);
    expect(out["servedBy"]).toBe("globexstg: s3://globex-staging-uploads (us-east-1)");
    const live = () => world().then((w) => w["offload_settings"]?.[SEED.installs.globexstg.id]);
    expect(await live()).toMatchObject({
      settings: expect.objectContaining({ bucket: "globex-staging-uploads" }),
    });

    const destroyed = await project.destroy();
    expect(await project.resources()).toEqual([]);
    // Nothing deletes offload settings: the install keeps them, and destroy says so.
    expect(await live()).toMatchObject({
      settings: expect.objectContaining({ bucket: "globex-staging-uploads" }),
    });
    expect(destroyed.stdout).toMatch(/wpengine:OffloadSettings .*: forgotten only/);
  });

  it.concurrent("sites-and-installs: a site with production and staging installs, guarded against destroy", async () => {
    const project = await example("sites-and-installs", {
      accountId: SEED.accounts.initech.id,
      productionName: "initechblog",
      stagingName: "initechblogstg",
    });
    const { out } = await upSettled(project);
    expect(out["productionStatus"]).toBe("active");
    expect(out["siteInstalls"]).toEqual(
      expect.arrayContaining(["initechblog (production)", "initechblogstg (staging)"]),
    );
    const siteId = out["siteId"] as string;
    expect((await world())["sites"]?.[siteId]).toBeDefined();

    // The deletion guard: destroy refuses and deletes nothing.
    const guarded = await project.run(["destroy", "--yes", "--skip-preview"], { allowFail: true });
    expect(guarded.code).not.toBe(0);
    expect(guarded.stdout).toMatch(/deletionProtection/);
    expect((await world())["sites"]?.[siteId]).toBeDefined();

    // Turned off by the documented steps, destroy deletes the site and its installs.
    await project.setConfig({ deletionProtection: "false" });
    await project.up();
    await project.destroy();
    expect(await project.resources()).toEqual([]);
    const w = await world();
    expect(w["sites"]?.[siteId]).toBeUndefined();
    expect(JSON.stringify(w["installs"])).not.toMatch(/initechblog/);
  });
});
