/**
 * Upgrade fixtures: a stack made by a released version, kept so that every later version proves it
 * upgrades without a change. A fixture (`test/fixtures/upgrade/<version>/`) holds the every-kind program
 * (test/engine/cases.ts's args at that version), the stack's exported state and its `Pulumi.dev.yaml`
 * (the passphrase's salt, the config), and the simulator world the stack ran against (its state file).
 * The simulator's URL is written as {@link URL_MARK} / {@link APP_URL_MARK}: a test puts its own back.
 *
 * Recorded by `recordUpgrade`, run in a checkout of the release (`npm run build`, then a vitest file that
 * calls it; see test/fixtures/upgrade/README.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { REPO, tempDir } from "../../tools/cli/pack";
import { CliProject, cliEnv } from "../../tools/cli/project";
import { CASES } from "../engine/cases";
import { distinctivePassword, seed } from "../engine/harness";

export const URL_MARK = "http://simulator.invalid/v1";
export const APP_URL_MARK = "http://simulator.invalid/app";
export const USERNAME = "demo";

/** The every-kind program as YAML (JSON is YAML) for the executable provider: the second front door. */
export function everyKindYaml(): string {
  const resources = Object.fromEntries(
    CASES.map((c) => [c.kind, { type: `wpengine:index:${c.kind}`, properties: c.args(seed) }]),
  );
  return `${JSON.stringify({ name: "upgrade-fixture-yaml", runtime: "yaml", resources }, null, 2)}\n`;
}

/** PATH with this checkout's `pulumi-resource-wpengine` (its npm bin) and the YAML language host first. */
export async function yamlPath(): Promise<string> {
  const toolchain: { ensureYamlHost(): Promise<string> } = require(
    path.join(REPO, "tools/pulumi/toolchain.js"),
  );
  const env = await cliEnv();
  return [
    path.join(REPO, "bin"),
    await toolchain.ensureYamlHost(),
    env["PATH"] ?? process.env["PATH"] ?? "",
  ].join(path.delimiter);
}

/** The every-kind program of test/cli/resources.test.ts, its args frozen into the file. */
export function everyKindProgram(): string {
  const args = Object.fromEntries(CASES.map((c) => [c.kind, c.args(seed)]));
  return `"use strict";
const wpengine = require("pulumi-wpengine");
const args = ${JSON.stringify(args, null, 2)};
for (const [kind, a] of Object.entries(args)) new wpengine[kind](kind, a);
`;
}

export interface FixtureMeta {
  version: string;
  password: string;
  apiUrl: string;
  appHostingUrl: string;
  resources: number;
}

const mark = (text: string, meta: Pick<FixtureMeta, "apiUrl" | "appHostingUrl">) =>
  text.split(meta.apiUrl).join(URL_MARK).split(meta.appHostingUrl).join(APP_URL_MARK);
export const unmark = (text: string, sim: RunningSimulator) =>
  text.split(URL_MARK).join(sim.apiUrl).split(APP_URL_MARK).join(sim.appHostingUrl);

export type Door = "typescript" | "yaml";
export const DOORS: readonly Door[] = ["typescript", "yaml"];

/** The files of a door's project (the program; for TypeScript a package.json naming it). */
export function programFiles(door: Door, program: string): Record<string, string> {
  return door === "typescript"
    ? { "index.js": program, "package.json": '{ "name": "upgrade-fixture", "main": "index.js" }\n' }
    : { "Pulumi.yaml": program };
}

/**
 * Runs the every-kind program through one front door with this checkout's package, on a simulator of
 * its own, and writes `out/<door>/`: the program, the exported state, Pulumi.dev.yaml, the world, meta.json.
 */
async function recordDoor(out: string, version: string, door: Door): Promise<void> {
  const password = distinctivePassword();
  const work = tempDir("wpe-upgrade-record-");
  const sim = await startSimulator({
    port: 0,
    quiet: true,
    password,
    stateFile: path.join(work, "world.json"),
  });
  let project: CliProject | undefined;
  let running = true;
  try {
    const client = new WpEngineClient({
      username: USERNAME,
      password,
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    for (const c of CASES) await c.prepare?.(sim, client, seed);
    const program = door === "typescript" ? everyKindProgram() : everyKindYaml();
    project = await CliProject.create({
      files: programFiles(door, program),
      name: "upgrade-fixture",
      config: {
        "wpengine:apiUrl": sim.apiUrl,
        "wpengine:appHostingUrl": sim.appHostingUrl,
        "wpengine:username": USERNAME,
      },
      secrets: { "wpengine:password": password },
      ...(door === "yaml" ? { env: { PATH: await yamlPath() } } : {}),
    });
    await project.up();
    const state = await project.exportText();
    const meta: FixtureMeta = {
      version,
      password,
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
      resources: (await project.resources()).length,
    };
    // Stopped: the world is in its state file (and journal).
    await sim.stop();
    running = false;
    const dir = path.join(out, door);
    fs.mkdirSync(dir, { recursive: true });
    for (const [f, text] of Object.entries(programFiles(door, program)))
      fs.writeFileSync(path.join(dir, f), text);
    fs.writeFileSync(path.join(dir, "state.json"), mark(state, meta));
    fs.writeFileSync(
      path.join(dir, "Pulumi.dev.yaml"),
      mark(fs.readFileSync(path.join(project.dir, "Pulumi.dev.yaml"), "utf8"), meta),
    );
    for (const f of fs.readdirSync(work))
      fs.writeFileSync(path.join(dir, f), mark(fs.readFileSync(path.join(work, f), "utf8"), meta));
    fs.writeFileSync(
      path.join(dir, "meta.json"),
      `${JSON.stringify({ ...meta, apiUrl: URL_MARK, appHostingUrl: APP_URL_MARK }, null, 2)}\n`,
    );
  } finally {
    project?.dispose();
    if (running) await sim.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Records the fixture of this checkout's version, through both front doors, into `out`. */
export async function recordUpgrade(out: string, version: string): Promise<void> {
  fs.rmSync(out, { recursive: true, force: true });
  for (const door of DOORS) await recordDoor(out, version, door);
}
