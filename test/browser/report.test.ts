/**
 * The fleet picture in a real browser (docs/report.md): `pulumi-wpengine report --out` against the
 * simulator's world that breaks every audit rule, grown to 1,000 more domains (25 sites of two installs
 * of 20 domains each, through the API), opened in headless Chromium. Through the DOM: every install,
 * domain, certificate and user of the world is in its section, and every finding is listed with its
 * object. The page loads nothing from the network. Writes artifacts/fleet.png (the whole page) and
 * artifacts/fleet-metrics.json (how long the browser took, a figure, never asserted).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";
import type { World } from "../../simulator/store";
import { buildFleet } from "../../tools/fleet";
import { breakingWorld, POLICY_IDS, worldFile } from "../fixtures/policy-world";
import { HeadlessPage } from "../support/chromium";

const REPO = resolve(__dirname, "..", "..");
const ARTIFACTS = join(REPO, "artifacts");

let sim: RunningSimulator;
let page: HeadlessPage;
let world: World;
let out = "";
let file = "";

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true, stateFile: worldFile(breakingWorld()) });
  const client = new WpEngineClient({
    username: "demo",
    password: "demo",
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });
  const grown = await buildFleet(client, { sites: 25, domainsPerInstall: 20 });
  expect(grown.domains).toBe(1000);
  world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as World;
  file = join(mkdtempSync(join(tmpdir(), "wpe-report-")), "fleet.html");
  const r = await promisify(execFile)(
    process.execPath,
    [join(REPO, "bin", "pulumi-wpengine"), "report", "--out", file],
    {
      env: {
        ...process.env,
        WPE_API_URL: sim.apiUrl,
        WPE_APP_HOSTING_URL: sim.appHostingUrl,
        WPE_API_USER_ID: "demo",
        WPE_API_PASSWORD: "demo",
      },
    },
  );
  out = r.stdout;
  page = await HeadlessPage.open(1280, 900);
}, 5 * 60_000);

afterAll(async () => {
  await page?.close();
  await sim?.stop();
});

/** The `data-id`s of a section's rows. */
const rowIds = (section: string) =>
  page.evaluate<string[]>(
    `[...document.querySelectorAll('section#${section} tbody tr[data-id]')].map((tr) => tr.dataset.id)`,
  );

describe("the fleet report in headless Chromium", { timeout: 5 * 60_000 }, () => {
  it("holds every install, domain, certificate, user and finding of the world, and loads nothing", async () => {
    expect(out).toMatch(/1007 domains/);
    const requests: string[] = [];
    await page.send("Network.enable");
    const t0 = Date.now();
    await page.goto(`file://${file}`);
    const loadMs = Date.now() - t0;
    const timing = await page.evaluate<{ domContentLoaded: number; load: number }>(
      `(() => { const n = performance.getEntriesByType("navigation")[0]; return { domContentLoaded: Math.round(n.domContentLoadedEventEnd), load: Math.round(n.loadEventEnd) }; })()`,
    );
    const resources = await page.evaluate<string[]>(
      `performance.getEntriesByType("resource").map((r) => r.name)`,
    );
    requests.push(...resources);

    const installs = Object.values(world.installs);
    const domains = Object.values(world.domains);
    expect(installs).toHaveLength(58);
    expect(domains).toHaveLength(1007);
    expect((await rowIds("installs")).sort()).toEqual(installs.map((i) => i.id).sort());
    expect((await rowIds("domains")).sort()).toEqual(domains.map((d) => d.id).sort());
    const cert = `${SEED.installs.acmeblog.id}/${POLICY_IDS.certificate.domain}`;
    expect(await rowIds("certificates")).toEqual([cert]);
    expect((await rowIds("users")).sort()).toEqual(world.account_users.map((u) => u.user_id).sort());
    expect((await rowIds("usage")).sort()).toEqual(Object.keys(world.accounts).sort());
    expect(
      await page.evaluate<number>(`document.querySelectorAll('section#certificates svg circle').length`),
    ).toBe(1);
    for (const section of ["installs", "domains", "users"])
      expect(
        await page.evaluate<number>(`document.querySelectorAll('section#${section} svg rect').length`),
      ).toBeGreaterThan(0);

    // Every finding, by rule, with its object.
    const findings = await page.evaluate<{ rule: string; id: string; text: string }[]>(
      `[...document.querySelectorAll('section#findings tbody tr')].map((tr) => ({ rule: tr.dataset.rule, id: tr.dataset.id, text: tr.textContent }))`,
    );
    const ids = (rule: string) =>
      findings
        .filter((f) => f.rule === rule)
        .map((f) => f.id)
        .sort();
    const { acme, globex, initech } = SEED.accounts;
    const owner = SEED.users.owner.userId;
    expect(ids("wpengine-php-minimum")).toEqual([SEED.installs.acmeprod.id]);
    expect(ids("wpengine-domain-verified")).toEqual([
      SEED.domains.stagingAcmeExample.id,
      SEED.domains.stagingAcmeExample.id,
    ]);
    expect(ids("wpengine-certificate-expiry")).toEqual([cert]);
    expect(ids("wpengine-owner-mfa")).toEqual([owner]);
    expect(ids("wpengine-invitation-accepted")).toEqual([POLICY_IDS.invited.userId]);
    expect(ids("wpengine-partial-user-installs")).toEqual([POLICY_IDS.idlePartial.userId]);
    expect(ids("wpengine-multiple-owners")).toEqual([globex.id, initech.id].sort());
    expect(ids("wpengine-usage-below-plan")).toContain(acme.id);
    expect(findings.find((f) => f.rule === "wpengine-php-minimum")?.text).toContain(
      "acmeprod runs PHP 7.4, below the minimum 8.1",
    );
    // Flagged rows are marked where the object is listed.
    expect(
      await page.evaluate<boolean>(
        `document.querySelector('section#installs tr[data-id="${SEED.installs.acmeprod.id}"]').classList.contains('flag')`,
      ),
    ).toBe(true);

    // Self-contained: nothing but the page itself was fetched.
    expect(requests).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: 1280,
      height: 900,
      deviceScaleFactor: 1,
      mobile: false,
    });
    writeFileSync(join(ARTIFACTS, "fleet.png"), await page.screenshot());
    writeFileSync(
      join(ARTIFACTS, "fleet-metrics.json"),
      `${JSON.stringify({ domains: domains.length, installs: installs.length, findings: findings.length, navigateToLoadMs: loadMs, ...timing }, null, 2)}\n`,
    );
  });
});
