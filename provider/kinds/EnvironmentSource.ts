/**
 * `EnvironmentSource`: deploys local source to an application-hosting environment whose branch is
 * `uploadable`. `path` is a `.zip` file, or a directory that is zipped on the fly (deterministically:
 * sorted entries, fixed times, without `.git` and `node_modules`). The zip is uploaded through the
 * service's upload operation and the resulting build is awaited (SUCCEEDED; FAILED or CANCELLED fails).
 *
 * `check` hashes the content (SHA-256 of the zip that would be uploaded) into the checked input
 * `sourceHash`, so `diff` sees an edited file as an update without calling the service.
 *
 * Delete: forgets the resource; the deployed build stays on the environment (the service has no way to
 * "undeploy" it short of deleting the environment).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { type Zippable, zipSync } from "fflate";
import { z } from "zod";
import { type Build as ApiBuild, pollUntil } from "../../sdk";
import { type CheckFailure, containsUnknown, timeoutSecondsInput } from "../core/inputs";
import { type Context, CreatedButFailedError, defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { withInputFields } from "./App";
import { environmentAddress, environmentResourceName, POLL_FIRST_MS, POLL_MAX_MS } from "./Environment";
import { triggersInput } from "./EnvironmentCacheClear";

const KIND = "EnvironmentSource";

/** Directory names never uploaded, at any depth. */
export const SKIPPED_DIRECTORIES: readonly string[] = [".git", "node_modules"];

/**
 * The modification time written for every zipped entry. Built from local-time fields because zip
 * stores local DOS times: the bytes (and so the hash) are the same in every time zone.
 */
const FIXED_MTIME = () => new Date(1980, 0, 2, 0, 0, 0);

export const EnvironmentSourceInputsSchema = z
  .object({
    ...environmentAddress,
    /** A `.zip` file, or a directory to zip, relative to the program's working directory or absolute. */
    path: z.string({ error: "path is required and must be a string" }).min(1, "path must not be empty"),
    /** Any values; when they change, the source is uploaded again even if its content did not change. */
    triggers: triggersInput,
    /** How long create and update wait for the build to finish, in seconds (default 900). */
    timeoutSeconds: timeoutSecondsInput(900),
  })
  .strict();

/** The checked inputs: the schema's, plus the content hash `check` adds. */
export type EnvironmentSourceInputs = z.output<typeof EnvironmentSourceInputsSchema> & {
  sourceHash?: string;
};

/** Outputs of an EnvironmentSource. */
export interface EnvironmentSourceOutputs extends Record<string, unknown> {
  accountId: string;
  appId: string;
  environmentId: string;
  path: string;
  triggers: Record<string, unknown>;
  buildName: string | null;
  buildState: string | null;
  sourceHash: string | null;
  size: number | null;
}

/** The bytes to upload and their identity. */
export interface SourceArchive {
  bytes: Uint8Array;
  /** SHA-256 of `bytes`, hex. */
  sha256: string;
  /** Length of `bytes`. */
  size: number;
}

/** A problem with `path`, reported by check and by create/update with the property it is about. */
export class SourcePathError extends Error {
  override readonly name = "SourcePathError";
}

/** True when the bytes begin like a zip archive (a local file header, or the end record of an empty zip). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

/** Every file under `dir` as a sorted list of `/`-separated relative paths, skipping {@link SKIPPED_DIRECTORIES}. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childAbs = join(abs, entry.name);
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // A link to a file is uploaded as the file; links to directories are not followed (no cycles).
        const target = statSync(childAbs, { throwIfNoEntry: false });
        isFile = target?.isFile() ?? false;
        isDir = false;
      }
      if (isDir) {
        if (!SKIPPED_DIRECTORIES.includes(entry.name)) walk(childAbs, childRel);
      } else if (isFile) out.push(childRel);
    }
  };
  walk(dir, "");
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Zips a directory deterministically: same files and contents, same bytes. */
export function zipDirectory(dir: string): Uint8Array {
  const files = listFiles(dir);
  if (!files.length) {
    throw new SourcePathError(
      `directory ${dir} has no files to upload (${SKIPPED_DIRECTORIES.join(" and ")} are skipped)`,
    );
  }
  const mtime = FIXED_MTIME();
  const entries: Zippable = {};
  for (const rel of files)
    entries[rel] = [new Uint8Array(readFileSync(join(dir, ...rel.split("/")))), { mtime }];
  return zipSync(entries, { level: 6, mtime });
}

/** Reads `path` (a .zip file, or a directory zipped on the fly) into the archive to upload. */
export function buildArchive(path: string): SourceArchive {
  const abs = resolve(path);
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) throw new SourcePathError(`${path} does not exist (resolved to ${abs})`);
  let bytes: Uint8Array;
  if (stat.isDirectory()) bytes = zipDirectory(abs);
  else if (stat.isFile()) {
    bytes = new Uint8Array(readFileSync(abs));
    if (!looksLikeZip(bytes))
      throw new SourcePathError(`${path} is not a zip file; give a .zip archive or a directory`);
  } else throw new SourcePathError(`${path} is neither a file nor a directory`);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

/** The check failure for a path that cannot be uploaded, or the content hash. */
export function hashSource(path: string): { sourceHash: string } | { failure: CheckFailure } {
  try {
    return { sourceHash: buildArchive(path).sha256 };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { failure: { property: "path", reason } };
  }
}

/** The build id, the last segment of a build resource name. */
export function buildIdOf(buildName: string): string {
  return buildName.split("/").pop() ?? buildName;
}

function outputs(
  inputs: Pick<EnvironmentSourceInputs, "accountId" | "appId" | "environmentId" | "path" | "triggers">,
  build: Pick<ApiBuild, "name" | "state"> | null,
  archive: Pick<SourceArchive, "sha256" | "size"> | null,
): EnvironmentSourceOutputs {
  return {
    accountId: inputs.accountId,
    appId: inputs.appId,
    environmentId: inputs.environmentId,
    path: inputs.path,
    triggers: inputs.triggers,
    buildName: build?.name ?? null,
    buildState: build?.state ?? null,
    sourceHash: archive?.sha256 ?? null,
    size: archive?.size ?? null,
  };
}

/** Waits for a build to end; resolves with SUCCEEDED, throws naming the build on FAILED or CANCELLED. */
async function waitBuild(ctx: Context, inputs: EnvironmentSourceInputs, build: ApiBuild): Promise<ApiBuild> {
  const { accountId, appId, environmentId, timeoutSeconds } = inputs;
  let last = build;
  const done = await pollUntil<ApiBuild>({
    deadlineMs: timeoutSeconds * 1000,
    intervalMs: POLL_FIRST_MS,
    maxIntervalMs: POLL_MAX_MS,
    describe: `build ${build.name} to finish (timeoutSeconds ${timeoutSeconds})`,
    check: async () => {
      last = await ctx.client.builds.get(accountId, appId, environmentId, buildIdOf(build.name));
      const state = last.state ?? "STATE_UNSPECIFIED";
      return ["SUCCEEDED", "FAILED", "CANCELLED"].includes(state)
        ? { done: true, value: last }
        : { done: false, state };
    },
  }).catch((err: unknown) => {
    throw Object.assign(err as object, { build: last });
  });
  if (done.state !== "SUCCEEDED")
    throw Object.assign(new Error(`build ${done.name} ended ${done.state}`), { build: done });
  return done;
}

/** Uploads the source and waits for its build: the outputs, or an error carrying the outputs so far. */
async function deploy(
  ctx: Context,
  inputs: EnvironmentSourceInputs,
): Promise<{ outs: EnvironmentSourceOutputs } | { outs: EnvironmentSourceOutputs; error: unknown }> {
  let archive: SourceArchive;
  try {
    archive = buildArchive(inputs.path);
  } catch (err) {
    // Names the input, as check does (the files may have changed since).
    throw Object.assign(err as Error, { message: `${(err as Error).message} (input "path")` });
  }
  const build = await ctx.client.environments
    .upload(inputs.accountId, inputs.appId, inputs.environmentId, archive.bytes)
    .catch((err: unknown) => {
      // The service refuses uploads to an environment that builds a branch: the input to fix is the target.
      throw withInputFields(err, { branch: "environmentId", repository: "path" });
    });
  try {
    const done = await waitBuild(ctx, inputs, build);
    return { outs: outputs(inputs, done, archive) };
  } catch (err) {
    const seen = (err as { build?: ApiBuild }).build ?? build;
    return { outs: outputs(inputs, seen, archive), error: err };
  }
}

const definition = defineProvider<EnvironmentSourceInputs, EnvironmentSourceOutputs>({
  kind: KIND,
  schema: EnvironmentSourceInputsSchema,
  replaceOn: ["accountId", "appId", "environmentId"],
  updatable: ["path", "sourceHash", "triggers"],
  normalize: (key, v) => (key === "triggers" ? (v ?? {}) : (v ?? null)),
  async create(inputs, ctx) {
    const id = `${environmentResourceName(inputs.accountId, inputs.appId, inputs.environmentId)}/source`;
    const result = await deploy(ctx, inputs);
    // The upload happened: the build exists even if it failed, so the resource is recorded with it.
    if ("error" in result) throw new CreatedButFailedError(id, result.outs, result.error);
    return { id, outs: result.outs };
  },
  async read(_id, olds, ctx) {
    const env = await ctx.client.environments.get(olds.accountId, olds.appId, olds.environmentId);
    const live = env.build ? env.build : null;
    if (olds.buildName && live === olds.buildName) {
      const b = await ctx.client.builds.get(olds.accountId, olds.appId, olds.environmentId, buildIdOf(live));
      return { outs: { ...olds, buildState: b.state ?? null }, inputs: {} };
    }
    if (!live)
      return {
        outs: { ...olds, buildName: null, buildState: null, sourceHash: null, size: null },
        inputs: {},
      };
    // Something else was deployed since: its content is unknown, so the next diff re-uploads ours.
    let state: string | null = null;
    try {
      state =
        (await ctx.client.builds.get(olds.accountId, olds.appId, olds.environmentId, buildIdOf(live)))
          .state ?? null;
    } catch (err) {
      if ((err as { status?: number }).status !== 404) throw err;
    }
    return {
      outs: { ...olds, buildName: live, buildState: state, sourceHash: null, size: null },
      inputs: {},
    };
  },
  async update(_id, _olds, news, ctx) {
    const result = await deploy(ctx, news);
    if ("error" in result) throw result.error;
    return result.outs;
  },
  async delete(_id, olds) {
    // Forget only: the deployed build stays on the environment.
    return `${FORGOTTEN}the deployed build${olds.buildName ? ` ${olds.buildName}` : ""} stays on the environment`;
  },
});

/**
 * The provider of `EnvironmentSource`: the generic one, with a `check` that also hashes the source into
 * `sourceHash` (check runs where the program's files are, and makes no API call).
 */
export const provider: typeof definition = {
  ...definition,
  async check(olds, news) {
    const result = await definition.check!(olds, news);
    const path = result.inputs["path"];
    if (typeof path !== "string" || path === "" || containsUnknown(path)) return result;
    const hashed = hashSource(path);
    if ("failure" in hashed)
      return { inputs: result.inputs, failures: [...(result.failures ?? []), hashed.failure] };
    return { ...result, inputs: { ...result.inputs, sourceHash: hashed.sourceHash } };
  },
};

/** Arguments of an {@link EnvironmentSource}. */
export interface EnvironmentSourceArgs {
  /** The account that owns the app (UUID). Changing it replaces the resource. */
  accountId: pulumi.Input<string>;
  /** The app id. Changing it replaces the resource. */
  appId: pulumi.Input<string>;
  /** The environment id; its branch must be `uploadable`. Changing it replaces the resource. */
  environmentId: pulumi.Input<string>;
  /** A `.zip` file, or a directory zipped on the fly (without `.git` and `node_modules`). */
  path: pulumi.Input<string>;
  /** Any values; when they change, the source is uploaded again. */
  triggers?: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  /** How long create and update wait for the build, in seconds (default 900). */
  timeoutSeconds?: pulumi.Input<number>;
}

/**
 * Local source deployed to an application-hosting environment. The id is
 * `accounts/{a}/apps/{app}/environments/{env}/source`. Delete forgets; the build stays deployed.
 *
 * @example
 * const source = new wpengine.EnvironmentSource("site", {
 *   accountId, appId: app.name, environmentId: prod.name, path: "./dist",
 * });
 * export const build = source.buildName;
 */
export class EnvironmentSource extends WpEngineResource {
  /** The account that owns the app. */
  declare readonly accountId: pulumi.Output<string>;
  /** The app id. */
  declare readonly appId: pulumi.Output<string>;
  /** The environment id. */
  declare readonly environmentId: pulumi.Output<string>;
  /** The path uploaded, as given. */
  declare readonly path: pulumi.Output<string>;
  /** The values whose change re-uploads. */
  declare readonly triggers: pulumi.Output<Record<string, unknown>>;
  /** How long create and update wait, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** The resource name of the build of the upload. */
  declare readonly buildName: pulumi.Output<string | null>;
  /** The state of that build: SUCCEEDED after a successful create or update. */
  declare readonly buildState: pulumi.Output<string | null>;
  /** SHA-256 (hex) of the zip uploaded; null when the deployed build is not this resource's. */
  declare readonly sourceHash: pulumi.Output<string | null>;
  /** Size in bytes of the zip uploaded. */
  declare readonly size: pulumi.Output<number | null>;

  constructor(name: string, args: EnvironmentSourceArgs, opts?: ResourceOptions) {
    super(KIND, name, args, SOURCE_OUTPUTS, opts);
  }
}

const SOURCE_OUTPUTS = [
  "triggers",
  "timeoutSeconds",
  "buildName",
  "buildState",
  "sourceHash",
  "size",
] as const;
