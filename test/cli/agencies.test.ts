/**
 * Agencies on the real CLI against one simulator with two API users that each see a different account
 * (the seeded `owner` sees Acme Corp only; `agency`, made here, sees Initech only): one Node.js program
 * manages a domain in each account through two credential profiles (one from `wpengine:profiles`, one
 * from `WPE_API_USER_ID_<NAME>`), with no default credentials at all; a wrong password of either profile
 * fails `pulumi preview` naming it; the Entri sharing link is asked for once across two `up`s; and
 * `pulumi do ... wpengine:Domain list --install-id <id>` lists that install's domains; `pulumi-wpengine
 * import --profile acme --profile initech` brings both accounts into one program, TypeScript (each
 * resource's `profile`) or YAML (an explicit provider per profile), taken in with 0 writes. Needs
 * `npm run build` (the program uses the packed package, the YAML project and `pulumi do` the plugin from
 * bin/).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportMain } from "../../fleet/cli";
import { importAccount } from "../../importer";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { driftLines } from "../../tools/cli/drift";
import { tempDir } from "../../tools/cli/pack";
import { CliProject, changes, cliEnv, REPO, runCommand } from "../../tools/cli/project";

const toolchain: { ensureYamlHost(): Promise<string> } = require("../../tools/pulumi/toolchain.js");

const ACMEPROD = SEED.installs.acmeprod.id;
const INITECHPROD = SEED.installs.initechprod.id;
const { owner } = SEED.users;
const AGENCY = { username: "agency", password: "agency-pw-3k9" };

const PROGRAM = `"use strict";
const wpengine = require("pulumi-wpengine");
const acme = new wpengine.Domain("acme-www", { installId: "${ACMEPROD}", name: "agency.acme.example", profile: "acme" });
const initech = new wpengine.Domain("initech-www", {
  installId: "${INITECHPROD}",
  name: "agency.initech.example",
  profile: "initech",
});
const link = new wpengine.DomainSharingLink("initech-dns", {
  installId: "${INITECHPROD}",
  domainId: initech.domainId,
  profile: "initech",
});
exports.acmeId = acme.id;
exports.initechId = initech.id;
exports.link = link.url;
`;

let sim: RunningSimulator;
let project: CliProject;

const json = async (url: string, init?: RequestInit) => (await fetch(url, init)).json();
const log = async () =>
  (
    (await json(`${sim.url}/__sim/requests`)) as {
      requests: { method: string; path: string; user?: string }[];
    }
  ).requests;
const linkPosts = async () =>
  (await log()).filter((r) => r.method === "POST" && r.path.endsWith("/sharing_link")).length;

const profiles = (acmePassword: string) =>
  JSON.stringify({ acme: { username: owner.username, password: acmePassword } });
const initechEnv = (password: string) => ({
  WPE_API_USER_ID_INITECH: AGENCY.username,
  WPE_API_PASSWORD_INITECH: password,
});

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  // The agency's API user: an owner of Initech only (made by demo, Initech's owner), given credentials.
  const demo = `Basic ${Buffer.from("demo:demo").toString("base64")}`;
  const made = (await json(`${sim.apiUrl}/accounts/${SEED.accounts.initech.id}/account_users`, {
    method: "POST",
    headers: { authorization: demo, "content-type": "application/json" },
    body: JSON.stringify({
      user: {
        account_id: SEED.accounts.initech.id,
        first_name: "Ann",
        last_name: "Agency",
        email: "api@agency.example",
        roles: "owner",
      },
    }),
  })) as { account_user: { user_id: string } };
  const put = await fetch(`${sim.url}/__sim/users/${AGENCY.username}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: AGENCY.password, userId: made.account_user.user_id }),
  });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  project?.dispose();
  await sim?.stop();
});

describe("two accounts in one program through credential profiles", { timeout: 20 * 60_000 }, () => {
  beforeAll(async () => {
    project = await CliProject.create({
      files: { "index.js": PROGRAM, "package.json": '{ "name": "cli-agencies", "main": "index.js" }\n' },
      name: "cli-agencies",
      // No wpengine:username/password: every call runs as a profile.
      config: { "wpengine:apiUrl": sim.apiUrl, "wpengine:appHostingUrl": sim.appHostingUrl },
      secrets: { "wpengine:profiles": profiles(owner.password) },
      env: initechEnv(AGENCY.password),
    });
  }, 10 * 60_000);

  it("manages a domain in each account, each written by its own API user; the state holds no credential", async () => {
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    const { outputs } = await project.up();
    const writes = (await log()).filter((r) => r.method !== "GET");
    const by = (install: string) =>
      new Set(writes.filter((r) => r.path.includes(install)).map((r) => r.user));
    expect(by(ACMEPROD)).toEqual(new Set([owner.username]));
    expect(by(INITECHPROD)).toEqual(new Set([AGENCY.username]));
    const demo = `Basic ${Buffer.from("demo:demo").toString("base64")}`;
    const get = async (install: string, id: unknown) =>
      (await json(`${sim.apiUrl}/installs/${install}/domains/${id}`, {
        headers: { authorization: demo },
      })) as {
        name: string;
      };
    expect((await get(ACMEPROD, outputs["acmeId"])).name).toBe("agency.acme.example");
    expect((await get(INITECHPROD, outputs["initechId"])).name).toBe("agency.initech.example");
    expect(String(outputs["link"])).toMatch(/^https:\/\/app\.goentri\.com\/share\/[0-9a-f]{32}$/);
    const state = await project.exportText();
    for (const secret of [owner.password, AGENCY.password]) expect(state).not.toContain(secret);
    expect(state).toContain('"profile": "initech"');
  });

  it("asks for the sharing link once across two ups; preview --refresh is clean", async () => {
    const link = (await project.outputs())["link"];
    await project.up();
    expect(await linkPosts()).toBe(1);
    expect((await project.outputs())["link"]).toBe(link);
    await project.expectNoChanges(["--refresh"]);
    expect(await linkPosts()).toBe(1);
  });

  it("a wrong password of either profile fails preview, naming the profile, before any write", async () => {
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    await project.setConfig({}, { "wpengine:profiles": profiles("wrong-acme-pw") });
    const acme = await project.run(["preview"], { allowFail: true });
    await project.setConfig({}, { "wpengine:profiles": profiles(owner.password) });
    const initech = await project.run(["preview"], { allowFail: true, env: initechEnv("wrong-initech-pw") });
    for (const [r, name, user] of [
      [acme, "acme", owner.username],
      [initech, "initech", AGENCY.username],
    ] as const) {
      const text = r.stdout + r.stderr;
      expect(r.code).not.toBe(0);
      expect(text).toContain(`refused the credentials of profile ${name} (API user ${user})`);
      expect(text).not.toMatch(/wrong-(acme|initech)-pw/);
    }
    expect(initech.stdout + initech.stderr).toContain("WPE_API_PASSWORD_INITECH");
    expect((await log()).filter((r) => r.method !== "GET")).toEqual([]);
    await project.expectNoChanges();
  });

  it("pulumi do ... wpengine:Domain list --install-id lists the install's domains, as the profile's API user", async () => {
    const env = {
      ...process.env,
      ...(await cliEnv()),
      ...initechEnv(AGENCY.password),
      PULUMI_HOME: path.join(project.root, "home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      WPE_API_URL: sim.apiUrl,
      WPE_APP_HOSTING_URL: sim.appHostingUrl,
      NO_COLOR: "1",
    };
    const plugin = path.join(REPO, "bin", "pulumi-resource-wpengine");
    const r = await runCommand(
      "pulumi",
      [
        "do",
        "--package",
        plugin,
        "wpengine:Domain",
        "list",
        "--install-id",
        INITECHPROD,
        "--wpengine:profile",
        "initech",
      ],
      { cwd: project.root, env, timeoutMs: 6 * 60_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as { id: string; name: string }[];
    const outputs = await project.outputs();
    expect(listed.map((d) => d.name).sort()).toEqual(["agency.initech.example", "initech.example"]);
    expect(listed).toContainEqual({
      id: `${INITECHPROD}/${outputs["initechId"]}`,
      name: "agency.initech.example",
    });
    // The other account's install is not the profile's to see.
    const refused = await runCommand(
      "pulumi",
      [
        "do",
        "--package",
        plugin,
        "wpengine:Domain",
        "list",
        "--install-id",
        ACMEPROD,
        "--wpengine:profile",
        "initech",
      ],
      { cwd: project.root, env, timeoutMs: 6 * 60_000 },
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain("403");
    // Without credentials, the advice names what `pulumi do` reads: the environment and the flags.
    const bare: NodeJS.ProcessEnv = { ...env };
    for (const k of ["WPE_API_USER_ID", "WPE_API_PASSWORD", "WPE_PROFILE", "WPE_PROFILES"]) delete bare[k];
    const list = ["do", "--package", plugin, "wpengine:Domain", "list", "--install-id", ACMEPROD];
    const none = await runCommand("pulumi", list, { cwd: project.root, env: bare, timeoutMs: 6 * 60_000 });
    expect(none.code).not.toBe(0);
    expect(none.stdout + none.stderr).toContain(
      "`pulumi do` reads no stack: set WPE_API_USER_ID and WPE_API_PASSWORD in the environment, or pass --wpengine:username",
    );
    expect(none.stdout + none.stderr).not.toContain("pulumi config set");
    const nameless = await runCommand("pulumi", [...list, "--wpengine:profile", "client-x"], {
      cwd: project.root,
      env: bare,
      timeoutMs: 6 * 60_000,
    });
    expect(nameless.stdout + nameless.stderr).toContain(
      "profile client-x has no API user id: set it in WPE_PROFILES=",
    );
    expect(nameless.stdout + nameless.stderr).toContain(
      "in the environment; to keep the password out of the shell history, read it with `read -rs WPE_API_PASSWORD_CLIENT_X && export WPE_API_PASSWORD_CLIENT_X`",
    );
    expect(nameless.stdout + nameless.stderr).not.toContain("--wpengine:profiles");
    // A patch by import id, run from some other directory: changed on the service, no journal left there.
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-do-"));
    const id = `${INITECHPROD}/${outputs["initechId"]}`;
    const patched = await runCommand(
      "pulumi",
      [
        "do",
        "--package",
        plugin,
        "wpengine:Domain",
        "patch",
        id,
        "--secure-all-urls",
        "--stateless",
        "--yes",
      ],
      { cwd: elsewhere, env: { ...env, WPE_PROFILE: "initech" }, timeoutMs: 6 * 60_000 },
    );
    expect(patched.code, patched.stdout + patched.stderr).toBe(0);
    expect(
      (await log()).some((r) => r.method === "PATCH" && r.path.endsWith(String(outputs["initechId"]))),
    ).toBe(true);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it("destroys both, each as its own profile", async () => {
    await project.destroy();
    const deletes = (await log()).filter((r) => r.method === "DELETE");
    expect(new Set(deletes.map((r) => r.user))).toEqual(new Set([owner.username, AGENCY.username]));
  });
});

describe("pulumi-wpengine import --profile acme --profile initech: both accounts, one program", {
  timeout: 30 * 60_000,
}, () => {
  let imported: CliProject;
  const env = () => ({
    WPE_API_URL: sim.apiUrl,
    WPE_APP_HOSTING_URL: sim.appHostingUrl,
    WPE_PROFILES: profiles(owner.password),
    ...initechEnv(AGENCY.password),
  });
  afterAll(() => imported?.dispose());

  it("writes each account's objects with their profile; the adopting up writes nothing; preview --refresh is clean", async () => {
    const out = path.join(tempDir("wpe-agencies-import-"), "fleet");
    // No backend logged in here (each project has its own): without the stacks' check (import-held.test.ts).
    const result = await importAccount({
      out,
      env: env(),
      profiles: ["acme", "initech"],
      project: "fleet",
      includeManaged: true,
    });
    const profileOf = (kind: string, label: string) =>
      result.model.resources.find((r) => r.kind === kind && r.label === label)?.inputs["profile"];
    expect(profileOf("Install", "acmeprod")).toBe("acme");
    expect(profileOf("Install", "initechprod")).toBe("initech");
    expect(profileOf("Domain", "initech.example")).toBe("initech");
    // Neither API user sees Globex: nothing of it is in the program.
    expect(result.model.resources.some((r) => r.label === "globexprod")).toBe(false);
    expect(
      result.model.resources.every((r) => ["acme", "initech"].includes(String(r.inputs["profile"]))),
    ).toBe(true);
    const program = fs.readFileSync(path.join(out, "index.ts"), "utf8");
    expect(program).toContain('profile: "initech"');
    expect(fs.readFileSync(path.join(out, "README.md"), "utf8")).toContain("WPE_API_USER_ID_<NAME>");
    imported = await CliProject.create({ from: out, env: env() });
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    await imported.run(["up", "--yes", "--skip-preview"], { env: { WPE_ADOPT_EXISTING: "true" } });
    expect((await log()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect((await imported.resources()).length).toBe(result.model.resources.length);
    await imported.expectNoChanges(["--refresh"]);
    // Every call ran as one of the two API users.
    expect(new Set((await log()).map((r) => r.user))).toEqual(new Set([owner.username, AGENCY.username]));
  });
});

describe("pulumi-wpengine import --language yaml --profile acme --profile initech: one explicit provider per profile", {
  timeout: 30 * 60_000,
}, () => {
  let imported: CliProject;
  let adopted: CliProject;
  afterAll(() => {
    imported?.dispose();
    adopted?.dispose();
  });

  it("pulumi import --file as the README says takes both accounts in with 0 writes; preview plans nothing, preview --refresh is clean; WPE_ADOPT_EXISTING=true pulumi up too", async () => {
    const out = path.join(tempDir("wpe-agencies-import-yaml-"), "fleet");
    // The importer reads both profiles' credentials from the environment.
    const env = {
      WPE_API_URL: sim.apiUrl,
      WPE_APP_HOSTING_URL: sim.appHostingUrl,
      WPE_PROFILES: profiles(owner.password),
      ...initechEnv(AGENCY.password),
    };
    const result = await importAccount({
      out,
      env,
      includeManaged: true,
      language: "yaml",
      profiles: ["acme", "initech"],
      project: "fleet",
    });
    const program = fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    const importFile = fs.readFileSync(path.join(out, "import.json"), "utf8");
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    // One explicit provider per profile, holding its name only; every resource through its profile's.
    for (const p of ["acme", "initech"])
      expect(program).toContain(
        `  wpengine_${p}:\n    type: pulumi:providers:wpengine\n    properties:\n      profile: ${p}\n`,
      );
    const acmeprod = result.model.resources.find((r) => r.kind === "Install" && r.label === "acmeprod")!;
    const initechDomain = result.model.resources.find(
      (r) => r.kind === "Domain" && r.label === "initech.example",
    )!;
    // An install is also protected (Pulumi's `protect`, as `pulumi import` protects what it imports).
    expect(program).toMatch(
      new RegExp(
        `\n  ${acmeprod.name}:\n(    .*\n)*?    options:\n      protect: true\n      provider: \\$\\{wpengine_acme\\}\n`,
      ),
    );
    expect(program).toMatch(
      new RegExp(
        `\n  ${initechDomain.name}:\n(    .*\n)*?    options:\n      provider: \\$\\{wpengine_initech\\}\n`,
      ),
    );
    expect(program.match(/ {6}provider: /g)?.length).toBe(result.model.resources.length);
    // No resource carries a profile input: the two are the providers' own.
    expect(program.match(/^ {6}profile: /gm)?.length).toBe(2);
    const declared = JSON.parse(importFile) as {
      resources: { type: string; name: string; provider?: string; inputs?: unknown }[];
    };
    expect(declared.resources.slice(0, 2)).toEqual([
      { type: "pulumi:providers:wpengine", name: "wpengine_acme", inputs: { profile: "acme" } },
      { type: "pulumi:providers:wpengine", name: "wpengine_initech", inputs: { profile: "initech" } },
    ]);
    expect(declared.resources.find((r) => r.name === initechDomain.name)?.provider).toBe("wpengine_initech");
    // Neither file holds a credential.
    for (const text of [program, importFile, readme])
      for (const secret of [owner.password, AGENCY.password]) expect(text).not.toContain(secret);

    const cli = await cliEnv();
    const yamlHost = await toolchain.ensureYamlHost();
    // The plugin on PATH: what the README's `npm install --global` of the package does.
    const PATH = [path.join(REPO, "bin"), yamlHost, cli["PATH"] ?? process.env["PATH"]].join(path.delimiter);
    // One stack reads acme's credentials from the secret stack config wpengine:profiles, which reaches
    // the explicit providers too; the other from WPE_PROFILES, as the importer did.
    const { WPE_PROFILES: _inEnv, ...initechOnly } = env;
    imported = await CliProject.create({
      from: out,
      env: { ...initechOnly, PATH },
      secrets: { "wpengine:profiles": profiles(owner.password) },
    });
    adopted = await CliProject.create({ from: out, env: { ...env, PATH } });
    fs.rmSync(path.dirname(out), { recursive: true, force: true });

    // The README's import line, word for word.
    const line = readme.split("\n").find((l) => l.startsWith("pulumi import "))!;
    const args = line
      .replace(/ +#.*$/, "")
      .split(/ +/)
      .slice(1);
    expect(args).toEqual([
      "import",
      "--file",
      "import.json",
      "--generate-code=false",
      "--protect=false",
      "--yes",
    ]);
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    await imported.run(args);
    expect((await log()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect((await imported.resources()).length).toBe(result.model.resources.length);
    // Every read ran as one of the two API users, each through its own provider.
    expect(new Set((await log()).map((r) => r.user))).toEqual(new Set([owner.username, AGENCY.username]));
    // The README's next line records the program's `protect` of sites and installs: nothing is written.
    const lines = readme.split("\n");
    expect(lines[lines.indexOf(line) + 1]).toMatch(/^pulumi up --yes +# no change on the service/);
    await imported.run(["up", "--yes", "--skip-preview"]);
    const planned = await imported.preview();
    expect(changes(planned)).toEqual([]);
    await imported.expectNoChanges(["--refresh"]);
    expect(driftLines((await imported.run(["preview", "--refresh"])).stdout)).toEqual([]);
    expect((await log()).filter((r) => r.method !== "GET")).toEqual([]);
    const state = await imported.exportText();
    for (const secret of [owner.password, AGENCY.password]) expect(state).not.toContain(secret);
    // The explicit providers as the import recorded them and the program declares them: the name only.
    const recorded = (
      JSON.parse(state) as { deployment: { resources: { type: string; urn: string; inputs?: unknown }[] } }
    ).deployment.resources.filter((r) => r.type === "pulumi:providers:wpengine");
    // In the engine's order, which varies from run to run: compared as a set. Besides the name, only what
    // the engine adds from the package declaration (the plugin's version and server).
    expect(recorded.map((r) => [r.urn.split("::").at(-1), r.inputs]).sort()).toEqual([
      ["wpengine_acme", { profile: "acme", version: expect.any(String), __internal: expect.any(Object) }],
      [
        "wpengine_initech",
        { profile: "initech", version: expect.any(String), __internal: expect.any(Object) },
      ],
    ]);

    // The README's alternative: WPE_ADOPT_EXISTING=true pulumi up, on a second stack of the same program.
    expect(readme).toContain("`WPE_ADOPT_EXISTING=true pulumi up` takes the objects in as well");
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    await adopted.run(["up", "--yes", "--skip-preview"], { env: { WPE_ADOPT_EXISTING: "true" } });
    expect((await log()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect((await adopted.resources()).length).toBe(result.model.resources.length);
    await adopted.expectNoChanges(["--refresh"]);
  });
});

describe("pulumi-wpengine report --profile acme --profile initech: both API users' accounts on one page", () => {
  it("reads each account as the profile that sees it, only with GETs; a profile without credentials fails and writes nothing", async () => {
    const env = {
      WPE_API_URL: sim.apiUrl,
      WPE_APP_HOSTING_URL: sim.appHostingUrl,
      WPE_PROFILES: profiles(owner.password),
      ...initechEnv(AGENCY.password),
    };
    const out = path.join(tempDir("wpe-agencies-report-"), "fleet.html");
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    expect(await reportMain(["--out", out, "--profile", "acme", "--profile", "initech"], env)).toBe(0);
    const page = fs.readFileSync(out, "utf8");
    expect(page).toContain(SEED.accounts.acme.name);
    expect(page).toContain(SEED.accounts.initech.name);
    // Neither API user sees Globex.
    expect(page).not.toContain(SEED.accounts.globex.name);
    const calls = await log();
    expect(calls.every((r) => r.method === "GET")).toBe(true);
    expect(new Set(calls.map((r) => r.user))).toEqual(new Set([owner.username, AGENCY.username]));
    const missing = path.join(path.dirname(out), "missing.html");
    expect(await reportMain(["--out", missing, "--profile", "nobody"], env)).toBe(1);
    expect(fs.existsSync(missing)).toBe(false);
  });
});
