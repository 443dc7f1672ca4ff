import { describe, expect, it } from "vitest";
import { definition } from "../../provider/kinds/CachePurge";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, deleteSays, diff } from "../support/provider";
import { usePacingOnSimulatorClock, useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const waited = usePacingOnSimulatorClock(fixture);
const I = SEED.installs;
const target = { installId: I.acmeprod.id, type: "object" };
const purges = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/purge_cache"));

describe("CachePurge against the simulator", () => {
  it("purges once on create; read equals the outputs; a second diff shows no change", async () => {
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, { ...target, triggers: { release: "v1" } });
    expect(purges().map((r) => r.status)).toEqual([202]);
    expect(outs).toMatchObject({ purgeCount: 1, lastWaitSeconds: 0, timeoutSeconds: 300, type: "object" });
    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(await diff(provider, id, outs, { ...target, triggers: { release: "v1" } })).toEqual({
      changes: false,
    });
  });

  it("purges again when triggers change, waiting out the 60 s object window on the simulator's clock", async () => {
    const { id, outs } = await createOk(provider, target);
    const news = await checkOk(provider, { ...target, triggers: { release: "v2" } });
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, news);
    // The provider knew its own purge 0 s ago: it waited the window instead of collecting a 429.
    expect(purges().map((r) => r.status)).toEqual([202]);
    // The rest of the window: 60 s less the few real milliseconds since the first purge.
    expect(waited()).toBeGreaterThan(59_000);
    expect(waited()).toBeLessThanOrEqual(60_000);
    expect(updated.outs).toMatchObject({ purgeCount: 2, lastWaitSeconds: 60, triggers: { release: "v2" } });
  });

  it("waits out a 429 caused by a purge made elsewhere (no Retry-After: the whole window) and succeeds", async () => {
    await fixture.client().cachePurge.purge(I.acmestg.id, "object");
    fixture.sim.clearRequests();
    const { outs } = await createOk(provider, { ...target, installId: I.acmestg.id });
    expect(purges().map((r) => r.status)).toEqual([429, 202]);
    expect(waited()).toBe(60_000);
    expect(outs["purgeCount"]).toBe(1);
  });

  it("fails with the reason when the window cannot pass within timeoutSeconds", async () => {
    await fixture.client().cachePurge.purge(I.acmedev.id, "object");
    const inputs = await checkOk(provider, { ...target, installId: I.acmedev.id, timeoutSeconds: 30 });
    await expect(provider.create(inputs)).rejects.toThrow(/wpengine:CachePurge create failed: .*timed out/);
  });

  it("does not space page, cdn or all purges", async () => {
    for (const type of ["page", "page", "cdn", "all"]) await createOk(provider, { ...target, type });
    expect(waited()).toBe(0);
  });

  it("a new timeoutSeconds alone purges nothing; installId and type replace", async () => {
    const { id, outs } = await createOk(provider, target);
    fixture.sim.clearRequests();
    const news = await checkOk(provider, { ...target, timeoutSeconds: 600 });
    const updated = await provider.update!(id, outs, news);
    expect(purges()).toEqual([]);
    expect(updated.outs).toMatchObject({ purgeCount: 1, timeoutSeconds: 600 });
    expect(await diff(provider, id, outs, { ...target, type: "page" })).toEqual({
      changes: true,
      replaces: ["type"],
    });
  });

  it("check names the field: type, installId, triggers, adopt", async () => {
    expect(await checkFails(provider, { ...target, type: "disk" })).toEqual([
      "type: type must be one of object, page, cdn, all",
    ]);
    expect((await checkFails(provider, { ...target, installId: "acmeprod" }))[0]).toMatch(
      /^installId: .*UUID/,
    );
    expect((await checkFails(provider, { ...target, triggers: ["a"] }))[0]).toMatch(/^triggers: /);
    expect((await checkFails(provider, { ...target, adopt: true }))[0]).toMatch(
      /^adopt: CachePurge has no adopt/,
    );
  });

  it("is gone when its install is; delete only forgets and says so", async () => {
    const { id, outs } = await createOk(provider, target);
    expect(await provider.read!(id, { ...outs, installId: "1e000000-0000-4000-8000-0000000000ff" })).toEqual({
      id: "",
    });
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:CachePurge ${id}: forgotten only, nothing sent to the service: a purged cache cannot be un-purged`,
    ]);
    expect(fixture.sim.requests()).toEqual([]);
  });
});
