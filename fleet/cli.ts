/**
 * `pulumi-wpengine report --out fleet.html`: reads the estate the credentials see (read only) and writes
 * the fleet picture (fleet/report.ts) with the audit's findings (docs/report.md).
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PROGRAM, reasonOf } from "../sdk/core/process";
import { readEstate } from "./read";
import { renderReport } from "./report";
import { auditFleet, type PolicyConfig, parsePolicyConfig } from "./rules";

export const REPORT_USAGE = `usage: ${PROGRAM} report --out FILE [options]

Reads every account the credentials can see (read only) and writes one self-contained HTML page:
installs by PHP version and environment, domains by verification and SSL, certificate expiry,
usage against plan, users by role with MFA and invitation, and every finding of the policy rules.

  --out FILE             the page to write, e.g. fleet.html (required; its directory must exist)
  --account ID           only this account (repeatable)
  --profile NAME         read as this credential profile (repeatable): the accounts of several API users
                         on one page, their union (WPE_API_USER_ID_<NAME> / WPE_API_PASSWORD_<NAME>,
                         or WPE_PROFILES='{"<name>": {"username": ..., "password": ...}}')
  --policy-config FILE   the policy pack's config file (--policy-pack-config): rule settings and
                         levels ("disabled" leaves a rule out of the findings)

Credentials as the provider takes them: WPE_API_USER_ID and WPE_API_PASSWORD (WPE_API_URL,
WPE_APP_HOSTING_URL), or WPE_SIMULATOR=true for the bundled simulator.
`;

/** `n` and the noun, plural unless one. */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Rule settings and levels from a policy pack config file, refused where `--policy-pack-config` refuses it. */
export function readPolicyConfig(file: string | undefined): PolicyConfig {
  if (!file) return { settings: {}, levels: {} };
  const what =
    "the policy pack's config file (the JSON of pulumi preview --policy-pack-config: rule settings and levels, docs/policy.md)";
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new Error(`${resolve(file)} does not exist: give ${what}`);
    if (code === "EISDIR") throw new Error(`${resolve(file)} is a directory, not ${what}`);
    throw new Error(`${file} cannot be read: ${(err as Error).message}`);
  }
  // The engine takes an empty file as no config.
  if (!text.trim()) return { settings: {}, levels: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not JSON: ${(err as Error).message}`);
  }
  try {
    return parsePolicyConfig(raw);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

/** Why no page can be written at `out` (a directory, or in a directory that is missing or is a file), if so. */
function whyUnwritable(out: string): string | undefined {
  // A path through a file (ENOTDIR) reads as missing: the walk up below finds the file.
  const stat = (path: string) => {
    try {
      return statSync(path, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  };
  if (stat(out)?.isDirectory())
    return ` is a directory: name the page's file, e.g. ${join(out, "fleet.html")}`;
  const dir = dirname(resolve(out));
  let found = dir;
  while (!stat(found)) found = dirname(found);
  if (!stat(found)?.isDirectory())
    return `: ${found} is a file, not a directory: write the page in a directory, e.g. ${join(dirname(found), basename(out))}`;
  if (found !== dir) return `: the directory ${dir} does not exist: create it, or write the page elsewhere`;
  return undefined;
}

export async function reportMain(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: {
    out?: string;
    account?: string[];
    profile?: string[];
    "policy-config"?: string;
    help?: boolean;
  };
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: "string" },
        account: { type: "string", multiple: true },
        profile: { type: "string", multiple: true },
        "policy-config": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (err) {
    process.stderr.write(`${PROGRAM} report: ${(err as Error).message}\n\n${REPORT_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(REPORT_USAGE);
    return 0;
  }
  if (!values.out) {
    process.stderr.write(`${PROGRAM} report: --out FILE is required\n\n${REPORT_USAGE}`);
    return 2;
  }
  // Checked before the estate is read: a page that cannot be written is known now.
  const unwritable = whyUnwritable(values.out);
  if (unwritable) {
    process.stderr.write(`${PROGRAM} report: --out ${values.out}${unwritable}\n`);
    return 2;
  }
  let config: ReturnType<typeof readPolicyConfig>;
  try {
    config = readPolicyConfig(values["policy-config"]);
  } catch (err) {
    process.stderr.write(`${PROGRAM} report: --policy-config: ${(err as Error).message}\n`);
    return 2;
  }
  const t0 = Date.now();
  const selection = values.account ? { accounts: values.account } : {};
  // The default credentials, or each profile's API user in turn: one page of what they all see.
  const sources = values.profile?.length ? [...new Set(values.profile)] : [undefined];
  let read: Awaited<ReturnType<typeof readEstate>>;
  try {
    read = await readEstate(env, sources, selection);
  } catch (err) {
    process.stderr.write(`${PROGRAM} report: ${reasonOf(err)}\nnothing was written to ${values.out}\n`);
    return 1;
  }
  const { fleet, calls } = read;
  const findings = auditFleet(fleet, config.settings).filter((f) => config.levels[f.rule] !== "disabled");
  const html = renderReport(fleet, findings, {
    ...config.settings,
    levels: config.levels,
  });
  try {
    writeFileSync(values.out, html);
  } catch (err) {
    process.stderr.write(`${PROGRAM} report: could not write ${values.out}: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(
    `${PROGRAM} report: ${[
      count(fleet.accounts.length, "account"),
      count(fleet.installs.length, "install"),
      count(fleet.domains.length, "domain"),
      count(fleet.certificates.length, "certificate"),
      count(fleet.users.length, "user"),
      count(findings.length, "finding"),
    ].join(
      ", ",
    )}; ${count(calls, "API call")} in ${((Date.now() - t0) / 1000).toFixed(1)} s; written to ${values.out}\n`,
  );
  return 0;
}
