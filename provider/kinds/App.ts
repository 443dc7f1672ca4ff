import { z } from "zod";
import { type App as ApiApp, isConflict } from "../../sdk";
import { appResourceName, resourceIdString } from "../core/appHosting";
import { unlessGone } from "../core/children";
import { collect, defineKind, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, uuidString } from "../core/inputs";
import type { Context } from "../core/lifecycle";
import { asIs, wireOf } from "../core/wire";

/** The regions an app can live in, in the short form used as input. */
export const APP_SHORT_REGIONS = ["US-C", "EU-W", "AUS-SE", "UK"] as const;
/** A region in its short form. */
export type AppShortRegion = (typeof APP_SHORT_REGIONS)[number];

/** Short region from any accepted spelling (`US-C`, `regions/US-C`, `us-c`); the input unchanged when unknown. */
export function normalizeRegion(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value
    .trim()
    .replace(/^regions\//i, "")
    .toUpperCase();
}

const regionInput = z.preprocess(
  normalizeRegion,
  z.enum(APP_SHORT_REGIONS, {
    error: `must be one of ${APP_SHORT_REGIONS.join(", ")} (or regions/<region>)`,
  }),
);

const inputs = z
  .object({
    accountId: uuidString.meta({
      description: "The account that owns the app.",
      replaces: true,
    }),
    name: resourceIdString.meta({
      description:
        "The app id, e.g. `storefront`, unique in the account: 1 to 63 lower-case letters, digits or hyphens, starting with a letter and not ending with a hyphen. Pass it as `appId` to environments.",
      replaces: true,
      wire: "appId",
    }),
    region: regionInput.meta({
      description:
        "Where the app runs: `US-C`, `EU-W`, `AUS-SE` or `UK` (`regions/US-C` and any casing are accepted), stored in the short form.",
      replaces: true,
    }),
    ...COMMON_INPUTS,
  })
  .strict();

const outputs = z.object({
  resourceName: z
    .string()
    .meta({ description: "The resource name `accounts/{accountId}/apps/{name}` (also the resource id)." }),
  createTime: z.string().nullable().meta({ description: "When the app was created (RFC 3339)." }),
  updateTime: z.string().nullable().meta({ description: "When the app last changed (RFC 3339)." }),
});

type AppInputs = z.output<typeof inputs>;
type AppOutputs = OutputsOf<typeof inputs, typeof outputs>;

const WIRE = wireOf(inputs, outputs, undefined, asIs);

/**
 * Maps a service record to outputs: the record's `name` is the resource name, its id the app's own name,
 * its region in the short form (one that is not one of the four is kept as-is so the diff shows it).
 */
export function appOutputs(accountId: string, a: ApiApp): AppOutputs {
  const name = a.appId ?? a.name.split("/").pop() ?? a.name;
  const region = String(normalizeRegion(a.region ?? "")) as AppShortRegion;
  return WIRE.outputs(a, {
    accountId,
    name,
    region,
    resourceName: a.name || appResourceName(accountId, name),
  });
}

/** The error an adoption gets when the existing app is in another region (an app cannot move). */
export function regionMismatch(
  inputs: Pick<AppInputs, "accountId" | "name" | "region">,
  live: string,
): Error {
  return new Error(
    `app ${inputs.name} already exists in account ${inputs.accountId} in region ${live}, not ${inputs.region}; ` +
      `an app cannot change region: set region to ${live} to adopt it, or choose another name`,
  );
}

function findApp(ctx: Context, accountId: string, appId: string): Promise<ApiApp | undefined> {
  return unlessGone(ctx.client.apps.get(accountId, appId));
}

/** Adopts an existing app: it must be in the requested region. */
function adoptExisting(inputs: AppInputs, record: ApiApp): { id: string; outs: AppOutputs; adopted: string } {
  const outs = appOutputs(inputs.accountId, record);
  if (outs.region !== inputs.region) throw regionMismatch(inputs, outs.region);
  return { id: outs.resourceName, outs, adopted: `app ${inputs.name} of account ${inputs.accountId}` };
}

function exists(inputs: AppInputs): Error {
  return alreadyExists(`app ${inputs.name} already exists in account ${inputs.accountId}`);
}

export const definition = defineKind({
  kind: "App",
  description:
    "An application of the application-hosting platform (Headless Platform), the parent of its environments, " +
    "builds and domain mappings, in one region of one account. The app id (`name`) and the region can never " +
    "change: a change of either replaces the app. The id is its resource name `accounts/{accountId}/apps/{name}`.",
  deletes:
    "Deletes the app on the service, and with it every environment, build and domain mapping it holds. An app " +
    "already gone counts as deleted.",
  gone: "An app deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "accounts/{accountId}/apps/{name}",
  identity: {
    what: "the app's name in its account",
    fields: ["accountId", "name"],
    find: async (i, ctx) =>
      (await findApp(ctx, i.accountId, i.name)) ? appResourceName(i.accountId, i.name) : undefined,
  },
  list: {
    inputs: z.object({
      accountId: uuidString.meta({ description: "The account whose apps are listed." }),
    }),
    items: async (q, client) =>
      (await collect(client.apps.iterate(q["accountId"]!, { pageSize: 1000 }))).map((a) => ({
        fields: { accountId: q["accountId"]!, name: a.appId },
        name: a.appId,
      })),
  },
  inputs,
  outputs,
  // When the replacement keeps the same account and id (a region change), the old app goes first:
  // the service cannot hold two apps of one id.
  deleteBeforeReplace: (replaces) => !replaces.includes("name") && !replaces.includes("accountId"),
  normalize: (key, v) => (key === "region" ? normalizeRegion(v) : v),
  async create(inputs, ctx) {
    const existing = await findApp(ctx, inputs.accountId, inputs.name);
    if (existing) {
      if (!inputs.adopt) throw exists(inputs);
      return adoptExisting(inputs, existing);
    }
    let record: ApiApp;
    try {
      record = await ctx.client.apps.create(inputs.accountId, inputs.name, {
        region: `regions/${inputs.region}`,
      });
    } catch (err) {
      // Made by someone else between the lookup and the create.
      if (!isConflict(err)) throw err;
      if (!inputs.adopt) throw exists(inputs);
      const raced = await ctx.client.apps.get(inputs.accountId, inputs.name);
      return adoptExisting(inputs, raced);
    }
    const outs = appOutputs(inputs.accountId, record);
    return { id: outs.resourceName, outs };
  },
  async read(_id, olds, ctx) {
    return { outs: appOutputs(olds.accountId, await ctx.client.apps.get(olds.accountId, olds.name)) };
  },
  async delete(_id, olds, ctx) {
    await ctx.client.apps.delete(olds.accountId, olds.name);
  },
});

export const provider = definition.provider;
