import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Zippable, zipSync } from "fflate";
import { z } from "zod";
import { environmentAddress, environmentOf, resourceNameOf } from "../core/appHosting";
import { unlessGone } from "../core/children";
import { defineKind } from "../core/define";
import { withInputFields } from "../core/errors";
import { containsUnknown, out, requiredString, timeoutSecondsInput, triggersInput } from "../core/inputs";
import { type Context, CreatedButFailedError, FORGOTTEN, waitFor } from "../core/lifecycle";

const SKIPPED_DIRECTORIES = [".git", "node_modules"];

const inputs = z.object({
  ...environmentAddress,
  path: requiredString.meta({
    description:
      "A `.zip` file, or a directory zipped on the fly (without `.git` and `node_modules`), relative to the program's working directory or absolute. A change of its content uploads again.",
    writeOnly: true,
  }),
  triggers: triggersInput.meta({
    description:
      "Any values; when they change, the source is uploaded again even if its content did not change.",
    writeOnly: true,
  }),
  timeoutSeconds: timeoutSecondsInput(900),
});

const outputs = z.object({
  buildName: out.stringOrNull("The resource name of the build of the upload."),
  buildState: out.stringOrNull(
    "The state of that build: SUCCEEDED after a successful create or update; the live state on refresh.",
  ),
  sourceHash: out.stringOrNull(
    "SHA-256 (hex) of the zip uploaded, computed by check from the content of `path` (it cannot be set); null when the deployed build is not this resource's.",
  ),
  size: out.numberOrNull("Size in bytes of the zip uploaded."),
});

/** True when the bytes begin like a zip archive (a local file header, or the end record of an empty zip). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  const [p, k, a, b] = bytes;
  return p === 0x50 && k === 0x4b && ((a === 0x03 && b === 0x04) || (a === 0x05 && b === 0x06));
}

/** Every file under `dir` as a sorted list of `/`-separated relative paths, skipping {@link SKIPPED_DIRECTORIES}. */
export function listFiles(dir: string, rel = ""): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const abs = join(dir, entry.name);
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      // A link to a file is uploaded as the file; links to directories are not followed (no cycles).
      if (entry.isSymbolicLink()) return statSync(abs, { throwIfNoEntry: false })?.isFile() ? [child] : [];
      if (entry.isDirectory()) return SKIPPED_DIRECTORIES.includes(entry.name) ? [] : listFiles(abs, child);
      return entry.isFile() ? [child] : [];
    })
    .sort();
}

/** Reads `path` (a .zip file, or a directory zipped deterministically) into the bytes to upload. */
export function buildArchive(path: string): { bytes: Uint8Array; sha256: string; size: number } {
  const abs = resolve(path);
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) throw new Error(`${path} does not exist (resolved to ${abs})`);
  let bytes: Uint8Array;
  if (stat.isDirectory()) {
    const files = listFiles(abs);
    if (!files.length)
      throw new Error(
        `directory ${abs} has no files to upload (${SKIPPED_DIRECTORIES.join(" and ")} are skipped)`,
      );
    // Zip stores local DOS times: a fixed local time gives the same bytes (and hash) in every time zone.
    const mtime = new Date(1980, 0, 2, 0, 0, 0);
    const entries: Zippable = {};
    for (const rel of files)
      entries[rel] = [new Uint8Array(readFileSync(join(abs, ...rel.split("/")))), { mtime }];
    bytes = zipSync(entries, { level: 6, mtime });
  } else if (stat.isFile()) {
    bytes = new Uint8Array(readFileSync(abs));
    if (!looksLikeZip(bytes))
      throw new Error(`${path} is not a zip file; give a .zip archive or a directory`);
  } else throw new Error(`${path} is neither a file nor a directory`);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

export const buildIdOf = (buildName: string): string => buildName.split("/").pop() ?? buildName;

/** Uploads the source at `path` and waits for its build to end: the outputs; a failed build is thrown. */
async function deploy(ctx: Context, { path }: z.output<typeof inputs>, id?: string) {
  let archive: ReturnType<typeof buildArchive>;
  try {
    archive = buildArchive(path);
  } catch (err) {
    // Names the input, as check does (the files may have changed since).
    throw Object.assign(err as Error, { message: `${(err as Error).message} (input "path")` });
  }
  let last = await ctx.client.environments
    .upload(...environmentOf(ctx), archive.bytes)
    .catch((err: unknown) => {
      // The service refuses uploads to an environment that builds a branch: the input to fix is the target.
      throw withInputFields(err, { branch: "environmentId", repository: "path" });
    });
  const name = last.name;
  // The inputs are the lifecycle's to keep.
  const outs = () => ({
    buildName: last.name ?? null,
    buildState: last.state ?? null,
    sourceHash: archive.sha256,
    size: archive.size,
  });
  try {
    await waitFor(
      ctx,
      `build ${name} to finish`,
      async () => {
        last = await ctx.client.builds.get(...environmentOf(ctx), buildIdOf(name));
        return last.state ?? "STATE_UNSPECIFIED";
      },
      (state) => (["SUCCEEDED", "FAILED", "CANCELLED"].includes(state) ? undefined : state),
    );
    if (last.state !== "SUCCEEDED") throw new Error(`build ${last.name} ended ${last.state}`);
  } catch (error) {
    // The upload happened: the build exists even if it failed, so a create (`id`) records the resource with it.
    throw id ? new CreatedButFailedError(id, outs(), error) : error;
  }
  return outs();
}

export const definition = defineKind({
  kind: "EnvironmentSource",
  description:
    "Local source deployed to an application-hosting environment whose branch is `uploadable`: `path` (a `.zip` file, or a directory zipped on the fly, deterministically) is uploaded and the resulting build awaited (SUCCEEDED; FAILED or CANCELLED fails). `check` hashes the content into `sourceHash`, so an edited file shows as an update without calling the service. The id is `accounts/{a}/apps/{app}/environments/{env}/source`.",
  deletes:
    "Forgets the resource only; nothing is sent to the service and the deployed build stays on the environment (the service cannot undeploy it short of deleting the environment). Delete says so in one line among the update's diagnostics (`wpengine:EnvironmentSource <id>: forgotten only, nothing sent to the service: ...`).",
  gone: "The environment deleted on the service reads as gone, and the refresh removes it from the state. Another version deployed on the service is not gone: it shows as drift of `sourceHash`, and the next `pulumi up` uploads this source again.",
  importId: {
    none: "the local path and the hash of its content are the program's; the service holds only builds.",
  },
  identity: { what: "the environment's deployed source (an environment runs one)" },
  naturalKey: {
    resend:
      "an upload of the same content: sending it again deploys the same files once more (one more build of them).",
  },
  inputs,
  outputs,
  // `sourceHash` is compared too: check (run where the program's files are) hashes them into it.
  computedInputs: ["sourceHash"],
  check(result) {
    const path = result.inputs["path"];
    if (typeof path !== "string" || path === "" || containsUnknown(path)) return result;
    try {
      return { ...result, inputs: { ...result.inputs, sourceHash: buildArchive(path).sha256 } };
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return { inputs: result.inputs, failures: [...(result.failures ?? []), { property: "path", reason }] };
    }
  },
  async create(inputs, ctx) {
    const id = `${resourceNameOf(ctx)}/source`;
    return { id, outs: await deploy(ctx, inputs, id) };
  },
  async read(_id, olds, ctx) {
    const live = (await ctx.client.environments.get(...environmentOf(ctx))).build || null;
    // Something else (or nothing) was deployed since: its content is unknown, so the next diff re-uploads ours.
    const other = { buildName: live, buildState: null, sourceHash: null, size: null };
    if (!live) return { outs: other };
    const ours = live === olds.buildName;
    const get = ctx.client.builds.get(...environmentOf(ctx), buildIdOf(live));
    const buildState = (ours ? await get : await unlessGone(get))?.state ?? null;
    // What the read leaves out (the inputs, and the build's hash and size when it is ours) stays as recorded.
    return { outs: (ours ? { buildState } : { ...other, buildState }) as z.output<typeof outputs> };
  },
  update: (_id, _olds, news, ctx) => deploy(ctx, news),
  delete: async (_id, olds) =>
    `${FORGOTTEN}the deployed build${olds.buildName ? ` ${olds.buildName}` : ""} stays on the environment`,
});
