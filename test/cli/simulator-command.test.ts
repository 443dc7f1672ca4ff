/**
 * The simulator as a user of the installed package has it (README "Try it on the simulator",
 * docs/simulator.md): `npx pulumi-wpengine simulator` from the packed package serves the seeded world
 * and prints what a program needs; `WPE_SIMULATOR=true` is one world for every folder, so the importer
 * run in one folder and the project it writes, run by the real `pulumi` CLI in another, see the same
 * objects; and a program whose lookups start it still ends.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED } from "../../simulator";
import { loadState } from "../../simulator/store";
import { type PackedProgram, packedProgram, tempDir } from "../../tools/cli/pack";
import { CliProject, cliEnv, killGroup, runCommand } from "../../tools/cli/project";

let packed: PackedProgram;
let env: NodeJS.ProcessEnv;
const work = tempDir("wpe-simulator-command-");
const running = new Set<ChildProcess>();

beforeAll(async () => {
  packed = await packedProgram();
  // The toolchain's PATH (Node 22, pulumi), without any credentials or simulator setting of the caller.
  env = { ...process.env, ...(await cliEnv()), NO_COLOR: "1" };
  for (const k of [
    "WPE_API_USER_ID",
    "WPE_API_PASSWORD",
    "WPE_API_URL",
    "WPE_APP_HOSTING_URL",
    "WPE_SIMULATOR",
  ])
    delete env[k];
}, 15 * 60_000);

afterAll(() => {
  for (const child of running) killGroup(child.pid);
  fs.rmSync(work, { recursive: true, force: true });
});

/** `npx pulumi-wpengine simulator ...args` in `cwd`; resolves with all it printed once its last line is out. */
function startCommand(cwd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  return new Promise<{ child: ChildProcess; url: string; out: string }>((resolve, reject) => {
    // Its own process group, as a terminal runs a command: Ctrl-C (here SIGTERM) reaches npx and the simulator.
    const child = spawn("npx", ["--no-install", "pulumi-wpengine", "simulator", ...args], {
      cwd,
      env: { ...env, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    running.add(child);
    let out = "";
    let err = "";
    child.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      const url = /^pulumi-wpengine simulator listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1];
      if (url && /Control API: .*\n/.test(out)) resolve({ child, url, out });
    });
    child.stderr!.on("data", (b: Buffer) => {
      err += b.toString();
    });
    child.on("exit", (code) => {
      running.delete(child);
      reject(new Error(`pulumi-wpengine simulator exited with ${code}:\n${out}\n${err}`));
    });
  });
}

/** Stops the command as Ctrl-C would (its process group); resolves once the simulator no longer answers. */
async function stopCommand(child: ChildProcess, url: string): Promise<void> {
  const exited = new Promise((r) => child.on("exit", r));
  killGroup(child.pid, "SIGTERM");
  await exited;
  for (let i = 0; ; i++) {
    const answered = await fetch(`${url}/v1/status`).then(
      () => true,
      () => false,
    );
    if (!answered) return;
    if (i === 100) throw new Error(`the simulator at ${url} still answers after SIGTERM`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const basic = `Basic ${Buffer.from("demo:demo").toString("base64")}`;
const api = (url: string, method: string, p: string, body?: unknown) =>
  fetch(`${url}${p}`, {
    method,
    headers: { authorization: basic, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

describe("npx pulumi-wpengine simulator, from the packed package", { timeout: 10 * 60_000 }, () => {
  it("serves the seeded world and prints its URL, the credentials, the config lines and the seeded ids", async () => {
    // Where the tarball is installed (npx finds its bin there): no checkout, no build.
    const { child, url, out } = await startCommand(packed.dir, ["--port", "0"]);
    try {
      expect(out).toContain("user demo, password demo");
      expect(out).toContain(`pulumi config set wpengine:apiUrl ${url}/v1`);
      expect(out).toContain(`pulumi config set wpengine:appHostingUrl ${url}`);
      for (const id of [
        SEED.accounts.acme.id,
        SEED.sites.acmeMarketing.id,
        SEED.installs.acmeprod.id,
        SEED.installs.acmestg.id,
        SEED.templates.siteReport.uuid,
        SEED.apps.acmeFrontend.appId,
      ])
        expect(out).toContain(id);
      const installs = (await (await api(url, "GET", "/v1/installs")).json()) as {
        results: { id: string }[];
      };
      expect(installs.results.map((i) => i.id)).toContain(SEED.installs.acmestg.id);
    } finally {
      await stopCommand(child, url);
    }
  });

  it("refuses a mistaken flag in one line, exit code 2", async () => {
    const r = await runCommand("npx", ["--no-install", "pulumi-wpengine", "simulator", "--latency", "soon"], {
      cwd: packed.dir,
      env,
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(2);
    // (Lines of npm's own about this machine's npm config aside.)
    expect(r.stderr.split("\n").filter((l) => l.trim() && !l.startsWith("npm warn"))).toEqual([
      "pulumi-wpengine simulator: --latency must be a whole number of milliseconds, 0 to 600000 (see pulumi-wpengine simulator --help)",
    ]);
  });
});

/** A domain made on acmestg in the world file `world`, through the simulator command serving it; its id. */
async function domainIn(world: string, name: string): Promise<string> {
  const server = await startCommand(packed.dir, ["--port", "0", "--state", world]);
  const made = await api(server.url, "POST", `/v1/installs/${SEED.installs.acmestg.id}/domains`, { name });
  expect(made.status).toBe(201);
  const { id } = (await made.json()) as { id: string };
  await stopCommand(server.child, server.url);
  return id;
}

describe("WPE_SIMULATOR=true: one world for every folder", { timeout: 30 * 60_000 }, () => {
  it("the importer in one folder and the project it writes, under the pulumi CLI in another, see the same objects", async () => {
    const home = path.join(work, "pulumi-home");
    const world = path.join(home, "wpengine-simulator.json");
    // A domain made in the shared world from a third folder, through the simulator command on that file.
    const domainId = await domainIn(world, "shared-world.acme.example");

    // The README's trial: import with WPE_SIMULATOR=true, then the project's up with WPE_SIMULATOR=true.
    const importer = path.join(work, "importer");
    fs.mkdirSync(importer);
    const bin = path.join(packed.dir, "node_modules", ".bin", "pulumi-wpengine");
    // A backend to read the stacks of (the README's `pulumi login --local`): without one the importer refuses.
    const backend = path.join(work, "trial-backend");
    fs.mkdirSync(backend, { recursive: true });
    const imported = await runCommand(bin, ["import", "--out", "fleet", "--project", "fleet"], {
      cwd: importer,
      env: { ...env, PULUMI_HOME: home, PULUMI_BACKEND_URL: `file://${backend}`, WPE_SIMULATOR: "true" },
      timeoutMs: 5 * 60_000,
    });
    expect(imported.stderr).not.toMatch(/error/i);
    expect(imported.code).toBe(0);
    const program = fs.readFileSync(path.join(importer, "fleet", "index.ts"), "utf8");
    expect(program).toContain('"shared-world.acme.example"');

    const project = await CliProject.create({
      from: path.join(importer, "fleet"),
      env: { PULUMI_HOME: home, WPE_SIMULATOR: "true", PULUMI_SKIP_CHECKPOINTS: "true" },
      timeoutMs: 20 * 60_000,
    });
    try {
      await project.run(["up", "--yes", "--skip-preview"], { env: { WPE_ADOPT_EXISTING: "true" } });
      // Taken over, not made again: the state holds the domain made above, by its id, and the world has it once.
      const domains = (await project.resources()).filter((r) => r.type.endsWith(":Domain"));
      const shared = domains.filter((r) => r.outputs?.["name"] === "shared-world.acme.example");
      expect(shared.map((r) => r.id)).toEqual([domainId]);
      const named = Object.values(loadState(world).domains).filter(
        (d) => d.name === "shared-world.acme.example",
      );
      expect(named.length).toBe(1);
      await project.expectNoChanges(["--refresh"]);
    } finally {
      project.dispose();
    }
  });

  it("an import of a world file of its own: the README's steps run on that world (adopted, 0 writes), not the shared one (u57)", async () => {
    const home = path.join(work, "u57-home");
    const dir = path.join(work, "u57");
    fs.mkdirSync(path.join(dir, "u57"), { recursive: true });
    const world = path.join(dir, "u57", "world.json");
    // A domain only this world holds: an up on another world would create it there.
    const domainId = await domainIn(world, "own-world.acme.example");

    // The user's command, with the world named relative to where the import runs.
    const bin = path.join(packed.dir, "node_modules", ".bin", "pulumi-wpengine");
    const account = SEED.accounts.acme.id;
    const imported = await runCommand(
      bin,
      ["import", "--out", "fleet", "--account", account, "--include-managed"],
      {
        cwd: dir,
        env: { ...env, PULUMI_HOME: home, WPE_SIMULATOR: "u57/world.json" },
        timeoutMs: 5 * 60_000,
      },
    );
    expect(imported.code, imported.stderr).toBe(0);
    const readme = fs.readFileSync(path.join(dir, "fleet", "README.md"), "utf8");
    expect(readme).toContain(
      `Generated by \`pulumi-wpengine import --account ${account} --include-managed\` from the bundled simulator (WPE_SIMULATOR=${world})`,
    );
    // The steps' first line sets the world; the rest run as the project's (stack init, install: CliProject's).
    const first = /```sh\n(.*?)\s+#/.exec(readme)?.[1];
    expect(first).toBe(`export WPE_SIMULATOR=${world}`);
    const before = loadState(world);

    const project = await CliProject.create({
      from: path.join(dir, "fleet"),
      env: {
        PULUMI_HOME: home,
        WPE_SIMULATOR: first!.slice("export WPE_SIMULATOR=".length),
        PULUMI_SKIP_CHECKPOINTS: "true",
      },
      timeoutMs: 20 * 60_000,
    });
    try {
      await project.run(["up", "--yes", "--skip-preview"], { env: { WPE_ADOPT_EXISTING: "true" } });
      const domains = (await project.resources()).filter((r) => r.type.endsWith(":Domain"));
      expect(
        domains.filter((r) => r.outputs?.["name"] === "own-world.acme.example").map((r) => r.id),
      ).toEqual([domainId]);
      // Only read: the world's objects are those it held; the shared world was never started.
      const after = loadState(world);
      for (const table of ["sites", "installs", "domains", "account_users"] as const)
        expect(Object.keys(after[table]).sort(), table).toEqual(Object.keys(before[table]).sort());
      expect(fs.existsSync(path.join(home, "wpengine-simulator.json"))).toBe(false);
      await project.expectNoChanges(["--refresh"]);
    } finally {
      project.dispose();
    }
  });

  it("a program's lookups run on it and the program still ends: up finishes with the seeded install's name", async () => {
    const program = `"use strict";
const wpengine = require("pulumi-wpengine");
exports.installName = wpengine.getInstallOutput({ installId: "${SEED.installs.acmeprod.id}" }).name;
`;
    const project = await CliProject.create({
      files: { "index.js": program, "package.json": '{ "name": "lookup-only", "main": "index.js" }\n' },
      name: "lookup-only",
      env: { WPE_SIMULATOR: "true" },
      // A simulator that kept the program's process alive would hold each command until this deadline.
      timeoutMs: 4 * 60_000,
    });
    try {
      const { outputs } = await project.up();
      expect(outputs["installName"]).toBe("acmeprod");
      await project.expectNoChanges();
    } finally {
      project.dispose();
    }
  });

  it("a lookup sees what the provider made earlier in the same up (one live world for every process)", async () => {
    const installId = SEED.installs.acmeprod.id;
    // The first lookup starts the program's simulator before the domain exists; the second waits for it.
    const program = `"use strict";
const wpengine = require("pulumi-wpengine");
exports.installName = wpengine.getInstallOutput({ installId: "${installId}" }).name;
const domain = new wpengine.Domain("live", { installId: "${installId}", name: "live-world.acme.example" });
exports.looked = wpengine.getDomainOutput({ installId: "${installId}", domainId: domain.id }).name;
`;
    const project = await CliProject.create({
      files: { "index.js": program, "package.json": '{ "name": "live-world", "main": "index.js" }\n' },
      name: "live-world",
      env: { WPE_SIMULATOR: "true" },
      timeoutMs: 4 * 60_000,
    });
    try {
      const { outputs } = await project.up();
      expect(outputs["installName"]).toBe("acmeprod");
      expect(outputs["looked"]).toBe("live-world.acme.example");
      await project.expectNoChanges(["--refresh"]);
    } finally {
      project.dispose();
    }
  });
});
