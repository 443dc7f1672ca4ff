/**
 * Command line of the local engine (for the demo on machines without the Pulumi CLI):
 *
 *   node dist/tools/engine/cli.js <up|preview|refresh|destroy|outputs> --dir <programDir>
 *     [--program index.js] [--state <file>] [--stack dev] [--project <name>]
 *     [--config key=value]... [--config-file <json>]
 *
 * Config comes from `--config-file` (a JSON object of `wpengine:*` keys), then each `--config`. The state
 * defaults to `<programDir>/.pulumi-local/<stack>.json`. Prints the steps as they finish and the summary;
 * exits 1 when the operation failed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalEngine } from "./engine";
import { formatStep, formatSummary } from "./format";

const COMMANDS = ["up", "preview", "refresh", "destroy", "outputs"] as const;
type Command = (typeof COMMANDS)[number];

export interface CliArgs {
  command: Command;
  dir: string;
  program: string;
  state?: string;
  stack: string;
  project?: string;
  config: Record<string, string>;
}

const USAGE =
  "usage: cli <up|preview|refresh|destroy|outputs> --dir <programDir> [--program index.js] [--state file] " +
  "[--stack dev] [--project name] [--config key=value]... [--config-file file.json]";

/** Parses the command line (throws with the usage on a mistake). */
export function parseArgs(argv: readonly string[]): CliArgs {
  const [command, ...rest] = argv;
  if (!COMMANDS.includes(command as Command)) throw new Error(USAGE);
  const out: CliArgs = {
    command: command as Command,
    dir: "",
    program: "index.js",
    stack: "dev",
    config: {},
  };
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    const value = rest[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    i++;
    switch (flag) {
      case "--dir":
        out.dir = value;
        break;
      case "--program":
        out.program = value;
        break;
      case "--state":
        out.state = value;
        break;
      case "--stack":
        out.stack = value;
        break;
      case "--project":
        out.project = value;
        break;
      case "--config-file": {
        const parsed = JSON.parse(fs.readFileSync(value, "utf8")) as Record<string, unknown>;
        for (const [k, v] of Object.entries(parsed)) out.config[k] = String(v);
        break;
      }
      case "--config":
      case "-c": {
        const eq = value.indexOf("=");
        if (eq <= 0) throw new Error(`--config takes key=value, not ${JSON.stringify(value)}`);
        out.config[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      default:
        throw new Error(`unknown flag ${flag}\n${USAGE}`);
    }
  }
  if (!out.dir) throw new Error(`--dir is required\n${USAGE}`);
  return out;
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  const stateFile = args.state ?? path.join(args.dir, ".pulumi-local", `${args.stack}.json`);
  const engine = new LocalEngine({
    programDir: args.dir,
    program: args.program,
    stateFile,
    stack: args.stack,
    ...(args.project ? { project: args.project } : {}),
    config: args.config,
    onStep: (step) => console.log(formatStep(step, args.command === "outputs" ? "up" : args.command)),
    onOutput: (line) => console.log(`  | ${line}`),
  });
  if (args.command === "outputs") {
    for (const [k, o] of Object.entries(await engine.outputs())) {
      console.log(`${k}: ${o.secret ? "[secret]" : JSON.stringify(o.value)}`);
    }
    return 0;
  }
  const summary = await engine[args.command]();
  console.log("");
  console.log(formatSummary(summary));
  return summary.ok ? 0 : 1;
}

if (typeof require !== "undefined" && typeof module !== "undefined" && require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 2;
    },
  );
}
