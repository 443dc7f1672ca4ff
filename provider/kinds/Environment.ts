/**
 * `Environment`: an environment of an application-hosting app (production, staging...), built from a
 * branch or, with the branch `uploadable`, from zip uploads (see `EnvironmentSource`). The platform
 * applies every change asynchronously (`reconciling` is true meanwhile); create and update wait for it.
 *
 * Delete: deletes the environment on the service (its builds and domain mappings go with it).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type Environment as ApiEnvironment, pollUntil } from "../../sdk";
import { COMMON_INPUTS, timeoutSecondsInput, uuidString } from "../core/inputs";
import { type Context, CreatedButFailedError, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { appResourceName, resourceIdString, withInputFields } from "./App";

const KIND = "Environment";

/** First delay between two polls of asynchronous work; it grows by half each time up to {@link POLL_MAX_MS}. */
export const POLL_FIRST_MS = 250;
/** Longest delay between two polls. */
export const POLL_MAX_MS = 10_000;

/** `accounts/{a}/apps/{app}/environments/{env}`: the service's resource name of an environment. */
export function environmentResourceName(accountId: string, appId: string, environmentId: string): string {
  return `${appResourceName(accountId, appId)}/environments/${environmentId}`;
}

/** The inputs that address an environment, shared by every resource that acts on one. */
export const environmentAddress = {
  /** The account that owns the app. Changing it replaces the resource. */
  accountId: uuidString("accountId"),
  /** The app id. Changing it replaces the resource. */
  appId: resourceIdString("appId"),
  /** The environment id. Changing it replaces the resource. */
  environmentId: resourceIdString("environmentId"),
} as const;

export const EnvironmentInputsSchema = z
  .object({
    /** The account that owns the app. Changing it replaces the environment. */
    accountId: uuidString("accountId"),
    /** The app id. Changing it replaces the environment. */
    appId: resourceIdString("appId"),
    /** The environment id (e.g. `production`), unique in the app. Changing it replaces the environment. */
    name: resourceIdString("name"),
    /** The name shown in the console. */
    displayName: z
      .string({ error: "displayName is required and must be a string" })
      .trim()
      .min(1, "displayName must not be empty")
      .max(100, "displayName must be at most 100 characters"),
    /** The git branch to build, or the literal `uploadable` for an environment deployed by zip uploads. */
    branch: z
      .string({ error: "branch is required and must be a string (use `uploadable` for zip uploads)" })
      .trim()
      .min(1, "branch must not be empty (use `uploadable` for zip uploads)"),
    /** The directory of the repository (or upload) that holds the app; empty for its root. */
    rootDirectory: z
      .string({ error: "rootDirectory must be a string" })
      .trim()
      .refine((s) => !s.startsWith("/") && !s.split("/").includes(".."), {
        message: "rootDirectory must be a relative path inside the repository (no leading / and no ..)",
      })
      .transform((s) => s.replace(/\/+$/, ""))
      .default(""),
    /** How long create and update wait for the platform to apply the change, in seconds (default 600). */
    timeoutSeconds: timeoutSecondsInput(600),
    ...COMMON_INPUTS,
  })
  .strict();

export type EnvironmentInputs = z.output<typeof EnvironmentInputsSchema>;

/** Outputs of an Environment: its inputs plus what the service computes. */
export interface EnvironmentOutputs extends Record<string, unknown> {
  accountId: string;
  appId: string;
  name: string;
  displayName: string;
  branch: string;
  rootDirectory: string;
  resourceName: string;
  createTime: string | null;
  reconciling: boolean;
}

/** Maps a service record to outputs. */
export function environmentOutputs(accountId: string, appId: string, e: ApiEnvironment): EnvironmentOutputs {
  const environmentId = e.environmentId ?? e.name.split("/").pop() ?? e.name;
  return {
    accountId,
    appId,
    name: environmentId,
    displayName: e.displayName ?? "",
    branch: e.branch ?? "",
    rootDirectory: (e.rootDirectory ?? "").replace(/\/+$/, ""),
    resourceName: e.name || environmentResourceName(accountId, appId, environmentId),
    createTime: e.createTime ?? null,
    reconciling: e.reconciling ?? false,
  };
}

/** The fields to PATCH to bring an environment from `have` to `want`; `undefined` when nothing differs. */
export function environmentPatch(
  have: Pick<EnvironmentOutputs, "displayName" | "branch" | "rootDirectory">,
  want: Pick<EnvironmentInputs, "displayName" | "branch" | "rootDirectory">,
): { displayName?: string; branch?: string; rootDirectory?: string } | undefined {
  const patch: { displayName?: string; branch?: string; rootDirectory?: string } = {};
  if (have.displayName !== want.displayName) patch.displayName = want.displayName;
  if (have.branch !== want.branch) patch.branch = want.branch;
  if (have.rootDirectory !== want.rootDirectory) patch.rootDirectory = want.rootDirectory;
  return Object.keys(patch).length ? patch : undefined;
}

/** Polls an environment until `reconciling` is false, within `timeoutSeconds`; returns the settled record. */
export function waitReconciled(
  ctx: Context,
  accountId: string,
  appId: string,
  environmentId: string,
  timeoutSeconds: number,
): Promise<ApiEnvironment> {
  return pollUntil<ApiEnvironment>({
    deadlineMs: timeoutSeconds * 1000,
    intervalMs: POLL_FIRST_MS,
    maxIntervalMs: POLL_MAX_MS,
    describe: `environment ${environmentResourceName(accountId, appId, environmentId)} to finish reconciling (timeoutSeconds ${timeoutSeconds})`,
    check: async () => {
      const e = await ctx.client.environments.get(accountId, appId, environmentId);
      return e.reconciling ? { done: false, state: "reconciling" } : { done: true, value: e };
    },
  });
}

async function findEnvironment(ctx: Context, inputs: EnvironmentInputs): Promise<ApiEnvironment | undefined> {
  try {
    return await ctx.client.environments.get(inputs.accountId, inputs.appId, inputs.name);
  } catch (err) {
    if ((err as { status?: number }).status === 404) return undefined;
    throw err;
  }
}

export const provider = defineProvider<EnvironmentInputs, EnvironmentOutputs>({
  kind: KIND,
  schema: EnvironmentInputsSchema,
  replaceOn: ["accountId", "appId", "name"],
  updatable: ["displayName", "branch", "rootDirectory"],
  normalize: (key, v) => (key === "rootDirectory" ? (typeof v === "string" ? v.replace(/\/+$/, "") : "") : v),
  async create(inputs, ctx) {
    const { accountId, appId, name } = inputs;
    let record = await findEnvironment(ctx, inputs);
    if (record && !inputs.adopt) {
      throw new Error(
        `environment ${name} already exists in app ${appId} of account ${accountId}; set adopt: true to take it over`,
      );
    }
    if (!record) {
      record = await ctx.client.environments
        .create(accountId, appId, name, {
          displayName: inputs.displayName,
          branch: inputs.branch,
          ...(inputs.rootDirectory ? { rootDirectory: inputs.rootDirectory } : {}),
        })
        .catch((err: unknown) => {
          throw withInputFields(err, { environmentId: "name" });
        });
    }
    const id = record.name || environmentResourceName(accountId, appId, name);
    let outs = environmentOutputs(accountId, appId, record);
    try {
      const patch = environmentPatch(outs, inputs);
      if (patch)
        outs = environmentOutputs(
          accountId,
          appId,
          await ctx.client.environments.update(accountId, appId, name, patch),
        );
      const settled = await waitReconciled(ctx, accountId, appId, name, inputs.timeoutSeconds);
      return { id, outs: environmentOutputs(accountId, appId, settled) };
    } catch (err) {
      throw new CreatedButFailedError(id, outs, err);
    }
  },
  async read(_id, olds, ctx) {
    const e = await ctx.client.environments.get(olds.accountId, olds.appId, olds.name);
    const outs = environmentOutputs(olds.accountId, olds.appId, e);
    const { accountId, appId, name, displayName, branch, rootDirectory } = outs;
    return { outs, inputs: { accountId, appId, name, displayName, branch, rootDirectory } };
  },
  async update(_id, olds, news, ctx) {
    const { accountId, appId, name } = news;
    const patch = environmentPatch(olds, news);
    if (patch) await ctx.client.environments.update(accountId, appId, name, patch);
    const settled = await waitReconciled(ctx, accountId, appId, name, news.timeoutSeconds);
    return environmentOutputs(accountId, appId, settled);
  },
  async delete(_id, olds, ctx) {
    await ctx.client.environments.delete(olds.accountId, olds.appId, olds.name);
  },
});

/** Arguments of an {@link Environment}. */
export interface EnvironmentArgs {
  /** The account that owns the app (UUID). Changing it replaces the environment. */
  accountId: pulumi.Input<string>;
  /** The app id (`App.name`). Changing it replaces the environment. */
  appId: pulumi.Input<string>;
  /** The environment id, e.g. `production` (1 to 63 lower-case letters, digits or hyphens). Changing it replaces the environment. */
  name: pulumi.Input<string>;
  /** The name shown in the console. */
  displayName: pulumi.Input<string>;
  /** The git branch to build, or `uploadable` for an environment deployed by zip uploads. */
  branch: pulumi.Input<string>;
  /** The directory of the repository (or upload) that holds the app (default: its root). */
  rootDirectory?: pulumi.Input<string>;
  /** How long create and update wait for the platform to apply the change, in seconds (default 600). */
  timeoutSeconds?: pulumi.Input<number>;
  /** Take over an environment of that id that already exists in the app instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * An environment of an application-hosting app. The id is its resource name
 * `accounts/{accountId}/apps/{appId}/environments/{name}`. Delete deletes the environment.
 *
 * @example
 * const prod = new wpengine.Environment("prod", {
 *   accountId, appId: app.name, name: "production", displayName: "Production", branch: "uploadable",
 * });
 */
export class Environment extends WpEngineResource {
  /** The account that owns the app. */
  declare readonly accountId: pulumi.Output<string>;
  /** The app id. */
  declare readonly appId: pulumi.Output<string>;
  /** The environment id (pass it as `environmentId` to the resources that act on it). */
  declare readonly name: pulumi.Output<string>;
  /** The name shown in the console. */
  declare readonly displayName: pulumi.Output<string>;
  /** The branch built, or `uploadable`. */
  declare readonly branch: pulumi.Output<string>;
  /** The directory that holds the app ("" for the root). */
  declare readonly rootDirectory: pulumi.Output<string>;
  /** How long create and update wait, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** The resource name `accounts/{accountId}/apps/{appId}/environments/{name}` (also the resource id). */
  declare readonly resourceName: pulumi.Output<string>;
  /** When the environment was created (RFC 3339). */
  declare readonly createTime: pulumi.Output<string | null>;
  /** Whether the platform was still applying a change when last read (false after create and update). */
  declare readonly reconciling: pulumi.Output<boolean>;
  /** Whether this resource took over an existing environment. */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: EnvironmentArgs, opts?: ResourceOptions) {
    super(KIND, name, args, ENVIRONMENT_OUTPUTS, opts);
  }
}

const ENVIRONMENT_OUTPUTS = [
  "rootDirectory",
  "timeoutSeconds",
  "resourceName",
  "createTime",
  "reconciling",
  "adopt",
] as const;
