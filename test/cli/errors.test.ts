/**
 * Errors on the real CLI, from the packed package (issue 31, "one clean line per error"): each failure a
 * newcomer meets first reaches the user as its message and the next step, at most twice (the live line
 * and Pulumi's summary), with no stack trace and no path into sources the package does not ship.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject, type RunResult } from "../../tools/cli/project";

const INSTALL = SEED.installs.acmedev.id;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await sim?.stop();
});

const domains = (suffix: string, names: string[]) => `"use strict";
const wpengine = require("pulumi-wpengine");
for (const n of ${JSON.stringify(names)}) new wpengine.Domain(n, { installId: "${INSTALL}", name: n + "${suffix}" });
`;

const occurrences = (text: string, needle: string): number => text.split(needle).length - 1;

/**
 * What every failure must look like: the message once in Pulumi's summary, and live only on the failed
 * resource's own row (the non-interactive display prints a row again when its status changes, e.g.
 * `creating` then `creating failed`; a terminal redraws it in place), never as a message of the stack
 * (what the dynamic-provider host's trace of the error was). No stack frame, no source path.
 */
function expectClean(r: RunResult, phrase: string): void {
  const out = `${r.stdout}\n${r.stderr}`;
  expect(r.code, out).not.toBe(0);
  const [live = "", summary = ""] = r.stdout.split("\nDiagnostics:\n");
  expect(occurrences(summary, phrase), out).toBe(1);
  const rows = live.split("\n").filter((l) => l.includes(phrase));
  expect(rows.length, out).toBeGreaterThanOrEqual(1);
  // The CLI's progress dots (`@ previewing update....`) may end on the row's line when no newline came between.
  for (const row of rows)
    expect(row, out).toMatch(/^(@ [a-z ]+\.*)?\s*[+~-]?\s*pulumi-nodejs:dynamic\/wpengine:\w+ \S+ .*error: /);
  expect(occurrences(r.stderr, phrase), out).toBe(0);
  expect(out).not.toMatch(/^\s*at /m);
  expect(out).not.toMatch(/\.ts:\d+/);
  expect(out).not.toMatch(/Error: wpengine/);
}

describe("errors on the real CLI", { timeout: 15 * 60_000 }, () => {
  let project: CliProject;
  const base = { "wpengine:apiUrl": "", "wpengine:appHostingUrl": "" };

  beforeAll(async () => {
    base["wpengine:apiUrl"] = sim.apiUrl;
    base["wpengine:appHostingUrl"] = sim.appHostingUrl;
    project = await CliProject.create({
      files: {
        "index.js": domains(".errors.example", ["one"]),
        "package.json": '{ "name": "cli-errors", "main": "index.js" }\n',
      },
      name: "cli-errors",
      config: base,
    });
  }, 10 * 60_000);
  afterAll(() => project?.dispose());

  it("missing credentials", async () => {
    const r = await project.run(["preview"], { allowFail: true });
    expectClean(r, "missing wpengine:username and wpengine:password");
  });

  it("a wrong password", async () => {
    await project.setConfig({ "wpengine:username": "demo" }, { "wpengine:password": "not-the-password" });
    const r = await project.run(["preview"], { allowFail: true });
    expectClean(r, "refused the credentials of API user demo");
  });

  it("an unreachable apiUrl", async () => {
    await project.setConfig({ "wpengine:apiUrl": "http://127.0.0.1:9/v1" }, { "wpengine:password": "demo" });
    try {
      const r = await project.run(["preview"], { allowFail: true });
      expectClean(r, "cannot reach the API at http://127.0.0.1:9/v1");
      expect(r.stdout).toContain("That URL is the stack's wpengine:apiUrl. Check it and the network.");
    } finally {
      await project.setConfig({ "wpengine:apiUrl": base["wpengine:apiUrl"] });
    }
  });

  it("an outage", async () => {
    sim.setFaults([{ method: "POST", path: "/v1/installs/*/domains*", status: 503 }]);
    const r = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true });
    sim.setFaults([]);
    expectClean(r, "503 Service unavailable");
    // A 503 may have acted (issue 29: the sdk's mayHaveActed): the create was looked up, found nothing, and
    // the failure names the next step, which looks it up again before sending.
    expect(r.stdout).toMatch(
      /the next `pulumi up` runs this step again \(a create first looks the object up/,
    );
    // Said as what happened: an answer that may have acted, by its status (not a "lost" response).
    expect(r.stdout).toContain(
      ". A 503 answer does not prove the service did nothing, so whether the request",
    );
  });

  it("a domain that already exists, and an install that does not: refused at preview, nothing written", async () => {
    const taken = await new WpEngineClient({
      username: "demo",
      password: "demo",
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    }).domains.create(INSTALL, { name: "taken.errors.example" });
    const MISSING = "1e000000-0000-4000-8000-0000000000ff";
    const program = (lines: string) =>
      fs.writeFileSync(
        path.join(project.dir, "index.js"),
        `"use strict";\nconst wpengine = require("pulumi-wpengine");\n${lines}`,
      );
    const writes = () => sim.requests().filter((r) => r.method !== "GET");
    try {
      // Another stack's (or a person's) domain, declared here too: the preview says what create would.
      program(`new wpengine.Domain("taken", { installId: "${INSTALL}", name: "taken.errors.example" });\n`);
      sim.clearRequests();
      const r = await project.run(["preview"], { allowFail: true });
      expectClean(
        r,
        `name: domain taken.errors.example already exists on install ${INSTALL} (id ${taken.id}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over, or, after an interrupted run of this stack, run \`pulumi-wpengine recover\` (it adopts only what that run created). If another stack manages it, hand it over first (retainOnDelete there: docs/ownership.md), or both stacks would own it`,
      );
      // An install id that names nothing on the service.
      program(`new wpengine.Domain("lost", { installId: "${MISSING}", name: "lost.errors.example" });\n`);
      const lost = await project.run(["preview"], { allowFail: true });
      expectClean(lost, `installId ${MISSING} names no install on the service for the default credentials`);
      expect(lost.stdout).toContain("Check the id (a typo, or an install deleted since)");
      expect(writes()).toEqual([]);
      expect(await project.resources()).toEqual([]);
    } finally {
      fs.writeFileSync(path.join(project.dir, "index.js"), domains(".errors.example", ["one"]));
    }
  });

  it("an adoption that cannot be, and a singleton held elsewhere: refused at preview in create's words, nothing written", async () => {
    const ACME = SEED.accounts.acme.id;
    const PROD = SEED.installs.acmeprod.id; // seeded with cache exclusions made elsewhere
    const program = (lines: string) =>
      fs.writeFileSync(
        path.join(project.dir, "index.js"),
        `"use strict";\nconst wpengine = require("pulumi-wpengine");\n${lines}`,
      );
    const writes = () => sim.requests().filter((r) => r.method !== "GET");
    try {
      // ut-retest51 N2: adopt: true with names that differ from the live user's.
      program(
        `new wpengine.AccountUser("u", { accountId: "${ACME}", email: "Full@Acme.Example", firstName: "F", lastName: "L", roles: "full", adopt: true });\n`,
      );
      sim.clearRequests();
      const r = await project.run(["preview"], { allowFail: true });
      expectClean(
        r,
        `email: cannot adopt user Full@Acme.Example on account ${ACME}: on the service its firstName is "Fay" and lastName is "Full"; names cannot be changed, so set the inputs to match`,
      );
      program(
        `new wpengine.CacheExclusions("x", { installId: "${PROD}", exclusions: [{ type: "url path", value: "^/shop/" }] });\n`,
      );
      const held = await project.run(["preview"], { allowFail: true });
      expectClean(held, `installId: install ${PROD} already has`);
      expect(held.stdout).toContain(
        "perhaps another stack's list; renamed a resource? give it `aliases` with its old name (docs/ownership.md); else set adopt: true to take the list over",
      );
      expect(writes()).toEqual([]);
      expect(await project.resources()).toEqual([]);
    } finally {
      fs.writeFileSync(path.join(project.dir, "index.js"), domains(".errors.example", ["one"]));
    }
  });

  it("a refused input", async () => {
    fs.writeFileSync(
      path.join(project.dir, "index.js"),
      `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.AccountUser("pat", { accountId: "${SEED.accounts.acme.id}", email: "pat@errors.example",
  firstName: "Pat", lastName: "Doe", roles: "admin" });
`,
    );
    const r = await project.run(["preview"], { allowFail: true });
    expectClean(r, 'roles must be one of "owner"');
  });
});
