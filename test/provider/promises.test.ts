/**
 * The rules the README makes hold for EVERY resource, checked on every entry of the resource table
 * (`test/engine/cases.ts`) against the simulator, through the providers as the plugin runs them. A new
 * resource is covered by adding its case; a create that sends a new kind of write must classify it in
 * {@link WRITES} before this suite passes.
 */
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldMeta, type Kind } from "../../provider/core/define";
import { AFTER_A_CRASH } from "../../provider/core/errors";
import { CreatedButFailedError } from "../../provider/core/lifecycle";
import { type LoggedRequest, SEED } from "../../simulator";
import { CASES, type ResourceCase } from "../engine/cases";
import { checkOk, deleteSays } from "../support/provider";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
const ROOT = path.join(__dirname, "..", "..");
type Props = Record<string, unknown>;
type Provider = pulumi.dynamic.ResourceProvider;

const providers = new Map<string, Provider>();
const kinds = new Map<string, Kind>();
beforeAll(async () => {
  for (const c of CASES) {
    const mod = await import(`../../provider/kinds/${c.kind}`);
    providers.set(c.kind, mod.definition.provider);
    kinds.set(c.kind, mod.definition);
  }
});
const providerOf = (c: ResourceCase) => providers.get(c.kind)!;

/** check + create while the simulator's clock moves, so waits end without sleeping. */
async function create(c: ResourceCase, args: Props) {
  const inputs = await checkOk(providerOf(c), args);
  const res = await fixture.advancing(providerOf(c).create(inputs));
  return { id: res.id, outs: res.outs as Props, inputs };
}

/** What the service says now: `read` goes to the simulator; `olds` only address the object. */
async function live(c: ResourceCase, id: string, olds: Props) {
  return fixture.advancing(providerOf(c).read!(id, olds));
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

const missing = (props: Props, keys: readonly string[]) =>
  keys.filter((k) => props[k] === undefined || props[k] === null);

/** The updated inputs the service reports (read compares them with the service, not the state). */
const readable = (c: ResourceCase) => c.updated.filter((k) => !c.unreadable?.includes(k));

/** A value of input `key` as the kind compares it (a set in any order: a read keeps the state's order). */
const compared = (c: ResourceCase, key: string, v: unknown) => {
  const { normalize } = kinds.get(c.kind)!;
  return normalize ? normalize(key, v) : v;
};

const writesOf = (log: LoggedRequest[]) => log.filter((r) => r.method !== "GET");

describe.each(CASES)("$kind: check", (c) => {
  it("refuses invalid input at preview, naming the field and the reason", async () => {
    const res = await providerOf(c).check!({}, c.invalid.args(SEED));
    const failure = res.failures?.find((f) => f.property === c.invalid.property);
    expect(failure, JSON.stringify(res.failures)).toBeDefined();
    expect(failure!.reason).toMatch(c.invalid.reason);
  });
});

/**
 * Every write the creates of the table send, and whether repeating it after it may have reached the
 * service could act twice. This is the spec the sdk's per-operation retry policy is checked against.
 */
const WRITES: { op: string; method: string; path: string; creates: boolean }[] = [
  // After a lost answer the install is listed: what it holds is taken, only the rest goes again (a name is
  // unique on an install, so a second create of one the service did make is refused, never a duplicate).
  {
    op: "domain bulk create",
    method: "POST",
    path: "^/v1/installs/[^/]+/domains/bulk$",
    creates: true,
  },
  // Not idempotent: each call makes another link (the docs say to keep one and share it again).
  {
    op: "domain sharing link",
    method: "POST",
    path: "^/v1/installs/[^/]+/domains/[^/]+/sharing_link$",
    creates: true,
  },
  {
    op: "certificate import",
    method: "POST",
    path: "^/v1/installs/[^/]+/ssl_certificates/third_party$",
    creates: true,
  },
  {
    op: "cache exclusions replace",
    method: "PUT",
    path: "^/v1/installs/[^/]+/cache_exclusions$",
    creates: false,
  },
  {
    op: "offload settings patch",
    method: "PATCH",
    path: "^/v1/installs/[^/]+/offload_settings/files$",
    creates: false,
  },
  { op: "account user create", method: "POST", path: "^/v1/accounts/[^/]+/account_users$", creates: true },
  { op: "report schedule create", method: "POST", path: "^/v1/site_reports/schedules$", creates: true },
  { op: "app create", method: "POST", path: "^/v1/accounts/[^/]+/apps$", creates: true },
  {
    op: "environment create",
    method: "POST",
    path: "^/v1/accounts/[^/]+/apps/[^/]+/environments$",
    creates: true,
  },
  {
    op: "domain mappings replace",
    method: "POST",
    path: "^/v1/accounts/[^/]+/apps/[^/]+/environments/[^/]+/domainMappings:replace$",
    creates: false,
  },
  { op: "backup create", method: "POST", path: "^/v1/installs/[^/]+/backups$", creates: true },
  { op: "restore", method: "POST", path: "^/v1/installs/[^/]+/backups/[^/]+/restore$", creates: true },
  { op: "install copy", method: "POST", path: "^/v1/install_copy$", creates: true },
  { op: "site transfer create", method: "POST", path: "^/v1/sites/[^/]+/site_transfers$", creates: true },
  {
    op: "environment cache clear",
    method: "POST",
    path: "^/v1/accounts/[^/]+/apps/[^/]+/environments/[^/]+:clearCache$",
    creates: false,
  },
  {
    op: "upload",
    method: "POST",
    path: "^/fu/v1/accounts/[^/]+/apps/[^/]+/environments/[^/]+:upload$",
    creates: true,
  },
  { op: "site create", method: "POST", path: "^/v1/sites$", creates: true },
  { op: "install create", method: "POST", path: "^/v1/installs$", creates: true },
  { op: "ssh key create", method: "POST", path: "^/v1/ssh_keys$", creates: true },
  // A second purge purges again: nothing is made twice.
  { op: "cache purge", method: "POST", path: "^/v1/installs/[^/]+/purge_cache$", creates: false },
  {
    op: "let's encrypt order",
    method: "POST",
    path: "^/v1/installs/[^/]+/domains/[^/]+/ssl_certificate$",
    creates: true,
  },
];
const classify = (r: LoggedRequest) =>
  WRITES.find((w) => w.method === r.method && new RegExp(w.path).test(r.path));
/** The writes some create of the table sent (so an entry of WRITES that no longer matches shows). */
const sentWrites = new Set<string>();

/** Lost answers to a creating write: before the service acted, or after (the write applied). */
const LOSSES = [
  { lost: "connection dropped before the handler", fault: { drop: true }, applied: false },
  { lost: "502 before the handler", fault: { status: 502 }, applied: false },
  { lost: "connection dropped after the handler", fault: { after: true, drop: true }, applied: true },
  { lost: "500 after the handler", fault: { after: true, status: 500 }, applied: true },
  // A 503 proves nothing either (the sdk's mayHaveActed): the service may have made the object first.
  { lost: "503 before the handler", fault: { status: 503 }, applied: false },
  { lost: "503 after the handler", fault: { after: true, status: 503 }, applied: true },
] as const;

describe.each(CASES)("$kind: lost answers to its create", (c) => {
  it("sends only classified writes; a lost answer to a creating write is resolved by the natural key (adopted, or sent again once), resent when harmless, or fails naming the recovery step", async () => {
    fixture.sim.clearRequests();
    await create(c, c.args(SEED));
    const writes = writesOf(fixture.sim.requests());
    const unknown = writes.filter((r) => !classify(r)).map((r) => `${r.method} ${r.path}`);
    expect(unknown, "classify these writes in WRITES (does repeating one make a second object?)").toEqual([]);
    for (const r of writes) sentWrites.add(classify(r)!.op);

    const key = kinds.get(c.kind)!.naturalKey;
    for (const w of new Set(writes.map(classify).filter((w) => w?.creates))) {
      for (const loss of LOSSES) {
        const what = `${w!.op}, ${loss.lost}`;
        fixture.sim.reset();
        fixture.sim.clearRequests();
        fixture.sim.setFaults([{ method: w!.method as "POST", path: w!.path, ...loss.fault, count: 1 }]);
        const outcome = await create(c, c.args(SEED)).catch((err: unknown) => err as Error);
        const sent = fixture.sim
          .requests()
          .filter((r) => classify(r) === w)
          .map((r) => (r.status >= 200 && r.status < 300 ? "ok" : r.status));
        const first = "drop" in loss.fault ? 0 : loss.fault.status;
        if ("none" in key) {
          // No natural key: never sent again; the message says what the answer was (a status, or none) and
          // how to recover.
          expect(outcome, what).toBeInstanceOf(Error);
          expect((outcome as Error).message, what).toContain(
            "drop" in loss.fault
              ? ". The connection was cut before an answer came, so whether the request took effect is unknown ("
              : `. A ${first} answer does not prove the service did nothing, so whether the request took effect is unknown (`,
          );
          expect((outcome as Error).message, what).toContain(key.recover.slice(0, 20));
          expect(sent, what).toEqual([first]);
          continue;
        }
        expect(outcome, `${what}: ${String(outcome)}`).not.toBeInstanceOf(Error);
        const made = outcome as Awaited<ReturnType<typeof create>>;
        // Exactly one object: a write that had taken effect is adopted, never sent again (natural key);
        // one that had not is sent once more. A harmless write is simply sent again.
        const again = "resend" in key || !loss.applied;
        expect(sent, what).toEqual(again ? [first, "ok"] : [first]);
        expect((await live(c, made.id, made.outs)).id, what).toBe(made.id);
      }
    }
  });
});

describe.each(CASES)("$kind: an object already there", (c) => {
  it("a create that finds its natural key taken refuses, naming adopt and the step that recovers a whole stack; check says the same at preview", async () => {
    const key = kinds.get(c.kind)!.naturalKey;
    if (!("what" in key)) return;
    await create(c, c.args(SEED));
    const { adopt: _adopt, ...again } = c.args(SEED);
    // Check (preview) refuses the new resource with create's words, on the input that names it.
    const checked = await providerOf(c).check!({}, again);
    expect(checked.failures, "check of a new resource whose object exists").toHaveLength(1);
    const [failure] = checked.failures!;
    const named = Object.entries(fieldMeta(kinds.get(c.kind)!.schema)).find(([, m]) => m.key)?.[0] ?? "";
    expect(failure!.property).toBe(named);
    // Create, past a check that did not run (an up whose check raced the object's making), says the same.
    const err = await rejection(fixture.advancing(providerOf(c).create(checked.inputs)));
    for (const said of [String(err), failure!.reason]) {
      expect(said).toMatch(/already (exists?|has|added)/);
      expect(said).toContain("set adopt: true");
      expect(said).toContain(`after an interrupted run of this stack, run \`${AFTER_A_CRASH}\``);
      expect(said).toContain("hand it over first (retainOnDelete there: docs/ownership.md)");
    }
    // What was found, as create words it (create may add what only its look saw: a status).
    expect(String(err)).toContain(failure!.reason.split("; ")[0]!.replace(/\)$/, ""));
  });
});

describe.each(CASES)("$kind: what its create would take over", (c) => {
  it("a kind whose create refuses to take over what the service holds (no natural key finds it) refuses at preview, in create's words; adopt passes", async () => {
    const kind = kinds.get(c.kind)!;
    if (!kind.takeover || "what" in kind.naturalKey) return;
    // What another stack (or a person) made: the updated state, so the declared one differs from it.
    await create(c, { ...c.update(SEED), adopt: true });
    const { adopt: _adopt, ...again } = c.args(SEED);
    const checked = await providerOf(c).check!({}, again);
    expect(checked.failures, "check of a new resource whose create would take over").toHaveLength(1);
    const [failure] = checked.failures!;
    expect(failure!.reason).toContain("set adopt: true");
    const err = await rejection(fixture.advancing(providerOf(c).create(checked.inputs)));
    expect(String(err)).toContain(`wpengine:${c.kind} create failed: ${failure!.reason}`);
    expect((await providerOf(c).check!({}, { ...again, adopt: true })).failures ?? []).toEqual([]);
  });
});

describe("what a create would take over", () => {
  it("is looked at in check for each singleton and the third-party certificate", () => {
    const taking = CASES.filter(
      (c) => kinds.get(c.kind)!.takeover && !("what" in kinds.get(c.kind)!.naturalKey),
    );
    expect(taking.map((c) => c.kind).sort()).toEqual(
      ["CacheExclusions", "DomainMappings", "OffloadSettings", "ThirdPartyCertificate"].sort(),
    );
  });
});

describe("the table of writes", () => {
  it("lists only writes that some create sends", () => {
    expect(WRITES.map((w) => w.op).filter((op) => !sentWrites.has(op))).toEqual([]);
  });
});

/** Kinds whose create can fail after the object exists: they make a CreatedButFailedError (or `afterCreate` does). */
const halfMakers = readdirSync(path.join(ROOT, "provider", "kinds"))
  .filter(
    (f) =>
      f.endsWith(".ts") &&
      /new CreatedButFailedError\(|afterCreate\(/.test(
        readFileSync(path.join(ROOT, "provider", "kinds", f), "utf8"),
      ),
  )
  .map((f) => f.replace(/\.ts$/, ""));

describe("created but failed", () => {
  it("every resource whose create has a step after the object exists has a failing case", () => {
    expect(halfMakers.length).toBeGreaterThan(0);
    expect(halfMakers.filter((k) => !CASES.find((c) => c.kind === k)?.failAfterCreate)).toEqual([]);
  });

  describe.each(CASES.filter((c) => c.failAfterCreate))("$kind", (c) => {
    it("keeps the id when a step after the create fails, the object is on the service, and the next up finishes it", async () => {
      const fail = c.failAfterCreate!;
      const p = providerOf(c);
      const inputs = await checkOk(p, fail.args(SEED));
      fixture.sim.setFaults(fail.faults);
      const err = await rejection(fixture.advancing(p.create(inputs)));
      fixture.sim.setFaults([]);
      expect(err, String(err)).toBeInstanceOf(CreatedButFailedError);
      const { id, properties } = err as CreatedButFailedError;
      expect(id).not.toBe("");
      expect((err as Error).message).toContain(`wpengine:${c.kind} create failed`);
      expect(properties["__provider"]).toBe(inputs["__provider"]);
      // Recorded is what exists: the service knows the object by that id.
      expect((await live(c, id, properties)).id).toBe(id);
      // The engine updates a resource whose create failed half-way: that update finishes the job.
      const next = await fixture.advancing(p.update!(id, properties, inputs));
      expect(missing(next.outs as Props, c.required)).toEqual([]);
      const after = await live(c, id, next.outs as Props);
      for (const key of Object.keys(fail.args(SEED)).filter((k) => k in after.props!))
        expect(after.props![key], key).toEqual(inputs[key]);
    });
  });
});

const pick = (o: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

/** Whether check accepts `adopt: true` for the case (a resource with nothing to take over refuses it). */
async function adoptable(c: ResourceCase): Promise<boolean> {
  const res = await providerOf(c).check!({}, { ...c.args(SEED), adopt: true });
  return !res.failures?.length;
}

describe.each(CASES)("$kind: adoption", (c) => {
  it("takes over the existing object and brings it to the declared state ON THE SERVICE", async () => {
    if (!(await adoptable(c))) {
      // Refused at preview, naming the input.
      const res = await providerOf(c).check!({}, { ...c.args(SEED), adopt: true });
      expect(res.failures?.map((f) => `${f.property}: ${f.reason}`).join("\n")).toMatch(/adopt/);
      return;
    }
    const first = await create(c, c.args(SEED));
    // The declared state differs from the existing object in the inputs an update changes.
    // Keys by which adoption finds the object stay as they were (a site is found by its name).
    const declared = c.replaceOnUpdate
      ? c.args(SEED)
      : { ...c.update(SEED), ...pick(c.args(SEED), c.adoptionKey ?? []) };
    const adopted = await create(c, { ...declared, adopt: true });
    expect(adopted.id).toBe(first.id);
    // Read back from the simulator, addressed by the pre-adoption outputs: not what adoption returned.
    const now = await live(c, first.id, first.outs);
    for (const key of readable(c))
      expect(compared(c, key, now.props?.[key]), key).toEqual(compared(c, key, adopted.inputs[key]));
  });
});

describe.each(CASES.filter((c) => !c.replaceOnUpdate && readable(c).length))("$kind: drift", (c) => {
  it("read reports a change made outside the program, and the next diff shows it", async () => {
    const made = await create(c, c.args(SEED));
    // Someone else changes the object on the service; the state still holds `made.outs`.
    const news = await checkOk(providerOf(c), c.update(SEED), made.outs);
    await fixture.advancing(providerOf(c).update!(made.id, made.outs, news));
    const seen = await live(c, made.id, made.outs);
    for (const key of readable(c))
      expect(compared(c, key, seen.props?.[key]), key).toEqual(compared(c, key, news[key]));
    const d = await providerOf(c).diff!(made.id, seen.props!, made.inputs);
    expect(d.changes).toBe(true);
  });
});

/** What the README's resource table says each delete does on the service, by kind. */
const README_DELETES = new Map(
  [
    ...readFileSync(path.join(ROOT, "README.md"), "utf8").matchAll(
      /^\| \[`(\w+)`\]\(docs\/\w+\.md\) \|.*\| ([^|]+) \|$/gm,
    ),
  ].map((m) => [m[1]!, m[2]!.trim()] as const),
);

/** What to check on the service after a delete, from the README's words. */
function promisedDelete(words: string): "gone" | "kept" | "emptied" | "cancelled" {
  if (/^(deletes|removes|replaces the environment's set with none)\b/i.test(words)) return "gone";
  if (/\bis cancelled\b/.test(words)) return "cancelled";
  if (/^replaces the list with an empty one\b/i.test(words)) return "emptied";
  if (/\bforgets\b|^nothing\b/i.test(words)) return "kept";
  throw new Error(`the README says delete "${words}": teach promisedDelete what to check on the service`);
}

describe("deletes as the README says", () => {
  it("the README's resource table lists exactly the resources of the table", () => {
    expect([...README_DELETES.keys()].sort()).toEqual(CASES.map((c) => c.kind).sort());
  });

  describe.each(CASES)("$kind", (c) => {
    it("does on the service what the README's table says, and says so when it does not simply delete", async () => {
      const words = README_DELETES.get(c.kind)!;
      const promise = promisedDelete(words);
      const made = await create(c, c.args(SEED));
      const before = await live(c, made.id, made.outs);
      const said = await fixture.advancing(deleteSays(providerOf(c), made.id, made.outs));
      const after = await live(c, made.id, made.outs);
      if (promise === "gone" || promise === "cancelled") expect(after).toEqual({ id: "" });
      if (promise === "emptied") expect(after.props?.["exclusions"]).toEqual([]);
      if (promise === "kept") {
        expect(after.id).toBe(made.id);
        expect(after.props).toEqual(before.props);
      }
      if (promise === "cancelled") {
        const transfer = await fixture.client().siteTransfers.get(String(made.outs["siteId"]), made.id);
        expect(transfer.status).toBe("cancelled");
      }
      // A delete that forgets or cancels tells the user what it did (one line on stderr).
      if (promise === "kept" || promise === "cancelled") expect(said, words).toHaveLength(1);
    });
  });
});
