/**
 * `pulumi do ... wpengine:Domain read <installId>/<domainId>` prints the id in the form its list and patch
 * print (the import id), so it can be copied back; an engine's import records the object's own id
 * (ut-agency52 finding 8).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SEED } from "../../simulator";
import { executableRead } from "../support/executable";
import { useSimulator } from "../support/simulator";

const run = vi.hoisted(() => ({ doing: false }));
vi.mock("../../provider/core/journal", async (original) => ({
  ...(await original<typeof import("../../provider/core/journal")>()),
  underPulumiDo: () => run.doing,
}));

const fixture = useSimulator();

afterEach(() => {
  run.doing = false;
});

describe("read by import id", () => {
  const install = SEED.installs.acmeprod.id;
  const domain = SEED.domains.acmeExample.id;

  it("under pulumi do answers the import id it was given, as list and patch print it", async () => {
    run.doing = true;
    const read = await executableRead(fixture, "Domain", `${install}/${domain}`);
    expect(read.id).toBe(`${install}/${domain}`);
    expect(read.props).toMatchObject({ installId: install, name: "acme.example" });
    // A kind whose import id is its own id is unchanged.
    expect((await executableRead(fixture, "Install", install)).id).toBe(install);
  });

  it("in an engine's import (and a refresh) answers the object's own id, which the state records", async () => {
    const read = await executableRead(fixture, "Domain", `${install}/${domain}`);
    expect(read.id).toBe(domain);
    const refreshed = await executableRead(fixture, "Domain", domain, read.props, read.inputs);
    expect(refreshed.id).toBe(domain);
  });
});
