import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { isConflict } from "../../sdk";
import { compareStrings, defineKind, listedUnder } from "../core/define";
import { alreadyExists } from "../core/errors";
import { type CheckFailure, COMMON_INPUTS, parentInput, requiredString, ruled, whole } from "../core/inputs";
import type { Context } from "../core/lifecycle";

type Exclusion = { type: "query arg" | "url path"; value: string };

const COOKIE = whole(
  'cookie exclusions are platform-managed: the service accepts them but does not save them, so they can never take effect; remove this entry (only "query arg" and "url path" can be set)',
);

const exclusion = z
  .object({
    // The service lists `cookie` entries too, but never saves one: the SDKs offer only what can be set.
    type: z
      .enum(["query arg", "url path"], {
        error: (issue) => (issue.input === "cookie" ? COOKIE : 'must be "query arg" or "url path"'),
      })
      .meta({ description: "`query arg` (a query-string argument name) or `url path` (the request path)." }),
    value: requiredString.meta({
      description: "A regular expression matched against the query argument name or the URL path.",
    }),
  })
  .strict();

/** Why a `value` is not a regular expression, or `undefined` when it compiles. */
export function regexError(value: string): string | undefined {
  try {
    new RegExp(value);
    return undefined;
  } catch (err) {
    // "Invalid regular expression: /(/: Unterminated group" → "Unterminated group".
    return (err as SyntaxError).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  }
}

/** The check rule of the exclusions: compilable regular expressions. */
export const exclusionFailures = (exclusions: readonly { type: string; value: string }[]): CheckFailure[] =>
  exclusions.flatMap((e, i) => {
    const bad = regexError(e.value);
    return bad === undefined
      ? []
      : [{ property: `exclusions[${i}].value`, reason: whole(`invalid regular expression: ${bad}`) }];
  });

const inputs = z.object({
  installId: parentInput("The install whose exclusions this resource owns (also the resource id)."),
  exclusions: ruled(z.array(exclusion), exclusionFailures).meta({
    description:
      'The complete list of exclusions (`type` `"query arg"` or `"url path"`, `value` a regular expression). Order and duplicates never show as a change; exclusions not listed are removed from the install; an empty list clears them.',
    // The service answers and takes the bare list.
    wire: "",
  }),
  adopt: COMMON_INPUTS.adopt.meta({
    description:
      "Take over an install whose list already holds exclusions (even exactly these: perhaps another stack's), replacing them with these unless they already are. Without it, create refuses such an install, naming what it holds (an empty list is always taken over).",
  }),
});

const outputs = z.object({});

/** A list as the service saves it: no cookie entries (never saved), no duplicates, sorted by type then value. */
export function normalizeExclusions(list: unknown): Exclusion[] {
  if (!Array.isArray(list)) return [];
  const seen = new Map<string, Exclusion>();
  for (const item of list as { type?: unknown; value?: unknown }[]) {
    if (typeof item?.type !== "string" || typeof item.value !== "string" || item.type === "cookie") continue;
    const e = { type: item.type as Exclusion["type"], value: item.value };
    seen.set(JSON.stringify([e.type, e.value]), e);
  }
  return [...seen.values()].sort(
    (a, b) => compareStrings(a.type, b.type) || compareStrings(a.value, b.value),
  );
}

/** The outputs of a list the service holds, as it saves it (the install is kept from the inputs or the state). */
const outputsOf = (live: unknown) => ({ exclusions: normalizeExclusions(live) });

/** PUT of the full list to the install; a 409 becomes a message that says the install is transferable. */
async function replace(ctx: Context, exclusions: Exclusion[], installId = ctx.parent) {
  try {
    return await ctx.client.cacheExclusions.replace(installId, exclusions);
  } catch (err) {
    if (!isConflict(err)) throw err;
    const said = err.serverMessage ? ` (the service said: ${err.serverMessage})` : "";
    throw new Error(
      `install ${installId} is transferable, and the service refuses cache exclusion changes while an install is transferable (409 Conflict${said}); the exclusions were left unchanged. Run again once the install is no longer transferable (for example after its site transfer has completed).`,
    );
  }
}

const heldBy = async (ctx: Context) => normalizeExclusions(await ctx.client.cacheExclusions.get(ctx.parent));

/** Create's refusal of a list that holds exclusions (perhaps another stack's) without `adopt`. */
function takeover(held: readonly Exclusion[], adopt: boolean | undefined, installId: string) {
  if (!held.length || adopt) return undefined;
  return alreadyExists(
    `install ${installId} already has ${held.length} cache exclusion${held.length > 1 ? "s" : ""} (${held.map((e) => `${e.type} ${e.value}`).join(", ")}), perhaps another stack's list`,
    "set adopt: true to take the list over (kept as it is when it holds exactly these exclusions, else replaced)",
  );
}

export const definition = defineKind({
  kind: "CacheExclusions",
  description:
    "The full list of cache exclusion rules of an install: query args and URL paths, matched as regular expressions, that bypass the page cache. The service keeps one list per install and replaces it whole, so this resource owns that list. Create refuses an install whose list already holds other exclusions unless `adopt: true` says to replace them. The id is the install id. Cookie entries are platform-managed and refused.",
  deletes:
    "Replaces the list with an empty one (PUT of []), clearing every writable exclusion of the install; the platform-managed cookie rules stay. No API deletes the list itself.",
  gone: "The list belongs to the install and is never deleted (emptied, it shows as drift of `exclusions`); the install deleted reads as gone, and the refresh removes it from the state.",
  importId: "{installId}",
  identity: { what: "the install's cache exclusions (an install has one list)" },
  naturalKey: { resend: "create and update PUT the whole list: sending it again leaves the same list." },
  list: listedUnder(
    "installId",
    "The install whose cache exclusions are listed (one list per install).",
    async (client, installId) => {
      await client.cacheExclusions.get(installId); // the install exists (else a 404)
      return [installId];
    },
    (installId) => [installId, `${installId} cache exclusions`],
    "installId",
  ),
  inputs,
  outputs,
  normalize: (key, v) => (key === "exclusions" ? normalizeExclusions(v) : v),
  takeover: async (inputs, ctx) => takeover(await heldBy(ctx), inputs.adopt, ctx.parent),
  async create(inputs, ctx) {
    const installId = ctx.parent;
    const wanted = normalizeExclusions(inputs.exclusions);
    const held = await heldBy(ctx);
    const refused = takeover(held, inputs.adopt, installId);
    if (refused) throw refused;
    const adopted = held.length ? `cache exclusions of install ${installId}` : undefined;
    // Exactly these already (an import, the way back after a crash): no write.
    const outs = isDeepStrictEqual(held, wanted) ? held : await replace(ctx, wanted);
    return { id: installId, outs: outputsOf(outs), adopted, found: outputsOf(held) };
  },
  read: async (id, _olds, ctx) => ({
    outs: outputsOf(await ctx.client.cacheExclusions.get(ctx.parent || id)),
  }),
  update: async (_id, _olds, news, ctx) =>
    outputsOf(await replace(ctx, normalizeExclusions(news.exclusions))),
  async delete(id, _olds, ctx) {
    await replace(ctx, [], ctx.parent || id);
  },
});
