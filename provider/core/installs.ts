/** What the kinds that place an install share (`Install`, `InstallPlacement`). */
import { z } from "zod";
import { INSTALL_ENVIRONMENTS, type Install, type InstallEnvironment } from "../../sdk";

/** An install's environment in its site, stored lower case; refined, not an enum (0.1.0 typed a string). */
export const environmentInput = z
  .string({ error: "is required: production, staging or development" })
  .trim()
  .toLowerCase()
  .refine((v) => (INSTALL_ENVIRONMENTS as readonly string[]).includes(v), {
    error: "must be one of production, staging, development",
  });

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
