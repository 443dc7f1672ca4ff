/**
 * `EnvironmentCacheClear`: an action, not an object. It clears the web cache of an application-hosting
 * environment once when created, and again each time `triggers` change (wire `triggers` to whatever
 * should flush the cache: a build name, a content hash, a date).
 *
 * Delete: forgets the resource; nothing is done on the service (a cleared cache cannot be "uncleared").
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Context } from "../core/lifecycle";
import { defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { environmentAddress, environmentResourceName } from "./Environment";

const KIND = "EnvironmentCacheClear";

/** Any JSON value (the contents of `triggers`). */
const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

/** `triggers`: a map of JSON values; any change re-runs the action. */
export const triggersInput = z
  .record(z.string(), jsonValue, { error: "triggers must be a map of JSON values" })
  .default({});

export const EnvironmentCacheClearInputsSchema = z
  .object({
    ...environmentAddress,
    /** Any values; when they change, the cache is cleared again. */
    triggers: triggersInput,
  })
  .strict();

export type EnvironmentCacheClearInputs = z.output<typeof EnvironmentCacheClearInputsSchema>;

/** Outputs of an EnvironmentCacheClear. */
export interface EnvironmentCacheClearOutputs extends Record<string, unknown> {
  accountId: string;
  appId: string;
  environmentId: string;
  triggers: Record<string, unknown>;
  environmentResourceName: string;
  lastClearedAt: string;
}

async function clear(
  ctx: Context,
  inputs: EnvironmentCacheClearInputs,
): Promise<EnvironmentCacheClearOutputs> {
  await ctx.client.environments.clearCache(inputs.accountId, inputs.appId, inputs.environmentId);
  return {
    accountId: inputs.accountId,
    appId: inputs.appId,
    environmentId: inputs.environmentId,
    triggers: inputs.triggers,
    environmentResourceName: environmentResourceName(inputs.accountId, inputs.appId, inputs.environmentId),
    lastClearedAt: new Date().toISOString(),
  };
}

export const provider = defineProvider<EnvironmentCacheClearInputs, EnvironmentCacheClearOutputs>({
  kind: KIND,
  schema: EnvironmentCacheClearInputsSchema,
  replaceOn: ["accountId", "appId", "environmentId"],
  updatable: ["triggers"],
  normalize: (_key, v) => v ?? {},
  async create(inputs, ctx) {
    const outs = await clear(ctx, inputs);
    // One resource per clear action: several may target the same environment, so the id is unique.
    return { id: `${outs.environmentResourceName}/cacheClears/${randomUUID()}`, outs };
  },
  async read(_id, olds, ctx) {
    // Nothing of the action is kept by the service; it is gone when its environment is (404).
    await ctx.client.environments.get(olds.accountId, olds.appId, olds.environmentId);
    return { outs: olds, inputs: {} };
  },
  async update(_id, _olds, news, ctx) {
    return clear(ctx, news);
  },
  async delete() {
    // Forget only: clearing a cache cannot be undone.
    return `${FORGOTTEN}clearing a cache cannot be undone`;
  },
});

/** Arguments of an {@link EnvironmentCacheClear}. */
export interface EnvironmentCacheClearArgs {
  /** The account that owns the app (UUID). Changing it replaces the resource (and clears the new target). */
  accountId: pulumi.Input<string>;
  /** The app id. Changing it replaces the resource. */
  appId: pulumi.Input<string>;
  /** The environment id. Changing it replaces the resource. */
  environmentId: pulumi.Input<string>;
  /** Any values; when they change, the cache is cleared again. */
  triggers?: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
}

/**
 * Clears the web cache of an application-hosting environment when created and whenever `triggers`
 * change. The id is `accounts/{a}/apps/{app}/environments/{env}/cacheClears/{uuid}`. Delete forgets.
 *
 * @example
 * new wpengine.EnvironmentCacheClear("flush", {
 *   accountId, appId: app.name, environmentId: prod.name, triggers: { build: source.buildName },
 * });
 */
export class EnvironmentCacheClear extends WpEngineResource {
  /** The account that owns the app. */
  declare readonly accountId: pulumi.Output<string>;
  /** The app id. */
  declare readonly appId: pulumi.Output<string>;
  /** The environment id. */
  declare readonly environmentId: pulumi.Output<string>;
  /** The values whose change re-runs the clear. */
  declare readonly triggers: pulumi.Output<Record<string, unknown>>;
  /** The resource name of the environment whose cache is cleared. */
  declare readonly environmentResourceName: pulumi.Output<string>;
  /** When the cache was last cleared by this resource (RFC 3339, the provider's clock). */
  declare readonly lastClearedAt: pulumi.Output<string>;

  constructor(name: string, args: EnvironmentCacheClearArgs, opts?: ResourceOptions) {
    super(KIND, name, args, CACHE_CLEAR_OUTPUTS, opts);
  }
}

const CACHE_CLEAR_OUTPUTS = ["triggers", "environmentResourceName", "lastClearedAt"] as const;
