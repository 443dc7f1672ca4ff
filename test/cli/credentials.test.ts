/**
 * Credentials on the real CLI (README, "Where credentials are stored"): a wrong password fails
 * `pulumi preview` before any write; after a rotation (the service takes a new password, the stack's
 * config gets it) `preview --refresh`, `refresh` and `destroy` work with the documented `--run-program`
 * (without it they fail saying so); with the
 * credentials in the environment instead, the state holds no password at all, not even encrypted, and a
 * rotation needs nothing but the new environment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject } from "../../tools/cli/project";
import { demoConfig } from "../support/simulator";

const INSTALL = SEED.installs.acmedev.id;

const program = (suffix: string) => `"use strict";
const wpengine = require("pulumi-wpengine");
for (const n of ["a", "b"]) new wpengine.Domain(n, { installId: "${INSTALL}", name: n + "${suffix}" });
`;

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await sim?.stop();
});

/** The service takes a new password for the demo user (the old one is refused from now on). */
const rotate = async (password: string): Promise<void> => {
  const res = await fetch(`${sim.url}/__sim/users/demo`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password }),
  });
  expect(res.status).toBe(200);
};

const domainsOnService = async (suffix: string): Promise<string[]> => {
  const world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as {
    domains: Record<string, { name: string }>;
  };
  return Object.values(world.domains)
    .map((d) => d.name)
    .filter((n) => n.endsWith(suffix))
    .sort();
};

const writes = async (): Promise<string[]> => {
  const { requests } = (await (await fetch(`${sim.url}/__sim/requests`)).json()) as {
    requests: { method: string; path: string }[];
  };
  return requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
};

describe("credentials in stack config", { timeout: 15 * 60_000 }, () => {
  const SUFFIX = ".cfg-creds.example";
  let project: CliProject;

  beforeAll(async () => {
    await rotate("demo");
    project = await CliProject.create({
      files: { "index.js": program(SUFFIX), "package.json": '{ "name": "cli-creds", "main": "index.js" }\n' },
      name: "cli-creds",
      config: demoConfig(sim),
      secrets: { "wpengine:password": "demo" },
    });
  }, 10 * 60_000);
  afterAll(() => project?.dispose());

  it("a wrong password fails pulumi preview, naming the config keys, before any write", async () => {
    await project.setConfig({}, { "wpengine:password": "not-the-password" });
    await fetch(`${sim.url}/__sim/requests`, { method: "DELETE" });
    const r = await project.run(["preview"], { allowFail: true });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/refused the credentials of API user demo \(401 Unauthorized/);
    expect(r.stdout + r.stderr).toContain("wpengine:password");
    expect(r.stdout + r.stderr).not.toContain("not-the-password");
    expect(await writes()).toEqual([]);
    await project.setConfig({}, { "wpengine:password": "demo" });
  });

  it("after a rotation, preview --refresh, refresh and destroy work with --run-program (and say so without)", async () => {
    await project.up();
    expect(await domainsOnService(SUFFIX)).toEqual([`a${SUFFIX}`, `b${SUFFIX}`]);

    await rotate("rotated-1");
    await project.setConfig({}, { "wpengine:password": "rotated-1" });
    // Without the flag the engine configures the provider as stored by the last deployment (the old
    // password): the error says what to do.
    const preview = await project.run(["preview", "--refresh"], { allowFail: true });
    const plain = await project.run(["refresh", "--yes", "--skip-preview"], { allowFail: true });
    for (const r of [preview, plain]) {
      expect(r.code).not.toBe(0);
      expect(r.stdout + r.stderr).toContain("run them with --run-program");
    }
    await project.expectNoChanges(["--refresh", "--run-program"]);
    await project.refresh(["--run-program"]);

    await rotate("rotated-2");
    await project.setConfig({}, { "wpengine:password": "rotated-2" });
    const stale = await project.run(["destroy", "--yes", "--skip-preview"], { allowFail: true });
    expect(stale.code).not.toBe(0);
    expect(stale.stdout + stale.stderr).toContain("run them with --run-program");
    expect(await domainsOnService(SUFFIX)).toEqual([`a${SUFFIX}`, `b${SUFFIX}`]);
    await project.destroy(["--run-program"]);
    expect(await domainsOnService(SUFFIX)).toEqual([]);
    for (const r of [preview, plain, stale]) expect(r.stdout + r.stderr).not.toMatch(/rotated-\d|"demo"/);
  });
});

describe("credentials in the environment", { timeout: 15 * 60_000 }, () => {
  const SUFFIX = ".env-creds.example";
  let project: CliProject;
  const creds = (password: string) => ({ WPE_API_USER_ID: "demo", WPE_API_PASSWORD: password });

  beforeAll(async () => {
    await rotate("env-pw-1");
    project = await CliProject.create({
      files: {
        "index.js": program(SUFFIX),
        "package.json": '{ "name": "cli-creds-env", "main": "index.js" }\n',
      },
      name: "cli-creds-env",
      config: { "wpengine:apiUrl": sim.apiUrl, "wpengine:appHostingUrl": sim.appHostingUrl },
    });
  }, 10 * 60_000);
  afterAll(() => project?.dispose());

  it("keeps every password out of the state, and a rotation needs only the new environment", async () => {
    await project.run(["up", "--yes", "--skip-preview"], { env: creds("env-pw-1") });
    expect(await domainsOnService(SUFFIX)).toEqual([`a${SUFFIX}`, `b${SUFFIX}`]);
    const state = (await project.run(["stack", "export", "--show-secrets"])).stdout;
    expect(state).not.toContain("env-pw-1");
    expect(state).not.toMatch(/password/i);
    expect(state).not.toContain("WPE_API_PASSWORD");

    await rotate("env-pw-2");
    const env = creds("env-pw-2");
    await project.run(["refresh", "--yes", "--skip-preview"], { env });
    await project.run(["preview", "--refresh", "--expect-no-changes"], { env });
    await project.run(["destroy", "--yes", "--skip-preview"], { env });
    expect(await domainsOnService(SUFFIX)).toEqual([]);
  });
});
