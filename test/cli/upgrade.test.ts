/**
 * Upgrades plan nothing: the stack the previous release (0.1.0) made of every resource kind
 * (test/fixtures/upgrade/0.1.0, recorded by test/support/upgrade.ts with that release's package), against
 * the simulator world it ran on, is taken over by this version's package under the real CLI: `pulumi
 * preview` plans no replacement and no diff, `pulumi up` sends no write to the service, and
 * `pulumi preview --refresh` finds nothing. Each later release keeps a fixture of the one before.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { driftLines } from "../../tools/cli/drift";
import { tempDir } from "../../tools/cli/pack";
import { CliProject, urnName } from "../../tools/cli/project";
import { DOORS, type FixtureMeta, programFiles, unmark, yamlPath } from "../support/upgrade";

const FIXTURE = path.join(__dirname, "..", "fixtures", "upgrade", "0.1.0");

for (const door of DOORS) {
  const dir = path.join(FIXTURE, door);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")) as FixtureMeta;

  describe(`${door}: a stack made by ${meta.version}, upgraded to this version`, {
    timeout: 20 * 60_000,
  }, () => {
    let sim: RunningSimulator;
    let project: CliProject;
    let world: string;

    beforeAll(async () => {
      // The world the stack ran on, on a simulator of this version.
      world = tempDir("wpe-upgrade-world-");
      for (const f of fs.readdirSync(dir).filter((f) => f.startsWith("world.json")))
        fs.copyFileSync(path.join(dir, f), path.join(world, f));
      sim = await startSimulator({
        port: 0,
        quiet: true,
        password: meta.password,
        stateFile: path.join(world, "world.json"),
      });
      const read = (f: string) => unmark(fs.readFileSync(path.join(dir, f), "utf8"), sim);
      const program = read(door === "typescript" ? "index.js" : "Pulumi.yaml");
      project = await CliProject.create({
        files: {
          ...programFiles(door, program),
          // The stack's own config file: the passphrase's salt the state's secrets were encrypted with.
          "Pulumi.dev.yaml": read("Pulumi.dev.yaml"),
        },
        name: "upgrade-fixture",
        // YAML: this version's plugin (the npm bin of this checkout) and the language host.
        ...(door === "yaml" ? { env: { PATH: await yamlPath() } } : {}),
      });
      const state = path.join(project.root, "state.json");
      fs.writeFileSync(state, read("state.json"));
      await project.run(["stack", "import", "--file", state]);
      expect((await project.resources()).length).toBe(meta.resources);
    }, 15 * 60_000);

    afterAll(async () => {
      project?.dispose();
      await sim?.stop();
      if (world) fs.rmSync(world, { recursive: true, force: true });
    });

    it("preview plans no replacement and no diff", async () => {
      const plan = await project.preview(["--diff"]);
      const changed = plan.steps
        .filter((s) => s.op !== "same")
        .map((s) => `${urnName(s.urn)}: ${s.op} ${JSON.stringify(s.diffReasons ?? [])}`);
      expect(changed).toEqual([]);
    });

    it("up makes no write to the service", async () => {
      sim.clearRequests();
      await project.up();
      expect(sim.requests().filter((q) => q.method !== "GET")).toEqual([]);
    });

    it("preview --refresh is clean", async () => {
      await project.expectNoChanges(["--refresh"]);
      const plain = await project.run(["preview", "--refresh"]);
      expect(driftLines(plain.stdout)).toEqual([]);
    });
  });
}

describe("the fixture", () => {
  it("names the simulator by a mark only, and holds every kind through both doors", () => {
    for (const door of DOORS) {
      expect(fs.readFileSync(path.join(FIXTURE, door, "state.json"), "utf8")).not.toMatch(/127\.0\.0\.1:\d+/);
      const meta = JSON.parse(fs.readFileSync(path.join(FIXTURE, door, "meta.json"), "utf8")) as FixtureMeta;
      expect(meta.version).toBe("0.1.0");
      expect(meta.resources).toBeGreaterThanOrEqual(23);
    }
  });
});
