import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { AFTER_A_CRASH } from "../../provider/core/errors";
import { UNKNOWN } from "../../provider/core/inputs";
import { resetRecoveryPlan } from "../../provider/core/journal";
import type { Context } from "../../provider/core/lifecycle";
import { definition } from "../../provider/kinds/Domain";
import type { WpEngineClient } from "../../sdk";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;

const client = fixture.client;

describe("Domain lifecycle", () => {
  it("creates a pending domain with its TXT record, reads back the same outputs, then shows no changes", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, name: "Shop.Example.COM." });
    expect(outs).toMatchObject({
      installId: ACMESTG,
      name: "shop.example.com",
      domainId: id,
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
      ownershipStatus: "TXT_VERIFICATION_PENDING",
      txtVerifiedDomain: "shop.example.com",
    });
    expect(outs["txtVerificationKey"]).toEqual(expect.any(String));
    expect(outs["txtVerificationValue"]).toEqual(expect.any(String));

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({
      installId: ACMESTG,
      name: "shop.example.com",
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
    });
    expect(await diff(provider, id, outs, { installId: ACMESTG, name: "shop.example.com" })).toEqual({
      changes: false,
    });
  });

  it("applies secureAllUrls at create (create then patch) and updates primary and redirect in place", async () => {
    const target = await createOk(provider, { installId: ACMESTG, name: "target.example.com" });
    const { id, outs } = await createOk(provider, {
      installId: ACMESTG,
      name: "old.example.com",
      secureAllUrls: true,
    });
    expect(outs["secureAllUrls"]).toBe(true);

    const news = { installId: ACMESTG, name: "old.example.com", secureAllUrls: true, redirectTo: target.id };
    expect(await diff(provider, id, outs, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, outs, await checkOk(provider, news, outs));
    expect(updated.outs).toMatchObject({ redirectTo: target.id, secureAllUrls: true, domainId: id });

    // Removing the redirect sends the API's "nil".
    const cleared = await provider.update!(
      id,
      updated.outs,
      await checkOk(
        provider,
        { installId: ACMESTG, name: "old.example.com", secureAllUrls: true },
        updated.outs,
      ),
    );
    expect(cleared.outs["redirectTo"]).toBeNull();
    expect((await client().domains.get(ACMESTG, id)).redirects_to).toEqual([]);
  });

  it("gives the primary back to the domain it took it from: when deleted, or set not primary while still the primary", async () => {
    const ACME = SEED.domains.acmeExample;
    const primaries = async () =>
      (await client().domains.listAll(ACMEPROD)).filter((d) => d.primary).map((d) => d.name);
    // acmeprod's primary is acme.example, which no resource of this program holds.
    expect(await primaries()).toEqual([ACME.name]);
    const { result: a, lines } = await said(() =>
      createOk(provider, { installId: ACMEPROD, name: "a.example.com", primary: true }),
    );
    expect(lines).toEqual([
      `wpengine:Domain a.example.com: takes the primary from ${ACME.name}, given back when this one is deleted (unless that one is gone or declared primary: false by then)`,
    ]);
    expect(a.outs["primaryTakenFrom"]).toBe(ACME.id);
    expect(await primaries()).toEqual(["a.example.com"]);
    // A refresh keeps whom it took it from; a destroy gives it back.
    expect((await provider.read!(a.id, a.outs)).props?.["primaryTakenFrom"]).toBe(ACME.id);
    await provider.delete!(a.id, a.outs);
    expect(await primaries()).toEqual([ACME.name]);

    const b = await createOk(provider, { installId: ACMEPROD, name: "b.example.com", primary: true });
    const news = { installId: ACMEPROD, name: "b.example.com", primary: false };
    const off = await provider.update!(b.id, b.outs, await checkOk(provider, news, b.outs));
    expect(off.outs["primaryTakenFrom"]).toBeNull();
    expect(await primaries()).toEqual([ACME.name]);
    const on = await provider.update!(
      b.id,
      off.outs,
      await checkOk(provider, { ...news, primary: true }, off.outs),
    );
    expect(on.outs["primaryTakenFrom"]).toBe(ACME.id);
    // Once another domain took the primary from it, its delete gives nothing back.
    await client().domains.update(ACMEPROD, ACME.id, { primary: true });
    await client().domains.update(ACMEPROD, SEED.domains.wwwAcmeExample.id, { redirect_to: "nil" });
    await client().domains.update(ACMEPROD, SEED.domains.wwwAcmeExample.id, { primary: true });
    await provider.delete!(b.id, on.outs);
    expect(await primaries()).toEqual([SEED.domains.wwwAcmeExample.name]);
    // A domain that took nothing lists nothing at its delete.
    const c = await createOk(provider, { installId: ACMESTG, name: "c.example.com" });
    expect(c.outs["primaryTakenFrom"]).toBeNull();
    fixture.sim.clearRequests();
    await provider.delete!(c.id, c.outs);
    expect(fixture.sim.requests().map((r) => r.method)).toEqual(["DELETE"]);
  });

  it.each([
    ["a gives it up first", false, false],
    ["b takes it first", true, false],
    ["b takes it first, and the destroy deletes b first", true, true],
  ])(
    "moves the primary between two domains of the program at once (%s), and a destroy still gives it back to the one outside",
    async (_, bFirst, bDeletedFirst) => {
      const ACME = SEED.domains.acmeExample;
      const primaries = async () =>
        (await client().domains.listAll(ACMEPROD)).filter((d) => d.primary).map((d) => d.name);
      const a = await createOk(provider, { installId: ACMEPROD, name: "a.example.com", primary: true });
      const b = await createOk(provider, { installId: ACMEPROD, name: "b.example.com" });
      // The engine runs both updates together, in either order: a gives the primary up while b takes it.
      const set = async (d: typeof a, primary: boolean) =>
        provider.update!(d.id, d.outs, await checkOk(provider, { ...d.inputs, primary }, d.outs));
      const both = [() => set(a, false), () => set(b, true)];
      const [offA, onB] = bFirst
        ? (await Promise.all([both[1]!(), both[0]!()])).reverse()
        : await Promise.all([both[0]!(), both[1]!()]);
      expect(await primaries()).toEqual(["b.example.com"]);
      // A destroy deletes both together, in either order: the one outside the program is the primary again.
      const deletes = [() => provider.delete!(a.id, offA!.outs), () => provider.delete!(b.id, onB!.outs)];
      await Promise.all(bDeletedFirst ? [deletes[1]!(), deletes[0]!()] : [deletes[0]!(), deletes[1]!()]);
      expect(await primaries()).toEqual([ACME.name]);
    },
  );

  it("after a swap where b took the primary from a, a later up that removes b gives it past a (declared primary: false) to the one outside", async () => {
    const ACME = SEED.domains.acmeExample;
    const primaries = async () =>
      (await client().domains.listAll(ACMEPROD)).filter((d) => d.primary).map((d) => d.name);
    // The swap's up: b takes the primary from a before a gives it up (a still owes it to acme.example).
    const a = await createOk(provider, { installId: ACMEPROD, name: "a.example.com", primary: true });
    const b = await createOk(provider, { installId: ACMEPROD, name: "b.example.com" });
    const set = async (d: typeof a, primary: boolean) =>
      provider.update!(d.id, d.outs, await checkOk(provider, { ...d.inputs, primary }, d.outs));
    // The engine diffs a (declared primary: false) before b's update: b's line names where the primary goes back.
    await diff(provider, a.id, a.outs, { ...a.inputs, primary: false });
    const { result: onB, lines: taking } = await said(() => set(b, true));
    expect(taking).toEqual([
      "wpengine:Domain b.example.com: takes the primary from a.example.com, which is declared primary: false: acme.example gets it back when this one is deleted",
    ]);
    const off = await set(a, false);
    expect([onB.outs["primaryTakenFrom"], off.outs["primaryTakenFrom"]]).toEqual([a.id, ACME.id]);
    // An update of another input keeps what a still owes.
    const news = await checkOk(provider, { ...a.inputs, primary: false, secureAllUrls: true }, off.outs);
    const offA = await provider.update!(a.id, off.outs, news);
    expect(offA.outs["primaryTakenFrom"]).toBe(ACME.id);
    // A later up, in a new provider process: a (still declared primary: false) is diffed, then b deleted.
    vi.resetModules();
    const later = (await import("../../provider/kinds/Domain")).definition.provider;
    expect(later).not.toBe(provider);
    const aInputs = { installId: ACMEPROD, name: "a.example.com", primary: false, secureAllUrls: true };
    expect(await diff(later, a.id, offA.outs, aInputs)).toEqual({ changes: false });
    const { lines } = await said(() => later.delete!(b.id, onB.outs));
    expect(lines).toEqual([
      `wpengine:Domain ${ACME.name}: the install's primary domain again (given back by b.example.com)`,
    ]);
    expect(await primaries()).toEqual([ACME.name]);
    await later.delete!(a.id, offA.outs);
    expect(await primaries()).toEqual([ACME.name]);
  });

  it("a give-back that finds only domains declared primary: false gives nothing, and says so", async () => {
    const x = await createOk(provider, { installId: ACMESTG, name: "x.example.com" });
    await client().domains.update(ACMESTG, x.id, { primary: true });
    await diff(provider, x.id, x.outs, x.inputs);
    const { result: y, lines } = await said(() =>
      createOk(provider, { installId: ACMESTG, name: "y.example.com", primary: true }),
    );
    expect(lines).toEqual([
      "wpengine:Domain y.example.com: takes the primary from x.example.com, which is declared primary: false: no domain gets it back when this one is deleted",
    ]);
    expect(y.outs["primaryTakenFrom"]).toBe(x.id);
    expect((await said(() => provider.delete!(y.id, y.outs))).lines).toEqual([
      `wpengine:Domain y.example.com: install ${ACMESTG} has no primary domain now: not given back to x.example.com, declared primary: false; set primary: true on one of its domains`,
    ]);
    expect((await client().domains.listAll(ACMESTG)).filter((d) => d.primary)).toEqual([]);
    await provider.delete!(x.id, x.outs);
  });

  it("a delete whose primary cannot be given back (that domain is gone) still deletes, and says so", async () => {
    const gone = await createOk(provider, { installId: ACMESTG, name: "gone.example.com", primary: true });
    const d = await createOk(provider, { installId: ACMESTG, name: "d.example.com", primary: true });
    expect(d.outs["primaryTakenFrom"]).toBe(gone.id);
    await client().domains.delete(ACMESTG, gone.id);
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await provider.delete!(d.id, d.outs);
      expect(said.mock.calls.map(([l]) => String(l)).join("")).toContain(
        `install ${ACMESTG} has no primary domain now: domain ${gone.id}, which had it before, is gone; set primary: true on one of its domains`,
      );
    } finally {
      said.mockRestore();
    }
    expect((await client().domains.listAll(ACMESTG)).map((x) => x.name)).not.toContain("d.example.com");
  });

  it("under a recovery, adopts what the killed run's create made; one never answered is said to be a likely guess", async () => {
    const answered = await createOk(provider, { installId: ACMESTG, name: "answered.example.com" });
    const unanswered = SEED.domains.wwwAcmeExample;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-plan-"));
    const plan = path.join(dir, "plan.json");
    fs.writeFileSync(
      plan,
      JSON.stringify({
        token: "t1",
        adopt: [
          { kind: "Domain", key: { installId: ACMESTG, name: "answered.example.com" }, id: answered.id },
          { kind: "Domain", key: { installId: ACMEPROD, name: unanswered.name } },
        ],
      }),
    );
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    process.env["WPE_RECOVER_PLAN"] = plan;
    resetRecoveryPlan();
    try {
      await createOk(provider, { installId: ACMESTG, name: "answered.example.com" });
      await createOk(provider, { installId: ACMEPROD, name: unanswered.name });
      const lines = said.mock.calls.map(([l]) => String(l));
      expect(lines.find((l) => l.includes("answered.example.com"))).toContain(
        `(id ${answered.id}), which the interrupted run created (pulumi-wpengine recover)`,
      );
      expect(lines.find((l) => l.includes(unanswered.name))).toContain(
        `(id ${unanswered.id}), which the interrupted run's create most likely made: it was sent and never answered, and the service records no maker, so if another stack made one under this name after the kill, both stacks now hold it: then drop it from this stack's state with \`pulumi state delete <urn>\``,
      );
    } finally {
      said.mockRestore();
      delete process.env["WPE_RECOVER_PLAN"];
      resetRecoveryPlan();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("replaces on a new name or install", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, name: "a.example.com" });
    expect(await diff(provider, id, outs, { installId: ACMESTG, name: "b.example.com" })).toEqual({
      changes: true,
      replaces: ["name"],
    });
    expect(await diff(provider, id, outs, { installId: ACMEPROD, name: "a.example.com" })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
    // The same name in other case is the same domain, even where it has not been through check.
    const upper = { installId: ACMESTG, name: "A.Example.COM", primary: false, secureAllUrls: false };
    expect(await provider.diff!(id, outs, upper)).toMatchObject({ changes: false });
  });

  it("sees an out-of-band change in read and diff (drift)", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, name: "drift.example.com" });
    await client().domains.update(ACMESTG, id, { secure_all_urls: true });
    const read = await provider.read!(id, outs);
    expect(read.props?.["secureAllUrls"]).toBe(true);
    expect(
      await provider.diff!(
        id,
        read.props!,
        await checkOk(provider, { installId: ACMESTG, name: "drift.example.com" }, read.props),
      ),
    ).toEqual({ changes: true });
  });

  it("deletes the domain on the service; read after delete reports it gone; a second delete succeeds", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, name: "gone.example.com" });
    await provider.delete!(id, outs);
    await expect(client().domains.get(ACMESTG, id)).rejects.toMatchObject({ status: 404 });
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await expect(provider.delete!(id, outs)).resolves.toBeUndefined();
  });
});

describe("Domain adoption", () => {
  it("refuses to take over an existing domain without adopt, naming the domain and the way in: at check (preview), and at create", async () => {
    const refusal = `domain ${SEED.domains.wwwAcmeExample.name} already exists on install ${ACMEPROD} (id ${SEED.domains.wwwAcmeExample.id}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over, or, after an interrupted run of this stack, run \`${AFTER_A_CRASH}\` (it adopts only what that run created). If another stack manages it, hand it over first (retainOnDelete there: docs/ownership.md), or both stacks would own it`;
    const news = { installId: ACMEPROD, name: SEED.domains.wwwAcmeExample.name };
    expect(await checkFails(provider, news)).toEqual([`name: ${refusal}`]);
    // Past a check that did not see it (made meanwhile), create refuses in the same words.
    const { inputs } = await provider.check!({ installId: ACMEPROD }, news);
    await expect(provider.create(inputs)).rejects.toThrow(`wpengine:Domain create failed: ${refusal}`);
  });

  it("adopts an existing domain with adopt: true and brings it to the declared state", async () => {
    const { id, outs } = await createOk(provider, {
      installId: ACMESTG,
      name: SEED.domains.stagingAcmeExample.name,
      secureAllUrls: true,
      adopt: true,
    });
    expect(id).toBe(SEED.domains.stagingAcmeExample.id);
    expect(outs).toMatchObject({ adopt: true, secureAllUrls: true });
  });
});

describe("Domain lost answers", () => {
  it("a delete whose first try acted before its answer was lost, then turned away, never says nothing was deleted", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, name: "gone-early.example.com" });
    const DELETES = "/v1/installs/*/domains/*";
    fixture.sim.setFaults([
      { method: "DELETE", path: DELETES, after: true, drop: true, count: 1 },
      { method: "DELETE", path: DELETES, status: 429, retryAfter: 0, count: 10 },
    ]);
    try {
      const message = await provider.delete!(id, outs).then(
        () => "",
        (err: Error) => err.message,
      );
      expect(message).toContain("429");
      expect(message).not.toContain("Nothing was deleted");
      expect(message).toContain("It may have been deleted");
    } finally {
      fixture.sim.setFaults([]);
    }
    // It was: the same command again finds it gone.
    await expect(client().domains.get(ACMESTG, id)).rejects.toMatchObject({ status: 404 });
    await expect(provider.delete!(id, outs)).resolves.toBeUndefined();
  });

  it("bulk creates whose answers are lost before and after the service acted: each domain made once, none failed", async () => {
    const POSTS = "/v1/installs/*/domains/bulk";
    fixture.sim.setFaults([
      { method: "POST", path: POSTS, after: true, drop: true, count: 1 },
      { method: "POST", path: POSTS, drop: true, count: 1 },
      { method: "POST", path: POSTS, after: true, status: 500, count: 1 },
      { method: "POST", path: POSTS, status: 502, count: 1 },
    ]);
    fixture.sim.clearRequests();
    const names = Array.from({ length: 8 }, (_, i) => `lost${i}.example.com`);
    // Four waves of two (each wave one bulk call), so each fault meets a call of its own.
    const made = [];
    for (let i = 0; i < names.length; i += 2)
      made.push(
        ...(await Promise.all(
          names.slice(i, i + 2).map((name) => createOk(provider, { installId: ACMESTG, name })),
        )),
      );
    const live: string[] = [];
    for await (const d of client().domains.iterate(ACMESTG)) live.push(d.name);
    for (const name of names)
      expect(
        live.filter((n) => n === name),
        name,
      ).toHaveLength(1);
    expect(made.map((m) => m.outs["name"])).toEqual(names);
    const posts = fixture.sim.requests().filter((r) => r.method === "POST");
    // Wave 1: dropped after the write (the listing finds both: adopted, not sent again). Wave 2: dropped
    // before it, so sent once more, and that answer is a 500 after the write (found: adopted). Wave 3: a
    // 502 before the write, sent once more. Wave 4: no fault left.
    expect(posts.map((r) => r.status)).toEqual([0, 0, 500, 502, 201, 201]);
  });
});

describe("Domain check", () => {
  it("names the property and the reason", async () => {
    expect(await checkFails(provider, { installId: "not-a-uuid", name: "x.example.com" })).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { installId: ACMESTG, name: "https://x.example.com/path" })).toEqual([
      "name: name must be a domain name such as www.example.com (no scheme, no path)",
    ]);
    expect(await checkFails(provider, { installId: ACMESTG, name: "x.example.com", primray: true })).toEqual([
      expect.stringMatching(/primray/),
    ]);
  });

  it("refuses at preview a primary the service refuses: a wildcard, or a domain that redirects", async () => {
    expect(
      await checkFails(provider, { installId: ACMESTG, name: "*.wild.example.com", primary: true }),
    ).toEqual([
      "primary: primary cannot be true for a wildcard domain: make a domain without `*.` the install's primary",
    ]);
    const news = { installId: ACMESTG, name: "old.example.com", primary: true, redirectTo: ACMEPROD };
    expect(await checkFails(provider, news)).toEqual([
      "primary: primary cannot be true for a domain that redirects: remove redirectTo, or make its target the primary",
    ]);
    // A target not known yet (another Domain's id in a preview) is set all the same: refused at preview.
    expect(await checkFails(provider, { ...news, redirectTo: UNKNOWN })).toEqual([
      "primary: primary cannot be true for a domain that redirects: remove redirectTo, or make its target the primary",
    ]);
    expect(await checkOk(provider, { ...news, primary: UNKNOWN, redirectTo: UNKNOWN })).toMatchObject({
      redirectTo: UNKNOWN,
    });
  });

  it("lets values unknown during preview through untouched", async () => {
    const inputs = await checkOk(provider, {
      installId: UNKNOWN,
      name: "x.example.com",
      redirectTo: UNKNOWN,
    });
    expect(inputs).toMatchObject({ installId: UNKNOWN, redirectTo: UNKNOWN, name: "x.example.com" });
  });

  it("names the input whose id the service does not know (a 404), and the next step: at check, and at create", async () => {
    const news = { installId: "1e000000-0000-4000-8000-0000000000ff", name: "q.example.com" };
    expect(await checkFails(provider, news)).toEqual([
      "installId: installId 1e000000-0000-4000-8000-0000000000ff names no install on the service for the default credentials (API user demo): the create would fail. Check the id (a typo, or an install deleted since), or run the resource as a profile whose API user can reach it (its profile, or wpengine:profile)",
    ]);
    const { inputs } = await provider.check!({ installId: news.installId }, news);
    await expect(provider.create(inputs)).rejects.toThrow(
      /404 Not found: Install not found \(input "installId"\)\. Check the id: the service has no such object, or the API user/,
    );
  });

  it("turns a service error into a message naming the input", async () => {
    const wildcard = await createOk(provider, { installId: ACMESTG, name: "*.wild.example.com" });
    // Sent past check (which refuses it at preview): the service's own refusal still names the input.
    const news = { ...wildcard.inputs, primary: true };
    await expect(provider.update!(wildcard.id, wildcard.outs, news)).rejects.toThrow(
      /wpengine:Domain update failed: PATCH \/v1\/installs\/.+\/domains\/.+: 400 Bad Request: .*primary.*\(input "primary"\)/,
    );
  });
});

describe("Domain update", () => {
  const have = { primary: false, redirectTo: null, secureAllUrls: false };

  /** The PATCH an update from `olds` to `news` sends (`undefined` when none is sent). */
  async function patchOf(olds: typeof have | { redirectTo: string }, news: typeof have) {
    const sent: unknown[] = [];
    const record = { id: "d", name: "shop.example.com" };
    const domains = {
      get: async () => record,
      listAll: async () => [record],
      update: async (_installId: string, _id: string, patch: unknown) => {
        sent.push(patch);
        return record;
      },
    };
    const ctx = { client: { domains } as unknown as WpEngineClient, parent: ACMESTG } as Context;
    const base = { installId: ACMESTG, name: record.name };
    // The outputs reduced to the inputs the PATCH compares.
    const outs = { ...base, ...have, ...olds } as Parameters<NonNullable<typeof definition.update>>[1];
    await definition.update!("d", outs, { ...base, ...news }, ctx);
    expect(sent.length).toBeLessThan(2);
    return sent[0];
  }

  it("sends only what differs, and nil to remove a redirect", async () => {
    expect(await patchOf(have, have)).toBeUndefined();
    expect(await patchOf({ redirectTo: "r" }, have)).toEqual({ redirect_to: "nil" });
    expect(await patchOf(have, { ...have, primary: true })).toEqual({ primary: true });
  });
});
