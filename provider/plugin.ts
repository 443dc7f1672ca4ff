/**
 * The stable entry of the plugin side. Every serialized provider (see `thin.ts`) `require`s this file
 * by its package path, so it must keep its name and its two exports for as long as old state exists.
 */
import type * as pulumi from "@pulumi/pulumi";
import { setStackConfig } from "./config";

/** Keeps the `wpengine:*` stack config for this plugin process. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  setStackConfig((key) => req.config.get(key));
}

type Method = "check" | "diff" | "create" | "read" | "update" | "delete";

/** Runs one lifecycle method of a resource kind; the kind names its module (`./Domain` → `Domain`). */
export async function run(kind: string, method: Method, ...args: unknown[]): Promise<unknown> {
  if (!/^[A-Z][A-Za-z]+$/.test(kind))
    throw new Error(`wpengine: unknown resource kind ${JSON.stringify(kind)}`);
  // biome-ignore lint/suspicious/noExplicitAny: modules are looked up by kind at run time.
  const mod: any = require(`./${kind}`);
  const provider = mod.provider as pulumi.dynamic.ResourceProvider | undefined;
  const fn = provider?.[method] as ((...a: unknown[]) => Promise<unknown>) | undefined;
  if (!fn) throw new Error(`wpengine: resource ${kind} has no ${method}`);
  return fn.apply(provider, args);
}
