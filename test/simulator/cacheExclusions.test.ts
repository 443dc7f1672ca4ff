import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I } = SEED;
const path = (id: string) => `/v1/installs/${id}/cache_exclusions`;
const cookies = (list: { type: string }[]) => list.filter((e) => e.type === "cookie");
const writable = (list: { type: string }[]) => list.filter((e) => e.type !== "cookie");

describe("cache exclusions (the six rules)", () => {
  const sim = useSimulator();

  it("reads the current list as {results}, platform cookie entries included", async () => {
    const r = await call(sim(), "GET", path(I.acmeprod.id));
    expect(r.status).toBe(200);
    expect(writable(r.body.results)).toEqual([
      { type: "url path", value: "^/wp-json/" },
      { type: "query arg", value: "^utm_" },
    ]);
    expect(cookies(r.body.results).length).toBeGreaterThan(0);
  });

  it("rule 1: replaces the whole list; an empty array clears every writable exclusion", async () => {
    const put = await call(sim(), "PUT", path(I.acmeprod.id), {
      exclusions: [{ type: "url path", value: "^/cart" }],
    });
    expect(put.status).toBe(200);
    expect(put.body.results).toEqual([{ type: "url path", value: "^/cart" }]);
    expect(writable((await call(sim(), "GET", path(I.acmeprod.id))).body.results)).toEqual([
      { type: "url path", value: "^/cart" },
    ]);
    await call(sim(), "PUT", path(I.acmeprod.id), { exclusions: [] });
    expect(writable((await call(sim(), "GET", path(I.acmeprod.id))).body.results)).toEqual([]);
  });

  it("rule 2: collapses duplicate entries before saving", async () => {
    const e = { type: "query arg", value: "^ref$" };
    const put = await call(sim(), "PUT", path(I.acmeprod.id), { exclusions: [e, e, e] });
    expect(put.body.results).toEqual([e]);
    expect(writable((await call(sim(), "GET", path(I.acmeprod.id))).body.results)).toEqual([e]);
  });

  it("rule 3: echoes cookie entries without saving them, so a GET can be sent back unchanged", async () => {
    const mine = { type: "cookie", value: "^my_cookie$" };
    const put = await call(sim(), "PUT", path(I.acmeprod.id), {
      exclusions: [mine, { type: "url path", value: "^/x" }],
    });
    expect(put.body.results).toContainEqual(mine);
    const read = await call(sim(), "GET", path(I.acmeprod.id));
    expect(read.body.results).not.toContainEqual(mine);
    const roundTrip = await call(sim(), "PUT", path(I.acmeprod.id), { exclusions: read.body.results });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.results).toEqual(read.body.results);
    expect((await call(sim(), "GET", path(I.acmeprod.id))).body.results).toEqual(read.body.results);
  });

  it("rule 4: an invalid regular expression gives a 400 naming the entry, and changes nothing", async () => {
    const r = await call(sim(), "PUT", path(I.acmeprod.id), {
      exclusions: [
        { type: "url path", value: "^/ok" },
        { type: "query arg", value: "([unclosed" },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ resource: "cache_exclusion", field: "exclusions.1.value" });
    expect(writable((await call(sim(), "GET", path(I.acmeprod.id))).body.results)).toHaveLength(2);
  });

  it("rule 4: an unknown type is a 400 too", async () => {
    const r = await call(sim(), "PUT", path(I.acmeprod.id), { exclusions: [{ type: "header", value: "x" }] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("exclusions.0.type");
  });

  it("rule 5: 403 for a user who cannot update the install, and for an ineligible account", async () => {
    const partialOther = await call(
      sim(),
      "PUT",
      path(I.acmestg.id),
      { exclusions: [] },
      { user: "partial" },
    );
    expect(partialOther.status).toBe(403);
    const partialOwn = await call(sim(), "PUT", path(I.acmeprod.id), { exclusions: [] }, { user: "partial" });
    expect(partialOwn.status).toBe(200);
    const ineligible = await call(sim(), "PUT", path(I.globexprod.id), { exclusions: [] });
    expect(ineligible.status).toBe(403);
  });

  it("rule 6: 409 while the install is transferable, exclusions unchanged, reading still permitted", async () => {
    const before = await call(sim(), "GET", path(I.acmeblog.id));
    expect(before.status).toBe(200);
    const r = await call(sim(), "PUT", path(I.acmeblog.id), { exclusions: [] });
    expect(r.status).toBe(409);
    expect(r.body.errors[0]).toMatchObject({ resource: "cache_exclusion", code: "install_transferable" });
    expect((await call(sim(), "GET", path(I.acmeblog.id))).body).toEqual(before.body);
  });
});
