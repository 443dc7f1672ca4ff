/**
 * `SshKey`: an OpenSSH public key of the API user the provider authenticates as (SSH gateway and git
 * access to the installs that user can reach). The service keeps the key and answers its uuid, comment
 * and MD5 fingerprint; it has no update, so any change of the key replaces it (the old key is removed
 * first: the service refuses the same key twice, and a new comment keeps the same key).
 *
 * Delete: deletes the key on the service.
 */
import { createHash } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { SshKey as ApiSshKey } from "../../sdk";
import { COMMON_INPUTS } from "../core/inputs";
import { type Context, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "SshKey";

/** The key types the service accepts. */
export const SSH_KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
] as const;

/** A parsed public key line: its type, the key blob and the comment. */
export interface ParsedPublicKey {
  type: string;
  blob: Buffer;
  comment: string;
}

/**
 * Parses an OpenSSH public key line (`<type> <base64> [comment]`), or says why it is not one. The blob
 * must decode and name its own type, as `ssh-keygen` writes it.
 */
export function parsePublicKey(line: string): ParsedPublicKey | string {
  if (/PRIVATE KEY/.test(line))
    return "publicKey is a private key: give the public key line (the .pub file), never the private key";
  const [type, data, ...comment] = line.trim().split(/\s+/);
  if (!type || !data) return "publicKey must be an OpenSSH public key line: <type> <base64 key> [comment]";
  if (!(SSH_KEY_TYPES as readonly string[]).includes(type))
    return `publicKey type ${type} is not one of ${SSH_KEY_TYPES.join(", ")}`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return "publicKey's key part is not base64";
  const blob = Buffer.from(data, "base64");
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  if (length < 0 || blob.subarray(4, 4 + length).toString() !== type)
    return `publicKey's key part is not a ${type} key (it does not start with its type)`;
  return { type, blob, comment: comment.join(" ") };
}

/** The key line in canonical form: single spaces, no surrounding blanks. */
export function canonicalKey(value: unknown): unknown {
  return typeof value === "string" ? value.trim().split(/\s+/).join(" ") : value;
}

/** The MD5 fingerprint of a key blob as the service shows it: colon-separated hex pairs. */
export function md5Fingerprint(blob: Buffer): string {
  return (createHash("md5").update(blob).digest("hex").match(/../g) ?? []).join(":");
}

export const SshKeyInputsSchema = z
  .object({
    /** The OpenSSH public key line, e.g. `ssh-ed25519 AAAA... joe@example.com`. Changing it replaces the key. */
    publicKey: z.string({ error: "publicKey is required and must be a string" }).transform((s, ctx) => {
      const parsed = parsePublicKey(s);
      if (typeof parsed === "string") {
        ctx.addIssue({ code: "custom", message: parsed });
        return z.NEVER;
      }
      return canonicalKey(s) as string;
    }),
    ...COMMON_INPUTS,
  })
  .strict();

export type SshKeyInputs = z.output<typeof SshKeyInputsSchema>;

/** Outputs of an SshKey. */
export interface SshKeyOutputs extends Record<string, unknown> {
  publicKey: string;
  sshKeyId: string;
  fingerprint: string | null;
  comment: string | null;
  createdAt: string | null;
}

/** Maps a service record to outputs (the service never answers the key itself: it is the input's). */
export function sshKeyOutputs(publicKey: string, k: ApiSshKey): SshKeyOutputs {
  return {
    publicKey,
    sshKeyId: k.uuid,
    fingerprint: k.fingerprint ?? null,
    comment: k.comment ?? null,
    createdAt: k.created_at ?? null,
  };
}

async function findKey(ctx: Context, match: (k: ApiSshKey) => boolean): Promise<ApiSshKey | undefined> {
  for await (const k of ctx.client.sshKeys.iterate()) if (match(k)) return k;
  return undefined;
}

export const provider = defineProvider<SshKeyInputs, SshKeyOutputs>({
  kind: KIND,
  schema: SshKeyInputsSchema,
  replaceOn: ["publicKey"],
  updatable: [],
  deleteBeforeReplace: true,
  normalize: (_key, v) => canonicalKey(v),
  async create(inputs, ctx) {
    const parsed = parsePublicKey(inputs.publicKey);
    if (typeof parsed === "string") throw new Error(parsed);
    const fingerprint = md5Fingerprint(parsed.blob);
    const existing = await findKey(ctx, (k) => k.fingerprint?.toLowerCase() === fingerprint);
    if (existing && !inputs.adopt) {
      throw new Error(
        `this key (fingerprint ${fingerprint}) is already added to the API user (id ${existing.uuid}); set adopt: true to take it over`,
      );
    }
    const record = existing ?? (await ctx.client.sshKeys.create({ public_key: inputs.publicKey }));
    return { id: record.uuid, outs: sshKeyOutputs(inputs.publicKey, record) };
  },
  async read(id, olds, ctx) {
    const k = await findKey(ctx, (x) => x.uuid === id);
    if (!k) return undefined;
    return { outs: sshKeyOutputs(olds.publicKey, k), inputs: { publicKey: olds.publicKey } };
  },
  async delete(id, _olds, ctx) {
    await ctx.client.sshKeys.delete(id);
  },
});

/** Arguments of an {@link SshKey}. */
export interface SshKeyArgs {
  /** The OpenSSH public key line (`ssh-ed25519 AAAA... comment`). Changing it replaces the key. */
  publicKey: pulumi.Input<string>;
  /** Take over the same key already added to the API user instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * An SSH public key of the API user the provider authenticates as. The id is the key's UUID. Delete
 * removes the key.
 *
 * @example
 * new wpengine.SshKey("ci", { publicKey: fs.readFileSync("id_ed25519.pub", "utf8") });
 */
export class SshKey extends WpEngineResource {
  /** The key line, in canonical spacing. */
  declare readonly publicKey: pulumi.Output<string>;
  /** The key's UUID (also the resource id). */
  declare readonly sshKeyId: pulumi.Output<string>;
  /** The MD5 fingerprint as the service shows it (`a1:b2:...`). */
  declare readonly fingerprint: pulumi.Output<string | null>;
  /** The key's comment. */
  declare readonly comment: pulumi.Output<string | null>;
  /** When the key was added. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** Whether this resource took over a key already added. */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: SshKeyArgs, opts?: ResourceOptions) {
    super(KIND, name, args, SSH_KEY_OUTPUTS, opts);
  }
}

const SSH_KEY_OUTPUTS = ["sshKeyId", "fingerprint", "comment", "createdAt", "adopt"] as const;
