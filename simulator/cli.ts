#!/usr/bin/env node
import { parseArgs } from "node:util";
import { type BulkShape, startSimulator } from "./index";

const USAGE = `usage: npm run simulator -- [--port N] [--host H] [--state FILE] [--username U] [--password P] [--pace X] [--rate N/s] [--bulk-domains array|object] [--quiet]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "127.0.0.1" },
      state: { type: "string" },
      username: { type: "string" },
      password: { type: "string" },
      pace: { type: "string" },
      rate: { type: "string" },
      "bulk-domains": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  const pace = values.pace === undefined ? undefined : Number(values.pace);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0 to 65535\n${USAGE}`);
  if (pace !== undefined && !(pace > 0)) throw new Error(`--pace must be a positive number\n${USAGE}`);
  const sim = await startSimulator({
    port,
    host: values.host,
    stateFile: values.state,
    username: values.username,
    password: values.password,
    pace,
    rate: values.rate,
    bulkDomains: values["bulk-domains"] as BulkShape | undefined,
    quiet: values.quiet,
  });
  console.log(`pulumi-wpengine simulator listening on ${sim.url}`);
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
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
