import { z } from "zod";
import type { CreateEnvironmentRequest, Environment, UpdateEnvironmentRequest } from "../../sdk";
import { environmentAddress, environmentOf, resourceIdString, resourceNameOf } from "../core/appHosting";
import { unlessGone } from "../core/children";
import { collect, defineKind } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, out, stringInput, timeoutSecondsInput, uuidString } from "../core/inputs";
import { afterCreate, type Context, waitFor } from "../core/lifecycle";
import { asIs, wireOf } from "../core/wire";

const inputs = z.object({
  accountId: environmentAddress.accountId,
  appId: environmentAddress.appId,
  name: resourceIdString.meta({
    key: true,
    description:
      "The environment id, e.g. `production`, unique in the app: 1 to 63 lower-case letters, digits or hyphens. Pass it as `environmentId` to the resources that act on the environment.",
    replaces: true,
    wire: "environmentId",
  }),
  displayName: stringInput
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    .meta({ description: "The name shown in the console." }),
  branch: z
    .string({ error: "is required and must be a string (use `uploadable` for zip uploads)" })
    .trim()
    .min(1, "must not be empty (use `uploadable` for zip uploads)")
    .meta({
      description:
        "The git branch to build, or the literal `uploadable` for an environment deployed by zip uploads (see `EnvironmentSource`).",
    }),
  rootDirectory: stringInput
    .trim()
    .refine((s) => !s.startsWith("/") && !s.split("/").includes(".."), {
      message: "must be a relative path inside the repository (no leading / and no ..)",
    })
    .overwrite((s) => s.replace(/\/+$/, ""))
    .default("")
    .meta({
      description:
        "The directory of the repository (or upload) that holds the app, relative, without a trailing slash; empty for its root.",
    }),
  timeoutSeconds: timeoutSecondsInput(600),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  resourceName: out.string(
    "The resource name `accounts/{accountId}/apps/{appId}/environments/{name}` (also the resource id).",
  ),
  createTime: out.stringOrNull("When the environment was created (RFC 3339)."),
  reconciling: out.boolean(
    "Whether the platform was still applying a change when last read (false after create and update).",
  ),
});

const normalize = (key: string, v: unknown) =>
  key === "rootDirectory" ? (typeof v === "string" ? v.replace(/\/+$/, "") : "") : v;
const WIRE = wireOf(inputs, outputs, normalize, asIs);

/** Maps a service record to outputs, each in its canonical form (the root directory as the input stores it). */
export const environmentOutputs = (e: Environment, ctx: Pick<Context, "parents" | "key">) =>
  WIRE.canonical(WIRE.outputs(e, { resourceName: e.name || resourceNameOf(ctx) }));

const waitReconciled = (ctx: Context) =>
  waitFor(
    ctx,
    `environment ${resourceNameOf(ctx)} to finish reconciling`,
    () => ctx.client.environments.get(...environmentOf(ctx)),
    (e) => (e.reconciling ? "reconciling" : undefined),
  );

const findEnvironment = (ctx: Context) => unlessGone(ctx.client.environments.get(...environmentOf(ctx)));

/** Create's refusal of a name the app holds already (check says it at preview). */
const taken = (ctx: Context) =>
  alreadyExists(`environment ${ctx.key} already exists in app ${ctx.parent} of account ${ctx.parents[0]}`);

export const definition = defineKind({
  kind: "Environment",
  description:
    "An environment of an application-hosting app (production, staging...), built from a branch or, with the branch `uploadable`, from zip uploads (see `EnvironmentSource`). The platform applies every change asynchronously; create and update wait until it is applied. The id is its resource name `accounts/{accountId}/apps/{appId}/environments/{name}`.",
  deletes:
    "Deletes the environment on the service; its builds and domain mappings go with it. An environment already gone (or whose app is gone) counts as deleted.",
  gone: "An environment deleted on the service (or whose app is) reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "accounts/{accountId}/apps/{appId}/environments/{name}",
  identity: {
    what: "the environment's name in its app",
    find: async (_i, ctx) => ((await findEnvironment(ctx)) ? resourceNameOf(ctx) : undefined),
    refusal: (_id, ctx) => taken(ctx),
  },
  list: {
    inputs: z.object({
      accountId: uuidString.meta({ description: "The account of the app." }),
      appId: z.string().min(1).meta({ description: "The app whose environments are listed." }),
    }),
    items: async ({ accountId, appId }, client) =>
      (await collect(client.environments.iterate(accountId!, appId!, { pageSize: 1000 }))).map((e) => ({
        fields: { accountId: accountId!, appId: appId!, name: e.environmentId },
        name: e.environmentId,
      })),
  },
  inputs,
  outputs,
  normalize,
  async create(inputs, ctx) {
    const existing = await findEnvironment(ctx);
    if (existing && !inputs.adopt) throw taken(ctx);
    // An empty root directory is the repository's root: not sent.
    const body = WIRE.whole({ ...inputs, rootDirectory: inputs.rootDirectory || undefined });
    const record =
      existing ??
      (await ctx.client.environments.create(...environmentOf(ctx), body as CreateEnvironmentRequest));
    let outs = environmentOutputs(record, ctx);
    const id = outs.resourceName;
    const found = existing && outs;
    const patch = WIRE.patch(outs, inputs) as UpdateEnvironmentRequest | undefined;
    if (patch) {
      const updated = () => ctx.client.environments.update(...environmentOf(ctx), patch);
      outs = environmentOutputs(await afterCreate(id, outs, updated), ctx);
    }
    outs = environmentOutputs(await afterCreate(id, outs, () => waitReconciled(ctx)), ctx);
    return { id, outs, adopted: existing && `environment ${ctx.key} of app ${ctx.parent}`, found };
  },
  read: async (_id, _olds, ctx) => ({
    outs: environmentOutputs(await ctx.client.environments.get(...environmentOf(ctx)), ctx),
  }),
  async update(_id, olds, news, ctx) {
    const patch = WIRE.patch(olds, news) as UpdateEnvironmentRequest | undefined;
    if (patch) await ctx.client.environments.update(...environmentOf(ctx), patch);
    return environmentOutputs(await waitReconciled(ctx), ctx);
  },
  delete: (_id, _olds, ctx) => ctx.client.environments.delete(...environmentOf(ctx)),
});
