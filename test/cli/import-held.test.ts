/**
 * User test 52, finding 1, on the real CLI (file backend): a stack that manages a domain (the Node.js class)
 * and an account user (the executable provider's `wpengine:index:AccountUser`), then `pulumi-wpengine
 * import` of the account on the same backend. The import leaves both out, names the stack on stderr and in
 * the README, and the adopting `up` of the generated program would not take them; `--include-managed`
 * brings them in again.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { tempDir } from "../../tools/cli/pack";
import { CliProject, cliEnv, REPO } from "../../tools/cli/project";
import { demoConfig } from "../support/simulator";

const INSTALL = SEED.installs.acmeprod.id;
const ACCOUNT = SEED.accounts.acme.id;
const DOMAIN = "held.acme.example";
const EMAIL = "held@acme.example";

const program = `"use strict";
const pulumi = require("@pulumi/pulumi");
const wpengine = require("pulumi-wpengine");
new wpengine.Domain("held", { installId: "${INSTALL}", name: "${DOMAIN}" });
new pulumi.CustomResource("wpengine:index:AccountUser", "held-user", {
  accountId: "${ACCOUNT}", email: "${EMAIL}", firstName: "Held", lastName: "Elsewhere", roles: "full",
});
`;

describe("pulumi-wpengine import leaves out what a stack of the backend manages", {
  timeout: 20 * 60_000,
}, () => {
  let sim: RunningSimulator;
  let owner: CliProject;
  let stackName: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    const cli = await cliEnv();
    owner = await CliProject.create({
      files: { "index.js": program, "package.json": '{ "name": "held-owner", "main": "index.js" }\n' },
      name: "held-owner",
      config: demoConfig(sim),
      secrets: { "wpengine:password": "demo" },
      // The executable provider on PATH, for the wpengine:index resource.
      env: { PATH: [path.join(REPO, "bin"), cli["PATH"] ?? process.env["PATH"]].join(path.delimiter) },
    });
    await owner.up();
    stackName = `organization/held-owner/${owner.stack}`;
  }, 10 * 60_000);

  afterAll(async () => {
    owner?.dispose();
    await sim?.stop();
  });

  const importInto = async (extra: string[] = [], name = "acme") => {
    const out = path.join(tempDir("wpe-import-held-"), name);
    const started = Date.now();
    const r = await owner.exec(
      process.execPath,
      [path.join(REPO, "bin", "pulumi-wpengine"), "import", "--out", out, "--account", ACCOUNT, ...extra],
      {
        allowFail: true,
        env: {
          WPE_API_USER_ID: "demo",
          WPE_API_PASSWORD: "demo",
          WPE_API_URL: sim.apiUrl,
          WPE_APP_HOSTING_URL: sim.appHostingUrl,
        },
      },
    );
    console.log(`import ${extra.join(" ")}: ${Date.now() - started} ms`);
    return { r, out };
  };

  it("the stack's domain and user are left out and named with the stack; --include-managed brings them in", async () => {
    const { r, out } = await importInto();
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `^pulumi-wpengine import: left out: ${DOMAIN} \\(Domain of install acmeprod, id [0-9a-f-]{36}\\), held by stack ${stackName}$`,
        "m",
      ),
    );
    expect(r.stderr).toMatch(
      new RegExp(
        `^pulumi-wpengine import: left out: ${EMAIL} \\(AccountUser of account ${SEED.accounts.acme.name}, id [0-9a-f-]{36}\\), held by stack ${stackName}$`,
        "m",
      ),
    );
    expect(r.stderr).not.toContain("were not read");
    const program = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    expect(program).not.toContain(DOMAIN);
    expect(program).not.toContain(EMAIL);
    // The rest of the account is there (a seeded domain of the same install).
    expect(program).toContain(`"${SEED.domains.wwwAcmeExample.name}"`);
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    expect(readme).toContain(`| Domain | ${DOMAIN} (install acmeprod) | held by stack ${stackName}`);

    const all = await importInto(["--include-managed"]);
    expect(all.r.code, all.r.stdout + all.r.stderr).toBe(0);
    expect(all.r.stderr).not.toContain("held by stack");
    const everything = fs.readFileSync(path.join(all.out, "index.ts"), "utf8");
    expect(everything).toContain(`"${DOMAIN}"`);
    expect(everything).toContain(`"${EMAIL}"`);
  });

  it("a new --out named like the stack's project still leaves its objects out; a --force regeneration of that project brings them back and says so", async () => {
    // Another team's project of the same name: a new directory named held-owner.
    const { r, out } = await importInto([], "held-owner");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toContain(`(Domain of install acmeprod, id `);
    expect(r.stderr).toContain(`held by stack ${stackName}`);
    expect(r.stderr).not.toContain("not read");
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).not.toContain(DOMAIN);
    // That directory is now project held-owner: --force regenerates it, its own stacks are not read.
    const again = await owner.exec(
      process.execPath,
      [path.join(REPO, "bin", "pulumi-wpengine"), "import", "--out", out, "--account", ACCOUNT, "--force"],
      {
        allowFail: true,
        env: {
          WPE_API_USER_ID: "demo",
          WPE_API_PASSWORD: "demo",
          WPE_API_URL: sim.apiUrl,
          WPE_APP_HOSTING_URL: sim.appHostingUrl,
        },
      },
    );
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stderr).not.toContain("held by stack");
    expect(again.stderr).toContain(
      "pulumi-wpengine import: note: not read: stacks of project held-owner, the project being regenerated",
    );
    expect(fs.readFileSync(path.join(out, "index.ts"), "utf8")).toContain(`"${DOMAIN}"`);
  });

  it("one broken stack in the backend: refused in one line naming the failure and the two ways on, nothing written; --include-managed imports", async () => {
    const broken = path.join(owner.root, "backend", ".pulumi", "stacks", "corrupt", "dev.json");
    fs.mkdirSync(path.dirname(broken), { recursive: true });
    fs.writeFileSync(broken, "{not json");
    try {
      const { r, out } = await importInto();
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^pulumi-wpengine import: the stacks of the current Pulumi backend were not read \(pulumi stack ls failed: .+\), so the objects other stacks manage cannot be left out: fix that \(a pulumi CLI on PATH, logged in to the backend of the adopting up: pulumi whoami; a broken stack repaired or removed\), or run again with --include-managed to import without the check \(docs\/importer\.md\)$/,
        ),
        `nothing was written to ${out}`,
      ]);
      expect(fs.existsSync(out)).toBe(false);
      const all = await importInto(["--include-managed"]);
      expect(all.r.code, all.r.stdout + all.r.stderr).toBe(0);
    } finally {
      fs.rmSync(path.dirname(broken), { recursive: true, force: true });
    }
  });
});
