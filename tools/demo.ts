/**
 * `npm run demo`: the quickstart program (examples/quickstart, the root Pulumi.yaml) applied by the real
 * `pulumi` CLI to the bundled simulator, start to finish, showing the CLI's own output: up, a preview that
 * changes nothing, a refreshed preview that finds nothing, a change made behind Pulumi's back, the
 * refreshed preview that finds it, the up that repairs it, and destroy. A local file backend, a throwaway
 * passphrase and a temporary PULUMI_HOME: no account, nothing left behind. `npm run demo` runs it with
 * the toolchain of tools/pulumi (the CLI and a Node.js that Pulumi supports). Exits non-zero when any
 * step does not do what it says.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { WpEngineClient } from "../sdk";
import { SEED, startSimulator } from "../simulator";
import { driftLines } from "./cli/drift";
import { quickstartLeftovers } from "./quickstart";

const ROOT = path.resolve(__dirname, "..", "..");
const PROJECT = "wpengine-quickstart";
const STACK = "demo";

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

/** The pulumi CLI at the repository root, as a user runs it, on a throwaway local backend. */
async function withCli(
  sim: { apiUrl: string; appHostingUrl: string },
  client: WpEngineClient,
): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "wpengine-demo-"));
  fs.mkdirSync(path.join(work, "backend"));
  fs.mkdirSync(path.join(work, "home"));
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
    PULUMI_HOME: path.join(work, "home"),
    PULUMI_CONFIG_PASSPHRASE: "demo-throwaway-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  // Asynchronous: the simulator answers from this very process, so its event loop must keep running.
  // The CLI's output is shown as it comes and kept, so a step can check what the user saw.
  let seen = "";
  const run = (args: string[]): Promise<number> =>
    new Promise((resolve, reject) => {
      seen = "";
      const child = spawn("pulumi", args, { cwd: ROOT, env, stdio: ["inherit", "pipe", "inherit"] });
      child.stdout.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        process.stdout.write(chunk);
      });
      child.on("error", (e) =>
        reject(new DemoFailure(`pulumi could not start: ${e.message} (run npm run demo)`)),
      );
      child.on("close", (code) => resolve(code ?? 1));
    });
  const pulumi = async (args: string[], allowFail = false): Promise<number> => {
    console.log(`$ pulumi ${args.join(" ")}`);
    const code = await run([...args, "--stack", STACK, "--non-interactive"]);
    if (code !== 0 && !allowFail) throw new DemoFailure(`pulumi ${args[0]} exited ${code}`);
    return code;
  };
  /**
   * A refreshed preview that must find nothing. `--expect-no-changes` alone cannot see a refresh's own
   * diff (outputs read back unlike those stored are not a planned change), so the output is scanned too.
   */
  const expectNoDrift = async (what: string): Promise<void> => {
    await pulumi(["preview", "--refresh", "--expect-no-changes"]);
    const drift = driftLines(seen);
    expectThat(drift.length === 0, `${what}${drift.length ? `; yet it shows:\n${drift.join("\n")}` : ""}`);
  };
  try {
    heading("setup: a stack on a local file backend, its config pointing at the simulator");
    await run(["stack", "init", STACK, "--non-interactive"]);
    const config = stackConfig(sim);
    const { "wpengine:password": password, ...plain } = config;
    await pulumi([
      "config",
      "set-all",
      ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      "--secret",
      `wpengine:password=${password}`,
    ]);

    heading("pulumi up: creates the quickstart's resources");
    lookAt(
      "each resource created, then the stack outputs (the www TXT record to publish, the app's domains)",
    );
    await pulumi(["up", "--yes"]);

    heading("a second preview: nothing to do");
    lookAt('"unchanged" for every resource; --expect-no-changes would fail otherwise');
    await pulumi(["preview", "--expect-no-changes"]);
    heading("a refreshed preview of a stack nobody touched: nothing found");
    lookAt("every resource read back from the service, and still no change");
    await expectNoDrift("a refreshed preview of an untouched stack shows no diff and no update");

    heading("a change behind Pulumi's back, through the service's API");
    console.log(`  ${await makeDrift(client)}`);

    heading("the refreshed preview finds it");
    lookAt("Domain www (secureAllUrls) and CacheExclusions cache (exclusions): exactly what changed");
    const found = await pulumi(["preview", "--refresh", "--diff", "--expect-no-changes"], true);
    expectThat(found !== 0, "preview --refresh reports the drift");

    heading("pulumi up --refresh repairs it");
    lookAt("two updates, back to what the program declares");
    await pulumi(["up", "--refresh", "--yes", "--skip-preview"]);
    await expectNoDrift("after the repair a refreshed preview shows no diff and no update");

    heading("pulumi destroy");
    lookAt("each resource deleted; what the service cannot delete says so in a wpengine: line");
    await pulumi(["destroy", "--yes", "--skip-preview"]);
    await run(["stack", "rm", STACK, "--yes", "--non-interactive"]);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(path.join(ROOT, `Pulumi.${STACK}.yaml`), { force: true });
  }
}

/** What to look at in the output that follows. */
function lookAt(text: string): void {
  console.log(`  look at: ${text}`);
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
    await withCli(sim, client);
    const left = await quickstartLeftovers(client, "quickstart.example");
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
