import { ApiError, forbidden, notFound } from "./errors";
import type { AccountRecord, InstallRecord, SiteRecord, World } from "./store";

/** The authenticated API user of a request. */
export interface Caller {
  userId: string;
  username: string;
}

/** Basic credentials of one API user. */
export interface Credential {
  userId: string;
  password: string;
}

/** Parses `Authorization: Basic ...` against the known users; 401 (spec section 5) otherwise. */
export function authenticate(header: string | undefined, users: Map<string, Credential>): Caller {
  const unauthorized = new ApiError(401, "Bad Credentials", undefined, {
    "www-authenticate": 'Basic realm="wpengine-simulator"',
  });
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match) throw unauthorized;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw unauthorized;
  const username = decoded.slice(0, colon);
  const credential = users.get(username);
  if (!credential || credential.password !== decoded.slice(colon + 1)) throw unauthorized;
  return { userId: credential.userId, username };
}

/** The valid role sets of spec section 5, canonical form (sorted, comma-joined). */
const VALID_ROLES = new Set(["owner", "full", "billing,full", "partial", "billing,partial"]);

/** Canonical form of a roles string (`"full,billing"`, `"billing, full"` → `"billing,full"`), or null if invalid. */
export function canonicalRoles(input: string): string | null {
  const parts = input
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== "");
  const canonical = [...new Set(parts)].sort().join(",");
  return VALID_ROLES.has(canonical) ? canonical : null;
}

/** The roles string as the real service shows it: `"billing, partial"`. */
export function displayRoles(canonical: string): string {
  return canonical.split(",").join(", ");
}

/** What an operation needs of the caller on an account. */
export type Need = "any" | "admin" | "billing";

/** The caller's role set on an account, or null when the caller has none. */
export function rolesOn(world: World, userId: string, accountId: string): Set<string> | null {
  const member = world.account_users.find((u) => u.user_id === userId && u.account_id === accountId);
  return member ? new Set(member.roles.split(",")) : null;
}

/** Whether a role set satisfies a need: admin = owner or full; billing = owner or full with billing. */
export function satisfies(roles: Set<string> | null, need: Need): boolean {
  if (!roles) return false;
  if (need === "any") return true;
  if (roles.has("owner")) return true;
  if (need === "admin") return roles.has("full");
  return roles.has("full") && roles.has("billing");
}

/** Whether the caller may read and change an install: admins of its account, or partial users holding it. */
export function canTouchInstall(world: World, caller: Caller, install: InstallRecord): boolean {
  const roles = rolesOn(world, caller.userId, install.account_id);
  if (satisfies(roles, "admin")) return true;
  if (!roles?.has("partial")) return false;
  const member = world.account_users.find(
    (u) => u.user_id === caller.userId && u.account_id === install.account_id,
  );
  return member?.install_ids.includes(install.id) ?? false;
}

/** Whether the caller sees a site: admins of its account, or partial users holding one of its installs. */
export function canSeeSite(world: World, caller: Caller, site: SiteRecord): boolean {
  if (satisfies(rolesOn(world, caller.userId, site.account_id), "admin")) return true;
  return Object.values(world.installs).some(
    (i) => i.site_id === site.id && canTouchInstall(world, caller, i),
  );
}

/** Looks up an account the caller needs a role on: 404 unknown, 403 without the role. */
export function requireAccount(world: World, caller: Caller, accountId: string, need: Need): AccountRecord {
  const account = world.accounts[accountId];
  if (!account) throw notFound("Account");
  if (!satisfies(rolesOn(world, caller.userId, accountId), need)) throw forbidden();
  return account;
}

/** Looks up an install the caller may touch: 404 unknown, 403 otherwise. */
export function requireInstall(world: World, caller: Caller, installId: string): InstallRecord {
  const install = world.installs[installId];
  if (!install) throw notFound("Install");
  if (!canTouchInstall(world, caller, install)) throw forbidden();
  return install;
}

/** Looks up a site: 404 unknown; 403 when not visible, or when `need` is given and not met on its account. */
export function requireSite(world: World, caller: Caller, siteId: string, need?: Need): SiteRecord {
  const site = world.sites[siteId];
  if (!site) throw notFound("Site");
  const ok = need
    ? satisfies(rolesOn(world, caller.userId, site.account_id), need)
    : canSeeSite(world, caller, site);
  if (!ok) throw forbidden();
  return site;
}
