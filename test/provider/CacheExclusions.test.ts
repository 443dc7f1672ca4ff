import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition, normalizeExclusions } from "../../provider/kinds/CacheExclusions";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff, refusedAtCheck, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;
const ACMEBLOG = SEED.installs.acmeblog.id; // transferable: changes answer 409
const GLOBEXPROD = SEED.installs.globexprod.id; // account not eligible: 403

const client = fixture.client;

const wanted = [
  { type: "url path", value: "^/shop/" },
  { type: "query arg", value: "^utm_" },
];

describe("CacheExclusions lifecycle", () => {
  it("creates, reads back the same outputs, and a second diff shows no changes", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    expect(id).toBe(ACMESTG);
    // The service holds the same set (sorted, its platform cookie rules aside): the program's order is kept,
    // so a refresh of the untouched stack finds exactly what was stored.
    expect(outs["exclusions"]).toEqual(wanted);
    const live = await client().cacheExclusions.get(ACMESTG);
    expect(live.filter((e) => e.type !== "cookie")).toHaveLength(2);

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ installId: ACMESTG, exclusions: wanted });

    expect(await diff(provider, id, outs, { installId: ACMESTG, exclusions: wanted })).toEqual({
      changes: false,
    });
  });

  it("shows no change for a reordered list with duplicates", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    const shuffled = [wanted[1], wanted[0], wanted[1]];
    expect(await diff(provider, id, outs, { installId: ACMESTG, exclusions: shuffled })).toEqual({
      changes: false,
    });
  });

  it("refuses an install whose list holds other exclusions, naming them, and leaves them as they are", async () => {
    // acmeprod is seeded with two exclusions made elsewhere: a create must not replace them silently.
    const before = await client().cacheExclusions.get(ACMEPROD);
    const held = before.filter((e) => e.type !== "cookie");
    expect(held.length).toBeGreaterThan(0);
    // Refused at preview already; create, sent past the check, says the same.
    const inputs = await refusedAtCheck(
      provider,
      { installId: ACMEPROD, exclusions: [wanted[0]] },
      new RegExp(
        `^install ${ACMEPROD} already has ${held.length} cache exclusions \\(.*perhaps another stack's list; renamed a resource\\? give it \`aliases\` with its old name \\(docs/ownership\\.md\\); else set adopt: true`,
      ),
    );
    const refusal = await provider.create(inputs).then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refusal).toMatch(
      new RegExp(
        `^wpengine:CacheExclusions create failed: install ${ACMEPROD} already has ${held.length} cache exclusions \\(`,
      ),
    );
    for (const e of held) expect(refusal).toContain(`${e.type} ${e.value}`);
    expect(refusal).toContain(
      "perhaps another stack's list; renamed a resource? give it `aliases` with its old name (docs/ownership.md); else set adopt: true to take the list over (kept as it is when it holds exactly these exclusions, else replaced)",
    );
    expect(await client().cacheExclusions.get(ACMEPROD)).toEqual(before);
  });

  it("with adopt: true, replaces the whole list, removing exclusions made elsewhere, and says all it held", async () => {
    const byHand = ["^/members/", "^/checkout/", "^/api/private/", "^/account/orders/"];
    await client().cacheExclusions.replace(
      ACMEPROD,
      byHand.map((value) => ({ type: "url path", value })),
    );
    const held = normalizeExclusions(await client().cacheExclusions.get(ACMEPROD));
    expect(JSON.stringify(held).length).toBeGreaterThan(120);
    const {
      lines,
      result: { outs },
    } = await said(() => createOk(provider, { installId: ACMEPROD, exclusions: [wanted[0]], adopt: true }));
    expect(lines).toEqual([
      `wpengine:CacheExclusions ${ACMEPROD}: adopted the existing cache exclusions of install ${ACMEPROD} ` +
        `(id ${ACMEPROD}), and set exclusions as declared (it had exclusions ${JSON.stringify(held)})`,
    ]);
    expect(outs["exclusions"]).toEqual([wanted[0]]);
    const live = await client().cacheExclusions.get(ACMEPROD);
    expect(live.filter((e) => e.type !== "cookie")).toEqual([wanted[0]]);
  });

  it("refuses even a list that already is the declared one without adopt (another stack's), and takes it over with adopt, with no write", async () => {
    await createOk(provider, { installId: ACMEPROD, exclusions: wanted, adopt: true });
    fixture.sim.clearRequests();
    const inputs = await refusedAtCheck(
      provider,
      { installId: ACMEPROD, exclusions: wanted },
      /perhaps another stack's list; renamed a resource\? give it `aliases` with its old name \(docs\/ownership\.md\); else set adopt: true/,
    );
    await expect(provider.create(inputs)).rejects.toThrow(
      /perhaps another stack's list; renamed a resource\? give it `aliases` with its old name \(docs\/ownership\.md\); else set adopt: true/,
    );
    const { lines } = await said(() =>
      createOk(provider, { installId: ACMEPROD, exclusions: wanted, adopt: true }),
    );
    expect(lines).toEqual([
      `wpengine:CacheExclusions ${ACMEPROD}: adopted the existing cache exclusions of install ${ACMEPROD} (id ${ACMEPROD})`,
    ]);
    expect(fixture.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("updates the list in place and returns the full outputs", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    const news = await checkOk(
      provider,
      { installId: ACMESTG, exclusions: [{ type: "url path", value: "^/cart/" }] },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, outs, news);
    expect(updated.outs).toEqual({
      installId: ACMESTG,
      exclusions: [{ type: "url path", value: "^/cart/" }],
    });
    const live = await client().cacheExclusions.get(ACMESTG);
    expect(live.filter((e) => e.type !== "cookie")).toEqual([{ type: "url path", value: "^/cart/" }]);
  });

  it("replaces the resource when the install changes", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    expect(await diff(provider, id, outs, { installId: ACMEPROD, exclusions: wanted })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });

  it("sees an out-of-band change in read and diff", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    await client().cacheExclusions.replace(ACMESTG, [{ type: "url path", value: "^/by-hand/" }]);
    const read = await provider.read!(id, outs);
    expect(read.props?.["exclusions"]).toEqual([{ type: "url path", value: "^/by-hand/" }]);
    expect(await diff(provider, id, read.props!, { installId: ACMESTG, exclusions: wanted })).toEqual({
      changes: true,
    });
    // The live list in the program's order, each entry beside the one most like it and the extra after:
    // a preview shows the entry that changed and the one added, not a shuffle of the service's order.
    await client().cacheExclusions.replace(ACMESTG, [
      { type: "query arg", value: "^fbclid" },
      { type: "query arg", value: "^utm_" },
      { type: "url path", value: "^/checkout/" },
    ]);
    expect((await provider.read!(id, outs)).props?.["exclusions"]).toEqual([
      { type: "url path", value: "^/checkout/" },
      { type: "query arg", value: "^utm_" },
      { type: "query arg", value: "^fbclid" },
    ]);
    // An entry unchanged keeps its row even when a changed one of the same type comes first.
    const declared = [
      { type: "url path", value: "^/wp-json/" },
      { type: "url path", value: "^/(cart|checkout)/" },
      { type: "query arg", value: "^utm_" },
    ];
    const made = await createOk(provider, { installId: ACMESTG, exclusions: declared, adopt: true });
    await client().cacheExclusions.replace(ACMESTG, [
      { type: "query arg", value: "^gclid" },
      { type: "query arg", value: "^utm_" },
      { type: "url path", value: "^/(cart|checkout)/" },
      { type: "url path", value: "^/wp-json/v2/" },
    ]);
    expect((await provider.read!(id, made.outs)).props?.["exclusions"]).toEqual([
      { type: "url path", value: "^/wp-json/v2/" },
      { type: "url path", value: "^/(cart|checkout)/" },
      { type: "query arg", value: "^utm_" },
      { type: "query arg", value: "^gclid" },
    ]);
    // Of two new entries of one type, the changed one sits beside the entry it keeps the start of.
    await client().cacheExclusions.replace(ACMESTG, [
      { type: "url path", value: "^/(cart|checkout)/" },
      { type: "url path", value: "^/aaa/" },
      { type: "url path", value: "^/wp-json/v3/" },
      { type: "query arg", value: "^utm_" },
    ]);
    expect((await provider.read!(id, made.outs)).props?.["exclusions"]).toEqual([
      { type: "url path", value: "^/wp-json/v3/" },
      { type: "url path", value: "^/(cart|checkout)/" },
      { type: "query arg", value: "^utm_" },
      { type: "url path", value: "^/aaa/" },
    ]);
  });

  it("leaves the platform's cookie rules out of the outputs, so they never show as drift", async () => {
    const live = await client().cacheExclusions.get(ACMESTG);
    expect(live.some((e) => e.type === "cookie")).toBe(true);
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: [] });
    expect(outs["exclusions"]).toEqual([]);
    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
  });

  it("delete clears the writable exclusions, and read afterwards reports them gone from the outputs", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    await provider.delete!(id, outs);
    const live = await client().cacheExclusions.get(ACMESTG);
    expect(live.filter((e) => e.type !== "cookie")).toEqual([]);
    // The list itself cannot be gone while the install exists: read shows it emptied.
    expect((await provider.read!(id, outs)).props?.["exclusions"]).toEqual([]);
  });

  it("read reports gone (empty id) once the install is gone, and delete then succeeds", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    await client().installs.delete(ACMESTG);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await expect(provider.delete!(id, outs)).resolves.toBeUndefined();
  });
});

describe("CacheExclusions errors from the service", () => {
  it("says the install is transferable on a 409", async () => {
    const inputs = await checkOk(provider, { installId: ACMEBLOG, exclusions: wanted, adopt: true });
    await expect(provider.create(inputs)).rejects.toThrow(
      /^wpengine:CacheExclusions create failed: install 1e000000-0000-4000-8000-000000000005 is transferable, and the service refuses cache exclusion changes/,
    );
    // Nothing changed on the service.
    expect(await client().cacheExclusions.get(ACMEBLOG)).toContainEqual({
      type: "url path",
      value: "^/feed/",
    });
  });

  it("names the offending input when the service rejects a value check did not see", async () => {
    // check would refuse this; calling create directly stands for a service stricter than the local rules.
    await expect(
      provider.create({ installId: ACMESTG, exclusions: [{ type: "url path", value: "(" }] }),
    ).rejects.toThrow(/is not a valid regular expression.*\(input "exclusions\.value"\)$/);
  });

  it("passes on a refusal for lack of permission, at preview already (the 403 of check's read)", async () => {
    const inputs = await refusedAtCheck(
      provider,
      { installId: GLOBEXPROD, exclusions: wanted },
      /^installId 1e\S+: the service refuses the default credentials \(API user demo\) \(403: .*not eligible for cache exclusions.*\), so the create would fail/,
    );
    await expect(provider.create(inputs)).rejects.toThrow(
      /403 Not authorized.*not eligible for cache exclusions/,
    );
  });
});

describe("CacheExclusions check", () => {
  it("requires a UUID installId", async () => {
    expect(await checkFails(provider, { installId: "acmeprod", exclusions: [] })).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
  });

  it("requires the exclusions list", async () => {
    expect(await checkFails(provider, { installId: ACMEPROD })).toEqual([
      "exclusions: exclusions is required and must be a list",
    ]);
  });

  it("refuses an unknown type", async () => {
    expect(
      await checkFails(provider, { installId: ACMEPROD, exclusions: [{ type: "header", value: "x" }] }),
    ).toEqual(['exclusions[0].type: type must be "query arg" or "url path"']);
  });

  it("refuses an empty value", async () => {
    expect(
      await checkFails(provider, { installId: ACMEPROD, exclusions: [{ type: "url path", value: "" }] }),
    ).toEqual(["exclusions[0].value: value must not be empty"]);
  });

  it("names the index of an invalid regular expression", async () => {
    const exclusions = [...wanted, { type: "url path", value: "^/(unclosed" }];
    expect(await checkFails(provider, { installId: ACMEPROD, exclusions })).toEqual([
      "exclusions[2].value: invalid regular expression: Unterminated group",
    ]);
  });

  it("rejects cookie entries, explaining they are platform-managed", async () => {
    const failures = await checkFails(provider, {
      installId: ACMEPROD,
      exclusions: [{ type: "cookie", value: "^wordpress_logged_in_" }],
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^exclusions\[0\]\.type: cookie exclusions are platform-managed/);
  });

  it("refuses unknown input names", async () => {
    const failures = await checkFails(provider, { installId: ACMEPROD, exclusions: [], exclusion: [] });
    expect(failures.join()).toMatch(/exclusion/);
  });

  it("lets values unknown during preview through untouched", async () => {
    const news = { installId: UNKNOWN, exclusions: [{ type: "url path", value: UNKNOWN }] };
    expect(await checkOk(provider, news)).toEqual(news);
    expect(await provider.diff!(ACMEPROD, { installId: ACMEPROD, exclusions: wanted }, news)).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });
});

describe("CacheExclusions drift", () => {
  it("a list changed elsewhere shows as the service's list, and the next update writes the program's back", async () => {
    const { id, outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    await client().cacheExclusions.replace(ACMESTG, [{ type: "url path", value: "^/other/" }]);
    const read = await provider.read!(id, outs);
    expect(read.props?.["exclusions"]).toEqual([{ type: "url path", value: "^/other/" }]);
    const planned = await diff(provider, id, read.props!, { installId: ACMESTG, exclusions: wanted });
    expect(planned.changes).toBe(true);
  });
});

describe("CacheExclusions lost answers", () => {
  it("a create whose PUT acted but whose answer was lost is sent again and takes over the list it wrote", async () => {
    fixture.sim.setFaults([{ method: "PUT", path: "*/cache_exclusions", after: true, drop: true, count: 1 }]);
    try {
      const { outs } = await createOk(provider, { installId: ACMESTG, exclusions: wanted });
      expect(outs["exclusions"]).toEqual(wanted);
    } finally {
      fixture.sim.setFaults([]);
    }
    const live = await client().cacheExclusions.get(ACMESTG);
    expect(live.filter((e) => e.type !== "cookie")).toHaveLength(wanted.length);
  });
});

describe("CacheExclusions adoption", () => {
  it("adopting a list that already holds exactly these exclusions makes no write", async () => {
    await createOk(provider, { installId: ACMESTG, exclusions: wanted });
    const puts = () => fixture.sim.requests().filter((r) => r.method === "PUT").length;
    const before = puts();
    const { outs } = await createOk(provider, {
      installId: ACMESTG,
      exclusions: [...wanted].reverse(),
      adopt: true,
    });
    expect(puts()).toBe(before);
    expect(outs["exclusions"]).toEqual([...wanted].reverse());
    // A list that differs is still replaced whole.
    await createOk(provider, { installId: ACMESTG, exclusions: [wanted[0]!], adopt: true });
    expect(puts()).toBe(before + 1);
  });
});
