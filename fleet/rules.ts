/**
 * The guardrails, once: what an agency checks on a WP Engine estate, as plain functions of plain data.
 * The policy pack (`fleet/pack.ts`) runs them on what a program declares (preventative) and on the live
 * account (audit); the fleet report (`fleet/report.ts`) lists the audit's findings beside its charts.
 *
 * Two kinds of rule:
 * - declared rules read a program's resources (their inputs, as the engine hands them to a policy pack);
 * - audit rules read a {@link Fleet}: what the service reports about the accounts the credentials see.
 */
import type { EnforcementLevel } from "@pulumi/policy";

/** One rule: its name (the policy pack's policy name), what it checks, its default enforcement. */
export interface RuleInfo {
  name: RuleName;
  description: string;
  /** `mandatory` fails the preview or update; `advisory` only reports. */
  enforcementLevel: "advisory" | "mandatory";
  /** The rule's settings and their defaults (the pack's config schema). */
  settings: Record<string, { type: "number" | "string"; default: number | string; description: string }>;
}

export const RULES = {
  "wpengine-php-minimum": {
    description: "A production install runs at least the minimum PHP version.",
    enforcementLevel: "advisory",
    settings: {
      minimumVersion: {
        type: "string",
        default: "8.1",
        description: "The lowest PHP version a production install may run (major.minor).",
      },
    },
  },
  "wpengine-deletion-protection": {
    description:
      "A production Install, and every Site (it holds its production install), keeps deletionProtection on.",
    enforcementLevel: "mandatory",
    settings: {},
  },
  "wpengine-domain-verified": {
    description:
      "A domain's ownership (TXT) is verified within the grace period, and its SSL status is active.",
    enforcementLevel: "advisory",
    settings: {
      graceDays: {
        type: "number",
        default: 7,
        description:
          "Days a domain may stay unverified or without active SSL. The service dates no domain: the domains of an install younger than this are within it.",
      },
    },
  },
  "wpengine-certificate-expiry": {
    description: "No certificate (third-party or Let's Encrypt) expires within the warning period.",
    enforcementLevel: "advisory",
    settings: {
      warnDays: { type: "number", default: 30, description: "Days before expiry a certificate is reported." },
    },
  },
  "wpengine-owner-mfa": {
    description: "Every owner of an account has MFA enabled.",
    enforcementLevel: "advisory",
    settings: {},
  },
  "wpengine-invitation-accepted": {
    description:
      "Every account user has accepted the invitation (the service dates no invitation: every pending one is reported).",
    enforcementLevel: "advisory",
    settings: {},
  },
  "wpengine-partial-user-installs": {
    description: "A partial user has access to at least one install.",
    enforcementLevel: "advisory",
    settings: {},
  },
  "wpengine-multiple-owners": {
    description: "An account has more than one owner (a single owner is a single point of failure).",
    enforcementLevel: "advisory",
    settings: {},
  },
  "wpengine-usage-below-plan": {
    description: "An account's visits, bandwidth and storage stay below a share of its plan's limits.",
    enforcementLevel: "advisory",
    settings: {
      thresholdPercent: {
        type: "number",
        default: 80,
        description: "The share of a plan limit (percent) above which usage is reported.",
      },
    },
  },
  "wpengine-backup-before-risky-change": {
    description:
      "A BackupRestore or InstallCopy into a production install comes with a Backup of that install in the same program, and depends on it.",
    enforcementLevel: "mandatory",
    settings: {},
  },
} as const satisfies Record<string, Omit<RuleInfo, "name">>;

export type RuleName = keyof typeof RULES;

/** The enforcement levels a policy pack config takes (Pulumi's, as `--policy-pack-config` checks them). */
export const LEVELS = [
  "advisory",
  "mandatory",
  "remediate",
  "disabled",
] as const satisfies readonly EnforcementLevel[];

/** A rule's config schema in the pack (its settings, each with its JSON type), none for a rule without settings. */
export function configSchemaOf(rule: RuleName): { properties: RuleInfo["settings"] } | undefined {
  const settings: RuleInfo["settings"] = RULES[rule].settings;
  return Object.keys(settings).length ? { properties: settings } : undefined;
}

/** The settings every rule is run with (each rule's defaults, unless the caller gives others). */
export type RuleSettings = {
  minimumVersion: string;
  graceDays: number;
  warnDays: number;
  thresholdPercent: number;
};

export const DEFAULT_SETTINGS: RuleSettings = {
  minimumVersion: RULES["wpengine-php-minimum"].settings.minimumVersion.default,
  graceDays: RULES["wpengine-domain-verified"].settings.graceDays.default,
  warnDays: RULES["wpengine-certificate-expiry"].settings.warnDays.default,
  thresholdPercent: RULES["wpengine-usage-below-plan"].settings.thresholdPercent.default,
};

/** What a policy pack config sets: rule settings, and each rule's level. */
export interface PolicyConfig {
  settings: Partial<RuleSettings>;
  levels: Partial<Record<RuleName, EnforcementLevel>>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const levels = `${LEVELS.slice(0, -1).join(", ")} or ${LEVELS.at(-1)}`;

/**
 * The content of a `--policy-pack-config` file, checked as the engine checks it for this pack: an object of
 * rule names (or `all`, whose level applies to every rule), each a level or an object of a level and the
 * rule's settings, each setting of its {@link configSchemaOf} type. A rule or setting the pack does not
 * have is refused too (the engine ignores it: a misspelt name would change nothing). Throws one line
 * naming the rule, the field and what it takes.
 */
export function parsePolicyConfig(raw: unknown): PolicyConfig {
  if (!isObject(raw))
    throw new Error(
      `the file must be a JSON object of rule names, e.g. {"wpengine-php-minimum": {"enforcementLevel": "mandatory", "minimumVersion": "8.2"}} (docs/policy.md), not ${JSON.stringify(raw)}`,
    );
  const settings: Record<string, unknown> = {};
  const given: Partial<Record<RuleName | "all", EnforcementLevel>> = {};
  for (const [rule, value] of Object.entries(raw)) {
    if (rule !== "all" && !(rule in RULES))
      throw new Error(`${rule} is not a rule of the pack (${Object.keys(RULES).join(", ")}, or all)`);
    const properties = rule === "all" ? undefined : configSchemaOf(rule as RuleName)?.properties;
    const names = Object.keys(properties ?? {});
    const takes = names.length ? ` and its settings (${names.join(", ")})` : "";
    const entry = typeof value === "string" ? { enforcementLevel: value } : value;
    if (!isObject(entry))
      throw new Error(
        `${rule} takes a level (${levels}) or an object of a level${takes}, not ${JSON.stringify(value)}`,
      );
    for (const [key, v] of Object.entries(entry)) {
      const field = properties?.[key];
      if (key === "enforcementLevel") {
        if (!LEVELS.includes(v as EnforcementLevel))
          throw new Error(`${rule}: ${JSON.stringify(v)} is not an enforcement level: give ${levels}`);
        given[rule as RuleName] = v as EnforcementLevel;
      } else if (!field)
        throw new Error(
          `${rule}: ${key} is not a setting of ${rule === "all" ? "every rule: all takes a level only" : `the rule (${names.length ? `its settings: ${names.join(", ")}` : "it has none"})`}`,
        );
      else if (typeof v !== field.type)
        throw new Error(
          `${rule}: ${key} takes a ${field.type}, e.g. ${JSON.stringify(field.default)}, not ${JSON.stringify(v)}`,
        );
      else settings[key] = v;
    }
  }
  // `all` first, then each rule's own, as the engine applies them.
  const out: Partial<Record<RuleName, EnforcementLevel>> = {};
  for (const rule of Object.keys(RULES) as RuleName[]) {
    const level = given[rule] ?? given.all;
    if (level) out[rule] = level;
  }
  return { settings: settings as Partial<RuleSettings>, levels: out };
}

/** What a finding is about. */
export interface Subject {
  kind:
    | "Install"
    | "Site"
    | "Domain"
    | "Certificate"
    | "AccountUser"
    | "Account"
    | "BackupRestore"
    | "InstallCopy";
  id: string;
  name: string;
  /** Where it is (the install of a domain, the account of a user), for the reader. */
  where?: string;
}

/** One breach of one rule by one object. */
export interface Finding {
  rule: RuleName;
  subject: Subject;
  message: string;
}

// ---------------------------------------------------------------------------------------------------
// The live estate, as the audit rules read it.

export interface FleetInstall {
  id: string;
  name: string;
  accountId: string;
  siteId: string | null;
  environment: string | null;
  phpVersion: string | null;
  createdAt: string | null;
}

export interface FleetDomain {
  id: string;
  name: string;
  installId: string;
  /** TXT_VERIFIED, TXT_VERIFICATION_PENDING, or null when the service does not say. */
  ownershipStatus: string | null;
  /** The SSL status of `network_details.network_info.ssl` (`active`, `pending`, ...), or null. */
  sslStatus: string | null;
}

export interface FleetCertificate {
  installId: string;
  commonName: string;
  /** THIRD_PARTY, LETS_ENCRYPT, ... */
  source: string;
  status: string | null;
  expiresTime: string | null;
}

export interface FleetUser {
  userId: string;
  accountId: string;
  email: string;
  roles: string;
  mfaEnabled: boolean | null;
  inviteAccepted: boolean | null;
  installIds: string[];
}

/** One metric of an account against its plan: used (in the limit's unit) and the limit, or null. */
export interface PlanMetric {
  metric: "visitors" | "bandwidth" | "storage";
  used: number;
  limit: number | null;
  unit: string;
}

export interface FleetAccount {
  id: string;
  name: string;
  plan: PlanMetric[];
}

/** Usage of one install over the same range (for the report's per-install view). */
export interface InstallUsageLine {
  installName: string;
  accountId: string;
  visits: number;
  bandwidthGb: number;
  storageGb: number;
}

/** What the service reports about the accounts the credentials see. */
export interface Fleet {
  readAt: string;
  accounts: FleetAccount[];
  sites: { id: string; name: string; accountId: string }[];
  installs: FleetInstall[];
  domains: FleetDomain[];
  certificates: FleetCertificate[];
  users: FleetUser[];
  installUsage: InstallUsageLine[];
}

const DAY_MS = 86_400_000;

/** `8.1` → [8, 1]; anything unparseable → undefined. */
export function phpVersionOf(v: string | null | undefined): [number, number] | undefined {
  const m = /^\s*(\d+)(?:\.(\d+))?/.exec(v ?? "");
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : undefined;
}

/** Whether PHP version `v` is below `min` (both major.minor); an unknown version is not judged. */
export function phpBelow(v: string | null | undefined, min: string): boolean {
  const a = phpVersionOf(v);
  const b = phpVersionOf(min);
  if (!a || !b) return false;
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

const isOwner = (roles: string) => roles.split(",").includes("owner");
const isPartial = (roles: string) => roles.split(",").includes("partial");

/**
 * Runs every audit rule on `fleet` at time `now` (ms). Findings come in the order of {@link RULES}, each
 * rule's in the fleet's order.
 */
export function auditFleet(
  fleet: Fleet,
  settings: Partial<RuleSettings> = {},
  now: number = Date.parse(fleet.readAt),
): Finding[] {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  const out: Finding[] = [];
  const installs = new Map(fleet.installs.map((i) => [i.id, i]));
  const accounts = new Map(fleet.accounts.map((a) => [a.id, a]));
  const accountName = (id: string) => accounts.get(id)?.name ?? id;
  const installName = (id: string) => installs.get(id)?.name ?? id;

  for (const i of fleet.installs) {
    if (i.environment === "production" && phpBelow(i.phpVersion, s.minimumVersion)) {
      out.push({
        rule: "wpengine-php-minimum",
        subject: { kind: "Install", id: i.id, name: i.name, where: accountName(i.accountId) },
        message: `production install ${i.name} runs PHP ${i.phpVersion}, below the minimum ${s.minimumVersion}: upgrade it in the User Portal (PHP version)`,
      });
    }
  }

  for (const d of fleet.domains) {
    const where = installName(d.installId);
    const subject: Subject = { kind: "Domain", id: d.id, name: d.name, where };
    const created = Date.parse(installs.get(d.installId)?.createdAt ?? "");
    // The service dates no domain; its install's age bounds the domain's: a domain of an install younger
    // than the grace period is within it (neither its TXT record nor its certificate is due yet).
    if (Number.isFinite(created) && now - created < s.graceDays * DAY_MS) continue;
    if (d.ownershipStatus === "TXT_VERIFICATION_PENDING") {
      out.push({
        rule: "wpengine-domain-verified",
        subject,
        message: `domain ${d.name} on ${where} is not verified (TXT) and may be older than ${s.graceDays} days: publish its TXT record and declare a DomainVerification`,
      });
    }
    if (d.sslStatus !== null && d.sslStatus.toLowerCase() !== "active") {
      out.push({
        rule: "wpengine-domain-verified",
        subject,
        message: `domain ${d.name} on ${where} has SSL ${d.sslStatus}, not active: point its DNS at the install and declare a LetsEncryptCertificate (or renew its certificate)`,
      });
    }
  }

  for (const c of fleet.certificates) {
    const expires = Date.parse(c.expiresTime ?? "");
    if (!Number.isFinite(expires)) continue;
    const days = Math.floor((expires - now) / DAY_MS);
    if (days > s.warnDays) continue;
    const where = installName(c.installId);
    out.push({
      rule: "wpengine-certificate-expiry",
      subject: { kind: "Certificate", id: `${c.installId}/${c.commonName}`, name: c.commonName, where },
      message:
        days < 0
          ? `${sourceName(c.source)} certificate ${c.commonName} on ${where} expired ${-days} days ago (${c.expiresTime}): renew or replace it`
          : `${sourceName(c.source)} certificate ${c.commonName} on ${where} expires in ${days} days (${c.expiresTime}), within ${s.warnDays}: renew or replace it`,
    });
  }

  const owners = new Map<string, FleetUser[]>();
  for (const u of fleet.users) {
    const where = accountName(u.accountId);
    const subject: Subject = { kind: "AccountUser", id: u.userId, name: u.email, where };
    if (isOwner(u.roles)) {
      owners.set(u.accountId, [...(owners.get(u.accountId) ?? []), u]);
      if (u.mfaEnabled === false)
        out.push({
          rule: "wpengine-owner-mfa",
          subject,
          message: `owner ${u.email} of ${where} has no MFA: ask them to enable it in the User Portal`,
        });
    }
    if (u.inviteAccepted === false)
      out.push({
        rule: "wpengine-invitation-accepted",
        subject,
        message: `${u.email} has not accepted the invitation to ${where}: resend it or remove the user`,
      });
    if (isPartial(u.roles) && u.installIds.length === 0)
      out.push({
        rule: "wpengine-partial-user-installs",
        subject,
        message: `partial user ${u.email} of ${where} has no install: give them installs or remove the user`,
      });
  }
  for (const a of fleet.accounts) {
    const n = owners.get(a.id)?.length ?? 0;
    if (n === 1 && fleet.users.some((u) => u.accountId === a.id))
      out.push({
        rule: "wpengine-multiple-owners",
        subject: { kind: "Account", id: a.id, name: a.name },
        message: `account ${a.name} has a single owner (${owners.get(a.id)![0]!.email}): add a second`,
      });
  }

  for (const a of fleet.accounts) {
    for (const m of a.plan) {
      if (m.limit === null || m.limit <= 0) continue;
      const pct = (m.used / m.limit) * 100;
      if (pct > s.thresholdPercent)
        out.push({
          rule: "wpengine-usage-below-plan",
          subject: { kind: "Account", id: a.id, name: a.name },
          message: `account ${a.name} used ${pct.toFixed(0)}% of its ${m.metric} limit (${round(m.used)} of ${m.limit} ${m.unit}), above ${s.thresholdPercent}%: move to a larger plan or reduce the use`,
        });
    }
  }

  const order = Object.keys(RULES);
  return out.sort((x, y) => order.indexOf(x.rule) - order.indexOf(y.rule));
}

function sourceName(source: string): string {
  if (source === "LETS_ENCRYPT") return "Let's Encrypt";
  if (source === "THIRD_PARTY") return "third-party";
  return source.toLowerCase();
}

function round(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}

// ---------------------------------------------------------------------------------------------------
// What a program declares, as the preventative rules read it.

/** A declared resource: its kind (`Install`, ...), its name in the program, its inputs, its id if known. */
export interface Declared {
  kind: string;
  name: string;
  urn?: string;
  props: Record<string, unknown>;
  /** The URNs of the resources it waits for, directly or through others (none when not given). */
  dependsOn?: readonly string[];
}

/**
 * The kind of a resource type token: `pulumi-nodejs:dynamic/wpengine:Install` (the dynamic classes) and
 * `wpengine:index:Install` (the executable provider) are both `Install`; any other type is undefined.
 */
export function kindOfType(type: string): string | undefined {
  const m = /^(?:pulumi-nodejs:dynamic\/wpengine|wpengine:index):([A-Za-z]+)$/.exec(type);
  return m?.[1];
}

/** A string input, or undefined when it is absent (or not known yet: the pack passes unknowns as undefined). */
function known(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/**
 * Runs the preventative rules on what a program declares. `productionInstalls` are the ids of installs
 * known to be production (from the live account), beside those the program declares as production.
 */
export function checkDeclared(
  resources: readonly Declared[],
  productionInstalls: ReadonlySet<string> = new Set(),
): Finding[] {
  const out: Finding[] = [];
  const production = new Set(productionInstalls);
  for (const r of resources) {
    if (r.kind !== "Install") continue;
    const env = typeof r.props["environment"] === "string" ? r.props["environment"].toLowerCase() : undefined;
    const id = known(r.props["installId"]);
    if (env === "production" && id) production.add(id);
  }
  const backups = resources.filter((r) => r.kind === "Backup");

  for (const r of resources) {
    const unprotected = r.props["deletionProtection"] === false;
    if (r.kind === "Install" && unprotected) {
      const env = String(r.props["environment"] ?? "").toLowerCase();
      if (env === "production")
        out.push({
          rule: "wpengine-deletion-protection",
          subject: {
            kind: "Install",
            id: known(r.props["installId"]) ?? r.name,
            name: String(r.props["name"] ?? r.name),
          },
          message: `production install ${String(r.props["name"] ?? r.name)} has deletionProtection false: a destroy or replacement would delete the website; keep it true`,
        });
    }
    if (r.kind === "Site" && unprotected)
      out.push({
        rule: "wpengine-deletion-protection",
        subject: {
          kind: "Site",
          id: known(r.props["siteId"]) ?? r.name,
          name: String(r.props["name"] ?? r.name),
        },
        message: `site ${String(r.props["name"] ?? r.name)} has deletionProtection false: deleting a site deletes its installs, production included; keep it true`,
      });
    if (r.kind === "BackupRestore" || r.kind === "InstallCopy") {
      const target = known(
        r.kind === "BackupRestore" ? r.props["installId"] : r.props["destinationEnvironmentId"],
      );
      if (!target || !production.has(target)) continue;
      const what = r.kind === "BackupRestore" ? "restores a backup over" : "copies over";
      const subject: Subject = { kind: r.kind, id: target, name: r.name };
      const ofTarget = backups.filter((b) => known(b.props["installId"]) === target);
      if (!ofTarget.length)
        out.push({
          rule: "wpengine-backup-before-risky-change",
          subject,
          message: `${r.kind} ${r.name} ${what} production install ${target} and the program declares no Backup of it: add new wpengine.Backup(..., { installId: "${target}", ... }) and make the change depend on it`,
        });
      // Without a dependency the engine runs both at once: the backup may be taken after the change.
      else if (!ofTarget.some((b) => b.urn && r.dependsOn?.includes(b.urn)))
        out.push({
          rule: "wpengine-backup-before-risky-change",
          subject,
          message: `${r.kind} ${r.name} ${what} production install ${target} and does not depend on Backup ${ofTarget.map((b) => b.name).join(" or ")} of it, so both run at once and the backup may be taken after the ${r.kind === "BackupRestore" ? "restore" : "copy"}: make the change depend on it (add dependsOn: [backup] to the options of ${r.name})`,
        });
    }
  }
  return out;
}
