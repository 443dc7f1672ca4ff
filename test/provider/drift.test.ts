/**
 * The out-of-band drift matrix (`test/engine/drift.ts`), through the providers as the plugin runs them,
 * against the simulator: every kind of the registry has its rows or a recorded reason for each property
 * that has none; each row's change, made through the API, shows in the refreshed read and the diff as
 * exactly that property (at both front doors: the executable provider's read sees the same); the update
 * repairs it with the fewest writes; a read after shows no diff; and an object removed on the service
 * reads as gone at both doors, so the engine plans to create it again.
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { fieldMeta } from "../../provider/core/define";
import { diffOf } from "../../provider/core/lifecycle";
import { KINDS } from "../../provider/registry";
import { SEED } from "../../simulator";
import { CASES } from "../engine/cases";
import { DRIFT, type DriftRow, type KindDrift, type Made, WRITE_ONLY } from "../engine/drift";
import { executableRead } from "../support/executable";
import { checkOk } from "../support/provider";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
type Props = Record<string, unknown>;

const providerOf = (kind: string) => KINDS[kind]!.provider as pulumi.dynamic.ResourceProvider;
const world = () => ({ client: fixture.client(), sim: fixture.sim, seed: SEED });

async function create(kind: string, args: Props) {
  const inputs = await checkOk(providerOf(kind), args);
  const res = await fixture.advancing(providerOf(kind).create(inputs));
  return { id: res.id, outs: res.outs as Props, inputs };
}

/** A refresh's read: what the service says now, addressed by the recorded outputs. */
const refresh = (kind: string, made: Made) => fixture.advancing(providerOf(kind).read!(made.id, made.outs));

/** The keys whose values differ between two records, but for `ignored`. */
const differing = (a: Props, b: Props, ignored: readonly string[] = []) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !ignored.includes(k) && !isDeepStrictEqual(a[k], b[k]))
    .sort();

describe("the drift matrix", () => {
  it("covers every kind of the registry: each updatable input and output has a row or a recorded reason", () => {
    expect(DRIFT.map((d) => d.kind).sort()).toEqual(Object.keys(KINDS).sort());
    const uncovered: string[] = [];
    const unknown: string[] = [];
    for (const d of DRIFT) {
      const kind = KINDS[d.kind]!;
      const wanted = [...kind.provider.definition.updatable, ...Object.keys(kind.outputs.shape)];
      const covered = [...d.rows.map((r) => r.property), ...Object.values(d.unwatched).flat()];
      uncovered.push(...wanted.filter((k) => !covered.includes(k)).map((k) => `${d.kind}.${k}`));
      unknown.push(...covered.filter((k) => !wanted.includes(k)).map((k) => `${d.kind}.${k}`));
    }
    expect(uncovered.join(", "), "give each a drift row, or the reason it cannot drift").toBe("");
    expect(unknown, "rows and reasons name only updatable inputs and outputs").toEqual([]);
  });

  it("records as write-only exactly the inputs the definitions mark writeOnly", () => {
    for (const d of DRIFT) {
      const marked = Object.entries(fieldMeta(KINDS[d.kind]!.inputs))
        .filter(([k, m]) => m.writeOnly && KINDS[d.kind]!.updatable.includes(k))
        .map(([k]) => k);
      expect(d.unwatched[WRITE_ONLY] ?? [], d.kind).toEqual(marked);
    }
  });
});

const ROWS = DRIFT.flatMap((d) => d.rows.map((row) => ({ kind: d.kind, property: row.property, d, row })));

describe.each(ROWS)(
  "$kind: $property changed on the service",
  ({ kind, d, row }: { kind: string; d: KindDrift; row: DriftRow }) => {
    it("shows as exactly that property; the update repairs it with the fewest writes; then no diff", async () => {
      const c = CASES.find((x) => x.kind === kind)!;
      const def = KINDS[kind]!.provider.definition;
      const made = await create(kind, (row.args ?? c.args)(SEED));
      await row.change(world(), made);

      const seen = await refresh(kind, made);
      expect(seen.id).toBe(made.id);

      const ignored = d.serviceDriven ?? [];
      // The executable front door's refresh (given the recorded inputs too) sees the same, but for what
      // the service moves on its own between the two reads (a build's state).
      const other = await executableRead(fixture, kind, made.id, made.outs, made.inputs);
      expect(other.id).toBe(seen.id);
      expect(differing(seen.props!, other.props!, ignored), "outputs the doors disagree on").toEqual([]);
      expect(differing(seen.inputs!, other.inputs!, ignored), "inputs the doors disagree on").toEqual([]);
      expect(differing(made.outs, seen.props!, ignored), "outputs the refresh changes").toEqual([
        row.property,
      ]);
      if (!row.output) {
        expect(differing(made.inputs, seen.inputs!, ignored), "inputs the refresh changes").toEqual([
          row.property,
        ]);
      }
      const plan = diffOf(def, seen.props!, made.inputs);
      if (row.output) {
        // A watched output: the refresh shows it; the program declares nothing of it to repair.
        expect(plan.changes).toBe(false);
        return;
      }
      expect(plan.diffs).toEqual([row.property]);
      expect(plan.replaces).toBeUndefined();

      fixture.sim.clearRequests();
      const repaired = await fixture.advancing(providerOf(kind).update!(made.id, seen.props!, made.inputs));
      const writes = fixture.sim.requests().filter((r) => r.method !== "GET");
      expect(
        writes.map((r) => `${r.method} ${r.path}`),
        "writes of the repair",
      ).toHaveLength(row.writes ?? 1);
      const after = await refresh(kind, { id: made.id, outs: repaired.outs as Props });
      expect(after.props![row.property]).toEqual(made.outs[row.property]);
      expect(diffOf(def, after.props!, made.inputs).changes).toBe(false);
    });
  },
);

const GONE = DRIFT.filter((d) => !("none" in d.gone));

describe.each(GONE)("$kind removed on the service", (d) => {
  it("reads as gone, so the engine plans to create it again", async () => {
    const c = CASES.find((x) => x.kind === d.kind)!;
    const made = await create(d.kind, c.args(SEED));
    if ("none" in d.gone) throw new Error("unreachable");
    await d.gone.remove(world(), made);
    expect(await refresh(d.kind, made)).toEqual({ id: "" });
    expect(await executableRead(fixture, d.kind, made.id, made.outs, made.inputs)).toEqual({ id: "" });
  });
});
