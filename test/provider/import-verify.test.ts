/**
 * Import, then no change (Terraform's ImportStateVerify discipline), for every kind that can be imported,
 * at the executable front door as `pulumi import` drives it: the object made from the case's create args,
 * then read by its import id with no state (what `pulumi import` does), then diffed against the same args
 * as a program declares them (what the first `pulumi preview` after the import does). The CLI tier runs
 * the importer's YAML project through `pulumi import --file`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { fieldMeta } from "../../provider/core/define";
import { diffOf } from "../../provider/core/lifecycle";
import { KINDS } from "../../provider/registry";
import { SEED } from "../../simulator";
import { CASES } from "../engine/cases";
import { executableRead } from "../support/executable";
import { checkOk } from "../support/provider";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
type Props = Record<string, unknown>;
/** The import id of an object: the kind's `{field}` parts from its inputs, `{id}` its resource id. */
const importIdOf = (format: string, id: string, inputs: Props) =>
  format.replace(/\{(\w+)\}/g, (_m, name: string) => (name === "id" ? id : String(inputs[name])));

/** Whether a program must give the input (no default, not optional). */
const isRequired = (kind: string, key: string) =>
  !(KINDS[kind]!.inputs.shape[key] as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined)
    .success;

const IMPORTABLE = CASES.filter((c) => typeof KINDS[c.kind]!.importId === "string");

describe("the importable kinds", () => {
  it("each has a case to import", () => {
    const importable = Object.values(KINDS).filter((k) => typeof k.importId === "string");
    expect(IMPORTABLE.map((c) => c.kind).sort()).toEqual(importable.map((k) => k.kind).sort());
  });
});

describe.each(IMPORTABLE)("$kind imported by pulumi import", (c) => {
  it("reads with no state to outputs the program's declaration diffs with no change", async () => {
    const provider = KINDS[c.kind]!.provider as pulumi.dynamic.ResourceProvider;
    const made = await fixture.advancing(provider.create(await checkOk(provider, c.args(SEED))));
    // The program as it declares the object, but for the optional write-only inputs (a wait's timeout, a
    // deletion guard): an import cannot know them, and the program's value is an update that sends nothing.
    // A required one (a backup's notification emails) the state lacks is no change (ImportStateVerifyIgnore).
    const meta = fieldMeta(KINDS[c.kind]!.inputs);
    const unknowable = Object.keys(meta).filter((k) => meta[k]!.writeOnly);
    const program = Object.fromEntries(
      Object.entries(c.args(SEED)).filter(([k]) => !unknowable.includes(k) || isRequired(c.kind, k)),
    );
    const importId = importIdOf(KINDS[c.kind]!.importId as string, made.id, program);
    const res = await executableRead(fixture, c.kind, importId);
    expect(res.id).toBeTruthy();
    // The engine checks an imported resource with the inputs the read gave as olds (no create follows).
    const declared = await checkOk(provider, program, res.inputs);
    const plan = diffOf(KINDS[c.kind]!.provider.definition, res.props!, declared);
    expect(plan.diffs ?? [], "the first preview after the import").toEqual([]);
  });
});
