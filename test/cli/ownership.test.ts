/**
 * Issue 29: one owner per object, on the real CLI.
 *
 * - A `pulumi up` of 60 domains (one of them primary, so created alone in one POST; the others in bulk
 *   calls), an account user and a cache exclusion list, against a service whose answer to a create is lost
 *   AFTER the write with a 503 - on a bulk call, on the single create and on the user's create - besides
 *   random 429s and 503s. A 503 proves nothing (the sdk's `mayHaveActed`): the provider looks each object
 *   up by its natural key and adopts what its own request made. Three rounds, each converging in ONE `up`:
 *   0 failed, 0 duplicates, 0 orphans (the service's objects against the state), 0 pending operations.
 * - A program declaring one domain twice fails `pulumi preview` naming both resources and the key, and the
 *   service receives no write; so does one adding a second resource for a domain the first already made.
 * - A refresh keeps each resource's claim (the hidden input `__claimant`): a drifted resource's
 *   `preview --diff` shows what drifted, never the claim.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject, cliEnv, REPO } from "../../tools/cli/project";
import { onService, said, simulatorProject } from "../support/faulted";
import { demoConfig } from "../support/simulator";

const DOMAINS = 60;
const SUFFIX = ".own.example";
const INSTALL = SEED.installs.acmedev.id;
const ACCOUNT = SEED.accounts.acme.id;
const EMAIL = "one-owner@acme.example";
/** Where the program puts its objects. */
const AT = { install: INSTALL, account: ACCOUNT, email: EMAIL, suffix: SUFFIX };

const program = `"use strict";
const wpengine = require("pulumi-wpengine");
for (let i = 0; i < ${DOMAINS}; i++)
  new wpengine.Domain("d" + i, { installId: "${INSTALL}", name: "d" + i + "${SUFFIX}", primary: i === 0 });
new wpengine.CacheExclusions("cache", { installId: "${INSTALL}", exclusions: [{ type: "url path", value: "^/own/" }] });
new wpengine.AccountUser("user", { accountId: "${ACCOUNT}", email: "${EMAIL}", firstName: "On", lastName: "Ly", roles: "full" });
`;

const twice = `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.Domain("www", { installId: "${INSTALL}", name: "twice${SUFFIX}" });
new wpengine.Domain("www-again", { installId: "${INSTALL}", name: "Twice${SUFFIX}" });
`;

/** The certain losses first (first matching rule wins), then random refusals the transport retries. */
const FAULTS = [
  // A 503 after the write on one bulk call, on the primary domain's single create, on the user's create.
  { method: "POST", path: "/v1/installs/*/domains/bulk", status: 503, after: true, skip: 1, count: 1 },
  { method: "POST", path: "/v1/installs/*/domains", status: 503, after: true, count: 1 },
  { method: "POST", path: "/v1/accounts/*/account_users", status: 503, after: true, count: 1 },
  { path: "/v1/*", status: 429, probability: 0.1 },
  { path: "/v1/*", status: 503, probability: 0.05 },
] as const;

/** Domains by the executable provider's token, as any language's generated SDK registers them. */
const execProgram = (first: string, again?: string) => {
  const domain = (name: string, value: string, adopt: boolean) =>
    `new pulumi.CustomResource("wpengine:index:Domain", "${name}", { installId: "${INSTALL}", name: "${value}"${adopt ? ", adopt: true" : ""} });`;
  const lines = ['"use strict";', 'const pulumi = require("@pulumi/pulumi");', domain("first", first, true)];
  if (again) lines.push(domain("again", again, false));
  return `${lines.join("\n")}\n`;
};

const clientOf = (s: RunningSimulator) =>
  new WpEngineClient({
    username: "demo",
    password: "demo",
    apiUrl: s.apiUrl,
    appHostingUrl: s.appHostingUrl,
  });

/** The failure of a second claim of the twice-declared domain, whichever resource the engine checks first. */
const BOTH = /wpengine:Domain "(www|www-again)" and wpengine:Domain "(www|www-again)" both claim/;

describe("one owner per object, on the CLI", { timeout: 30 * 60_000 }, () => {
  let sim: RunningSimulator;
  let project: CliProject;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    // 15% of attempts fail here: a budget of 11 attempts (test/cli/lost.test.ts) so no request runs out.
    project = await simulatorProject(sim, "cli-own", program, { "wpengine:maxRetries": "10" });
  }, 10 * 60_000);

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("a 503 after the write (bulk, single, user) converges in one up, three times: 0 failed, 0 duplicates, 0 orphans", async () => {
    for (let run = 1; run <= 3; run++) {
      sim.clearRequests();
      sim.setFaults([...FAULTS]);
      const started = Date.now();
      const up = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true });
      const text = up.stdout + up.stderr;
      expect(up.code, text).toBe(0);
      const { rules } = (await (await fetch(`${sim.url}/__sim/faults`)).json()) as {
        rules: { fired: number }[];
      };
      const fired = rules.map((f) => f.fired);
      sim.setFaults([]);

      const log = sim.requests();
      const figures = {
        run,
        seconds: (Date.now() - started) / 1000,
        requests: log.length,
        answered503: log.filter((r) => r.status === 503).length,
        answered429: log.filter((r) => r.status === 429).length,
        firedAfterWrite: fired.slice(0, 3),
        takenAsCreated: said(text, /but (what it asked for exists now|\d+ of \d+ exist now)/),
        adopted: said(text, /adopted the existing/),
      };
      console.log(`503 after the write: ${JSON.stringify(figures)}`);
      // Each certain loss fired (else the run proves nothing), and each was resolved by the natural key.
      expect(figures.firedAfterWrite).toEqual([1, 1, 1]);
      expect(figures.takenAsCreated).toBeGreaterThanOrEqual(3);
      expect(text).not.toContain("already exists");

      const live = await onService(sim, AT);
      expect(live.domains.map((d) => d.name).sort(), "each domain exactly once on the service").toEqual(
        Array.from({ length: DOMAINS }, (_, i) => `d${i}${SUFFIX}`).sort(),
      );
      expect(live.users).toHaveLength(1);
      expect(live.exclusions.map((e) => e.value)).toEqual(["^/own/"]);

      // No orphan: every object on the service is in the state, under its id, once.
      const resources = await project.resources();
      expect(resources).toHaveLength(DOMAINS + 2);
      const ids = resources.map((r) => r.id);
      expect(new Set(ids).size, "no id held by two resources").toBe(ids.length);
      expect(live.domains.filter((d) => !ids.includes(d.id)).map((d) => d.name)).toEqual([]);
      expect(ids).toContain(live.users[0]!.user_id);
      expect(await project.pendingOperations()).toBe(0);

      await project.expectNoChanges(["--refresh"]);
      await project.destroy();
      const gone = await onService(sim, AT);
      expect([gone.domains.length, gone.users.length, gone.exclusions.length]).toEqual([0, 0, 0]);
    }
  });

  it("a program declaring one domain twice fails preview naming both resources and the key, with no write", async () => {
    fs.writeFileSync(path.join(project.dir, "index.js"), twice);
    sim.clearRequests();
    const preview = await project.run(["preview"], { allowFail: true });
    const text = preview.stdout + preview.stderr;
    expect(preview.code, text).not.toBe(0);
    // Whichever the engine checks first holds the claim; the other's failure names both.
    expect(text).toMatch(BOTH);
    expect(text).toContain(`name "twice${SUFFIX}"`);
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    // `up` refuses the second claim at the same check. The engine may have created the first claimant's
    // domain meanwhile (it does not wait for every check before the first create): then it is in the
    // state, once.
    const up = await project.run(["up", "--yes", "--skip-preview"], { allowFail: true });
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toMatch(BOTH);
    const live = (await onService(sim, AT)).domains;
    expect(live.length).toBeLessThanOrEqual(1);
    const held = (await project.resources()).filter((r) => live.some((d) => d.id === r.id));
    expect(held).toHaveLength(live.length);
    // Once www is made, a new www-again of its name fails naming www, not only that the domain exists.
    await project.destroy();
    fs.writeFileSync(path.join(project.dir, "index.js"), twice.split("\n").slice(0, 3).join("\n"));
    await project.run(["up", "--yes", "--skip-preview"]);
    fs.writeFileSync(path.join(project.dir, "index.js"), twice);
    const again = await project.run(["preview"], { allowFail: true });
    expect(again.code).not.toBe(0);
    expect(again.stdout + again.stderr).toMatch(BOTH);
    expect(again.stdout + again.stderr).not.toContain("already exists");
    // www renamed to www-again without aliases: the state's holder is named, and aliases as the way.
    fs.writeFileSync(
      path.join(project.dir, "index.js"),
      twice.replace(/^new wpengine.Domain\("www",.*\n/m, ""),
    );
    const renamed = await project.run(["preview"], { allowFail: true });
    expect(renamed.code).not.toBe(0);
    expect(renamed.stdout + renamed.stderr).toMatch(
      /wpengine:Domain "www-again" and wpengine:Domain "www" both claim .*give it `aliases` with its old name/,
    );
    await project.destroy();
  });

  it("a refresh keeps each resource's claim: after drift, preview --diff names what drifted and never __claimant", async () => {
    const name = `kept${SUFFIX}`;
    fs.writeFileSync(
      path.join(project.dir, "index.js"),
      `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.Domain("kept", { installId: "${INSTALL}", name: "${name}" });
`,
    );
    await project.up();
    const [made] = await project.resources().then((rs) => rs.filter((r) => r.type.endsWith(":Domain")));
    // HTTPS forced on every URL outside the program (test/engine/drift.ts), then a plain refresh.
    await clientOf(sim).domains.update(INSTALL, made!.id!, { secure_all_urls: true });
    await project.refresh();
    const state = JSON.parse(await project.exportText()) as {
      deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] };
    };
    const refreshed = state.deployment.resources.find((r) => r.type.endsWith(":Domain"));
    expect(refreshed?.inputs?.["secureAllUrls"], "the refresh took the drift in").toBe(true);
    expect(refreshed?.inputs?.["__claimant"], "the refresh kept the claim").toBe("kept");
    // What a user reads: the drifted property, and no hidden input.
    const text = await project.run(["preview", "--diff"]);
    expect(text.stdout).toMatch(/secureAllUrls/);
    expect(text.stdout).not.toContain("__claimant");
    const plan = await project.preview(["--diff"]);
    const step = plan.steps.find((st) => st.urn.endsWith("::kept"));
    expect(step?.op).toBe("update");
    expect(step?.oldState?.inputs?.["__claimant"]).toBe("kept");
    expect(step?.newState?.inputs?.["__claimant"]).toBe("kept");
    await project.up();
    await project.expectNoChanges(["--refresh"]);
    await project.destroy();
  });

  it("a guarded site survives up --replace with adopt and a rename with adopt: the old resource's delete hands it over", async () => {
    const site = (name: string) =>
      `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.Site("${name}", { accountId: "${ACCOUNT}", name: "Handed over", adopt: true });
`;
    const write = (text: string) => fs.writeFileSync(path.join(project.dir, "index.js"), text);
    const sites = async () =>
      (await Array.fromAsync(clientOf(sim).sites.iterate({ accountId: ACCOUNT }))).filter(
        (s) => s.name === "Handed over",
      );
    write(site("s"));
    await project.up();
    const [made] = await sites();
    const urn = (await project.resources()).find((r) => r.type.endsWith(":Site"))!.urn;
    // The replacement adopts the same site first; the replaced resource's delete leaves it (guard or not).
    const replaced = await project.run(["up", "--yes", "--skip-preview", "--replace", urn]);
    expect(replaced.stdout + replaced.stderr).toContain(
      "not deleted on the service: its replacement took it over in this run and holds it now",
    );
    expect((await sites()).map((s) => s.id)).toEqual([made!.id]);
    // Renamed without an alias: "s2" adopts it, and "s" (guarded) lets it go instead of failing the run.
    write(site("s2"));
    const renamed = await project.run(["up", "--yes", "--skip-preview"]);
    expect(renamed.stdout + renamed.stderr).toContain('not deleted on the service: wpengine:Site "s2"');
    expect((await sites()).map((s) => s.id)).toEqual([made!.id]);
    expect((await project.resources()).map((r) => r.urn.split("::").at(-1))).toEqual(["s2"]);
    await project.expectNoChanges(["--refresh"]);
    await clientOf(sim).sites.delete(made!.id);
    await project.refresh();
  });

  it("a targeted run: a rename taken over with adopt is refused at preview, and a state holding a domain twice keeps it on a targeted destroy", async () => {
    const name = `targeted${SUFFIX}`;
    const domain = (resource: string, adopt = false) =>
      `"use strict";
const wpengine = require("pulumi-wpengine");
new wpengine.Domain("${resource}", { installId: "${INSTALL}", name: "${name}"${adopt ? ", adopt: true" : ""} });
`;
    const write = (text: string) => fs.writeFileSync(path.join(project.dir, "index.js"), text);
    const live = async () => (await onService(sim, { ...AT, suffix: name })).domains;
    write(domain("old"));
    await project.up();
    const oldUrn = (await project.resources()).find((r) => r.urn.endsWith("::old"))!.urn;
    const newUrn = oldUrn.replace(/::old$/, "::new");
    // Renamed without aliases, taken over with adopt, and only the new name targeted: "old" stays in the
    // state, out of the run, so the adoption would make the stack hold the domain twice.
    write(domain("new", true));
    sim.clearRequests();
    const targeted = await project.run(["up", "--yes", "--target", newUrn], { allowFail: true });
    const text = targeted.stdout + targeted.stderr;
    expect(targeted.code, text).not.toBe(0);
    expect(text).toContain('but pulumi-nodejs:dynamic/wpengine:Domain "old" of this stack holds it too');
    expect(text).toContain("Give this resource `aliases` naming the old one instead of `adopt`");
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    // A state that holds it twice already (an earlier release let it; state surgery can): a targeted
    // destroy of either one forgets it while the other, left out, still holds it.
    const state = JSON.parse(await project.exportText()) as {
      deployment: { resources: { urn: string; outputs?: Record<string, unknown> }[] };
    };
    const held = state.deployment.resources.find((r) => r.urn === oldUrn)!;
    // Its recorded claim left as "old": a class's claim is its name, which a resource moved under a parent
    // keeps, so the URN tells the two apart.
    const copy = structuredClone(held);
    copy.urn = newUrn;
    expect(copy.outputs?.["__claimant"]).toBe("old");
    state.deployment.resources.push(copy);
    const file = path.join(project.dir, "twice.json");
    fs.writeFileSync(file, JSON.stringify(state));
    await project.run(["stack", "import", "--file", file]);
    const [before] = await live();
    const destroyed = await project.run(["destroy", "--yes", "--target", oldUrn]);
    expect(destroyed.stdout + destroyed.stderr).toContain(
      'not deleted on the service: pulumi-nodejs:dynamic/wpengine:Domain "new" of this stack holds it too',
    );
    expect((await live()).map((d) => d.id)).toEqual([before!.id]);
    write(domain("new"));
    await project.expectNoChanges(["--refresh"]);
    // The last holder's targeted destroy deletes it.
    const last = await project.run(["destroy", "--yes", "--target", newUrn]);
    expect(last.stdout + last.stderr).not.toContain("not deleted on the service");
    expect(await live()).toEqual([]);
  });

  it("the executable front door (wpengine:index:*): a domain declared twice fails preview naming both URNs, and an adoption says what it took and its id", async () => {
    const cli = await cliEnv();
    const exec = await CliProject.create({
      files: {
        "index.js": execProgram("twice.exec.own.example", "Twice.exec.own.example"),
        "package.json": '{ "name": "cli-own-exec", "main": "index.js" }\n',
      },
      name: "cli-own-exec",
      config: demoConfig(sim),
      secrets: { "wpengine:password": "demo" },
      env: { PATH: [path.join(REPO, "bin"), cli["PATH"] ?? process.env["PATH"]].join(path.delimiter) },
    });
    try {
      sim.clearRequests();
      const preview = await exec.run(["preview"], { allowFail: true });
      const text = preview.stdout + preview.stderr;
      expect(preview.code, text).not.toBe(0);
      expect(text).toMatch(
        /wpengine:index:Domain "(first|again)" and wpengine:index:Domain "(first|again)" both claim/,
      );
      expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);

      // One resource that adopts a domain made outside the program: the CLI shows what it took, with its id.
      const made = await clientOf(sim).domains.create(INSTALL, { name: "adopted.exec.own.example" });
      fs.writeFileSync(path.join(exec.dir, "index.js"), execProgram("adopted.exec.own.example"));
      const up = await exec.run(["up", "--yes", "--skip-preview"], { allowFail: true });
      expect(up.code, up.stdout + up.stderr).toBe(0);
      expect(up.stdout + up.stderr).toContain(
        `adopted the existing domain adopted.exec.own.example of install ${INSTALL} (id ${made.id})`,
      );
      await exec.destroy();
    } finally {
      exec.dispose();
    }
  });
});
