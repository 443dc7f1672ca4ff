/**
 * The shipped policy pack on the real CLI (docs/policy.md): `pulumi preview --policy-pack
 * node_modules/pulumi-wpengine/policy-pack` on a program that copies an install over production without
 * waiting for its backup (no dependsOn: the engine would run both at once) and declares an unprotected
 * site, against an account whose production install runs PHP 7.4 (and that breaks every audit rule):
 * each violation is reported by rule and object, the mandatory ones fail the preview. The same program
 * with the rules met, against an account that meets them, passes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RULES } from "../../fleet/rules";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject } from "../../tools/cli/project";
import { breakingWorld, cleanWorld, POLICY_IDS, worldFile } from "../fixtures/policy-world";

const PROD = SEED.installs.acmeprod.id;
const STG = SEED.installs.acmestg.id;
const ACME = SEED.accounts.acme.id;

const program = (met: boolean) => `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.Site("brochure", { accountId: "${ACME}", name: "Brochure"${met ? "" : ", deletionProtection: false"} });
const before = new wpengine.Backup("before-copy", { installId: "${PROD}", description: "Before the copy from staging", notificationEmails: ["ops@acme.example"] });
new wpengine.InstallCopy("stg-to-prod", {
  sourceEnvironmentId: "${STG}",
  destinationEnvironmentId: "${PROD}",
  notificationEmails: ["ops@acme.example"],
}${met ? ", { dependsOn: [before] }" : ""});
`;

const sims: RunningSimulator[] = [];
afterAll(async () => {
  for (const s of sims) await s.stop();
});

async function project(name: string, met: boolean, world: ReturnType<typeof cleanWorld>) {
  const sim = await startSimulator({ port: 0, quiet: true, stateFile: worldFile(world) });
  sims.push(sim);
  const creds = {
    WPE_API_URL: sim.apiUrl,
    WPE_APP_HOSTING_URL: sim.appHostingUrl,
    WPE_API_USER_ID: "demo",
    WPE_API_PASSWORD: "demo",
  };
  const p = await CliProject.create({
    files: { "index.js": program(met), "package.json": `{ "name": "${name}", "main": "index.js" }\n` },
    name,
    env: creds,
    config: { "wpengine:apiUrl": sim.apiUrl, "wpengine:appHostingUrl": sim.appHostingUrl },
  });
  // The PHP rule is advisory by default; this stack's owner makes it mandatory.
  fs.writeFileSync(
    path.join(p.dir, "policy-config.json"),
    JSON.stringify({ "wpengine-php-minimum": { enforcementLevel: "mandatory", minimumVersion: "8.1" } }),
  );
  return { p, sim };
}

const PACK = "node_modules/pulumi-wpengine/policy-pack";
const preview = (p: CliProject) =>
  p.run(["preview", "--policy-pack", PACK, "--policy-pack-config", "policy-config.json"], {
    allowFail: true,
  });

describe("the policy pack on pulumi preview", { timeout: 15 * 60_000 }, () => {
  let breaking: CliProject;
  let met: CliProject;

  beforeAll(async () => {
    [breaking, met] = await Promise.all([
      project("policy-breaks", false, breakingWorld()).then((x) => x.p),
      project("policy-met", true, cleanWorld()).then((x) => x.p),
    ]);
  }, 10 * 60_000);
  afterAll(() => {
    breaking?.dispose();
    met?.dispose();
  });

  it("reports every broken rule by rule and object; the mandatory ones fail the preview", async () => {
    const r = await preview(breaking);
    const out = r.stdout + r.stderr;
    // What a user sees, kept for the docs and the reviewer (artifacts/ is not committed).
    fs.mkdirSync(path.join(__dirname, "..", "..", "artifacts"), { recursive: true });
    fs.writeFileSync(path.join(__dirname, "..", "..", "artifacts", "policy-preview.txt"), out);
    expect(r.code, out).not.toBe(0);
    // Mandatory: the copy over production that does not wait for its backup, the unprotected site, PHP (set mandatory).
    expect(out).toMatch(/\[mandatory\]\s+wpengine-backup-before-risky-change/);
    expect(out).toContain(
      `InstallCopy stg-to-prod copies over production install ${PROD} and does not depend on Backup before-copy of it`,
    );
    expect(out).toMatch(/\[mandatory\]\s+wpengine-deletion-protection/);
    expect(out).toContain("site Brochure has deletionProtection false");
    expect(out).toMatch(/\[mandatory\]\s+wpengine-php-minimum/);
    expect(out).toContain("production install acmeprod runs PHP 7.4, below the minimum 8.1");
    // Advisory: every audit rule, each naming its object.
    for (const [rule, object] of [
      ["wpengine-domain-verified", SEED.domains.stagingAcmeExample.name],
      ["wpengine-certificate-expiry", POLICY_IDS.certificate.domain],
      ["wpengine-owner-mfa", "owner@acme.example"],
      ["wpengine-invitation-accepted", POLICY_IDS.invited.email],
      ["wpengine-partial-user-installs", POLICY_IDS.idlePartial.email],
      ["wpengine-multiple-owners", "Globex Inc"],
      ["wpengine-usage-below-plan", "Acme Corp"],
    ] as const) {
      expect(out).toMatch(new RegExp(`\\[advisory\\]\\s+${rule}`));
      expect(out).toContain(object);
    }
    // Every rule of the pack ran (none is missing from the report of a world that breaks them all).
    for (const rule of Object.keys(RULES)) expect(out).toContain(rule);
  });

  it("the same program with the rules met, on an account that meets them, passes", async () => {
    const r = await preview(met);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(0);
    for (const rule of Object.keys(RULES))
      expect(out).not.toMatch(new RegExp(`(mandatory|advisory)\\]\\s+${rule}`));
    expect(out).toMatch(/wpengine@v[\d.]+|Policies:/);
  });
});
