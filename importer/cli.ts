/**
 * The `pulumi-wpengine` command (`bin/pulumi-wpengine`). Subcommands: `import`, and `report`
 * (fleet/cli.ts); `recover` (recover/) and `simulator` are dispatched by the bin.
 */
import { parseArgs } from "node:util";
import { count, REPORT_USAGE, reportMain } from "../fleet/cli";
import { PROGRAM, reasonOf } from "../sdk/core/process";
import { stacksText } from "./held";
import { importAccount, UsageError } from "./index";
import { COVERED } from "./kinds";

const USAGE = `usage: ${PROGRAM} import --out DIR [options]

Reads every object the credentials can see and writes a Pulumi project into DIR.

  --out DIR            where to write the project (refused when it exists and is not empty)
  --language LANG      typescript (default: the dynamic classes of pulumi-wpengine), python (the
                       SDK pulumi_wpengine, with requirements.txt) or yaml (wpengine:index:*
                       resources, with import.json for pulumi import --file)
  --account ID         only this account, its users and apps with it (repeatable)
  --site ID            only this site, its installs and what they hold (repeatable; in an --account given)
  --install ID         only this install and what it holds (repeatable; in an --account given)
  --kinds K1,K2        only these kinds: ${COVERED.join(", ")}
  --profile NAME       read as this credential profile (repeatable): one program of the accounts of
                       several API users, each resource carrying its profile (TypeScript, Python) or
                       running through the profile's explicit provider (YAML); credentials from
                       WPE_API_USER_ID_<NAME> and WPE_API_PASSWORD_<NAME>, or WPE_PROFILES (JSON)
  --project NAME       the Pulumi project name (default: the name of DIR)
  --package-spec SPEC  how the project installs pulumi-wpengine (an npm spec: ^0.2.0, a tarball,
                       a git URL, a path; default: the way this command was installed); Python:
                       requirements.txt's line for pulumi_wpengine (default: the release's wheel)
  --include-managed    also bring in the objects that stacks of the current Pulumi backend already
                       manage (default: they are left out and named with their stack, read with
                       pulumi stack ls --all and pulumi stack export; adopting them would give them
                       a second owner; when the stacks cannot be read, the import refuses)
  --force              regenerate into DIR when it is not empty: the files this language's import
                       writes are replaced, everything else (Pulumi.<stack>.yaml, .wpengine/,
                       node_modules, yours, another language's: named on stderr) stays

Credentials as the provider takes them: WPE_API_USER_ID and WPE_API_PASSWORD (WPE_API_URL,
WPE_APP_HOSTING_URL), or WPE_SIMULATOR=true for the bundled simulator.

Also: ${PROGRAM} simulator [--port N] [--state FILE] [--latency MS] [--faults RULES]
serves the bundled simulator (${PROGRAM} simulator --help).
And: ${PROGRAM} recover [--stack NAME], after a killed pulumi up, takes back exactly what
that run created (docs/recover.md; ${PROGRAM} recover --help).
`;

export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n${REPORT_USAGE}`);
    return command === undefined ? 2 : 0;
  }
  if (command === "report") return reportMain(rest);
  if (command !== "import") {
    process.stderr.write(`${PROGRAM}: unknown command ${command}\n\n${USAGE}\n${REPORT_USAGE}`);
    return 2;
  }
  let values: ReturnType<typeof parse>;
  try {
    values = parse(rest);
  } catch (err) {
    process.stderr.write(`${PROGRAM} import: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!values.out) {
    process.stderr.write(`${PROGRAM} import: --out DIR is required\n\n${USAGE}`);
    return 2;
  }
  const language = values.language ?? "typescript";
  if (language !== "typescript" && language !== "python" && language !== "yaml") {
    process.stderr.write(`${PROGRAM} import: --language is typescript, python or yaml, not ${language}\n`);
    return 2;
  }
  const tty = process.stderr.isTTY === true;
  const counts = new Map<string, number>();
  let phase = "";
  const progress = (p: string, kind: string, n: number) => {
    if (!tty) return;
    if (p !== phase) {
      if (phase) process.stderr.write("\n");
      phase = p;
      counts.clear();
    }
    counts.set(kind, n);
    process.stderr.write(`\r\x1b[K${p}: ${[...counts].map(([k, c]) => `${k} ${c}`).join(", ")}`);
  };
  try {
    const result = await importAccount({
      out: values.out,
      language,
      ...(values.account ? { accounts: values.account } : {}),
      ...(values.site ? { sites: values.site } : {}),
      ...(values.install ? { installs: values.install } : {}),
      ...(values.kinds
        ? {
            kinds: values.kinds
              .split(",")
              .map((k) => k.trim())
              .filter(Boolean),
          }
        : {}),
      ...(values.project ? { project: values.project } : {}),
      ...(values.profile ? { profiles: values.profile } : {}),
      ...(values["package-spec"] ? { packageSpec: values["package-spec"] } : {}),
      force: values.force === true,
      includeManaged: values["include-managed"] === true,
      progress,
    });
    if (tty && phase) process.stderr.write("\n");
    const byKind = new Map<string, number>();
    for (const r of result.model.resources) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
    process.stdout.write(
      `${PROGRAM} import: ${count(result.model.resources.length, "resource")} (${[...byKind].map(([k, n]) => `${n} ${k}`).join(", ") || "none"}), ` +
        `${result.model.leftOut.length} left out (README.md), ${count(result.calls, "API call")} in ${(result.ms / 1000).toFixed(1)} s, ` +
        `written to ${values.out}\n`,
    );
    for (const h of result.held)
      process.stderr.write(
        `${PROGRAM} import: left out: ${h.label} (${h.kind} of ${h.of}, id ${h.id}), held by ${stacksText(h.stack)}\n`,
      );
    for (const note of result.notes) process.stderr.write(`${PROGRAM} import: note: ${note}\n`);
    return 0;
  } catch (err) {
    if (tty && phase) process.stderr.write("\n");
    process.stderr.write(
      `${PROGRAM} import: ${reasonOf(err)}\n${err instanceof UsageError ? "" : `nothing was written to ${values.out}\n`}`,
    );
    return 1;
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      out: { type: "string" },
      language: { type: "string" },
      account: { type: "string", multiple: true },
      site: { type: "string", multiple: true },
      install: { type: "string", multiple: true },
      kinds: { type: "string" },
      project: { type: "string" },
      profile: { type: "string", multiple: true },
      "package-spec": { type: "string" },
      force: { type: "boolean" },
      "include-managed": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
}
