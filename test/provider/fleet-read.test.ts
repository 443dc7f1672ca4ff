/**
 * The fleet read (fleet/read.ts) and the audit rules (fleet/rules.ts) against the simulator: the world
 * that breaks every audit rule gives one finding per broken object and rule; the clean world none. The
 * policy pack's audit and the report read as every credential profile, and name a refused one.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StackValidationPolicy } from "@pulumi/policy";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reportMain } from "../../fleet/cli";
import { readEstate, readFleet } from "../../fleet/read";
import { auditFleet } from "../../fleet/rules";
import { WpEngineClient, WpEngineConnectionError, WpEngineTimeoutError } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { breakingWorld, cleanWorld, POLICY_IDS, worldFile } from "../fixtures/policy-world";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function fleetOf(world: ReturnType<typeof cleanWorld>) {
  sim = await startSimulator({ port: 0, quiet: true, stateFile: worldFile(world) });
  const client = new WpEngineClient({
    username: "demo",
    password: "demo",
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });
  const writesBefore = sim.requests().filter((r) => r.method !== "GET").length;
  const fleet = await readFleet(client);
  expect(sim.requests().filter((r) => r.method !== "GET").length).toBe(writesBefore);
  return fleet;
}

describe("the audit of a live account", { timeout: 60_000 }, () => {
  it("reports each broken object under its rule, read only", async () => {
    const fleet = await fleetOf(breakingWorld());
    expect(fleet.installs.map((i) => i.name)).toContain("acmeprod");
    expect(fleet.domains).toHaveLength(Object.keys(SEED.domains).length);
    const findings = auditFleet(fleet);
    const by = (rule: string) =>
      findings
        .filter((f) => f.rule === rule)
        .map((f) => f.subject.name)
        .sort();
    expect(by("wpengine-php-minimum")).toEqual(["acmeprod"]);
    expect(by("wpengine-domain-verified")).toEqual([
      SEED.domains.stagingAcmeExample.name,
      SEED.domains.stagingAcmeExample.name,
    ]);
    expect(by("wpengine-certificate-expiry")).toEqual([POLICY_IDS.certificate.domain]);
    expect(by("wpengine-owner-mfa")).toEqual(["owner@acme.example"]);
    expect(by("wpengine-invitation-accepted")).toEqual([POLICY_IDS.invited.email]);
    expect(by("wpengine-partial-user-installs")).toEqual([POLICY_IDS.idlePartial.email]);
    expect(by("wpengine-multiple-owners")).toEqual(["Globex Inc", "Initech"]);
    expect(by("wpengine-usage-below-plan")).toContain("Acme Corp");
    for (const f of findings) expect(f.message).toContain(f.subject.name);
  });

  it("reports nothing on an account that meets every rule", async () => {
    const fleet = await fleetOf(cleanWorld());
    expect(fleet.installs.map((i) => i.name)).toEqual(["acmeprod"]);
    expect(auditFleet(fleet)).toEqual([]);
  });
});

// The pack's module serves it to the engine when loaded: here it is loaded for its policies only.
vi.mock("@pulumi/policy", async (original) => ({
  ...(await original<typeof import("@pulumi/policy")>()),
  PolicyPack: class {},
}));

describe("the audit as every API user of the program (credential profiles)", { timeout: 60_000 }, () => {
  // acme: the owner of Acme Corp only; initech: full on Acme Corp and Initech. No default credentials.
  const { owner, full } = SEED.users;
  const profiled = (initechPassword: string): NodeJS.ProcessEnv => ({
    WPE_API_URL: sim!.apiUrl,
    WPE_APP_HOSTING_URL: sim!.appHostingUrl,
    WPE_PROFILES: JSON.stringify({ acme: { username: owner.username, password: owner.password } }),
    WPE_API_USER_ID_INITECH: full.username,
    WPE_API_PASSWORD_INITECH: initechPassword,
  });
  const refused = () =>
    `the service refused the credentials of profile initech (401) at ${sim!.apiUrl}: check WPE_PROFILES='{"initech":{"username":"<api user id>","password":"<api password>"}}' or WPE_API_USER_ID_INITECH and WPE_API_PASSWORD_INITECH in the environment`;

  /** A program imported with --profile acme --profile initech: a TypeScript resource and a YAML one. */
  const program = [
    {
      type: "pulumi-nodejs:dynamic/wpengine:Install",
      name: "acmeprod",
      urn: "urn:acmeprod",
      props: { installId: SEED.installs.acmeprod.id, profile: "acme" },
    },
    {
      type: "wpengine:index:Install",
      name: "initechprod",
      urn: "urn:initechprod",
      props: { installId: SEED.installs.initechprod.id },
      provider: {
        type: "pulumi:providers:wpengine",
        name: "wpengine_initech",
        props: { profile: "initech" },
      },
    },
  ];

  /** What the pack's `rule` reports on `resources`, run in `env` (a fresh pack: it reads once per process). */
  async function audit(rule: string, env: NodeJS.ProcessEnv, resources: object[] = program) {
    const saved = process.env;
    process.env = env;
    try {
      vi.resetModules();
      const { policies } = await import("../../fleet/pack");
      const policy = policies.find((p) => p.name === rule) as StackValidationPolicy;
      const reported: string[] = [];
      await policy.validateStack(
        { resources, getConfig: () => ({}) } as never,
        (message: string) => void reported.push(message),
      );
      return reported;
    } finally {
      process.env = saved;
    }
  }

  it("the pack reads each profile the resources run as, from WPE_PROFILES and WPE_API_USER_ID_<NAME>", async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    // Initech is seen by profile initech only (named by an explicit provider); Globex by neither.
    expect(await audit("wpengine-multiple-owners", profiled(full.password))).toEqual([
      "account Initech has a single owner (demo@example.com): add a second",
    ]);
    expect(await audit("wpengine-multiple-owners", profiled(full.password), program.slice(0, 1))).toEqual([]);
  });

  it("the pack names a refused profile, a profile without credentials, and no credentials at all", async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    // One line each: the audit rules (not the one the engine names), where the pack reads credentials
    // from (never the stack's wpengine:profiles), and the way out.
    const rules =
      "the audit rules (wpengine-php-minimum, wpengine-domain-verified, wpengine-certificate-expiry, wpengine-owner-mfa, wpengine-invitation-accepted, wpengine-partial-user-installs, wpengine-multiple-owners, wpengine-usage-below-plan)";
    const environment =
      "in the environment of the pulumi command (a policy pack never reads the stack's config, wpengine:profiles included)";
    const wayOut = 'or set those rules to "disabled" in --policy-pack-config';
    const failure = (env: NodeJS.ProcessEnv, resources?: object[]) =>
      audit("wpengine-owner-mfa", env, resources).then(
        () => "no failure",
        (e: Error) => e.message,
      );
    expect(await failure(profiled("wrong"))).toBe(
      `${rules} could not read the live account: ${refused().replace(/ in the environment$/, ` ${environment}`)}, ${wayOut}`,
    );
    const { WPE_PROFILES: _, ...noAcme } = profiled(full.password);
    expect(await failure(noAcme)).toBe(
      `${rules} could not read the live account: profile acme has no API user id: set it in WPE_PROFILES='{"acme":{"username":"<api user id>","password":"<api password>"}}' or WPE_API_USER_ID_ACME and WPE_API_PASSWORD_ACME ${environment}, ${wayOut}`,
    );
    expect(await failure({ WPE_API_URL: sim.apiUrl }, [])).toBe(
      `${rules} read the live account and found no credentials: set WPE_API_USER_ID and WPE_API_PASSWORD, or each profile the program names in WPE_PROFILES or WPE_API_USER_ID_<NAME> and WPE_API_PASSWORD_<NAME> (or WPE_SIMULATOR=true), ${environment}, ${wayOut}`,
    );
  });

  it("the pack names the URL it could not reach, the API's or App Hosting's, where it came from and the variable to set (ut-retest52 F6)", async () => {
    const dead = "http://127.0.0.1:9";
    const failure = (env: NodeJS.ProcessEnv) =>
      audit("wpengine-owner-mfa", { WPE_API_USER_ID: "demo", WPE_API_PASSWORD: "demo", ...env }, []).then(
        () => "no failure",
        (e: Error) => e.message,
      );
    expect(await failure({ WPE_API_URL: `${dead}/v1` })).toContain(
      "could not read the live account: GET /v1/accounts: connection failed: connect ECONNREFUSED 127.0.0.1:9; " +
        `the API URL was ${dead}/v1, from WPE_API_URL: check it and the network, or set those rules to "disabled"`,
    );
    // The API answers, App Hosting's URL does not: that one is named, not the API's.
    sim = await startSimulator({ port: 0, quiet: true });
    const app = await failure({ WPE_API_URL: sim.apiUrl, WPE_APP_HOSTING_URL: dead });
    expect(app).toMatch(
      /: GET \/v1\/accounts\/[^/]+\/apps: connection failed: connect ECONNREFUSED 127\.0\.0\.1:9; /,
    );
    expect(app).toContain(
      `; the App Hosting URL was ${dead}, from WPE_APP_HOSTING_URL: check it and the network, or set those rules to "disabled"`,
    );
    expect(app).not.toContain("the API URL");
    // Unset, the default, which the stack's config never changes here: the variable to set.
    const { unreachableUrl } = await import("../../importer/connect");
    const unreached = (api: "hosting" | "appHosting", baseUrl: string) =>
      new WpEngineConnectionError({
        method: "GET",
        path: "/v1/x",
        detail: "getaddrinfo ENOTFOUND",
        api,
        baseUrl,
      });
    expect(
      unreachableUrl(unreached("appHosting", "https://js.wpengineapi.com"), { apiUrl: `${dead}/v1` }),
    ).toBe(
      "the App Hosting URL was the default https://js.wpengineapi.com (WPE_APP_HOSTING_URL is unset, and the " +
        "stack's wpengine:appHostingUrl is not read here): set WPE_APP_HOSTING_URL in the environment",
    );
    expect(unreachableUrl(unreached("hosting", "https://api.wpengineapi.com/v1"), {})).toBe(
      "the API URL was the default https://api.wpengineapi.com/v1 (WPE_API_URL is unset, and the stack's " +
        "wpengine:apiUrl is not read here): set WPE_API_URL in the environment",
    );
    // A request with no answer in time names its URL the same way.
    const late = new WpEngineTimeoutError({ method: "GET", path: "/v1/x", timeoutMs: 30_000, baseUrl: dead });
    expect(unreachableUrl(late, { apiUrl: dead })).toBe(
      `the API URL was ${dead}, from WPE_API_URL: check it and the network`,
    );
  });

  it("several API users' fleets are the union of what each sees, whatever their order", async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    const { partial } = SEED.users; // sees part of Acme Corp; owner sees all of it
    const env: NodeJS.ProcessEnv = {
      WPE_API_URL: sim.apiUrl,
      WPE_APP_HOSTING_URL: sim.appHostingUrl,
      WPE_PROFILES: JSON.stringify({
        p: { username: partial.username, password: partial.password },
        o: { username: owner.username, password: owner.password },
      }),
    };
    const read = async (users: string[]) => {
      const { fleet } = await readEstate(env, users);
      return { ...fleet, readAt: "" };
    };
    const owners = await read(["o"]);
    expect(owners.installs.length).toBeGreaterThan((await read(["p"])).installs.length);
    expect(await read(["p", "o"])).toEqual(owners);
    expect(await read(["o", "p"])).toEqual(owners);
  });

  it("report --profile twice --account: an account either of them sees, read by those who see it", async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-report-")), "fleet.html");
    const said: string[] = [];
    const write = { out: process.stdout.write, err: process.stderr.write };
    process.stdout.write = ((s: string) => said.push(s) > 0) as typeof process.stdout.write;
    process.stderr.write = ((s: string) => said.push(s) > 0) as typeof process.stderr.write;
    try {
      const profiles = ["--profile", "acme", "--profile", "initech"];
      // Initech is seen by profile initech only.
      expect(
        await reportMain(
          ["--out", out, ...profiles, "--account", SEED.accounts.initech.id],
          profiled(full.password),
        ),
      ).toBe(0);
      expect(said.join("")).toMatch(/^pulumi-wpengine report: 1 account, 1 install, 1 domain, /);
      expect(fs.readFileSync(out, "utf8")).toContain("initechprod");
      expect(fs.readFileSync(out, "utf8")).not.toContain("acmeprod");
      said.length = 0;
      const globex = SEED.accounts.globex.id;
      expect(
        await reportMain(["--out", out, ...profiles, "--account", globex], profiled(full.password)),
      ).toBe(1);
      expect(said).toEqual([
        `pulumi-wpengine report: unknown account ${globex}: the credentials see these accounts: Acme Corp (${SEED.accounts.acme.id}), Initech (${SEED.accounts.initech.id})\nnothing was written to ${out}\n`,
      ]);
    } finally {
      process.stdout.write = write.out;
      process.stderr.write = write.err;
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });

  it("report --profile names a refused profile and where to set it, and writes nothing", async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-report-")), "fleet.html");
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => errors.push(s) > 0) as typeof process.stderr.write;
    try {
      const args = ["--out", out, "--profile", "acme", "--profile", "initech"];
      expect(await reportMain(args, profiled("wrong"))).toBe(1);
      expect(errors).toEqual([`pulumi-wpengine report: ${refused()}\nnothing was written to ${out}\n`]);
      expect(fs.existsSync(out)).toBe(false);
      sim.clearRequests();
      expect(await reportMain(args, profiled(full.password))).toBe(0);
      expect(fs.readFileSync(out, "utf8")).toContain("Initech");
      // Each API user reads each page once (the domains too, which discovery has listed already).
      const asked = sim
        .requests()
        .filter((r) => r.method === "GET" && r.status === 200)
        .map((r) => `${r.user} ${r.path}?${r.query}`);
      expect(asked.filter((a, i) => asked.indexOf(a) !== i)).toEqual([]);
    } finally {
      process.stderr.write = write;
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });
});
