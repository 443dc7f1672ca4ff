#!/usr/bin/env node
/**
 * `pulumi-wpengine simulator` (and `npm run simulator` in a checkout): serves the bundled simulator from
 * the compiled package, no build, and prints what a program needs to use it. See docs/simulator.md.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { PROGRAM } from "../sdk/core/process";
import type { FaultRule } from "./faults";
import { type BulkShape, type RunningSimulator, SEED, startSimulator } from "./index";

export const USAGE = `usage: ${PROGRAM} simulator [options]

Serves both WP Engine APIs on this machine from the seeded world (docs/simulator.md); Ctrl-C stops it.

  --port N             TCP port (default 8787; 0 takes a free one)
  --host H             interface to listen on (default 127.0.0.1)
  --state FILE         keep the world in FILE, shared live with every process on it (default: in memory)
  --latency MS         every API request waits MS milliseconds before it is served (default 0)
  --faults RULES       injected failures from the start: a JSON file, or the JSON itself, of fault
                       rules as PUT /__sim/faults takes them ({"rules": [...]} or [...])
  --rate N/s           the service's rate limit (20/s, 600/m)
  --pace X             simulated seconds of asynchronous work per real second (default 1)
  --username U         the demo owner's user name (default demo)
  --password P         its password (default demo)
  --bulk-domains S     the bulk domain create's answer: array (default) or object
  --quiet              print the first line only, and no unexpected server errors
`;

/** A usage mistake: one line pointing at --help, exit code 2. */
class UsageError extends Error {}

const OPTIONS = {
  port: { type: "string", default: "8787" },
  host: { type: "string", default: "127.0.0.1" },
  state: { type: "string" },
  latency: { type: "string" },
  faults: { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  pace: { type: "string" },
  rate: { type: "string" },
  "bulk-domains": { type: "string" },
  quiet: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** The fault rules of `--faults`: a file holding JSON, or the JSON itself. */
function faultRules(arg: string): FaultRule[] {
  let text = arg;
  if (!/^\s*[[{]/.test(arg)) {
    try {
      text = readFileSync(arg, "utf8");
    } catch (err) {
      throw new UsageError(`--faults: cannot read ${arg}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--faults: not JSON: ${(err as Error).message}`);
  }
  return (Array.isArray(parsed) ? parsed : (parsed as { rules?: FaultRule[] }).rules) as FaultRule[];
}

/** What a user needs to point a program at the running simulator: URL, credentials, the seeded ids. */
export function banner(sim: RunningSimulator, user: string, password: string, state?: string): string {
  const acme = SEED.accounts.acme;
  const i = SEED.installs;
  const app = SEED.apps.acmeFrontend;
  return `
Credentials: user ${user}, password ${password}. Point a program at it:
  pulumi config set wpengine:apiUrl ${sim.apiUrl}
  pulumi config set wpengine:appHostingUrl ${sim.appHostingUrl}
  pulumi config set wpengine:username ${user}
  pulumi config set --secret wpengine:password ${password}
(or WPE_API_URL, WPE_APP_HOSTING_URL, WPE_API_USER_ID, WPE_API_PASSWORD in the environment)

Seeded ids (the same on every start; the whole world: docs/simulator.md):
  accountId           ${acme.id}  ${acme.name} (owner: ${user})
  siteId              ${SEED.sites.acmeMarketing.id}  ${SEED.sites.acmeMarketing.name}
  installId           ${i.acmeprod.id}  acmeprod (production)
                      ${i.acmestg.id}  acmestg (staging)
                      ${i.acmedev.id}  acmedev (development)
  reportTemplateUuid  ${SEED.templates.siteReport.uuid}  ${SEED.templates.siteReport.name}
  appId               ${app.appId}  on ${acme.name}, environments ${Object.keys(app.environments).join(", ")}

World: ${state ?? "in memory, seeded afresh on every start (--state FILE keeps it)"}. Control API: ${sim.url}/__sim/...
`;
}

/** Parses the arguments and starts the simulator; resolves once it listens (the server keeps running). */
export async function main(argv: string[] = process.argv.slice(2)): Promise<RunningSimulator | null> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; args: string[] }>>["values"];
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return null;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be 0 to 65535");
  const pace = values.pace === undefined ? undefined : Number(values.pace);
  if (pace !== undefined && !(pace > 0)) throw new UsageError("--pace must be a positive number");
  const latencyMs = values.latency === undefined ? undefined : Number(values.latency);
  if (latencyMs !== undefined && !(Number.isInteger(latencyMs) && latencyMs >= 0 && latencyMs <= 600_000))
    throw new UsageError("--latency must be a whole number of milliseconds, 0 to 600000");
  const faults = values.faults === undefined ? undefined : faultRules(values.faults);
  const sim = await startSimulator({
    port,
    host: values.host,
    stateFile: values.state,
    // Live with every other process on the file (the embedded simulators of providers and programs).
    shared: values.state !== undefined,
    username: values.username,
    password: values.password,
    pace,
    rate: values.rate,
    bulkDomains: values["bulk-domains"] as BulkShape | undefined,
    latencyMs,
    quiet: values.quiet,
  });
  try {
    if (faults) sim.setFaults(faults);
  } catch (err) {
    await sim.stop();
    const e = err as Error & { errors?: { field?: string; message?: string }[] };
    throw new UsageError(`--faults: ${e.errors?.map((x) => x.message).join("; ") || e.message}`);
  }
  process.stdout.write(`${PROGRAM} simulator listening on ${sim.url}\n`);
  if (!values.quiet) {
    const user = values.username ?? SEED.users.demo.username;
    process.stdout.write(banner(sim, user, values.password ?? SEED.users.demo.password, values.state));
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sim.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return sim;
}

/** Runs `main` as a command: a usage mistake exits 2, any other failure 1, one line each. */
export function run(argv: string[] = process.argv.slice(2)): void {
  main(argv).catch((err: unknown) => {
    const usage = err instanceof UsageError;
    const inUse = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `${PROGRAM} simulator: ${message}${inUse ? " (another simulator? --port 0 takes a free port)" : ""}${usage ? ` (see ${PROGRAM} simulator --help)` : ""}\n`,
    );
    process.exit(usage ? 2 : 1);
  });
}

if (require.main === module) run();
