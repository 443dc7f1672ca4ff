/**
 * `CacheExclusions`: the full list of cache exclusion rules of an install (query args and URL paths
 * matched as regular expressions that bypass the page cache). The service keeps one list per install
 * and replaces it whole, so this resource owns that list: entries not declared here are removed.
 *
 * Cookie entries are platform-managed: the service accepts them, does not save them and a later GET
 * never returns what was sent, so `check` rejects them rather than let a program declare a rule that
 * can never take effect. The platform's own cookie rules that a GET reports are left out of the outputs.
 *
 * Delete: replaces the list with an empty one, clearing every writable exclusion of the install (the
 * platform-managed cookie rules stay). No API deletes the list itself.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type CacheExclusion as ApiCacheExclusion, isConflict } from "../../sdk";
import { type CheckFailure, COMMON_INPUTS, uuidString } from "../core/inputs";
import { type Context, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "CacheExclusions";

/** Kinds of exclusion a program may declare (`cookie` is accepted by the schema only to explain why not). */
export type ExclusionType = "query arg" | "url path";

/** One cache exclusion: what part of the request `value` is matched against. */
export interface Exclusion {
  type: ExclusionType;
  value: string;
}

const ExclusionSchema = z
  .object({
    /** `query arg` (a query-string argument name) or `url path` (the request path). */
    type: z.enum(["query arg", "url path", "cookie"], {
      error: 'type must be "query arg" or "url path"',
    }),
    /** A regular expression matched against the query argument name or the URL path. */
    value: z.string({ error: "value is required and must be a string" }).min(1, "value must not be empty"),
  })
  .strict();

export const CacheExclusionsInputsSchema = z
  .object({
    /** The install whose exclusions this resource owns. Changing it replaces the resource. */
    installId: uuidString("installId"),
    /** The complete list of exclusions; order and duplicates do not matter. An empty list clears them. */
    exclusions: z.array(ExclusionSchema, { error: "exclusions is required and must be a list" }),
    ...COMMON_INPUTS,
  })
  .strict();

export type CacheExclusionsInputs = z.output<typeof CacheExclusionsInputsSchema>;

/** Outputs of CacheExclusions: the install and its writable exclusions as the service holds them. */
export interface CacheExclusionsOutputs extends Record<string, unknown> {
  installId: string;
  exclusions: Exclusion[];
}

/** Why a `value` is not a regular expression, or `undefined` when it compiles. */
export function regexError(value: string): string | undefined {
  try {
    new RegExp(value);
    return undefined;
  } catch (err) {
    // "Invalid regular expression: /(/: Unterminated group" → "Unterminated group".
    const msg = err instanceof Error ? err.message : String(err);
    return msg.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  }
}

/** The check rules of the exclusions: compilable regular expressions, no cookie entries. */
export function exclusionFailures(exclusions: readonly { type: string; value: string }[]): CheckFailure[] {
  const failures: CheckFailure[] = [];
  exclusions.forEach((e, i) => {
    if (e.type === "cookie") {
      failures.push({
        property: `exclusions[${i}].type`,
        reason:
          "cookie exclusions are platform-managed: the service accepts them but does not save them, so " +
          'they can never take effect; remove this entry (only "query arg" and "url path" can be set)',
      });
    }
    const bad = regexError(e.value);
    if (bad !== undefined) {
      failures.push({ property: `exclusions[${i}].value`, reason: `invalid regular expression: ${bad}` });
    }
  });
  return failures;
}

/**
 * The canonical form of a list, as the service saves it: cookie entries dropped (never saved),
 * duplicates collapsed, sorted by type then value (the service's order carries no meaning).
 */
export function normalizeExclusions(list: unknown): Exclusion[] {
  if (!Array.isArray(list)) return [];
  const seen = new Map<string, Exclusion>();
  for (const item of list as { type?: unknown; value?: unknown }[]) {
    if (!item || typeof item.type !== "string" || typeof item.value !== "string") continue;
    if (item.type === "cookie") continue;
    const e = { type: item.type as ExclusionType, value: item.value };
    seen.set(JSON.stringify([e.type, e.value]), e);
  }
  return [...seen.values()].sort((a, b) =>
    a.type === b.type ? (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) : a.type < b.type ? -1 : 1,
  );
}

function outputsOf(installId: string, live: readonly ApiCacheExclusion[]): CacheExclusionsOutputs {
  return { installId, exclusions: normalizeExclusions(live) };
}

/** PUT of the full list; a 409 becomes a message that says the install is transferable. */
async function replace(
  ctx: Context,
  installId: string,
  exclusions: Exclusion[],
): Promise<ApiCacheExclusion[]> {
  try {
    return await ctx.client.cacheExclusions.replace(installId, exclusions);
  } catch (err) {
    if (!isConflict(err)) throw err;
    const said = err.serverMessage ? ` (the service said: ${err.serverMessage})` : "";
    throw new Error(
      `install ${installId} is transferable, and the service refuses cache exclusion changes while an ` +
        `install is transferable (409 Conflict${said}); the exclusions were left unchanged. Run again once ` +
        "the install is no longer transferable (for example after its site transfer has completed).",
    );
  }
}

export const provider = defineProvider<CacheExclusionsInputs, CacheExclusionsOutputs>({
  kind: KIND,
  schema: CacheExclusionsInputsSchema,
  rules: [{ uses: ["exclusions"], test: (i) => exclusionFailures(i.exclusions) }],
  replaceOn: ["installId"],
  updatable: ["exclusions"],
  normalize: (key, v) => (key === "exclusions" ? normalizeExclusions(v) : v),
  // The list always exists (possibly empty): create replaces it whatever it held, so `adopt` changes nothing.
  async create(inputs, ctx) {
    const saved = await replace(ctx, inputs.installId, normalizeExclusions(inputs.exclusions));
    return { id: inputs.installId, outs: outputsOf(inputs.installId, saved) };
  },
  async read(id, olds, ctx) {
    const installId = olds.installId ?? id;
    const outs = outputsOf(installId, await ctx.client.cacheExclusions.get(installId));
    return { outs, inputs: { installId, exclusions: outs.exclusions } };
  },
  async update(_id, _olds, news, ctx) {
    const saved = await replace(ctx, news.installId, normalizeExclusions(news.exclusions));
    return outputsOf(news.installId, saved);
  },
  async delete(id, olds, ctx) {
    await replace(ctx, olds.installId ?? id, []);
  },
});

/** Arguments of a {@link CacheExclusions}. */
export interface CacheExclusionsArgs {
  /** The install whose exclusions this resource owns. Changing it replaces the resource. */
  installId: pulumi.Input<string>;
  /**
   * The complete list of exclusions (`type` `"query arg"` or `"url path"`, `value` a regular expression).
   * Order and duplicates never show as a change; exclusions not listed are removed from the install.
   */
  exclusions: pulumi.Input<
    pulumi.Input<{ type: pulumi.Input<ExclusionType>; value: pulumi.Input<string> }>[]
  >;
  /** Accepted for uniformity; it changes nothing, as create always replaces the install's whole list. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * The full list of cache exclusions of an install. The id is the install id. Create and update
 * replace the whole list; delete clears every writable exclusion of the install (PUT of an empty list).
 * Cookie entries are platform-managed and rejected by `check`.
 *
 * @example
 * new wpengine.CacheExclusions("acme", {
 *   installId,
 *   exclusions: [
 *     { type: "url path", value: "^/wp-json/" },
 *     { type: "query arg", value: "^utm_" },
 *   ],
 * });
 */
export class CacheExclusions extends WpEngineResource {
  /** The install the exclusions belong to (also the resource id). */
  declare readonly installId: pulumi.Output<string>;
  /** The writable exclusions as the service holds them: duplicates collapsed, sorted by type then value. */
  declare readonly exclusions: pulumi.Output<Exclusion[]>;
  /** Whether `adopt` was set (it has no effect on this resource). */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: CacheExclusionsArgs, opts?: ResourceOptions) {
    super(KIND, name, args, CACHE_EXCLUSIONS_OUTPUTS, opts);
  }
}

const CACHE_EXCLUSIONS_OUTPUTS = ["installId", "exclusions", "adopt"] as const;
