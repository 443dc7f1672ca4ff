import { z } from "zod";
import { type App as ApiApp, type CreateAppRequest, isConflict } from "../../sdk";
import { resourceIdString, resourceNameOf } from "../core/appHosting";
import { unlessGone } from "../core/children";
import { collect, defineKind, listedUnder } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, out, parentInput } from "../core/inputs";
import type { Context } from "../core/lifecycle";
import { asIs, wireOf } from "../core/wire";

const REGIONS = ["US-C", "EU-W", "AUS-SE", "UK"] as const;

/** Short region from any accepted spelling (`US-C`, `regions/US-C`, `us-c`); a non-string unchanged. */
export const normalizeRegion = (value: unknown): unknown =>
  typeof value === "string"
    ? value
        .trim()
        .replace(/^regions\//i, "")
        .toUpperCase()
    : value;

const inputs = z.object({
  accountId: parentInput("The account that owns the app."),
  name: resourceIdString.meta({
    key: true,
    description:
      "The app id, e.g. `storefront`, unique in the account: 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen. Pass it as `appId` to environments.",
    replaces: true,
    wire: "appId",
  }),
  region: z
    .preprocess(
      normalizeRegion,
      z.enum(REGIONS, { error: `must be one of ${REGIONS.join(", ")} (or regions/<region>)` }),
    )
    .meta({
      description:
        "Where the app runs: `US-C`, `EU-W`, `AUS-SE` or `UK`, stored in the short form (the Node.js classes also accept `regions/US-C` and any casing; the other languages' schema takes these four: of a lookup's `regions/US-C`, the part after `/`).",
      replaces: true,
    }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  resourceName: out.string("The resource name `accounts/{accountId}/apps/{name}` (also the resource id)."),
  createTime: out.stringOrNull("When the app was created (RFC 3339)."),
  updateTime: out.stringOrNull("When the app last changed (RFC 3339)."),
});

const normalize = (key: string, v: unknown) => (key === "region" ? normalizeRegion(v) : v);
const WIRE = wireOf(inputs, outputs, normalize, asIs);

/** Maps a service record (`name` is its resource name) to outputs in canonical form (an unknown region as-is). */
export const appOutputs = (a: ApiApp, ctx: Pick<Context, "parents" | "key">) =>
  WIRE.canonical(WIRE.outputs(a, { resourceName: a.name || resourceNameOf(ctx) }));

/** The error an adoption gets when the existing app is in another region (an app cannot move). */
export function regionMismatch(ctx: Pick<Context, "parent" | "key">, region: string, live: string): Error {
  return new Error(
    `app ${ctx.key} already exists in account ${ctx.parent} in region ${live}, not ${region}; an app cannot change region: set region to ${live} to adopt it, or choose another name`,
  );
}

const findApp = (ctx: Context) => unlessGone(ctx.client.apps.get(ctx.parent, ctx.key));

/** Create's refusal of a name the account holds already (check says it at preview). */
const taken = (ctx: Context) => alreadyExists(`app ${ctx.key} already exists in account ${ctx.parent}`);

/** Takes over the existing app (read only with `adopt`): refused without `adopt`, or in another region. */
async function adopt(i: z.output<typeof inputs>, ctx: Context, read: () => Promise<ApiApp>) {
  if (!i.adopt) throw taken(ctx);
  const outs = appOutputs(await read(), ctx);
  if (outs.region !== i.region) throw regionMismatch(ctx, i.region, outs.region);
  return { id: outs.resourceName, outs, adopted: `app ${ctx.key} of account ${ctx.parent}` };
}

export const definition = defineKind({
  kind: "App",
  description:
    "An application of the application-hosting platform (Headless Platform), the parent of its environments, builds and domain mappings, in one region of one account. The app id (`name`) and the region can never change: a change of either replaces the app. The id is its resource name `accounts/{accountId}/apps/{name}`.",
  deletes:
    "Deletes the app on the service, and with it every environment, build and domain mapping it holds. An app already gone counts as deleted.",
  gone: "An app deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "accounts/{accountId}/apps/{name}",
  identity: {
    what: "the app's name in its account",
    find: async (_i, ctx) => (await findApp(ctx)) && resourceNameOf(ctx),
    refusal: (_id, ctx) => taken(ctx),
  },
  list: listedUnder(
    "accountId",
    "The account whose apps are listed.",
    (client, accountId) => collect(client.apps.iterate(accountId, { pageSize: 1000 })),
    (a) => [a.appId, a.appId],
    "name",
  ),
  inputs,
  outputs,
  // A region change keeps the account and id: the service cannot hold two apps of one id.
  deleteBeforeReplace: (replaces) => !replaces.includes("name") && !replaces.includes("accountId"),
  normalize,
  // Check's look under adopt: the region create would refuse.
  async takeover(inputs, ctx) {
    const existing = inputs.adopt ? await findApp(ctx) : undefined;
    const live = existing ? appOutputs(existing, ctx).region : inputs.region;
    return live === inputs.region ? undefined : regionMismatch(ctx, inputs.region, live);
  },
  async create(inputs, ctx) {
    const existing = await findApp(ctx);
    if (existing) return adopt(inputs, ctx, async () => existing);
    try {
      // The sdk sends the region as the service spells it (`regions/US-C`).
      const body = WIRE.body(inputs, ["region"]) as CreateAppRequest;
      const outs = appOutputs(await ctx.client.apps.create(ctx.parent, ctx.key, body), ctx);
      return { id: outs.resourceName, outs };
    } catch (err) {
      // Made by someone else between the lookup and the create.
      if (!isConflict(err)) throw err;
      return adopt(inputs, ctx, () => ctx.client.apps.get(ctx.parent, ctx.key));
    }
  },
  read: async (_id, _olds, ctx) => ({
    outs: appOutputs(await ctx.client.apps.get(ctx.parent, ctx.key), ctx),
  }),
  delete: (_id, _olds, ctx) => ctx.client.apps.delete(ctx.parent, ctx.key),
});
