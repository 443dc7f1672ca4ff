/**
 * The executable provider (`pulumi-resource-wpengine`) under the real `pulumi` CLI, against two
 * simulators with different API users: a program (Node.js, the only language host this machine has; it
 * registers resources by their `wpengine:index:*` tokens, as any language's generated SDK does) with
 * the default provider and an explicit one, a lookup, then preview, a detailed diff, drift seen by
 * refresh, `pulumi import` of an existing domain, and destroy. Needs `npm run build` (the plugin runs
 * from dist/).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { type RunResult, runCommand } from "../../tools/cli/project";

const REPO = path.resolve(__dirname, "..", "..");
const toolchain: {
  ensure(): Promise<{ env: Record<string, string> }>;
  ensureYamlHost(): Promise<string>;
} = require("../../tools/pulumi/toolchain.js");

const ACME_PROD = SEED.installs.acmeprod.id;
const GLOBEX_PROD = SEED.installs.globexprod.id;

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const cfg = new pulumi.Config();
// An explicit provider: another API user on another service (the second simulator).
const agency = new pulumi.ProviderResource("wpengine", "agency", {
  username: "bob",
  password: pulumi.secret(cfg.require("bobPassword")),
  apiUrl: cfg.require("bobApiUrl"),
  appHostingUrl: cfg.require("bobAppUrl"),
});
const www = new pulumi.CustomResource("wpengine:index:Domain", "www", {
  installId: "${ACME_PROD}",
  name: cfg.get("wwwName") || "exec.acme.example",
  secureAllUrls: cfg.getBoolean("wwwSecure") || false,
  domainId: undefined,
  ownershipStatus: undefined,
});
const other = new pulumi.CustomResource(
  "wpengine:index:Domain",
  "other",
  { installId: "${GLOBEX_PROD}", name: "exec.globex.example", domainId: undefined },
  { provider: agency },
);
exports.wwwId = www.id;
exports.status = www.ownershipStatus;
exports.otherId = other.id;
exports.installNames = pulumi.runtime
  .invoke("wpengine:index:getInstalls", {}, {})
  .then((r) => r.items.map((i) => i.name).sort());
`;

interface Step {
  op: string;
  urn: string;
  detailedDiff?: Record<string, { kind: string }> | null;
}

let alice: RunningSimulator;
let bob: RunningSimulator;
let dir: string;
let env: NodeJS.ProcessEnv;

/** `--stack dev --non-interactive`, except for the commands that take no stack. */
const stackFlags = (args: string[]): string[] =>
  ["stack init", "package get-schema"].includes(args.slice(0, 2).join(" "))
    ? ["--non-interactive"]
    : ["--stack", "dev", "--non-interactive"];

async function pulumi(args: string[], allowFail = false): Promise<RunResult> {
  const r = await runCommand("pulumi", [...args, ...stackFlags(args)], {
    cwd: dir,
    env,
    timeoutMs: 6 * 60_000,
  });
  if (r.code !== 0 && !allowFail) {
    throw new Error(
      `pulumi ${args.join(" ")}: ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-3000)}`,
    );
  }
  return r;
}

const clientOf = (sim: RunningSimulator, username: string, password: string) =>
  new WpEngineClient({ username, password, apiUrl: sim.apiUrl, appHostingUrl: sim.appHostingUrl });

const steps = async (): Promise<Step[]> => JSON.parse((await pulumi(["preview", "--json"])).stdout).steps;
const nameOf = (urn: string) => urn.split("::").at(-1);

beforeAll(async () => {
  alice = await startSimulator({ port: 0, quiet: true, username: "alice", password: "pw-alice-7f3" });
  bob = await startSimulator({ port: 0, quiet: true, username: "bob", password: "pw-bob-91c" });
});

afterAll(async () => {
  await alice?.stop();
  await bob?.stop();
});

/**
 * A project of `files` with stack `dev` on a local backend, the plugin on PATH (as a user has it after
 * `npm install -g pulumi-wpengine`), and the default provider configured as alice.
 */
async function newProject(files: Record<string, string>, pathDirs: string[] = []): Promise<void> {
  const cli = (await toolchain.ensure()).env;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-exec-"));
  fs.mkdirSync(path.join(dir, "backend"));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"));
  env = {
    ...process.env,
    ...cli,
    PATH: [path.join(REPO, "bin"), ...pathDirs, cli["PATH"]].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_CONFIG_PASSPHRASE: "exec-provider-test",
    NO_COLOR: "1",
  };
  await pulumi(["stack", "init", "dev"]);
  await pulumi([
    "config",
    "set-all",
    "--plaintext",
    "wpengine:username=alice",
    "--secret",
    "wpengine:password=pw-alice-7f3",
    "--plaintext",
    `wpengine:apiUrl=${alice.apiUrl}`,
    "--plaintext",
    `wpengine:appHostingUrl=${alice.appHostingUrl}`,
  ]);
}

describe("executable provider under the pulumi CLI: a Node.js program", () => {
  beforeAll(async () => {
    await newProject({
      "Pulumi.yaml": "name: exec-provider\nruntime: nodejs\nmain: index.js\n",
      "package.json": '{ "name": "exec-provider", "private": true }\n',
      "index.js": PROGRAM,
    });
    await pulumi([
      "config",
      "set-all",
      "--plaintext",
      `bobApiUrl=${bob.apiUrl}`,
      "--plaintext",
      `bobAppUrl=${bob.appHostingUrl}`,
      "--secret",
      "bobPassword=pw-bob-91c",
    ]);
  }, 600_000);

  it("prints its schema to pulumi package get-schema", async () => {
    const { stdout } = await pulumi([
      "package",
      "get-schema",
      path.join(REPO, "bin", "pulumi-resource-wpengine"),
    ]);
    const schema = JSON.parse(stdout.slice(stdout.indexOf("{")));
    expect(schema.name).toBe("wpengine");
    expect(schema.resources["wpengine:index:Domain"].requiredInputs).toEqual(["installId", "name"]);
    expect(schema.resources["wpengine:index:ThirdPartyCertificate"].inputProperties.privateKey.secret).toBe(
      true,
    );
    expect(schema.config.variables.password).toMatchObject({
      secret: true,
      defaultInfo: { environment: ["WPE_API_PASSWORD"] },
    });
    expect(schema.functions["wpengine:index:getInstalls"].outputs.required).toEqual(["items"]);
  }, 300_000);

  it("creates with two provider instances, each with its own API user, and a lookup", async () => {
    await pulumi(["up", "--yes"]);
    const outs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout);
    expect(outs.status).toBe("TXT_VERIFICATION_PENDING");
    expect(outs.installNames).toContain("acmeprod");
    // Each domain exists on its own user's service only.
    expect((await clientOf(alice, "alice", "pw-alice-7f3").domains.get(ACME_PROD, outs.wwwId)).name).toBe(
      "exec.acme.example",
    );
    expect((await clientOf(bob, "bob", "pw-bob-91c").domains.get(GLOBEX_PROD, outs.otherId)).name).toBe(
      "exec.globex.example",
    );
    await expect(
      clientOf(alice, "alice", "pw-alice-7f3").domains.get(GLOBEX_PROD, outs.otherId),
    ).rejects.toThrow();
    const state = (await pulumi(["stack", "export", "--show-secrets=false"])).stdout;
    expect(state).not.toContain("pw-bob-91c");
    expect(state).not.toContain("pw-alice-7f3");
    // Figures for the report: bytes of state per resource.
    for (const r of JSON.parse(state).deployment.resources)
      console.log(`state bytes ${r.type} ${nameOf(r.urn)}: ${JSON.stringify(r).length}`);
  }, 600_000);

  it("previews no changes, then a detailed diff naming each property and whether it replaces", async () => {
    expect((await steps()).filter((s) => s.op !== "same")).toEqual([]);
    await pulumi(["config", "set", "wwwSecure", "true"]);
    await pulumi(["config", "set", "wwwName", "exec2.acme.example"]);
    const www = (await steps()).find((s) => nameOf(s.urn) === "www" && s.op !== "same");
    expect(www?.op).toBe("replace");
    expect(www?.detailedDiff).toEqual({
      name: { kind: "update-replace", inputDiff: true },
      secureAllUrls: { kind: "update", inputDiff: true },
    });
    await pulumi(["config", "rm", "wwwSecure"]);
    await pulumi(["config", "rm", "wwwName"]);
  }, 600_000);

  it("refresh sees a domain deleted on the service, and the next preview recreates it", async () => {
    const { wwwId } = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout);
    await clientOf(alice, "alice", "pw-alice-7f3").domains.delete(ACME_PROD, wwwId);
    await pulumi(["refresh", "--yes"]);
    const plan = (await steps()).filter((s) => s.op !== "same").map((s) => `${nameOf(s.urn)}: ${s.op}`);
    expect(plan).toEqual(["www: create"]);
    await pulumi(["up", "--yes"]);
  }, 600_000);

  it("pulumi import adopts an existing domain by <installId>/<domainId>", async () => {
    const seeded = SEED.domains.wwwAcmeExample;
    await pulumi([
      "import",
      "wpengine:index:Domain",
      "adopted",
      `${ACME_PROD}/${seeded.id}`,
      "--yes",
      "--skip-preview",
      "--generate-code=false",
      // Imports are protected by default; this test destroys everything at the end.
      "--protect=false",
    ]);
    const state = JSON.parse((await pulumi(["stack", "export"])).stdout);
    const adopted = state.deployment.resources.find((r: { urn: string }) => nameOf(r.urn) === "adopted");
    expect(adopted.id).toBe(seeded.id);
    expect(adopted.outputs).toMatchObject({ installId: ACME_PROD, name: seeded.name, domainId: seeded.id });
    // An import id in another shape is refused with the shape it should have.
    const bad = await pulumi(
      [
        "import",
        "wpengine:index:Domain",
        "bad",
        seeded.id,
        "--yes",
        "--skip-preview",
        "--generate-code=false",
      ],
      true,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain("{installId}/{id}");
  }, 600_000);

  it("destroy deletes every domain it manages on both services", async () => {
    const { otherId, wwwId } = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout);
    await pulumi(["destroy", "--yes"]);
    await expect(clientOf(bob, "bob", "pw-bob-91c").domains.get(GLOBEX_PROD, otherId)).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      clientOf(alice, "alice", "pw-alice-7f3").domains.get(ACME_PROD, wwwId),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      clientOf(alice, "alice", "pw-alice-7f3").domains.get(ACME_PROD, SEED.domains.wwwAcmeExample.id),
    ).rejects.toMatchObject({ status: 404 });
  }, 600_000);
});

/**
 * The same through the YAML language host (built from github.com/pulumi/pulumi-yaml by the toolchain).
 * The URLs of bob's simulator are written into the program: project config does not reach this host
 * (v1.19.1, built against pkg/v3 v3.170.0, under the toolchain's CLI: `${name}` of a config key says
 * "resource, variable, or config value ... not found").
 */
const yamlProgram = () => `name: exec-yaml
runtime: yaml
resources:
  agency:
    type: pulumi:providers:wpengine
    properties:
      username: bob
      password:
        fn::secret: pw-bob-91c
      apiUrl: ${bob.apiUrl}
      appHostingUrl: ${bob.appHostingUrl}
  www:
    type: wpengine:index:Domain
    properties:
      installId: ${ACME_PROD}
      name: yaml.acme.example
  other:
    type: wpengine:index:Domain
    properties:
      installId: ${GLOBEX_PROD}
      name: yaml.globex.example
      secureAllUrls: true
    options:
      provider: \${agency}
variables:
  prod:
    fn::invoke:
      function: wpengine:index:getInstall
      arguments:
        installId: ${ACME_PROD}
outputs:
  wwwId: \${www.id}
  otherId: \${other.id}
  status: \${www.ownershipStatus}
  prodName: \${prod.name}
`;

describe("executable provider under the pulumi CLI: a YAML program", () => {
  beforeAll(async () => {
    await newProject({ "Pulumi.yaml": yamlProgram() }, [await toolchain.ensureYamlHost()]);
  }, 1_800_000);

  it("up with two API users and a lookup, no changes after, refresh drift, import, destroy", async () => {
    await pulumi(["up", "--yes"]);
    const outs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout);
    expect(outs).toMatchObject({ status: "TXT_VERIFICATION_PENDING", prodName: "acmeprod" });
    const aliceClient = clientOf(alice, "alice", "pw-alice-7f3");
    const bobClient = clientOf(bob, "bob", "pw-bob-91c");
    expect((await bobClient.domains.get(GLOBEX_PROD, outs.otherId)).secure_all_urls).toBe(true);
    expect((await steps()).filter((s) => s.op !== "same")).toEqual([]);

    await aliceClient.domains.delete(ACME_PROD, outs.wwwId);
    await pulumi(["refresh", "--yes"]);
    expect((await steps()).filter((s) => s.op !== "same").map((s) => `${nameOf(s.urn)}: ${s.op}`)).toEqual([
      "www: create",
    ]);

    // The staging install's domain: the Node.js suite already imported (and destroyed) www.acme.example.
    const seeded = SEED.domains.stagingAcmeExample;
    const staging = SEED.installs.acmestg.id;
    await pulumi([
      "import",
      "wpengine:index:Domain",
      "adopted",
      `${staging}/${seeded.id}`,
      "--yes",
      "--skip-preview",
      "--generate-code=false",
      "--protect=false",
    ]);
    const state = JSON.parse((await pulumi(["stack", "export"])).stdout);
    expect(state.deployment.resources.find((r: { urn: string }) => nameOf(r.urn) === "adopted")?.id).toBe(
      seeded.id,
    );

    await pulumi(["destroy", "--yes"]);
    await expect(bobClient.domains.get(GLOBEX_PROD, outs.otherId)).rejects.toMatchObject({ status: 404 });
    await expect(aliceClient.domains.get(staging, seeded.id)).rejects.toMatchObject({ status: 404 });
  }, 1_200_000);

  it("a password set without --secret is stored in the state as a secret, never in clear text", async () => {
    await pulumi(["config", "set", "--plaintext", "wpengine:password", "pw-alice-7f3"]);
    try {
      await pulumi(["up", "--yes"]);
      // The checkpoint, its .bak and backups; an update's history records the stack's config as it is set.
      const files = fs.readdirSync(path.join(dir, "backend"), { recursive: true, encoding: "utf8" });
      const clear = files.filter((f) => {
        if (f.includes("history")) return false;
        const file = path.join(dir, "backend", f);
        return fs.statSync(file).isFile() && fs.readFileSync(file, "utf8").includes("pw-alice-7f3");
      });
      expect(clear).toEqual([]);
      const state = JSON.parse((await pulumi(["stack", "export"])).stdout);
      const provider = state.deployment.resources.find((r: { urn: string }) =>
        r.urn.includes("pulumi:providers:wpengine::default"),
      );
      expect(provider.inputs.password).toMatchObject({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      });
      await pulumi(["destroy", "--yes"]);
    } finally {
      await pulumi(["config", "set", "--secret", "wpengine:password", "pw-alice-7f3"]);
    }
  }, 1_200_000);
});
