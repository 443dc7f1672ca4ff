import { z } from "zod";
import {
  type OffloadSettings as ApiOffloadSettings,
  type UpdateOffloadSettingsRequest,
  WpEngineWaitTimeoutError,
} from "../../sdk";
import { compareStrings, defineKind, listedUnder, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import {
  type CheckFailure,
  COMMON_INPUTS,
  out,
  parentInput,
  requiredString,
  ruled,
  stringInput,
  timeoutSecondsInput,
  whole,
} from "../core/inputs";
import { afterCreate, type Context, FORGOTTEN, waitFor } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const pathSetting = z
  .object({
    path: requiredString.meta({
      description: "The path of the install's files served from the bucket, e.g. `wp-content/uploads/`.",
    }),
    excludedPaths: z
      .array(
        z
          .string({ error: whole("each excluded path must be a string") })
          .min(1, whole("an excluded path must not be empty")),
      )
      .default([])
      .meta({ description: "Sub-paths of `path` kept on the install (default none)." }),
    redirectType: z.enum(["break", "permanent"], { error: 'must be "break" or "permanent"' }).meta({
      description: "What happens to requests for the path: `break`, or a `permanent` redirect to the bucket.",
    }),
  })
  .strict();

type PathSetting = z.output<typeof pathSetting>;

/** The check rule of the paths: each path at most once (two settings for one path are ambiguous). */
export const duplicatePathFailures = (pathSettings: readonly { path: string }[]): CheckFailure[] =>
  pathSettings.flatMap((p, i) =>
    pathSettings.findIndex((q) => q.path === p.path) < i
      ? {
          property: `pathSettings[${i}].path`,
          reason: whole(`duplicate path "${p.path}": each path may appear once in pathSettings`),
        }
      : [],
  );

const inputs = z.object({
  installId: parentInput("The install whose offload settings this resource owns (also the resource id)."),
  cloud: z
    .enum(["s3"], { error: 'must be "s3" (the only storage the service offers)' })
    .default("s3")
    .meta({ description: "The storage provider: `s3`, the only one the service offers." }),
  bucket: stringInput
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "must be an S3 bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit (no scheme or path)",
    )
    .meta({ description: "The S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens)." }),
  bucketRegion: stringInput
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, "must be an AWS region code such as us-east-1")
    .meta({ description: "The bucket's region, an AWS region code such as `us-east-1`." }),
  pathSettings: ruled(z.array(pathSetting), duplicatePathFailures).default([]).meta({
    description:
      "The offloaded paths (default none), each path at most once. Order never shows as a change: they are kept sorted by path.",
  }),
  timeoutSeconds: timeoutSecondsInput(300).meta({
    description:
      "How long create and update wait for the service to apply the settings, in seconds (at most 86400).",
  }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  status: out.stringOrNull(
    "`applied` once the service has applied the settings, `pending` while it is still applying a change.",
  ),
});

type OffloadSettingsInputs = z.output<typeof inputs>;
type OffloadSettingsOutputs = OutputsOf<typeof inputs, typeof outputs>;

/** Canonical form of the paths: sorted by path, excluded paths sorted and without duplicates. */
export function normalizePathSettings(list: unknown): PathSetting[] {
  if (!Array.isArray(list)) return [];
  return (list as Partial<PathSetting>[])
    .filter((p) => p && typeof p.path === "string")
    .map((p) => ({
      path: p.path as string,
      excludedPaths: [...new Set(Array.isArray(p.excludedPaths) ? p.excludedPaths : [])].sort(),
      redirectType: p.redirectType as PathSetting["redirectType"],
    }))
    .sort((a, b) => compareStrings(a.path, b.path));
}

const normalize = (key: string, v: unknown) => (key === "pathSettings" ? normalizePathSettings(v) : v);
const WIRE = wireOf(inputs, outputs, normalize);

/** What an install reports before any settings are made: each null (also as an input), so a diff shows it. */
const NOTHING = { cloud: null, bucket: null, bucketRegion: null, pathSettings: [] };

/** Maps the service's answer to outputs: its `settings` (canonical, each null where none is set) and `status`. */
export const offloadOutputs = (live: ApiOffloadSettings) =>
  ({
    ...WIRE.canonical(live.settings ? WIRE.outputs(live.settings) : NOTHING),
    status: live.status ?? null,
  }) as OffloadSettingsOutputs;

/** The PATCH body of the desired settings: the whole object, so the result never depends on the past. */
export const offloadRequest = (i: Partial<OffloadSettingsInputs>) =>
  WIRE.whole(WIRE.canonical(i)) as UpdateOffloadSettingsRequest;

/** Where settings offload to, as messages name it and the wait compares it: bucket and region (none without a bucket). */
const destination = (s: Partial<OffloadSettingsInputs>) =>
  s.bucket ? `bucket ${s.bucket} (${s.bucketRegion ?? "unknown region"})` : undefined;

const settingsOf = async (ctx: Context, installId = ctx.parent) =>
  offloadOutputs(await ctx.client.offloadSettings.get(installId));

/** Waits until a read shows the desired settings applied; the timeout becomes a plain message. */
async function waitApplied(ctx: Context, inputs: OffloadSettingsInputs): Promise<OffloadSettingsOutputs> {
  try {
    return await waitFor(
      ctx,
      `the offload settings of install ${ctx.parent} to be applied`,
      () => settingsOf(ctx),
      // Applied AND ours: a read racing the update could still show the previous settings as applied.
      (outs) =>
        outs.status === "applied" && destination(outs) === destination(inputs)
          ? undefined
          : `status ${outs.status ?? "unknown"}, ${destination(outs) ?? "no bucket"}`,
      { pace: { intervalMs: 500, maxIntervalMs: 10_000 } },
    );
  } catch (err) {
    if (!(err instanceof WpEngineWaitTimeoutError)) throw err;
    throw new Error(
      `the service accepted the offload settings of install ${ctx.parent} but did not apply them within timeoutSeconds (${ctx.timeoutSeconds} s; last seen: ${err.lastState ?? "nothing"}). ` +
        "Raise timeoutSeconds, or run `pulumi refresh` later to see the status.",
    );
  }
}

/** Create's refusal of settings made elsewhere (by hand, or another stack's) offloading to `found`, without `adopt`. */
function takeover(found: string | undefined, adopt: boolean | undefined, installId: string) {
  if (!found || adopt) return undefined;
  return alreadyExists(
    `install ${installId} already offloads files to ${found}, perhaps another stack's settings`,
    "set adopt: true to take these settings over (kept as they are when they are the declared ones, else replaced)",
  );
}

export const definition = defineKind({
  kind: "OffloadSettings",
  description:
    "The offloaded file storage (LargeFS) settings of an install: the S3 bucket that serves chosen paths of the install's files. Create and update send the whole settings and wait until the service has applied them (`timeoutSeconds`). The id is the install id: an install has one set of offload settings.",
  deletes:
    "Nothing on the service can delete or reset offload settings: delete only forgets the resource, and the install keeps offloading to the bucket until its settings are changed by hand.",
  gone: "Nothing deletes an install's offload settings; the install deleted reads as gone, and the refresh removes them from the state.",
  importId: "{installId}",
  identity: { what: "the install's offload settings (an install has one set)" },
  naturalKey: { resend: "a PATCH of the whole settings: sending it again leaves the same settings." },
  list: listedUnder(
    "installId",
    "The install whose offload settings are listed (none until a bucket is set).",
    async (client, installId) =>
      (await client.offloadSettings.get(installId)).settings?.bucket ? [installId] : [],
    (installId) => [installId, `${installId} offload`],
    "installId",
  ),
  inputs,
  outputs,
  normalize,
  takeover: async (inputs, ctx) => takeover(destination(await settingsOf(ctx)), inputs.adopt, ctx.parent),
  async create(inputs, ctx) {
    const current = await settingsOf(ctx);
    const found = destination(current);
    const refused = takeover(found, inputs.adopt, ctx.parent);
    if (refused) throw refused;
    const adopted = found && `offload settings of install ${ctx.parent}`;
    // Settings that already are the declared ones (an import, the way back after a crash) are not sent again.
    let outs = current;
    if (WIRE.patch(current, inputs)) {
      await ctx.client.offloadSettings.update(ctx.parent, offloadRequest(inputs));
      // The PATCH was accepted: the settings exist (pending) and are recorded with the inputs, never orphaned.
      outs = await afterCreate(ctx.parent, { status: "pending" }, () => waitApplied(ctx, inputs));
    } else if (current.status !== "applied") outs = await waitApplied(ctx, inputs);
    return { id: ctx.parent, outs, adopted, found: current };
  },
  read: async (id, _olds, ctx) => ({ outs: await settingsOf(ctx, ctx.parent || id) }),
  async update(_id, _olds, news, ctx) {
    await ctx.client.offloadSettings.update(ctx.parent, offloadRequest(news));
    return waitApplied(ctx, news);
  },
  delete: async (_id, olds) =>
    `${FORGOTTEN}offload settings cannot be deleted; the install keeps offloading to ${destination(olds) ?? "no bucket"}`,
});
