import { describe, expect, it } from "vitest";
import { heldInState, leftOutBy, othersIn } from "../../provider/core/stackState";

const URN = "urn:pulumi:dev::site::pulumi-nodejs:dynamic/wpengine:Domain::";

describe("a targeted run's left-out resources (stackState)", () => {
  it("is no targeted run without --target or --exclude", () => {
    expect(leftOutBy(["pulumi", "up", "--yes", "--stack", "dev"])).toBeUndefined();
  });

  it("leaves out what no --target names, in each spelling, and what --exclude names", () => {
    const spelt = [
      ["pulumi", "up", "--target", `${URN}new`],
      ["pulumi", "up", `--target=${URN}new`],
      ["pulumi", "up", "-t", `${URN}new`],
    ];
    for (const argv of spelt) {
      const out = leftOutBy(argv)!;
      expect(out(`${URN}old`), argv.join(" ")).toBe(true);
      expect(out(`${URN}new`), argv.join(" ")).toBe(false);
    }
    const excluded = leftOutBy(["pulumi", "destroy", "--exclude", `${URN}keep`])!;
    expect([excluded(`${URN}keep`), excluded(`${URN}other`)]).toEqual([true, false]);
  });

  it("takes * in a --target as any run of characters, and nothing else as a pattern", () => {
    const out = leftOutBy(["pulumi", "up", "--target", `${URN}web-*`])!;
    expect([out(`${URN}web-1`), out(`${URN}api-1`)]).toEqual([false, true]);
    // A dot or a dollar in a URN (a component's type) is itself, not a pattern.
    const parent = "urn:pulumi:dev::site::my:mod$pulumi-nodejs:dynamic/wpengine:Domain::a.b";
    const exact = leftOutBy(["pulumi", "up", "--target", parent])!;
    expect([exact(parent), exact(parent.replace("a.b", "aXb"))]).toEqual([false, true]);
  });

  it("reads this package's resources from an export, by kind, id and claimant, those being deleted left out", () => {
    const exported = {
      deployment: {
        resources: [
          { urn: "urn:pulumi:dev::site::pulumi:pulumi:Stack::site-dev", type: "pulumi:pulumi:Stack" },
          {
            urn: `${URN}old`,
            type: "pulumi-nodejs:dynamic/wpengine:Domain",
            id: "ABC",
            outputs: { __claimant: "old" },
          },
          { urn: "urn:x::wpengine:index:Domain::e", type: "wpengine:index:Domain", id: "abc", outputs: {} },
          { urn: `${URN}gone`, type: "pulumi-nodejs:dynamic/wpengine:Domain", id: "abc", delete: true },
          { urn: "urn:x::aws:s3:Bucket::b", type: "aws:s3/bucket:Bucket", id: "abc" },
        ],
      },
    };
    expect(heldInState(exported)).toEqual([
      { kind: "Domain", id: "abc", claimant: "old", urn: `${URN}old` },
      // No recorded claim: the URN is the claimant (the executable provider's).
      {
        kind: "Domain",
        id: "abc",
        claimant: "urn:x::wpengine:index:Domain::e",
        urn: "urn:x::wpengine:index:Domain::e",
      },
    ]);
    expect(heldInState({})).toEqual([]);
  });

  it("counts as another holder whatever a left-out resource's claim is, this resource never (it is in the run)", () => {
    const top = { kind: "Domain", id: "abc", claimant: "d4", urn: `${URN}d4` };
    const parented = "urn:pulumi:dev::site::my:x:Grp$pulumi-nodejs:dynamic/wpengine:Domain::d4";
    // Moved under a component with adopt, only the new URN targeted: the old one, of the same name, holds it.
    expect(othersIn([top], ["pulumi", "up", "--target", parented], "Domain", "ABC", "d4")).toEqual([
      `${URN}d4`,
    ]);
    // The old one's own targeted destroy: the moved one, left out, holds it; the old one is itself.
    const moved = { ...top, urn: parented };
    const destroy = ["pulumi", "destroy", "--target", `${URN}d4`];
    expect(othersIn([top, moved], destroy, "Domain", "abc", "d4")).toEqual([parented]);
    expect(othersIn([top, moved], destroy, "Account", "abc", "d4")).toEqual([]);
    // The executable provider's claim is the URN: itself even when a pattern leaves it out.
    const exec = {
      kind: "Domain",
      id: "abc",
      claimant: "urn:e::wpengine:index:Domain::e",
      urn: "urn:e::wpengine:index:Domain::e",
    };
    expect(othersIn([exec], ["pulumi", "up", "--exclude", exec.urn], "Domain", "abc", exec.urn)).toEqual([]);
    // --target-dependents takes in resources no --target names: one of the same claim is this one.
    const dependents = ["pulumi", "destroy", "--target", "urn:site", "--target-dependents"];
    expect(othersIn([top], dependents, "Domain", "abc", "d4")).toEqual([]);
    expect(othersIn([top], dependents, "Domain", "abc", "other")).toEqual([`${URN}d4`]);
  });
});
