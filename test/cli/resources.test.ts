/**
 * Every resource class of the case table (test/engine/cases.ts) in one stack under the real `pulumi`
 * CLI against the simulator: create, a refreshed preview that finds nothing (no phantom drift on any
 * class), an update of every resource (in place, or a replacement for the kinds whose every input
 * replaces), refresh, and destroy. Secret args are passed as PLAIN strings: the state must still hold
 * them only encrypted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { driftLines, plannedChanges } from "../../tools/cli/drift";
import { CliProject, urnName } from "../../tools/cli/project";
import { CASES } from "../engine/cases";
import { cliChange, DRIFT } from "../engine/drift";
import { allStrings, distinctivePassword, missing, seed } from "../engine/harness";
import { demoConfig } from "../support/simulator";

/** The program: every case's resource, its args picked by the `phase` config (create or update). */
function program(): string {
  const args = Object.fromEntries(
    CASES.map((c) => [c.kind, { create: c.args(seed), update: c.update(seed) }]),
  );
  return `"use strict";
const pulumi = require("@pulumi/pulumi");
const wpengine = require("pulumi-wpengine");
const phase = new pulumi.Config().require("phase");
const args = ${JSON.stringify(args)};
for (const [kind, variants] of Object.entries(args)) new wpengine[kind](kind, variants[phase]);
`;
}

describe("every resource class in one stack under the pulumi CLI", { timeout: 20 * 60_000 }, () => {
  let sim: RunningSimulator;
  let project: CliProject;
  let password: string;
  let client: WpEngineClient;
  /** Plain-text values of every secret arg: none may appear in the exported state. */
  const secretValues = () =>
    CASES.flatMap((c) => (c.secretArgs ?? []).flatMap((k) => allStrings(c.args(seed)[k]))).filter(
      (v) => v.length > 8,
    );

  beforeAll(async () => {
    password = distinctivePassword();
    sim = await startSimulator({ port: 0, quiet: true, password });
    client = new WpEngineClient({
      username: "demo",
      password,
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    for (const c of CASES) await c.prepare?.(sim, client, seed);
    project = await CliProject.create({
      files: {
        "index.js": program(),
        "package.json": '{ "name": "cli-all-resources", "main": "index.js" }\n',
      },
      name: "cli-all-resources",
      config: {
        ...demoConfig(sim),
        phase: "create",
      },
      secrets: { "wpengine:password": password },
    });
  }, 10 * 60_000);

  /** The counts of `pulumi refresh --preview-only --json`: what a refresh would change. */
  const refreshSummary = async () =>
    JSON.parse((await project.run(["refresh", "--preview-only", "--json"])).stdout).changeSummary;

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("create, no phantom drift, update or replace, refresh, destroy", async () => {
    await project.up();
    const created = new Map((await project.resources()).map((r) => [urnName(r.urn), r]));
    expect([...created.keys()].sort()).toEqual(CASES.map((c) => c.kind).sort());
    for (const c of CASES) {
      const r = created.get(c.kind)!;
      expect(r.type).toBe(`pulumi-nodejs:dynamic/wpengine:${c.kind}`);
      expect(r.id, c.kind).toBeTruthy();
      expect(missing(r.outputs ?? {}, c.required), `${c.kind} outputs`).toEqual([]);
    }
    const exported = await project.exportText();
    expect(exported).not.toContain(password);
    for (const secret of secretValues()) expect(exported).not.toContain(secret);

    // Nothing nobody changed is reported as drift, on any class: the planned changes (--expect-no-changes),
    // and the refresh step's own diff, which that flag cannot see, in the text a user reads...
    await project.expectNoChanges(["--refresh"]);
    const plain = await project.run(["preview", "--refresh"]);
    expect(driftLines(plain.stdout), "a plain preview --refresh of the untouched stack").toEqual([]);
    // ...and in the CLI's --json: a refresh preview counts no change (its steps carry no refreshed state).
    expect(await refreshSummary(), "refresh --preview-only --json").toEqual({ same: CASES.length + 1 });
    // ...and a refresh changes no output of any resource.
    // Values the service itself changes on its own, per kind, are left out: a Let's Encrypt order is
    // approved in the background (SUBMITTED, then ENABLED with its approval and expiry times). A secret is
    // compared as a secret (the engine encrypts it anew, with a new nonce, on every write).
    const BY_SERVICE: Record<string, string[]> = {
      LetsEncryptCertificate: ["status", "approvedTime", "expiresTime"],
    };
    const settled = (kind: string, outputs: Record<string, unknown> = {}) =>
      Object.fromEntries(
        Object.entries(outputs)
          .filter(([k]) => !BY_SERVICE[kind]?.includes(k))
          .map(([k, v]) => [k, v !== null && typeof v === "object" && "ciphertext" in v ? "[secret]" : v]),
      );
    const outputsNow = async () =>
      Object.fromEntries(
        (await project.resources()).map((r) => [urnName(r.urn), settled(urnName(r.urn), r.outputs)]),
      );
    const beforeRefresh = await outputsNow();
    await project.refresh();
    expect(await outputsNow()).toEqual(beforeRefresh);

    // Out-of-band drift, one change per kind made through the API (test/engine/drift.ts): the refreshed
    // plan holds exactly those resources and properties (a removed object is created again), the refresh
    // preview counts them, `up --refresh` repairs them, and a plain refreshed preview is quiet again.
    const made = new Map((await project.resources()).map((r) => [urnName(r.urn), r]));
    const expected: Record<string, string> = {};
    for (const d of DRIFT) {
      const change = cliChange(d);
      if (!change) continue;
      const r = made.get(d.kind)!;
      const object = { id: r.id!, outs: r.outputs ?? {} };
      const world = { client, sim, seed };
      if ("row" in change) await change.row.change(world, object);
      else await change.gone.remove(world, object);
      expected[d.kind] = "row" in change ? `update ${change.row.property}` : "create";
    }
    const drifted = await project.preview(["--refresh", "--diff"]);
    expect(plannedChanges(drifted), "preview --refresh --diff --json").toEqual(expected);
    const gone = Object.values(expected).filter((e) => e === "create").length;
    expect(await refreshSummary(), "refresh --preview-only --json after the changes").toEqual({
      same: CASES.length + 1 - Object.keys(expected).length,
      update: Object.keys(expected).length - gone,
      delete: gone,
    });
    await project.up(["--refresh"]);
    const repaired = await project.run(["preview", "--refresh"]);
    expect(driftLines(repaired.stdout), "a plain preview --refresh after the repair").toEqual([]);
    console.log(`drift through the CLI: ${Object.keys(expected).length} kinds: ${JSON.stringify(expected)}`);

    // The update variant: an in-place update, or a replacement where every input replaces.
    await project.setConfig({ phase: "update" });
    const plan = await project.preview();
    const ops = Object.fromEntries(
      plan.steps.filter((s) => s.op !== "same").map((s) => [urnName(s.urn), s.op]),
    );
    for (const c of CASES) {
      expect(ops[c.kind], c.kind).toBe(c.replaceOnUpdate ? "replace" : "update");
    }
    await project.up();
    const updated = new Map((await project.resources()).map((r) => [urnName(r.urn), r]));
    for (const c of CASES) {
      const outputs = updated.get(c.kind)!.outputs ?? {};
      const want = c.update(seed);
      // Keys the provider computes from the args (a source's hash) are checked by the plugin-level tier.
      for (const key of c.updated.filter((k) => k in want)) {
        // A secret output is exported encrypted: only its presence can be checked here.
        if (c.secretArgs?.includes(key))
          expect(outputs[key], `${c.kind}.${key}`).toHaveProperty("ciphertext");
        else expect(outputs[key], `${c.kind}.${key}`).toEqual(want[key]);
      }
    }
    await project.expectNoChanges(["--refresh"]);

    const destroyed = await project.destroy();
    expect(await project.resources()).toEqual([]);
    expect(destroyed.stdout + destroyed.stderr).not.toContain(password);
  });
});
