/**
 * The one registry of resource kinds: every class `provider/kinds/index.ts` exports, by kind. The
 * plugin, the executable provider, its schema and the docs read it.
 */
import type { Kind } from "./core/define";
import * as classes from "./kinds";

/** Every kind's definition, by kind (`Domain`, ...). */
export const KINDS: Readonly<Record<string, Kind>> = Object.fromEntries(
  Object.values(classes as Record<string, unknown>)
    .filter((c): c is { definition: Kind } => typeof c === "function" && "definition" in c)
    .map((c) => [c.definition.kind, c.definition]),
);
