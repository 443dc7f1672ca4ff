/**
 * The importer leaves out what stacks of the current Pulumi backend already hold (user test 52, finding
 * 1): the matching of an exported state (both resource shapes: the Node.js classes and the executable
 * provider's), the reading of the stacks with bounded concurrency, and the import itself against the
 * simulator with a stand-in `pulumi` on PATH (test/cli/import-held.test.ts runs the real CLI).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importAccount } from "../../importer";
import { EXPORTS_AT_ONCE, heldByStacks, heldIn, heldKey, projectOf, stacksText } from "../../importer/held";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";

const SIMULATOR_NOTE =
  "this is a simulator, whose every world starts from the same seeded ids: a stack that manages another simulator world (the README's trial, say) holds them too. If the stacks named above manage another world, run again with --include-managed";
const DOMAIN = SEED.domains.wwwAcmeExample;
const USER = SEED.users.owner.userId;

/** A `pulumi stack export` of a stack holding `www.acme.example` (Node.js class) and a user (executable provider). */
const exported = {
  version: 3,
  deployment: {
    resources: [
      { urn: "urn:pulumi:dev::site::pulumi:pulumi:Stack::site-dev", type: "pulumi:pulumi:Stack" },
      {
        urn: "urn:pulumi:dev::site::pulumi:providers:pulumi-nodejs::default",
        type: "pulumi:providers:pulumi-nodejs",
        id: "11111111-1111-1111-1111-111111111111",
      },
      {
        urn: "urn:pulumi:dev::site::pulumi-nodejs:dynamic/wpengine:Domain::www",
        type: "pulumi-nodejs:dynamic/wpengine:Domain",
        id: DOMAIN.id.toUpperCase(),
        outputs: { installId: SEED.installs.acmeprod.id, name: DOMAIN.name },
      },
      {
        urn: "urn:pulumi:dev::site::wpengine:index:AccountUser::owner",
        type: "wpengine:index:AccountUser",
        id: USER,
      },
      // Being deleted (a pending replace's old copy): not held.
      {
        urn: "urn:pulumi:dev::site::wpengine:index:Domain::old",
        type: "wpengine:index:Domain",
        id: "d0000000-0000-4000-8000-000000000003",
        delete: true,
      },
      // Another package's resource of the same name: not this package's object.
      { urn: "urn:pulumi:dev::site::other:index:Domain::x", type: "other:index:Domain", id: "d-other" },
    ],
  },
};

describe("what an exported state holds", () => {
  it("both resource shapes, by kind and id (case-insensitive); deleted and foreign resources are not held", () => {
    const held = heldIn(exported, "org/site/dev");
    expect([...held]).toEqual([
      [heldKey("Domain", DOMAIN.id), "org/site/dev"],
      [heldKey("AccountUser", USER), "org/site/dev"],
    ]);
    // By kind: the same id as another kind is not held.
    expect(held.has(heldKey("Install", DOMAIN.id))).toBe(false);
    // A second stack holding the same object: both are named (they own it twice already); once each.
    heldIn(exported, "org/site/prod", held);
    heldIn(exported, "org/site/prod", held);
    expect(held.get(heldKey("Domain", DOMAIN.id))).toBe("org/site/dev, org/site/prod");
    expect(stacksText(held.get(heldKey("Domain", DOMAIN.id))!)).toBe("stacks org/site/dev, org/site/prod");
    expect(stacksText("org/site/dev")).toBe("stack org/site/dev");
    // An empty or odd export holds nothing.
    expect(heldIn({ version: 3, deployment: {} }, "s").size).toBe(0);
    expect(heldIn(undefined, "s").size).toBe(0);
    expect(projectOf("org/site/dev")).toBe("site");
    expect(projectOf("dev")).toBeUndefined();
  });
});

/** A stand-in `pulumi` on PATH: `stack ls --all --json` lists `stacks`, `stack export --stack S` prints `states[S]` after `delayMs`. */
function fakePulumi(stacks: string[], states: Record<string, unknown>, delayMs = 0): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-fake-pulumi-"));
  fs.writeFileSync(path.join(dir, "data.json"), JSON.stringify({ stacks, states }));
  fs.writeFileSync(
    path.join(dir, "pulumi"),
    `#!${process.execPath}
const fs = require("node:fs"), path = require("node:path");
const { stacks, states } = JSON.parse(fs.readFileSync(${JSON.stringify(path.join(dir, "data.json"))}, "utf8"));
const args = process.argv.slice(2);
const log = ${JSON.stringify(path.join(dir, "log"))};
if (args[0] === "stack" && args[1] === "ls") { process.stdout.write(JSON.stringify(stacks.map((name) => ({ name })))); }
else if (args[0] === "stack" && args[1] === "export") {
  const name = args[args.indexOf("--stack") + 1];
  fs.appendFileSync(log, "start " + name + " " + Date.now() + "\\n");
  setTimeout(() => {
    fs.appendFileSync(log, "end " + name + " " + Date.now() + "\\n");
    if (!(name in states)) { process.stderr.write("error: no stack named " + name + "\\n"); process.exit(255); }
    process.stdout.write(JSON.stringify(states[name]));
  }, ${delayMs});
} else { process.stderr.write("unexpected: " + args.join(" ") + "\\n"); process.exit(2); }
`,
    { mode: 0o755 },
  );
  return {
    PATH: `${dir}${path.delimiter}${process.env["PATH"] ?? ""}`,
    FAKE_PULUMI_LOG: path.join(dir, "log"),
  };
}

describe("reading the stacks of the backend", () => {
  it("ten stacks, at most EXPORTS_AT_ONCE exports at a time; the project being written is not read", async () => {
    const stacks = Array.from({ length: 10 }, (_, i) => `org/p${i}/dev`);
    const states: Record<string, unknown> = Object.fromEntries(
      stacks.map((s) => [s, { deployment: { resources: [] } }]),
    );
    states["org/p7/dev"] = exported;
    const env = fakePulumi([...stacks, "org/mine/prod"], states, 300);
    const started = Date.now();
    const check = await heldByStacks({ ...process.env, ...env }, "mine");
    const ms = Date.now() - started;
    console.log(`10 stacks read in ${ms} ms (${EXPORTS_AT_ONCE} at once, 300 ms each)`);
    expect(check).toEqual({
      held: new Map([
        [heldKey("Domain", DOMAIN.id), "org/p7/dev"],
        [heldKey("AccountUser", USER), "org/p7/dev"],
      ]),
      stacks: 10,
      unread: [],
    });
    // Bounded: never more than EXPORTS_AT_ONCE running; and concurrent: faster than one after another.
    const events = fs
      .readFileSync(env["FAKE_PULUMI_LOG"]!, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "))
      .map(([what, name, at]) => ({ what: what!, name: name!, at: Number(at) }))
      .sort((a, b) => a.at - b.at || (a.what === "end" ? -1 : 1));
    let running = 0;
    let most = 0;
    for (const e of events) {
      running += e.what === "start" ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBeLessThanOrEqual(EXPORTS_AT_ONCE);
    expect(most).toBeGreaterThan(1);
    expect(events.map((e) => e.name)).not.toContain("org/mine/prod");
  });

  it("no pulumi CLI, or no login: skipped with the reason, never thrown", async () => {
    const none = await heldByStacks({
      ...process.env,
      PATH: fs.mkdtempSync(path.join(os.tmpdir(), "empty-")),
    });
    expect(none).toEqual({ skipped: expect.stringMatching(/^no pulumi CLI to run \(.*ENOENT/) });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-nologin-"));
    fs.writeFileSync(
      path.join(dir, "pulumi"),
      `#!/bin/sh\necho "error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions" >&2\nexit 255\n`,
      { mode: 0o755 },
    );
    expect(
      await heldByStacks({ ...process.env, PATH: `${dir}${path.delimiter}${process.env["PATH"]}` }),
    ).toEqual({
      skipped:
        "pulumi stack ls failed: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions",
    });
  });

  it("a stack whose export fails is named as unread; the others still count", async () => {
    const env = fakePulumi(["org/a/dev", "org/b/dev"], { "org/a/dev": exported });
    const check = await heldByStacks({ ...process.env, ...env });
    expect(check).toMatchObject({
      stacks: 2,
      unread: [
        expect.stringMatching(/^org\/b\/dev \(pulumi stack export failed: no stack named org\/b\/dev\)$/),
      ],
    });
    expect("held" in check && check.held.size).toBe(2);
  });
});

describe("pulumi-wpengine import leaves out what another stack holds", () => {
  let sim: RunningSimulator;
  const outs: string[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
  });
  afterAll(async () => {
    await sim?.stop();
    for (const o of outs) fs.rmSync(path.dirname(o), { recursive: true, force: true });
  });
  const run = (
    env: Record<string, string>,
    includeManaged = false,
    more: Partial<Parameters<typeof importAccount>[0]> = {},
  ) => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-held-import-")), "acme");
    outs.push(out);
    return importAccount({
      out,
      accounts: [SEED.accounts.acme.id],
      includeManaged,
      ...more,
      env: {
        ...env,
        WPE_API_USER_ID: "demo",
        WPE_API_PASSWORD: "demo",
        WPE_API_URL: sim.apiUrl,
        WPE_APP_HOSTING_URL: sim.appHostingUrl,
      },
    });
  };

  it("the domain and the user of stack org/site/dev are left out and named with it; --include-managed brings them in", async () => {
    const env = fakePulumi(["org/site/dev"], { "org/site/dev": exported });
    const result = await run(env);
    expect(result.held).toContainEqual({
      kind: "Domain",
      label: DOMAIN.name,
      id: DOMAIN.id,
      of: "install acmeprod",
      stack: "org/site/dev",
    });
    expect(result.held.map((h) => `${h.kind} ${h.stack}`)).toEqual(
      expect.arrayContaining(["Domain org/site/dev", "AccountUser org/site/dev"]),
    );
    const ids = result.model.resources.map((r) => `${r.kind}:${r.id}`);
    expect(ids).not.toContain(`Domain:${DOMAIN.id}`);
    expect(ids).not.toContain(`AccountUser:${USER}`);
    expect(ids).toContain(`Domain:${SEED.domains.acmeExample.id}`);
    expect(result.files["index.ts"]).not.toContain(`"${DOMAIN.name}"`);
    expect(result.files["README.md"]).toContain(
      `| Domain | ${DOMAIN.name} (install acmeprod) | held by stack org/site/dev`,
    );
    // Every simulator world starts from one seed: the stack may manage another world's objects.
    expect(result.notes).toEqual([SIMULATOR_NOTE]);

    const all = await run(env, true);
    expect(all.held).toEqual([]);
    expect(all.model.resources.map((r) => `${r.kind}:${r.id}`)).toEqual(
      expect.arrayContaining([`Domain:${DOMAIN.id}`, `AccountUser:${USER}`]),
    );
  });

  it("the stacks cannot be read (no pulumi CLI, no login, one stack's export fails): refused in one line, nothing written; --include-managed imports", async () => {
    const noCli = { PATH: fs.mkdtempSync(path.join(os.tmpdir(), "empty-")) };
    const nextSteps =
      ", so the objects other stacks manage cannot be left out: fix that (a pulumi CLI on PATH, logged in to the backend of the adopting up: pulumi whoami; a broken stack repaired or removed), or run again with --include-managed to import without the check (docs/importer.md)";
    const refused = async (env: Record<string, string>, what: RegExp) => {
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-held-refused-")), "acme");
      outs.push(out);
      const err = await importAccount({
        out,
        accounts: [SEED.accounts.acme.id],
        env: {
          ...env,
          WPE_API_USER_ID: "demo",
          WPE_API_PASSWORD: "demo",
          WPE_API_URL: sim.apiUrl,
          WPE_APP_HOSTING_URL: sim.appHostingUrl,
        },
      }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.name).toBe("UncheckedStacksError");
      expect(err?.message).not.toContain("\n");
      expect(err?.message.endsWith(nextSteps), err?.message).toBe(true);
      expect(err?.message.slice(0, -nextSteps.length)).toMatch(what);
      expect(fs.existsSync(out)).toBe(false);
    };
    await refused(
      noCli,
      /^the stacks of the current Pulumi backend were not read \(no pulumi CLI to run .*ENOENT.*\)$/,
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-nologin-"));
    fs.writeFileSync(
      path.join(dir, "pulumi"),
      `#!/bin/sh\necho "error: place 1: invalid character 'n' looking for beginning of object key string" >&2\nexit 255\n`,
      { mode: 0o755 },
    );
    await refused(
      { PATH: `${dir}${path.delimiter}${process.env["PATH"]}` },
      /^the stacks of the current Pulumi backend were not read \(pulumi stack ls failed: place 1: invalid character 'n' looking for beginning of object key string\)$/,
    );
    // One stack listed but not exported: named; the stack that was read does not make it pass.
    await refused(
      fakePulumi(["org/site/dev", "org/broken/dev"], { "org/site/dev": exported }),
      /^a stack of the current Pulumi backend could not be read: org\/broken\/dev \(pulumi stack export failed: no stack named org\/broken\/dev\)$/,
    );
    // --include-managed: no stack read, everything in.
    const all = await run(noCli, true);
    expect(all.held).toEqual([]);
    expect(all.model.resources.map((r) => r.id)).toContain(DOMAIN.id);
    expect(all.notes).toEqual([]);
  });

  it("a stack of another project named like --out's directory is another owner; only the project --out already holds (--force) is not read", async () => {
    // Project `acme` (the name of --out's directory) of another team holds the domain.
    const env = fakePulumi(["org/acme/dev"], { "org/acme/dev": exported });
    const fresh = await run(env);
    expect(fresh.held.map((h) => `${h.kind} ${h.stack}`)).toContain("Domain org/acme/dev");
    expect(fresh.notes).toEqual([SIMULATOR_NOTE]);
    // A --force regeneration of project acme: its own stacks are not read, and it says so.
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-held-regen-")), "acme");
    outs.push(out);
    const opts = {
      accounts: [SEED.accounts.acme.id],
      env: {
        ...env,
        WPE_API_USER_ID: "demo",
        WPE_API_PASSWORD: "demo",
        WPE_API_URL: sim.apiUrl,
        WPE_APP_HOSTING_URL: sim.appHostingUrl,
      },
    };
    const first = await importAccount({ out, ...opts });
    expect(first.held.map((h) => h.stack)).toContain("org/acme/dev");
    const again = await importAccount({ out, ...opts, force: true });
    expect(again.held).toEqual([]);
    expect(again.model.resources.map((r) => r.id)).toContain(DOMAIN.id);
    expect(again.notes).toEqual(["not read: stacks of project acme, the project being regenerated"]);
    // Regenerated under another project name: the old name's stacks are another owner again.
    const renamed = await importAccount({ out, ...opts, force: true, project: "other" });
    expect(renamed.held.map((h) => h.stack)).toContain("org/acme/dev");
    expect(renamed.notes).toEqual([SIMULATOR_NOTE]);
  });

  it("two objects of one name are two: each named with its account and id; a user held on one account is not held on another", async () => {
    const DEMO = SEED.users.demo.userId;
    const user = (accountId: string, name: string) => ({
      urn: `urn:pulumi:dev::site::wpengine:index:AccountUser::${name}`,
      type: "wpengine:index:AccountUser",
      id: DEMO,
      outputs: { accountId, email: "demo@example.com" },
    });
    const env = fakePulumi(["org/site/dev"], {
      "org/site/dev": {
        deployment: {
          resources: [user(SEED.accounts.acme.id, "a"), user(SEED.accounts.initech.id, "i")],
        },
      },
    });
    const result = await run(env, false, { accounts: [] });
    const demo = result.held.filter((h) => h.label === "demo@example.com");
    expect(demo).toEqual([
      expect.objectContaining({
        kind: "AccountUser",
        id: DEMO,
        of: "account Acme Corp",
        stack: "org/site/dev",
      }),
      expect.objectContaining({
        kind: "AccountUser",
        id: DEMO,
        of: "account Initech",
        stack: "org/site/dev",
      }),
    ]);
    expect(result.model.leftOut.filter((l) => l.label.startsWith("demo@example.com"))).toHaveLength(2);
    // Globex's demo user is no stack's: it is in the program.
    expect(
      result.model.resources.filter(
        (r) => r.kind === "AccountUser" && r.importId.startsWith(SEED.accounts.globex.id),
      ),
    ).not.toEqual([]);
    expect(result.files["README.md"]).toContain(
      "| AccountUser | demo@example.com (account Acme Corp), demo@example.com (account Initech) | held by stack org/site/dev",
    );
  });
});
