import { z } from "zod";
import { type App as ApiApp, isConflict } from "../../sdk";
import { appResourceName, resourceIdString } from "../core/appHosting";
import { unlessGone } from "../core/children";
import { collect, defineKind, listedUnder, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, out, uuidString } from "../core/inputs";
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

const inputs = z
  .object({
    accountId: uuidString.meta({
      parent: true,
      description: "The account that owns the app.",
      replaces: true,
    }),
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
          "Where the app runs: `US-C`, `EU-W`, `AUS-SE` or `UK` (`regions/US-C` and any casing are accepted), stored in the short form.",
        replaces: true,
      }),
    ...COMMON_INPUTS,
  })
  .strict();

const outputs = z.object({
  resourceName: out.string("The resource name `accounts/{accountId}/apps/{name}` (also the resource id)."),
  createTime: out.stringOrNull("When the app was created (RFC 3339)."),
  updateTime: out.stringOrNull("When the app last changed (RFC 3339)."),
});

type AppInputs = z.output<typeof inputs>;
type AppOutputs = OutputsOf<typeof inputs, typeof outputs>;

const WIRE = wireOf(inputs, outputs, undefined, asIs);

/** Maps a service record (`name` is its resource name) to outputs; an unknown region is kept as-is. */
export function appOutputs(accountId: string, a: ApiApp): AppOutputs {
  const name = a.appId ?? a.name.split("/").pop() ?? a.name;
  const region = String(normalizeRegion(a.region ?? "")) as AppInputs["region"];
  const resourceName = a.name || appResourceName(accountId, name);
  return WIRE.outputs(a, { accountId, name, region, resourceName });
}

/** The error an adoption gets when the existing app is in another region (an app cannot move). */
export function regionMismatch(i: Pick<AppInputs, "accountId" | "name" | "region">, live: string): Error {
  return new Error(
    `app ${i.name} already exists in account ${i.accountId} in region ${live}, not ${i.region}; ` +
      `an app cannot change region: set region to ${live} to adopt it, or choose another name`,
  );
}

/** Takes over the existing app (read only with `adopt`): refused without `adopt`, or in another region. */
async function adopt(inputs: AppInputs, read: () => Promise<ApiApp>) {
  if (!inputs.adopt) throw alreadyExists(`app ${inputs.name} already exists in account ${inputs.accountId}`);
  const outs = appOutputs(inputs.accountId, await read());
  if (outs.region !== inputs.region) throw regionMismatch(inputs, outs.region);
  return { id: outs.resourceName, outs, adopted: `app ${inputs.name} of account ${inputs.accountId}` };
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
    find: async (i, ctx) =>
      (await unlessGone(ctx.client.apps.get(i.accountId, i.name))) && appResourceName(i.accountId, i.name),
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
  normalize: (key, v) => (key === "region" ? normalizeRegion(v) : v),
  async create(inputs, ctx) {
    const existing = await unlessGone(ctx.client.apps.get(inputs.accountId, inputs.name));
    if (existing) return adopt(inputs, async () => existing);
    try {
      const body = { region: `regions/${inputs.region}` };
      const outs = appOutputs(
        inputs.accountId,
        await ctx.client.apps.create(inputs.accountId, inputs.name, body),
      );
      return { id: outs.resourceName, outs };
    } catch (err) {
      // Made by someone else between the lookup and the create.
      if (!isConflict(err)) throw err;
      return adopt(inputs, () => ctx.client.apps.get(inputs.accountId, inputs.name));
    }
  },
  async read(_id, olds, ctx) {
    return { outs: appOutputs(olds.accountId, await ctx.client.apps.get(olds.accountId, olds.name)) };
  },
  async delete(_id, olds, ctx) {
    await ctx.client.apps.delete(olds.accountId, olds.name);
  },
});

export const provider = definition.provider;
