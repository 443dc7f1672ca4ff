/**
 * The parts of `pulumi-wpengine recover` (docs/recover.md): the create journal, what the recovery may
 * adopt, the lock it reads, the holder it refuses beside, and the provider's create under a recovery plan.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { alreadyExists } from "../../provider/core/errors";
import {
  append,
  beforeWrite,
  commandOf,
  identityFields,
  identityOf,
  identityText,
  type JournalEntry,
  journalCreate,
  readJournal,
  resetRecoveryPlan,
  selectedStack,
  sendingOf,
  setJournalRun,
  stackOfCommand,
} from "../../provider/core/journal";
import { afterCreate } from "../../provider/core/lifecycle";
import { KINDS } from "../../provider/registry";
import { holderOf } from "../../recover/cli";
import {
  adoptions,
  emptySidecars,
  fileBackendRoot,
  findLocks,
  killedRun,
  kindOfType,
  notHeld,
  pendingCreates,
  pendingOperations,
  refusedBy,
  repairSidecars,
  unsettled,
} from "../../recover/plan";

const REPLACE_ON: Record<string, string[]> = {
  Domain: ["installId", "name"],
  AccountUser: ["accountId", "email"],
};
const replaceOnOf = (kind: string) => REPLACE_ON[kind];

let n = 0;
const line = (
  run: number,
  step: JournalEntry["step"],
  name: string,
  more: Partial<JournalEntry> = {},
): JournalEntry => ({
  t: new Date(Date.UTC(2026, 10, 25, 17, 0, n++)).toISOString(),
  run,
  host: "ci",
  step,
  kind: "Domain",
  key: { installId: "i1", name },
  ...more,
});

const adopted = (r: ReturnType<typeof adoptions>) =>
  r.adopt.map((a) => `${a.key["name"]}${a.id ? `=${a.id}` : ""}`).sort();

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-recover-unit-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env["WPE_RECOVER_PLAN"];
  resetRecoveryPlan();
});

describe("the create journal", () => {
  it("an identity is the kind and the inputs that replace it, names compared without case", () => {
    const a = identityOf("Domain", ["name", "installId"], {
      installId: "i1",
      name: "WWW.x.example",
      primary: true,
    });
    expect(a.key).toEqual({ installId: "i1", name: "WWW.x.example" });
    expect(identityText(a)).toBe(
      identityText(identityOf("Domain", ["installId", "name"], { installId: "i1", name: "www.x.example" })),
    );
    expect(identityText(a)).not.toBe(
      identityText(identityOf("Domain", ["installId", "name"], { installId: "i2", name: "www.x.example" })),
    );
  });

  it("a kind's identity is the inputs that name its object (ownership.md), not what replaces it", () => {
    const schedule = { siteId: "s1", title: "Weekly", frequency: { value: 7, unit: "DAYS" } };
    const of = (kind: string, inputs: Record<string, unknown>) =>
      identityOf(kind, identityFields(KINDS[kind]!), inputs).key;
    // Two schedules of one site are two objects: a recovery must never take one for the other.
    expect(of("ReportSchedule", schedule)).toEqual({ siteId: "s1", title: "Weekly" });
    expect(of("Site", { accountId: "a1", name: "Blog", deletionProtection: false })).toEqual({
      accountId: "a1",
      name: "Blog",
    });
    expect(of("Domain", { installId: "i1", name: "www.x.example" })).toEqual({
      installId: "i1",
      name: "www.x.example",
    });
  });

  it("appends whole lines and skips one torn by a kill", () => {
    append(line(7, "sending", "a.example"), dir);
    append(line(7, "made", "a.example", { id: "d1" }), dir);
    fs.appendFileSync(path.join(dir, "journal.jsonl"), '{"t":"2026-11-25T17:00:00Z","run":7,"ho');
    const read = readJournal(dir);
    expect(read.map((e) => e.step)).toEqual(["sending", "made"]);
    expect(read[1]?.id).toBe("d1");
    expect(fs.statSync(path.join(dir, "journal.jsonl")).mode & 0o777).toBe(0o600);
  });

  it("writes a bulk call's lines together: every sending on disk before its write leaves, every made before the create answers", async () => {
    process.env["WPE_JOURNAL_DIR"] = dir;
    setJournalRun(4242);
    try {
      const names = ["a.example", "b.example", "c.example"];
      const creates = names.map((name) =>
        journalCreate("Domain", ["installId", "name"], { installId: "i1", name }),
      );
      const steps = () => readJournal(dir).map((e) => `${e.step} ${e.key["name"]}${e.id ? ` ${e.id}` : ""}`);
      // What batch.ts does: each create's `sending` taken along, all said before the one bulk write leaves.
      const sendings = await Promise.all(creates.map((c) => c.run(async () => sendingOf())));
      for (const s of sendings) s?.();
      expect(steps()).toEqual([]); // one write for the three, made by the write's beforeWrite:
      beforeWrite();
      expect(steps()).toEqual(names.map((n) => `sending ${n}`));
      // The bulk call answers the three creates in one turn: their lines go together, before any answer.
      for (const [i, c] of creates.entries()) c.made(`d${i}`);
      expect(steps()).toHaveLength(3);
      await Promise.resolve();
      expect(steps().slice(3)).toEqual(names.map((n, i) => `made ${n} d${i}`));
    } finally {
      setJournalRun(undefined);
      delete process.env["WPE_JOURNAL_DIR"];
    }
  });

  it("records as refused exactly the failures the sdk rules did nothing: a 4xx answer (a 408 too), not a 5xx nor a lost answer", async () => {
    process.env["WPE_JOURNAL_DIR"] = dir;
    setJournalRun(4242);
    try {
      const failures: [string, Error][] = [
        ["a.example", Object.assign(new Error("400 Bad Request"), { status: 400 })],
        ["b.example", Object.assign(new Error("408 Request Timeout"), { status: 408 })],
        ["c.example", Object.assign(new Error("503 Service Unavailable"), { status: 503 })],
        ["d.example", new Error("socket hang up")],
      ];
      for (const [name, err] of failures)
        journalCreate("Domain", ["installId", "name"], { installId: "i1", name }).failed(err);
      await Promise.resolve();
      expect(readJournal(dir).map((e) => `${e.step} ${e.key["name"]}`)).toEqual([
        "failed a.example",
        "failed b.example",
      ]);
    } finally {
      setJournalRun(undefined);
      delete process.env["WPE_JOURNAL_DIR"];
    }
  });

  it("knows the stack a pulumi command line names", () => {
    expect(stackOfCommand(["pulumi", "up", "--yes", "--stack", "prod"])).toBe("prod");
    expect(stackOfCommand(["pulumi", "up", "-s", "dev"])).toBe("dev");
    expect(stackOfCommand(["pulumi", "up", "--stack=org/p/qa"])).toBe("org/p/qa");
    expect(stackOfCommand(["pulumi", "up", "--yes"])).toBeUndefined();
  });

  it("a run naming no stack records the project's selected one, as the CLI's workspace file keeps it", () => {
    // Two stacks of one project directory: a line naming no stack would count for both (a user test).
    const project = path.join(dir, "proj");
    const home = path.join(dir, "home");
    fs.mkdirSync(path.join(project, "src"), { recursive: true });
    fs.mkdirSync(path.join(home, "workspaces"), { recursive: true });
    const yaml = path.join(project, "Pulumi.yaml");
    fs.writeFileSync(yaml, "name: p\nruntime: nodejs\n");
    const sha = createHash("sha1").update(yaml).digest("hex");
    const workspace = (content: object) =>
      fs.writeFileSync(path.join(home, "workspaces", `p-${sha}-workspace.json`), JSON.stringify(content));
    const env = { PULUMI_PROJECT: "p", PULUMI_HOME: home };
    expect(selectedStack(project, env)).toBeUndefined(); // no stack selected yet
    workspace({ stacks: { "file:///b1": "organization/p/s1", "file:///b2": "organization/p/s2" } });
    // The backend of the run: PULUMI_BACKEND_URL, else the login's current one.
    expect(selectedStack(project, { ...env, PULUMI_BACKEND_URL: "file:///b2" })).toBe("s2");
    fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: "file:///b1" }));
    expect(selectedStack(path.join(project, "src"), env)).toBe("s1");
    workspace({ stack: "dev" }); // the format before backends were keyed
    expect(selectedStack(project, env)).toBe("dev");
    expect(selectedStack(project, { PULUMI_HOME: home })).toBeUndefined(); // not under a pulumi run
    // Selected after the run began (another terminal's `pulumi stack select`): not the run's stack.
    expect(selectedStack(project, env, Date.now() - 60_000)).toBeUndefined();
    expect(selectedStack(project, env, Date.now() + 60_000)).toBe("dev");
  });
});

describe("what a recovery adopts", () => {
  it("what the killed run made (with its id) or left in flight; not what it saw refused; nothing it never began", () => {
    const lines = [
      line(7, "sending", "made.example"),
      line(7, "made", "made.example", { id: "d1" }),
      line(7, "sending", "inflight.example"),
      line(7, "sending", "theirs.example"),
      line(7, "failed", "theirs.example"),
    ];
    const r = adoptions([], lines, replaceOnOf);
    expect(adopted(r)).toEqual(["inflight.example", "made.example=d1"]);
    expect(r.refused).toEqual([
      identityText(identityOf("Domain", ["installId", "name"], { installId: "i1", name: "theirs.example" })),
    ]);
  });

  it("reports as refused only what the killed run saw refused, not an earlier finished run's refusals", () => {
    const lines = [
      line(5, "sending", "old.example"),
      line(5, "failed", "old.example"),
      line(7, "sending", "theirs.example"),
      line(7, "failed", "theirs.example"),
    ];
    const text = (name: string) =>
      identityText(identityOf("Domain", ["installId", "name"], { installId: "i1", name }));
    expect(adoptions([], lines, replaceOnOf).refused).toEqual([text("old.example"), text("theirs.example")]);
    expect(refusedBy(adoptions([], lines, replaceOnOf).refused, lines, 7)).toEqual([text("theirs.example")]);
  });

  it("a plain up after the crash that met the killed run's objects does not take them from it", () => {
    const lines = [
      line(7, "sending", "a.example"),
      line(7, "made", "a.example", { id: "d1" }),
      line(9, "sending", "a.example"),
      line(9, "failed", "a.example"),
    ];
    expect(adopted(adoptions([], lines, replaceOnOf))).toEqual(["a.example=d1"]);
  });

  it("the latest run decides: an object made long ago and since deleted does not pin an old id", () => {
    const lines = [line(5, "made", "a.example", { id: "old" }), line(7, "sending", "a.example")];
    expect(adopted(adoptions([], lines, replaceOnOf))).toEqual(["a.example"]);
  });

  it("an object a run of the stack deleted is no longer claimed; one a recovery took counts as made", () => {
    const lines = [
      line(5, "made", "gone.example", { id: "g1" }),
      line(6, "deleted", "gone.example", { id: "g1" }),
      line(7, "sending", "taken.example"),
      line(8, "sending", "taken.example"),
      line(8, "recovered", "taken.example", { id: "t1", recovery: "r1" }),
    ];
    const r = adoptions([], lines, replaceOnOf);
    expect(adopted(r)).toEqual(["taken.example=t1"]);
    expect(r.refused).toEqual([]);
  });

  it("the state's pending creates count, by their type and inputs, unless the journal says refused", () => {
    const state = {
      deployment: {
        pending_operations: [
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/wpengine:Domain::d1",
              type: "pulumi-nodejs:dynamic/wpengine:Domain",
              inputs: { installId: "i1", name: "pending.example", __provider: "x" },
            },
          },
          {
            type: "creating",
            resource: {
              urn: "urn:pulumi:dev::p::wpengine:index:Domain::d2",
              type: "wpengine:index:Domain",
              inputs: { installId: "i1", name: "theirs.example" },
            },
          },
          { type: "deleting", resource: { urn: "u", type: "wpengine:index:Domain", inputs: {} } },
          { type: "creating", resource: { urn: "u2", type: "random:index:RandomId", inputs: {} } },
        ],
      },
    };
    const pending = pendingCreates(state);
    expect(pending.length).toBe(3);
    const r = adoptions(pending, [line(7, "failed", "theirs.example")], replaceOnOf);
    expect(adopted(r)).toEqual(["pending.example"]);
    expect(r.adopt[0]?.urn).toBe("urn:pulumi:dev::p::pulumi-nodejs:dynamic/wpengine:Domain::d1");
    expect(kindOfType("wpengine:index:AccountUser")).toBe("AccountUser");
    expect(kindOfType("random:index:RandomId")).toBeUndefined();
  });

  it("with a journal, a pending create it holds no line of sent no write: what holds its identity is not taken", () => {
    // The engine records a create as pending before the provider looks; the provider journals it just
    // before its first write. A kill during the look at a domain another stack made leaves only the first.
    const pending = pendingCreates({
      deployment: {
        pending_operations: ["mine.example", "looked.example"].map((name, i) => ({
          type: "creating",
          resource: {
            urn: `urn:pulumi:dev::p::wpengine:index:Domain::d${i}`,
            type: "wpengine:index:Domain",
            inputs: { installId: "i1", name },
          },
        })),
      },
    });
    const lines = [line(7, "sending", "mine.example")];
    expect(adopted(adoptions(pending, lines, replaceOnOf, true))).toEqual(["mine.example"]);
    // Without a journal (none kept, or a provider before it), the pending creates alone decide, as before.
    expect(adopted(adoptions(pending, [], replaceOnOf, false))).toEqual(["looked.example", "mine.example"]);
  });

  it("weighs this stack's lines after its last recovery, and lines naming no stack only as the killed run's", () => {
    const lines = [
      line(3, "made", "before.example", { id: "b" }),
      line(4, "cleared", "", { stack: "dev", kind: "", key: {} }),
      line(7, "made", "after.example", { id: "a" }),
      line(8, "made", "other.example", { id: "o", stack: "prod" }),
      line(8, "made", "mine.example", { id: "m", stack: "dev" }),
    ];
    const of = (stack: string, killed?: number) =>
      adopted(adoptions([], unsettled(lines, stack, killed), replaceOnOf));
    // The lock names run 7 as the killed one: its line naming no stack is its own.
    expect(of("dev", 7)).toEqual(["after.example=a", "mine.example=m"]);
    // The lock names run 8: run 7's line naming no stack may be another stack's of this directory (a user
    // test: a finished up of s1 counted for s2, whose recovery then took s1's domain).
    expect(of("dev", 8)).toEqual(["mine.example=m"]);
    // No lock: the latest run here is taken for the killed one.
    expect(of("prod")).toEqual(["other.example=o"]);
    expect(of("prod", 3)).toEqual(["before.example=b", "other.example=o"]);
  });
});

describe("what the killed run was", () => {
  const DOMAIN = "pulumi-nodejs:dynamic/wpengine:Domain";
  /** A state as `pulumi stack export` shows it after a SIGKILL (pulumi v3.274.0): the steps in flight pending. */
  const exported = (ops: [string, string][], ids: string[] = []) => ({
    version: 3,
    deployment: {
      resources: [
        { urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev", type: "pulumi:pulumi:Stack" },
        ...ids.map((id, i) => ({ urn: `urn:pulumi:dev::p::${DOMAIN}::r${i}`, type: DOMAIN, id })),
      ],
      ...(ops.length
        ? {
            pending_operations: ops.map(([type, name]) => ({
              resource: {
                urn: `urn:pulumi:dev::p::${DOMAIN}::${name}`,
                custom: true,
                id: type === "creating" ? "" : `id-${name}`,
                type: DOMAIN,
                inputs: { installId: "i1", name: `${name}.example` },
              },
              type,
            })),
          }
        : {}),
    },
  });
  const lock = { pid: 7, hostname: "ci" };
  const what = (
    l: typeof lock | undefined,
    state: unknown,
    lines: JournalEntry[],
    adopt: ReturnType<typeof adoptions>["adopt"] = [],
  ) => killedRun(l, pendingOperations(state), lines, adopt).what;

  it("a killed destroy: by its journal lines' command, or by deletes alone (a destroy, or an up that removes)", () => {
    const deleting = exported([
      ["deleting", "d1"],
      ["deleting", "d4"],
    ]);
    expect(pendingOperations(deleting).map((o) => `${o.op} ${o.urn.split("::").at(-1)}`)).toEqual([
      "deleting d1",
      "deleting d4",
    ]);
    const deleted = [line(7, "deleted", "d2", { id: "x2", command: "destroy" })];
    expect(killedRun(lock, pendingOperations(deleting), deleted, [])).toEqual({ what: "destroy", pid: 7 });
    // A provider before the command was journaled, or a kill before the first delete ended.
    expect(what(lock, deleting, [line(7, "deleted", "d2", { id: "x2" })])).toBe("deleting");
    expect(what(lock, deleting, [])).toBe("deleting");
    // No checkpoints (PULUMI_SKIP_CHECKPOINTS): the journal alone.
    expect(what(lock, exported([]), deleted)).toBe("destroy");
    // Lines of another, earlier run say nothing of the killed one.
    expect(what(lock, deleting, [line(5, "made", "d2", { id: "x2", command: "up" })])).toBe("deleting");
  });

  it("a killed up: its command, else a pending create or update, else its creates in the journal", () => {
    const creating = exported([
      ["creating", "d1"],
      ["deleting", "d4"],
    ]);
    expect(what(lock, creating, [])).toBe("up");
    expect(what(lock, exported([["updating", "d1"]]), [])).toBe("up");
    expect(what(lock, exported([]), [line(7, "sending", "d1")])).toBe("up");
    // An up whose only steps in flight were deletes, as its journal says: recover finishes it.
    expect(what(lock, exported([["deleting", "d4"]]), [line(7, "deleted", "d3", { command: "up" })])).toBe(
      "up",
    );
    // Without a visible lock (the provider's process killed, a cloud backend): the journal's latest run.
    const adopt = adoptions([], [line(9, "sending", "d1")], replaceOnOf).adopt;
    expect(what(undefined, exported([]), [line(9, "sending", "d1")], adopt)).toBe("up");
    expect(what(undefined, creating, [line(9, "sending", "d1", { command: "up" })])).toBe("up");
  });

  it("nothing killed: no lock, no pending operation, nothing to adopt; a lock alone is a run of unknown kind", () => {
    expect(what(undefined, exported([], ["x1"]), [line(5, "made", "d1", { id: "x1", command: "up" })])).toBe(
      "none",
    );
    expect(what(undefined, exported([]), [line(6, "deleted", "d1", { id: "x1", command: "destroy" })])).toBe(
      "none",
    );
    // Nothing left behind, and the last run failed (its provider killed: the engine ended the run): named.
    const failed = (command: string, result: string) => killedRun(undefined, [], [], [], { command, result });
    // Known from the history alone, it is a failed run (perhaps failed on its own), not called killed.
    expect(failed("up", "failed")).toEqual({ what: "up", failed: true });
    expect(failed("destroy", "failed")).toEqual({ what: "destroy", failed: true });
    expect(failed("destroy", "succeeded")).toEqual({ what: "none" });
    expect(what(lock, exported([]), [])).toBe("unknown");
    expect(what(lock, exported([]), [line(7, "deleted", "d1", { command: "refresh" })])).toBe("refresh");
  });

  it("what the state holds by the id the run recorded needs no adoption: a finished up leaves none", () => {
    const lines = [line(5, "made", "a.example", { id: "AbC" }), line(5, "made", "b.example", { id: "x2" })];
    const found = adoptions([], [...lines, line(5, "sending", "c.example")], replaceOnOf).adopt;
    expect(adopted({ adopt: notHeld(found, exported([], ["abc"])), refused: [] })).toEqual([
      "b.example=x2",
      "c.example",
    ]);
    expect(notHeld(adoptions([], lines, replaceOnOf).adopt, exported([], ["abc", "x2"]))).toEqual([]);
  });

  it("the journal knows a run's pulumi command by any of its names", () => {
    expect(commandOf(["pulumi", "destroy", "--yes", "--stack", "dev"])).toBe("destroy");
    expect(commandOf(["pulumi", "down", "-y"])).toBe("destroy");
    expect(commandOf(["pulumi", "--cwd", "x", "update", "--yes"])).toBe("up");
    expect(commandOf(["pulumi", "refresh"])).toBe("refresh");
    expect(commandOf(["pulumi", "stack", "export"])).toBeUndefined();
  });
});

describe("the lock and the holder", () => {
  it("reads a file backend's lock of the stack (projects or not), and no other stack's", () => {
    expect(fileBackendRoot("file:///tmp/b")).toBe("/tmp/b");
    expect(fileBackendRoot("file://~/state", "/home/u")).toBe("/home/u/state");
    expect(fileBackendRoot("https://api.pulumi.com")).toBeUndefined();
    const locks = path.join(dir, ".pulumi", "locks");
    fs.mkdirSync(path.join(locks, "organization", "proj", "dev"), { recursive: true });
    fs.mkdirSync(path.join(locks, "organization", "proj", "prod"), { recursive: true });
    const content = { pid: 4242, username: "ci", hostname: "runner-1", timestamp: "2026-11-25T17:00:00Z" };
    fs.writeFileSync(path.join(locks, "organization", "proj", "dev", "l1.json"), JSON.stringify(content));
    fs.writeFileSync(path.join(locks, "organization", "proj", "prod", "l2.json"), JSON.stringify(content));
    const found = findLocks(dir, "proj", "dev");
    expect(found.map((l) => [l.pid, l.hostname, l.timestamp])).toEqual([
      [4242, "runner-1", "2026-11-25T17:00:00Z"],
    ]);
    expect(findLocks(dir, "other", "dev")).toEqual([]);
  });

  it("a live pid on this host holds the stack, named; a dead one does not; another host's needs --force", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      const host = os.hostname();
      const live = { file: "/l.json", pid: child.pid!, hostname: host, timestamp: "2026-11-25T17:00:00Z" };
      const said = holderOf([live], [], false, host);
      expect(said).toContain(`a pulumi process still holds the stack: pid ${child.pid} (`);
      expect(said).toContain("setTimeout");
      expect(said).toContain("since 2026-11-25T17:00:00Z");
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
    const dead = { file: "/l.json", pid: child.pid!, hostname: os.hostname() };
    expect(holderOf([dead], [], false)).toBeUndefined();
    const elsewhere = { file: "/l.json", pid: 1, hostname: "another-host" };
    expect(holderOf([elsewhere], [], false)).toContain("pid 1 on host another-host");
    expect(holderOf([elsewhere], [], true)).toBeUndefined();
    expect(holderOf([], [process.pid], false)).toContain(`still running in this project: pid ${process.pid}`);
  });
});

describe("the empty .attrs sidecar a kill leaves beside a file backend's state", () => {
  const CHECKPOINT = JSON.stringify({
    version: 3,
    checkpoint: { stack: "organization/proj/dev", latest: {} },
  });
  const stacks = () => path.join(dir, ".pulumi", "stacks");
  const put = (rel: string, content: string | Buffer) => {
    const file = path.join(stacks(), rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };

  it("is deleted beside a whole state (plain or gzip, projects or not), and only the stack's own", () => {
    const dev = put("proj/dev.json.attrs", "");
    put("proj/dev.json", CHECKPOINT);
    const prod = put("proj/prod.json.gz.attrs", "");
    put("proj/prod.json.gz", zlib.gzipSync(CHECKPOINT));
    const written = put("proj/qa.json.attrs", '{"user.content_type":"application/json"}');
    put("proj/qa.json", CHECKPOINT);
    const backup = put("proj/dev.json.bak.attrs", "");
    const legacy = put("old.json.attrs", "");
    put("old.json", CHECKPOINT);
    expect(emptySidecars(dir, "proj").map((s) => [path.basename(s.file), s.stack, s.whole])).toEqual([
      ["dev.json.attrs", "dev", true],
      ["prod.json.gz.attrs", "prod", true],
      ["old.json.attrs", "old", true],
    ]);
    // A fully qualified stack name counts by its last part.
    expect(repairSidecars(dir, "proj", "organization/proj/dev")).toEqual([dev]);
    expect(fs.existsSync(dev)).toBe(false);
    expect(fs.existsSync(prod)).toBe(true);
    expect(repairSidecars(dir, "proj", "prod")).toEqual([prod]);
    expect(repairSidecars(dir, "proj", "old")).toEqual([legacy]);
    // A sidecar the engine wrote, and the backup's, are not touched; nothing is left to repair.
    expect(repairSidecars(dir, "proj", "qa")).toEqual([]);
    expect(fs.existsSync(written)).toBe(true);
    expect(fs.existsSync(backup)).toBe(true);
    expect(emptySidecars(dir, "proj")).toEqual([]);
  });

  it("is left in place, with the reason, when the state beside it does not parse or is missing", () => {
    const torn = put("proj/dev.json.attrs", "");
    put("proj/dev.json", CHECKPOINT.slice(0, 20));
    const alone = put("proj/gone.json.attrs", "");
    expect(() => repairSidecars(dir, "proj", "dev")).toThrow(
      new RegExp(`left ${torn} empty, and the state file does not parse .*compare the state with its \\.bak`),
    );
    expect(fs.existsSync(torn)).toBe(true);
    expect(() => repairSidecars(dir, "proj", "gone")).toThrow(/there is no state file beside it/);
    expect(fs.existsSync(alone)).toBe(true);
  });
});

describe("a create under a recovery plan", () => {
  const plan = (adopt: unknown[]) => {
    const file = path.join(dir, "plan.json");
    fs.writeFileSync(file, JSON.stringify({ token: "t1", adopt }));
    process.env["WPE_RECOVER_PLAN"] = file;
    resetRecoveryPlan();
  };

  it("adopts a listed identity, and refuses a different id than the killed run made", () => {
    plan([{ kind: "Domain", key: { installId: "i1", name: "a.example" }, id: "d1" }]);
    const listed = journalCreate("Domain", ["installId", "name"], { installId: "i1", name: "A.example" });
    expect(listed.adopt).toBe(true);
    expect((listed.foreign("d2") as Error).message).toBe(
      "the interrupted run made id d1, but the service now holds id d2 under this Domain's installId i1, name " +
        "A.example: not taken by pulumi-wpengine recover (another stack or a person may manage it). Rename this " +
        "resource, or set adopt: true on it if that object is meant to be this stack's",
    );
    expect(listed.foreign("D1")).toBeUndefined();
    expect(listed.foreign(undefined)).toBeUndefined();
    const other = journalCreate("Domain", ["installId", "name"], { installId: "i1", name: "b.example" });
    expect(other.adopt).toBe(false);
  });

  it("counts as recovered only what it found and adopted; what its up made anew is made", () => {
    process.env["WPE_JOURNAL_DIR"] = dir;
    setJournalRun(4242);
    try {
      plan([
        { kind: "Domain", key: { installId: "i1", name: "a.example" } },
        { kind: "Domain", key: { installId: "i1", name: "b.example" } },
      ]);
      const create = (name: string) =>
        journalCreate("Domain", ["installId", "name"], { installId: "i1", name });
      create("a.example").made("d1", true); // the killed run had made it: found and adopted
      create("b.example").made("d2"); // it had not: the recovery's up made it
      beforeWrite(); // the lines on disk
      expect(readJournal(dir).map((e) => `${e.step} ${e.key["name"]}`)).toEqual([
        "recovered a.example",
        "made b.example",
      ]);
    } finally {
      setJournalRun(undefined);
      delete process.env["WPE_JOURNAL_DIR"];
    }
  });

  it("an 'already exists' the recovery did not take says why, naming recover once", () => {
    plan([]);
    const c = journalCreate("Domain", ["installId", "name"], { installId: "i1", name: "b.example" });
    const err = c.failed(alreadyExists("domain b.example already exists on install i1 (id d9)"));
    // Not also "run recover", the command that is running and refusing it.
    expect((err as Error).message).toBe(
      "domain b.example already exists on install i1 (id d9); set adopt: true to take it over. If another stack " +
        "manages it, hand it over first (retainOnDelete there: docs/ownership.md), or both stacks would own it. Not taken by " +
        "pulumi-wpengine recover: no create of this stack's interrupted run made it (another stack or a person may manage it)",
    );
    const lost = new Error("socket hang up");
    expect(c.failed(lost)).toBe(lost);
  });

  it("records the id a create made as soon as it is known, so a kill during its wait leaves it", async () => {
    process.env["WPE_JOURNAL_DIR"] = dir;
    setJournalRun(4242);
    try {
      const create = journalCreate("Install", ["accountId", "name"], { accountId: "a1", name: "blog" });
      let during: string[] = [];
      await create.run(async () => {
        beforeWrite(); // the POST leaves
        await afterCreate("i9", {}, async () => {
          await new Promise((r) => setTimeout(r, 1)); // the wait for the install to be active
          during = readJournal(dir).map((e) => `${e.step} ${e.id ?? ""}`);
        });
      });
      expect(during).toEqual(["sending ", "made i9"]);
      create.made("i9");
      beforeWrite();
      expect(readJournal(dir).map((e) => `${e.step} ${e.id ?? ""}`)).toEqual(["sending ", "made i9"]);
    } finally {
      setJournalRun(undefined);
      delete process.env["WPE_JOURNAL_DIR"];
    }
  });

  it("outside a recovery nothing is adopted", () => {
    expect(journalCreate("Domain", ["installId", "name"], { installId: "i1", name: "a.example" }).adopt).toBe(
      false,
    );
  });
});
