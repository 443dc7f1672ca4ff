/**
 * Cookie entries are platform-managed: the service accepts them, does not save them and a later GET
 * never returns what was sent, so `check` rejects them rather than let a program declare a rule that
 * can never take effect. The platform's own cookie rules that a GET reports are left out of the outputs.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { type CacheExclusion as ApiCacheExclusion, isConflict } from "../../sdk";
import { defineKind, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import { type CheckFailure, COMMON_INPUTS, requiredString, uuidString, whole } from "../core/inputs";
import type { Context } from "../core/lifecycle";

/** Kinds of exclusion a program may declare (`cookie` is accepted by the schema only to explain why not). */
export type ExclusionType = "query arg" | "url path";

/** One cache exclusion: what part of the request `value` is matched against. */
export interface Exclusion {
  type: ExclusionType;
  value: string;
}

const ExclusionSchema = z
  .object({
    type: z
      .enum(["query arg", "url path", "cookie"], { error: 'must be "query arg" or "url path"' })
      .meta({ description: "`query arg` (a query-string argument name) or `url path` (the request path)." }),
    value: requiredString.meta({
      description: "A regular expression matched against the query argument name or the URL path.",
    }),
  })
  .strict();

const inputs = z
  .object({
    installId: uuidString.meta({
      description: "The install whose exclusions this resource owns (also the resource id).",
      replaces: true,
    }),
    exclusions: z.array(ExclusionSchema, { error: "is required and must be a list" }).meta({
      description:
        'The complete list of exclusions (`type` `"query arg"` or `"url path"`, `value` a regular expression). ' +
        "Order and duplicates never show as a change; exclusions not listed are removed from the install; an " +
        "empty list clears them.",
    }),
    adopt: COMMON_INPUTS.adopt.meta({
      description:
        "Take over an install whose list already holds other exclusions, replacing them with these. Without it, " +
        "create refuses such an install, naming what it holds (an empty list, or exactly these exclusions, is " +
        "always taken over).",
      setting: true,
    }),
  })
  .strict();

type CacheExclusionsOutputs = OutputsOf<typeof inputs, typeof outputs>;
const outputs = z.object({});

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
        reason: whole(
          "cookie exclusions are platform-managed: the service accepts them but does not save them, so " +
            'they can never take effect; remove this entry (only "query arg" and "url path" can be set)',
        ),
      });
    }
    const bad = regexError(e.value);
    if (bad !== undefined) {
      failures.push({
        property: `exclusions[${i}].value`,
        reason: whole(`invalid regular expression: ${bad}`),
      });
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

export const definition = defineKind({
  kind: "CacheExclusions",
  description:
    "The full list of cache exclusion rules of an install: query args and URL paths, matched as regular " +
    "expressions, that bypass the page cache. The service keeps one list per install and replaces it whole, so " +
    "this resource owns that list. Create refuses an install whose list already holds other exclusions unless " +
    "`adopt: true` says to replace them. The id is the install id. Cookie entries are platform-managed and refused.",
  deletes:
    "Replaces the list with an empty one (PUT of []), clearing every writable exclusion of the install; the " +
    "platform-managed cookie rules stay. No API deletes the list itself.",
  gone: "The list belongs to the install and is never deleted (emptied, it shows as drift of `exclusions`); the install deleted reads as gone, and the refresh removes it from the state.",
  importId: "{installId}",
  identity: { what: "the install's cache exclusions (an install has one list)", fields: ["installId"] },
  naturalKey: { resend: "create and update PUT the whole list: sending it again leaves the same list." },
  list: {
    inputs: z.object({
      installId: uuidString.meta({
        description: "The install whose cache exclusions are listed (one list per install).",
      }),
    }),
    items: async (q, client) => {
      await client.cacheExclusions.get(q["installId"]!);
      return [{ fields: { installId: q["installId"]! }, name: `${q["installId"]} cache exclusions` }];
    },
  },
  inputs,
  outputs,
  rules: [{ uses: ["exclusions"], test: (i) => exclusionFailures(i.exclusions) }],
  normalize: (key, v) => (key === "exclusions" ? normalizeExclusions(v) : v),
  // The list always exists (possibly empty). Create takes it over when it is empty or already the declared
  // one; other exclusions are replaced only with `adopt: true`, never silently.
  async create(inputs, ctx) {
    const wanted = normalizeExclusions(inputs.exclusions);
    const live = await ctx.client.cacheExclusions.get(inputs.installId);
    const held = normalizeExclusions(live);
    // Exactly these exclusions already (an import, the way back after a crash): taken as they are, no write.
    if (isDeepStrictEqual(held, wanted))
      return { id: inputs.installId, outs: outputsOf(inputs.installId, live) };
    if (held.length && !inputs.adopt) {
      throw alreadyExists(
        `install ${inputs.installId} already has ${held.length} cache exclusion${held.length > 1 ? "s" : ""} ` +
          `(${held.map((e) => `${e.type} ${e.value}`).join(", ")}) that this create would replace`,
        "list them in exclusions to keep them, or set adopt: true to replace them with this list",
      );
    }
    const saved = await replace(ctx, inputs.installId, wanted);
    return { id: inputs.installId, outs: outputsOf(inputs.installId, saved) };
  },
  async read(id, olds, ctx) {
    const installId = olds.installId ?? id;
    return { outs: outputsOf(installId, await ctx.client.cacheExclusions.get(installId)) };
  },
  async update(_id, _olds, news, ctx) {
    const saved = await replace(ctx, news.installId, normalizeExclusions(news.exclusions));
    return outputsOf(news.installId, saved);
  },
  async delete(id, olds, ctx) {
    await replace(ctx, olds.installId ?? id, []);
  },
});

export const provider = definition.provider;
