/**
 * `CachePurge`: an action, not an object. It purges one cache of an install (`object`, `page`, `cdn` or
 * `all`) when created, and again each time `triggers` change (wire them to whatever should flush the
 * cache: a deployment id, a content hash, a date).
 *
 * The service takes one object-cache purge per 60 s per install. The provider spaces its own purges of an
 * install by that window, and when the service still answers 429 (a purge from elsewhere) it waits (the
 * `Retry-After` when given, otherwise the whole window) and purges then: the limit never fails an update,
 * only `timeoutSeconds` of waiting does.
 *
 * Delete: forgets the resource; nothing is sent (a purged cache cannot be un-purged).
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type CacheType, OBJECT_CACHE_PURGE_WINDOW_MS } from "../../sdk";
import { timeoutSecondsInput, uuidString } from "../core/inputs";
import { type Context, defineProvider, FORGOTTEN } from "../core/lifecycle";
import { paced } from "../core/pacing";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { triggersInput } from "./EnvironmentCacheClear";

const KIND = "CachePurge";

export const CachePurgeInputsSchema = z
  .object({
    /** The install whose cache is purged. */
    installId: uuidString("installId"),
    /** Which cache: `object`, `page`, `cdn` or `all`. */
    type: z.enum(["object", "page", "cdn", "all"], {
      error: "type must be one of object, page, cdn, all",
    }),
    /** Any values; when they change, the cache is purged again. */
    triggers: triggersInput,
    /** Longest wait for the service's purge window, in seconds (default 300). */
    timeoutSeconds: timeoutSecondsInput(300),
    /** Not accepted: there is nothing to adopt (see the docs). */
    adopt: z
      .never({ error: "CachePurge has no adopt: it is an action, there is no object to take over" })
      .optional(),
  })
  .strict();

export type CachePurgeInputs = z.output<typeof CachePurgeInputsSchema>;

/** Outputs of a CachePurge. */
export interface CachePurgeOutputs extends Record<string, unknown> {
  installId: string;
  type: CacheType;
  triggers: Record<string, unknown>;
  timeoutSeconds: number;
  purgeCount: number;
  lastPurgedAt: string;
  /** Seconds the last purge waited for the service's window. */
  lastWaitSeconds: number;
}

/** Purges once, within the object cache's window (other types have none documented). */
async function purge(ctx: Context, i: CachePurgeInputs, previousCount: number) {
  const window = i.type === "object" ? OBJECT_CACHE_PURGE_WINDOW_MS : 0;
  const { waitedMs } = await paced(
    `purge/${i.installId}/${i.type}`,
    window,
    i.timeoutSeconds * 1000,
    `the ${i.type} cache of install ${i.installId} to accept a purge (timeoutSeconds ${i.timeoutSeconds})`,
    () => ctx.client.cachePurge.purge(i.installId, i.type),
  );
  return {
    purgeCount: previousCount + 1,
    lastPurgedAt: new Date().toISOString(),
    lastWaitSeconds: Math.round(waitedMs / 1000),
  };
}

export const provider = defineProvider<CachePurgeInputs, CachePurgeOutputs>({
  kind: KIND,
  schema: CachePurgeInputsSchema,
  replaceOn: ["installId", "type"],
  updatable: ["triggers", "timeoutSeconds"],
  normalize: (key, v) => (key === "triggers" ? (v ?? {}) : v),
  async create(inputs, ctx) {
    // One resource per purge action: several may target the same install, so the id is unique.
    return { id: randomUUID(), outs: (await purge(ctx, inputs, 0)) as CachePurgeOutputs };
  },
  async read(_id, olds, ctx) {
    // Nothing of the action is kept by the service; it is gone when its install is (404).
    await ctx.client.installs.get(olds.installId);
    return { outs: olds, inputs: {} };
  },
  async update(_id, olds, news, ctx) {
    const previous = typeof olds.purgeCount === "number" ? olds.purgeCount : 0;
    const same = isDeepStrictEqual(olds.triggers ?? {}, news.triggers ?? {});
    // A new timeout alone purges nothing (the old outputs carry over, but never the old `__provider`).
    const { __provider: _old, ...kept } = olds;
    if (same) return { ...kept, timeoutSeconds: news.timeoutSeconds } as CachePurgeOutputs;
    return { ...news, ...(await purge(ctx, news, previous)) } as CachePurgeOutputs;
  },
  async delete() {
    return `${FORGOTTEN}a purged cache cannot be un-purged`;
  },
});

/** Arguments of a {@link CachePurge}. */
export interface CachePurgeArgs {
  /** The install (UUID). Changing it replaces the resource (and purges the new install). */
  installId: pulumi.Input<string>;
  /** Which cache: `object`, `page`, `cdn` or `all`. Changing it replaces the resource (and purges). */
  type: pulumi.Input<"object" | "page" | "cdn" | "all">;
  /** Any values; when they change, the cache is purged again. */
  triggers?: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  /** Longest wait for the service's one-object-purge-per-60-s window, in seconds (default 300). */
  timeoutSeconds?: pulumi.Input<number>;
}

/**
 * Purges a cache of an install when created and whenever `triggers` change, waiting out the service's
 * one-object-cache-purge-per-60-seconds limit instead of failing. Delete forgets.
 *
 * @example
 * new wpengine.CachePurge("flush-pages", { installId, type: "page", triggers: { release: version } });
 */
export class CachePurge extends WpEngineResource {
  /** The install. */
  declare readonly installId: pulumi.Output<string>;
  /** The cache purged. */
  declare readonly type: pulumi.Output<"object" | "page" | "cdn" | "all">;
  /** The values whose change purges again. */
  declare readonly triggers: pulumi.Output<Record<string, unknown>>;
  /** Longest wait for the purge window, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** How many purges this resource has sent. */
  declare readonly purgeCount: pulumi.Output<number>;
  /** When the last purge was accepted (RFC 3339, the provider's clock). */
  declare readonly lastPurgedAt: pulumi.Output<string>;
  /** Seconds the last purge waited for the service's window. */
  declare readonly lastWaitSeconds: pulumi.Output<number>;

  constructor(name: string, args: CachePurgeArgs, opts?: ResourceOptions) {
    super(KIND, name, args, CACHE_PURGE_OUTPUTS, opts);
  }
}

const CACHE_PURGE_OUTPUTS = [
  "triggers",
  "timeoutSeconds",
  "purgeCount",
  "lastPurgedAt",
  "lastWaitSeconds",
] as const;
