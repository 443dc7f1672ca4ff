/**
 * The policy pack shipped with the package (`policy-pack/` runs this module):
 *
 *   pulumi preview --policy-pack node_modules/pulumi-wpengine/policy-pack
 *
 * One policy per rule of {@link RULES}, named as there, with its default enforcement level and settings
 * (override either with `--policy-pack-config <file.json>`, see docs/policy.md).
 *
 * - `wpengine-deletion-protection` validates each declared Install and Site (preventative).
 * - `wpengine-backup-before-risky-change` validates the declared stack: a restore or copy into a
 *   production install (declared as production, or production on the live account) needs a Backup of it
 *   that it depends on (directly or through other resources).
 * - the other rules audit the live account(s), read once per run through the importer's discovery, as
 *   every API user the program's resources run as ({@link apiUsersOf}: each profile they name, and the
 *   default credentials), from the environment as `pulumi-wpengine import` reads it (WPE_API_USER_ID /
 *   WPE_API_PASSWORD, WPE_PROFILES / WPE_API_USER_ID_<NAME>, WPE_API_URL, or WPE_SIMULATOR=true): the
 *   engine does not hand a policy pack the stack's configuration.
 */
import {
  type Policies,
  type PolicyConfigSchema,
  PolicyPack,
  type ReportViolation,
  UnknownValueError,
} from "@pulumi/policy";
import { reasonOf } from "../sdk/core/process";
import { apiUsersOf, type ProgramResource, readEstate } from "./read";
import {
  auditFleet,
  checkDeclared,
  configSchemaOf,
  type Declared,
  type Fleet,
  kindOfType,
  RULES,
  type RuleName,
  type RuleSettings,
} from "./rules";

/** The declared rules; every other rule audits the live account. */
const DECLARED: readonly RuleName[] = ["wpengine-deletion-protection", "wpengine-backup-before-risky-change"];

/** The rule names that take credentials to run. */
export const AUDIT_RULES = (Object.keys(RULES) as RuleName[]).filter((r) => !DECLARED.includes(r));

/** The live estate, read once per policy pack process and set of API users. */
const fleets = new Map<string, Promise<Fleet>>();

/** The live estate the program's resources run in: every account their API users see. */
function liveFleet(resources: readonly StackResource[]): Promise<Fleet> {
  const env = process.env;
  const program: ProgramResource[] = resources.map((r) => ({
    type: r.type,
    props: plain(r.props),
    provider: r.provider && { type: r.provider.type, props: plain(r.provider.props) },
  }));
  const users = apiUsersOf(program, env);
  const key = JSON.stringify(users);
  let fleet = fleets.get(key);
  if (!fleet) {
    fleet = (async () => {
      // One line for the user (the policy framework prints an error's stack).
      const fail = (message: string): never => {
        const e = new Error(message);
        e.stack = e.message;
        throw e;
      };
      const rules = `the audit rules (${AUDIT_RULES.join(", ")})`;
      // The engine hands a policy pack no stack config; the way out is to leave the audit out.
      const environment =
        "in the environment of the pulumi command (a policy pack never reads the stack's config, wpengine:profiles included)";
      const wayOut = `or set those rules to "disabled" in --policy-pack-config`;
      if (!users.length)
        fail(
          `${rules} read the live account and found no credentials: set WPE_API_USER_ID and WPE_API_PASSWORD, or each profile the program names in WPE_PROFILES or WPE_API_USER_ID_<NAME> and WPE_API_PASSWORD_<NAME> (or WPE_SIMULATOR=true), ${environment}, ${wayOut}`,
        );
      try {
        return (await readEstate(env, users)).fleet;
      } catch (err) {
        // A profile without credentials, or refused, is named with its variables "in the environment."; an
        // unreachable API, with the URL it used (the API's or App Hosting's), its source and its variable
        // (`unreachableUrl`), "in the environment" too.
        const why = reasonOf(err)
          .replace(/\.$/, "")
          .replace(/ in the environment$/, ` ${environment}`);
        return fail(`${rules} could not read the live account: ${why}, ${wayOut}`);
      }
    })();
    fleets.set(key, fleet);
  }
  return fleet;
}

/** A resource's inputs as plain values; a value not known yet (preview) reads as undefined. */
function plain(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    try {
      out[key] = props[key];
    } catch (e) {
      if (!(e instanceof UnknownValueError)) throw e;
    }
  }
  return out;
}

interface StackResource {
  type: string;
  name: string;
  urn: string;
  props: Record<string, unknown>;
  provider?: { type: string; props: Record<string, unknown> };
  dependencies?: StackResource[];
  propertyDependencies?: Record<string, StackResource[]>;
}

/** The URNs of the resources `r` waits for, directly or through others. */
function dependsOn(r: StackResource, seen = new Set<string>()): string[] {
  for (const d of [...(r.dependencies ?? []), ...Object.values(r.propertyDependencies ?? {}).flat()])
    if (!seen.has(d.urn)) dependsOn(d, seen.add(d.urn));
  return [...seen];
}

function declaredOf(resources: readonly StackResource[]): Declared[] {
  return resources.flatMap((r) => {
    const kind = kindOfType(r.type);
    return kind ? [{ kind, name: r.name, urn: r.urn, props: plain(r.props), dependsOn: dependsOn(r) }] : [];
  });
}

/** The output that holds each kind's own id. */
const ID_KEY: Record<string, string> = { Install: "installId", Site: "siteId", AccountUser: "userId" };

/** The URN of the declared resource an id belongs to (an install's, a site's, a user's), if any. */
function urnsById(declared: readonly Declared[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of declared) {
    const id = ID_KEY[d.kind] && d.props[ID_KEY[d.kind]!];
    if (typeof id === "string" && d.urn) out.set(id.toLowerCase(), d.urn);
  }
  return out;
}

const settingsOf = (config: Record<string, unknown>): Partial<RuleSettings> =>
  Object.fromEntries(
    Object.entries(config).filter(([k]) => k !== "enforcementLevel"),
  ) as Partial<RuleSettings>;

function report(reportViolation: ReportViolation, message: string, urn?: string) {
  if (urn) reportViolation(message, urn);
  else reportViolation(message);
}

export const policies: Policies = (Object.keys(RULES) as RuleName[]).map((rule) => {
  const info = RULES[rule];
  const schema: PolicyConfigSchema | undefined = configSchemaOf(rule);
  const base = {
    name: rule,
    description: info.description,
    enforcementLevel: info.enforcementLevel,
    ...(schema ? { configSchema: schema } : {}),
  };
  if (rule === "wpengine-deletion-protection") {
    return {
      ...base,
      validateResource: (args, reportViolation) => {
        const kind = kindOfType(args.type);
        if (kind !== "Install" && kind !== "Site") return;
        for (const f of checkDeclared([{ kind, name: args.name, props: plain(args.props) }]))
          reportViolation(f.message);
      },
    };
  }
  if (rule === "wpengine-backup-before-risky-change") {
    return {
      ...base,
      validateStack: async (args, reportViolation) => {
        const declared = declaredOf(args.resources as StackResource[]);
        const risky = declared.some((d) => d.kind === "BackupRestore" || d.kind === "InstallCopy");
        if (!risky) return;
        // Which installs are production on the live account, when the pack has credentials to ask.
        let production = new Set<string>();
        try {
          const fleet = await liveFleet(args.resources as StackResource[]);
          production = new Set(fleet.installs.filter((i) => i.environment === "production").map((i) => i.id));
        } catch {
          // Without credentials only the installs the program declares as production count.
        }
        for (const f of checkDeclared(declared, production))
          if (f.rule === rule)
            report(reportViolation, f.message, declared.find((d) => d.name === f.subject.name)?.urn);
      },
    };
  }
  return {
    ...base,
    validateStack: async (args, reportViolation) => {
      const fleet = await liveFleet(args.resources as StackResource[]);
      const urns = urnsById(declaredOf(args.resources as StackResource[]));
      for (const f of auditFleet(fleet, settingsOf(args.getConfig<Record<string, unknown>>())))
        if (f.rule === rule) report(reportViolation, f.message, urns.get(f.subject.id.toLowerCase()));
    },
  };
});

new PolicyPack("wpengine", { policies });
