/** What the kinds that place an install share (`Install`, `InstallPlacement`). */
import type { Install, InstallEnvironment } from "../../sdk";

/** An install's environment lower case, as the inputs store it; none when the install reports none. */
export const environmentOf = (i: Install) =>
  i.environment ? { environment: i.environment.toLowerCase() } : {};

/** The PATCH that moves an install from `have` to `want`; `undefined` when it is already there. */
export function placementPatch(
  have: { siteId?: string | null; environment?: string | null },
  want: { siteId: string; environment: string },
): { site_id?: string; environment?: InstallEnvironment } | undefined {
  const patch: { site_id?: string; environment?: InstallEnvironment } = {};
  if ((have.siteId ?? "").toLowerCase() !== want.siteId.toLowerCase()) patch.site_id = want.siteId;
  if (have.environment !== want.environment) patch.environment = want.environment as InstallEnvironment;
  return Object.keys(patch).length ? patch : undefined;
}
