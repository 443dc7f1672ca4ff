/**
 * The fleet read (fleet/read.ts) and the audit rules (fleet/rules.ts) against the simulator: the world
 * that breaks every audit rule gives one finding per broken object and rule; the clean world none.
 */
import { afterEach, describe, expect, it } from "vitest";
import { readFleet } from "../../fleet/read";
import { auditFleet } from "../../fleet/rules";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { breakingWorld, cleanWorld, POLICY_IDS, worldFile } from "../fixtures/policy-world";

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function fleetOf(world: ReturnType<typeof cleanWorld>) {
  sim = await startSimulator({ port: 0, quiet: true, stateFile: worldFile(world) });
  const client = new WpEngineClient({
    username: "demo",
    password: "demo",
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });
  const writesBefore = sim.requests().filter((r) => r.method !== "GET").length;
  const fleet = await readFleet(client);
  expect(sim.requests().filter((r) => r.method !== "GET").length).toBe(writesBefore);
  return fleet;
}

describe("the audit of a live account", { timeout: 60_000 }, () => {
  it("reports each broken object under its rule, read only", async () => {
    const fleet = await fleetOf(breakingWorld());
    expect(fleet.installs.map((i) => i.name)).toContain("acmeprod");
    expect(fleet.domains).toHaveLength(Object.keys(SEED.domains).length);
    const findings = auditFleet(fleet);
    const by = (rule: string) =>
      findings
        .filter((f) => f.rule === rule)
        .map((f) => f.subject.name)
        .sort();
    expect(by("wpengine-php-minimum")).toEqual(["acmeprod"]);
    expect(by("wpengine-domain-verified")).toEqual([
      SEED.domains.stagingAcmeExample.name,
      SEED.domains.stagingAcmeExample.name,
    ]);
    expect(by("wpengine-certificate-expiry")).toEqual([POLICY_IDS.certificate.domain]);
    expect(by("wpengine-owner-mfa")).toEqual(["owner@acme.example"]);
    expect(by("wpengine-invitation-accepted")).toEqual([POLICY_IDS.invited.email]);
    expect(by("wpengine-partial-user-installs")).toEqual([POLICY_IDS.idlePartial.email]);
    expect(by("wpengine-multiple-owners")).toEqual(["Globex Inc", "Initech"]);
    expect(by("wpengine-usage-below-plan")).toContain("Acme Corp");
    for (const f of findings) expect(f.message).toContain(f.subject.name);
  });

  it("reports nothing on an account that meets every rule", async () => {
    const fleet = await fleetOf(cleanWorld());
    expect(fleet.installs.map((i) => i.name)).toEqual(["acmeprod"]);
    expect(auditFleet(fleet)).toEqual([]);
  });
});
