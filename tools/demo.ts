/**
 * `npm run demo`: the quickstart program (examples/quickstart, the root Pulumi.yaml) applied to the
 * bundled simulator, start to finish: up, a second preview that changes nothing, a change made behind
 * Pulumi's back, the refresh that finds it, the up that repairs it, and destroy. With the `pulumi`
 * CLI on PATH it uses the CLI (a local file backend, a throwaway passphrase, no account); otherwise the
 * project's local engine, which drives the same real dynamic-provider plugin. Exits non-zero when any
 * step does not do what it says.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { WpEngineClient } from "../sdk";
import { SEED, startSimulator } from "../simulator";
import { type EngineSummary, formatSummary, LocalEngine } from "./engine";

const ROOT = path.resolve(__dirname, "..", "..");
const PROJECT = "wpengine-quickstart";

class DemoFailure extends Error {}

function expectThat(ok: boolean, what: string): void {
  if (!ok) throw new DemoFailure(what);
  console.log(`  ok: ${what}`);
}

function heading(text: string): void {
  console.log(`\n=== ${text}`);
}

/** The quickstart's stack config against the simulator at `sim`. */
function stackConfig(sim: { apiUrl: string; appHostingUrl: string }): Record<string, string> {
  return {
    "wpengine:apiUrl": sim.apiUrl,
    "wpengine:appHostingUrl": sim.appHostingUrl,
    "wpengine:username": SEED.users.demo.username,
    "wpengine:password": SEED.users.demo.password,
    [`${PROJECT}:accountId`]: SEED.accounts.acme.id,
    [`${PROJECT}:installId`]: SEED.installs.acmeprod.id,
    [`${PROJECT}:siteId`]: SEED.sites.acmeMarketing.id,
    [`${PROJECT}:reportTemplateUuid`]: SEED.templates.siteReport.uuid,
    [`${PROJECT}:baseDomain`]: "quickstart.example",
  };
}

/** A change made behind Pulumi's back, through the API, that a refresh must find. */
async function makeDrift(client: WpEngineClient): Promise<string> {
  const installId = SEED.installs.acmeprod.id;
  for await (const d of client.domains.iterate(installId)) {
    if (d.name === "www.quickstart.example") {
      await client.domains.update(installId, d.id, { secure_all_urls: false });
    }
  }
  await client.cacheExclusions.replace(installId, [{ type: "url path", value: "^/cart/" }]);
  return "www.quickstart.example: secureAllUrls turned off; cache exclusions cut to one";
}

/** What the quickstart leaves on the service, to prove destroy removed it. */
async function leftovers(client: WpEngineClient): Promise<string[]> {
  const left: string[] = [];
  for await (const d of client.domains.iterate(SEED.installs.acmeprod.id)) {
    if (d.name.endsWith("quickstart.example")) left.push(`domain ${d.name}`);
  }
  for (const u of await client.accountUsers.list(SEED.accounts.acme.id)) {
    if (u.email === "editor@quickstart.example") left.push(`account user ${u.email}`);
  }
  for (const s of await client.reportSchedules.list(SEED.sites.acmeMarketing.id)) {
    if (s.title === "Quickstart monthly report") left.push(`report schedule ${s.title}`);
  }
  for await (const a of client.apps.iterate(SEED.accounts.acme.id)) {
    if (String(a.name).endsWith("/quickstart-frontend")) left.push(`app ${a.name}`);
  }
  const writable = (await client.cacheExclusions.get(SEED.installs.acmeprod.id)).filter(
    (e) => e.type !== "cookie",
  );
  if (writable.length) left.push(`${writable.length} cache exclusions`);
  return left;
}

function onPath(cmd: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

/** The local-engine path: the quickstart compiled in place, run through the real plugin. */
async function withLocalEngine(sim: { apiUrl: string; appHostingUrl: string }, client: WpEngineClient) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "wpengine-demo-"));
  const programDir = ROOT;
  const program = path.relative(ROOT, path.join(__dirname, "..", "examples", "quickstart", "index.js"));
  const engine = new LocalEngine({
    programDir,
    program,
    stateFile: path.join(work, "state.json"),
    config: stackConfig(sim),
    project: PROJECT,
    stack: "demo",
    passphrase: "demo-throwaway-passphrase",
  });
  const show = (s: EngineSummary) => {
    console.log(formatSummary(s));
    if (!s.ok) throw new DemoFailure(`${s.kind} failed: ${s.errors.join("; ")}`);
    return s;
  };
  try {
    heading("pulumi up (local engine)");
    const up = show(await engine.up());
    expectThat(up.changes.create >= 8, `up created ${up.changes.create} resources`);

    heading("second preview: nothing to do");
    const again = show(await engine.preview());
    const pending = again.steps.filter((s) => s.op !== "same");
    expectThat(pending.length === 0, "a second preview changes nothing");

    heading("a change behind Pulumi's back");
    console.log(`  ${await makeDrift(client)}`);

    heading("refresh finds the drift");
    const refresh = show(await engine.refresh());
    const drifted = refresh.steps
      .filter((s) => s.op !== "same")
      .map((s) => `${s.name} (${s.changedKeys.join(", ")})`);
    expectThat(drifted.length >= 2, `refresh found drift in ${drifted.join("; ")}`);

    heading("up repairs it");
    const repair = show(await engine.up());
    expectThat(repair.changes.update >= 2, `up updated ${repair.changes.update} resources back`);
    const after = show(await engine.preview());
    expectThat(
      after.steps.every((s) => s.op === "same"),
      "after the repair a preview changes nothing",
    );

    heading("destroy");
    const destroy = show(await engine.destroy());
    expectThat(
      destroy.changes.delete === up.changes.create,
      `destroy deleted ${destroy.changes.delete} resources`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The CLI path: what a user runs, on a local file backend with a throwaway passphrase. */
function withCli(sim: { apiUrl: string; appHostingUrl: string }, client: WpEngineClient): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "wpengine-demo-cli-"));
  const configFile = path.join(work, "Pulumi.demo.yaml");
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${work}`,
    PULUMI_CONFIG_PASSPHRASE: "demo-throwaway-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const pulumi = (args: string[], allowFail = false): number => {
    console.log(`$ pulumi ${args.join(" ")}`);
    const r = spawnSync(
      "pulumi",
      [...args, "--stack", "demo", "--config-file", configFile, "--non-interactive"],
      {
        cwd: ROOT,
        env,
        stdio: "inherit",
      },
    );
    if (r.status !== 0 && !allowFail) throw new DemoFailure(`pulumi ${args[0]} exited ${r.status}`);
    return r.status ?? 1;
  };
  return (async () => {
    try {
      spawnSync("pulumi", ["stack", "init", "demo", "--non-interactive"], {
        cwd: ROOT,
        env,
        stdio: "inherit",
      });
      for (const [key, value] of Object.entries(stackConfig(sim))) {
        const secret = key.endsWith(":password") ? ["--secret"] : [];
        pulumi(["config", "set", ...secret, key, value]);
      }
      heading("pulumi up");
      pulumi(["up", "--yes", "--skip-preview"]);
      heading("second preview: nothing to do");
      pulumi(["preview", "--expect-no-changes"]);
      expectThat(true, "a second preview changes nothing");
      heading("a change behind Pulumi's back");
      console.log(`  ${await makeDrift(client)}`);
      heading("refresh finds the drift");
      const found = pulumi(["preview", "--refresh", "--expect-no-changes"], true);
      expectThat(found !== 0, "preview --refresh reports the drift");
      heading("up repairs it");
      pulumi(["up", "--refresh", "--yes", "--skip-preview"]);
      pulumi(["preview", "--refresh", "--expect-no-changes"]);
      expectThat(true, "after the repair a refreshed preview changes nothing");
      heading("destroy");
      pulumi(["destroy", "--yes", "--skip-preview"]);
      spawnSync("pulumi", ["stack", "rm", "demo", "--yes", "--non-interactive"], {
        cwd: ROOT,
        env,
        stdio: "inherit",
      });
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  })();
}

async function main(): Promise<void> {
  const sim = await startSimulator({ port: 0, quiet: true });
  console.log(`simulator: ${sim.url} (user demo / password demo)`);
  const client = new WpEngineClient({
    username: SEED.users.demo.username,
    password: SEED.users.demo.password,
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });
  try {
    const useCli = onPath("pulumi") && process.env["WPE_DEMO_ENGINE"] !== "local";
    console.log(useCli ? "engine: the pulumi CLI" : "engine: the local engine (no pulumi CLI on PATH)");
    if (useCli) await withCli(sim, client);
    else await withLocalEngine(sim, client);
    const left = await leftovers(client);
    expectThat(left.length === 0, `nothing left on the service${left.length ? `: ${left.join(", ")}` : ""}`);
    console.log("\ndemo complete: every step did what it said");
  } finally {
    await sim.stop();
  }
}

main().catch((err) => {
  console.error(`\ndemo FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
