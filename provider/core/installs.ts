/** What the kinds that place an install share (`Install`, `InstallPlacement`). */
import { z } from "zod";
import { INSTALL_ENVIRONMENTS, type Install } from "../../sdk";

/** An install's environment in its site, stored lower case; refined, not an enum (0.1.0 typed a string). */
export const environmentInput = z
  .string({ error: "is required: production, staging or development" })
  .trim()
  .toLowerCase()
  .refine((v) => (INSTALL_ENVIRONMENTS as readonly string[]).includes(v), {
    error: "must be one of production, staging, development",
  })
  .meta({ values: INSTALL_ENVIRONMENTS });

/** An install's environment as the inputs store it; `null` if it fills none (drift an update sets back). */
export const environmentOf = (i: Install) =>
  i.environment === undefined ? {} : { environment: (i.environment?.toLowerCase() ?? null) as string };
