/**
 * `wpengine:simulator`, the embedded simulator the README offers, through the path a stack takes: the
 * plugin's `configure` receives the stack config, then a resource's methods run (the plugin's `run`
 * `require`s the compiled module of a kind, which vitest cannot load from source: the provider is called
 * directly).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { resetClient } from "../../provider/core/client";
import { clearStackConfig } from "../../provider/core/config";
import { definition } from "../../provider/kinds/Domain";
import { configure } from "../../provider/plugin";
import { SEED } from "../../simulator";

const { provider } = definition;

const dir = mkdtempSync(join(tmpdir(), "wpengine-simulator-mode-"));
const stateFile = join(dir, "world.json");
const ACMESTG = SEED.installs.acmestg.id;

/** The stack config as `configure` receives it. */
const stackConfig = (config: Record<string, string>) =>
  configure({ config: new Map(Object.entries(config)) } as unknown as pulumi.dynamic.ConfigureRequest);

afterEach(async () => {
  clearStackConfig();
  await resetClient();
  vi.unstubAllEnvs();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Made = { id: string; outs: Record<string, unknown> };

it("runs resources against an embedded simulator keeping its world in the named file, with no credentials", async () => {
  // No credentials anywhere: the environment's are blanked too.
  vi.stubEnv("WPE_API_USER_ID", "");
  vi.stubEnv("WPE_API_PASSWORD", "");
  await stackConfig({ "wpengine:simulator": stateFile });
  const { inputs } = (await provider.check!({}, { installId: ACMESTG, name: "embedded.example.com" })) as {
    inputs: Record<string, unknown>;
  };
  const made = (await provider.create(inputs)) as Made;
  // On disk before create returned: in the state file's snapshot or in its journal of changes.
  const onDisk = [stateFile, `${stateFile}.journal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");
  expect(onDisk).toContain(made.id);
  expect(onDisk).toContain("embedded.example.com");

  // The next plugin process (a new client, a new embedded simulator) finds it in the same file.
  await resetClient();
  await stackConfig({ "wpengine:simulator": stateFile });
  expect(await provider.read!(made.id, made.outs)).toMatchObject({ id: made.id });
  await provider.delete!(made.id, made.outs);
  expect(await provider.read!(made.id, made.outs)).toEqual({ id: "" });
});

it("is off for `false`: without credentials the provider fails, saying how to set them", async () => {
  vi.stubEnv("WPE_API_USER_ID", "");
  vi.stubEnv("WPE_API_PASSWORD", "");
  vi.stubEnv("WPE_SIMULATOR", "");
  await stackConfig({ "wpengine:simulator": "false" });
  await expect(provider.read!("d", { installId: ACMESTG })).rejects.toThrow(
    /missing wpengine:username and wpengine:password.*wpengine:simulator true/,
  );
});
