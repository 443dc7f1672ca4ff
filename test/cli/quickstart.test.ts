/**
 * The quickstart (examples/quickstart, the repository root's program) under the real `pulumi` CLI against
 * the simulator, as a user types it: up, a preview that plans nothing, a refreshed preview on a stack
 * nobody touched that finds nothing, drift made through the service's API that a refresh finds exactly
 * (the resources and properties that drifted, nothing else), an up that repairs it, and a destroy that
 * leaves nothing on the service. The password is secret config and appears nowhere in the state.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import { CliProject, REPO, urnName } from "../../tools/cli/project";
import { quickstartLeftovers } from "../../tools/quickstart";
import { demoConfig } from "../support/simulator";

const BASE = "cli.quickstart.example";
const PROJECT = "wpengine-quickstart";

type Resource = Awaited<ReturnType<CliProject["resources"]>>[number];
const byName = (rs: Resource[]) => new Map(rs.map((r) => [urnName(r.urn), r]));

/** Per resource, the output keys whose values differ between two exports. */
function outputChanges(before: Resource[], after: Resource[]): Record<string, string[]> {
  const a = byName(before);
  const changed: Record<string, string[]> = {};
  for (const [name, r] of byName(after)) {
    const old = a.get(name)?.outputs ?? {};
    const keys = [...new Set([...Object.keys(old), ...Object.keys(r.outputs ?? {})])].filter(
      (k) => k !== "__provider" && JSON.stringify(old[k]) !== JSON.stringify(r.outputs?.[k]),
    );
    if (keys.length) changed[name] = keys.sort();
  }
  return changed;
}

describe("the quickstart under the pulumi CLI", { timeout: 15 * 60_000 }, () => {
  let sim: RunningSimulator;
  let project: CliProject;
  let client: WpEngineClient;
  const password = `qs-${Math.random().toString(36).slice(2)}-secret`;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true, password });
    client = new WpEngineClient({
      username: "demo",
      password,
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    project = await CliProject.create({
      from: path.join(REPO, "examples", "quickstart"),
      name: PROJECT,
      config: {
        ...demoConfig(sim),
        accountId: SEED.accounts.acme.id,
        installId: SEED.installs.acmeprod.id,
        siteId: SEED.sites.acmeMarketing.id,
        reportTemplateUuid: SEED.templates.siteReport.uuid,
        baseDomain: BASE,
      },
      secrets: { "wpengine:password": password },
    });
  }, 10 * 60_000);

  afterAll(async () => {
    project?.dispose();
    await sim?.stop();
  });

  it("up, no-op previews, exact drift, repair, destroy", async () => {
    const { outputs } = await project.up();
    expect(outputs["wwwOwnershipStatus"]).toBe("TXT_VERIFICATION_PENDING");
    expect(outputs["productionDomains"]).toEqual([
      expect.objectContaining({ domain: `app.${BASE}`, primary: true, state: "ACTIVE" }),
      expect.objectContaining({ domain: `www.app.${BASE}`, state: "ACTIVE" }),
    ]);
    const created = await project.resources();
    expect(created.map((r) => urnName(r.urn)).sort()).toEqual(
      [
        "apex",
        "cache",
        "editor",
        "frontend",
        "monthly-report",
        "production",
        "production-domains",
        "www",
      ].sort(),
    );

    // Nothing to do, with or without a refresh: no phantom drift from outputs that change by themselves.
    await project.expectNoChanges();
    await project.expectNoChanges(["--refresh"]);
    await project.refresh();
    expect(outputChanges(created, await project.resources())).toEqual({});

    // The state holds the password nowhere, not even encrypted-looking plain text.
    const exported = await project.exportText();
    expect(exported).not.toContain(password);

    // Drift through the service's API.
    const www = created.find((r) => urnName(r.urn) === "www")!;
    await client.domains.update(SEED.installs.acmeprod.id, www.id!, { secure_all_urls: false });
    await client.cacheExclusions.replace(SEED.installs.acmeprod.id, [{ type: "url path", value: "^/cart/" }]);

    // The refreshed preview reports it, naming exactly the drifted resources and properties.
    const found = await project.run(["preview", "--refresh", "--expect-no-changes", "--diff"], {
      allowFail: true,
    });
    expect(found.code).not.toBe(0);
    expect(found.stdout).toMatch(/~ pulumi-nodejs:dynamic\/wpengine:Domain: \(update\)[\s\S]*secureAllUrls/);
    expect(found.stdout).toMatch(
      /~ pulumi-nodejs:dynamic\/wpengine:CacheExclusions: \(update\)[\s\S]*exclusions/,
    );
    await project.refresh();
    const refreshed = await project.resources();
    expect(outputChanges(created, refreshed)).toEqual({ cache: ["exclusions"], www: ["secureAllUrls"] });
    const plan = await project.preview();
    const planned = plan.steps.filter((s) => s.op !== "same").map((s) => [urnName(s.urn), s.op]);
    expect(planned.sort()).toEqual([
      ["cache", "update"],
      ["www", "update"],
    ]);

    // up repairs it; afterwards a refreshed preview finds nothing.
    await project.up();
    expect((await client.domains.get(SEED.installs.acmeprod.id, www.id!)).secure_all_urls).toBe(true);
    await project.expectNoChanges(["--refresh"]);

    // destroy leaves nothing on the service; the cache exclusions' delete says what it did.
    const destroyed = await project.destroy();
    expect(await project.resources()).toEqual([]);
    expect(await quickstartLeftovers(client, BASE)).toEqual([]);
    expect(destroyed.stdout + destroyed.stderr).not.toContain(password);
  });
});
