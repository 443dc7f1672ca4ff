import { createHash } from "node:crypto";
import { z } from "zod";
import type { CreateSshKeyRequest } from "../../sdk";
import { defineKind, findFirst } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, out, ruled, stringInput } from "../core/inputs";
import type { Context } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const SSH_KEY_TYPES = ["ssh-ed25519", "ssh-rsa", ...[256, 384, 521].map((bits) => `ecdsa-sha2-nistp${bits}`)];

/** Parses an OpenSSH public key line (`<type> <base64> [comment]`), or says why it is not one. */
export function parsePublicKey(line: string): { type: string; blob: Buffer; comment: string } | string {
  if (/PRIVATE KEY/.test(line))
    return "is a private key: give the public key line (the .pub file), never the private key";
  const [type, data, ...comment] = line.trim().split(/\s+/);
  if (!type || !data) return "must be an OpenSSH public key line: <type> <base64 key> [comment]";
  if (!SSH_KEY_TYPES.includes(type)) return `type ${type} is not one of ${SSH_KEY_TYPES.join(", ")}`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return "'s key part is not base64";
  const blob = Buffer.from(data, "base64");
  const length = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  if (length < 0 || blob.subarray(4, 4 + length).toString() !== type)
    return `'s key part is not a ${type} key (it does not start with its type)`;
  return { type, blob, comment: comment.join(" ") };
}

const canonicalKey = (value: unknown): unknown =>
  typeof value === "string" ? value.trim().split(/\s+/).join(" ") : value;

/** The MD5 fingerprint of a key blob as the service shows it: colon-separated hex pairs. */
export const md5Fingerprint = (blob: Buffer): string =>
  (createHash("md5").update(blob).digest("hex").match(/../g) ?? []).join(":");

const inputs = z.object({
  publicKey: ruled(stringInput, (s) => {
    const parsed = parsePublicKey(s);
    return typeof parsed === "string" ? { property: "publicKey", reason: parsed } : undefined;
  })
    .overwrite((s) => canonicalKey(s) as string)
    .meta({
      key: true,
      description:
        "The OpenSSH public key line, e.g. `ssh-ed25519 AAAA... joe@example.com`, kept with single spaces. The service never returns it: it is the declared one.",
      replaces: true,
      writeOnly: true,
    }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  sshKeyId: out.string("The key's UUID (also the resource id).", { wire: "uuid" }),
  fingerprint: out.stringOrNull("The MD5 fingerprint as the service shows it (`a1:b2:...`)."),
  comment: out.stringOrNull("The key's comment."),
  createdAt: out.stringOrNull("When the key was added."),
});

/** The wire mapping: the service never answers the key itself, which the lifecycle keeps from the inputs or state. */
const WIRE = wireOf(inputs, outputs);

/** The fingerprint of the call's key line, which `check` has parsed (a line that is no key never gets here). */
const fingerprintOf = (ctx: Context) => md5Fingerprint((parsePublicKey(ctx.key) as { blob: Buffer }).blob);

/** Create's refusal of a key the API user holds already (check says it at preview). */
const added = (fingerprint: string, id: string) =>
  alreadyExists(`this key (fingerprint ${fingerprint}) is already added to the API user (id ${id})`);

const findSame = (ctx: Context, fingerprint: string) =>
  findFirst(ctx.client.sshKeys.iterate(), (k) => k.fingerprint?.toLowerCase() === fingerprint);

export const definition = defineKind({
  kind: "SshKey",
  description:
    "An OpenSSH public key of the API user the provider authenticates as (SSH gateway and git access to the installs that user can reach). The service has no update: a new key replaces it, the old one removed first. The id is the key's UUID.",
  deletes: "Deletes the key from the API user on the service. A key already gone counts as deleted.",
  gone: "A key deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: { none: "the service never returns a public key, which the resource's state keeps." },
  identity: {
    what: "the public key (by its fingerprint) among the API user's keys",
    name: "comment",
    find: async (_i, ctx) => (await findSame(ctx, fingerprintOf(ctx)))?.uuid,
    refusal: (id, ctx) => added(fingerprintOf(ctx), id),
  },
  inputs,
  outputs,
  // A key as the service lists it may differ in blanks from the checked input (an import, a refresh).
  normalize: (_key, v) => canonicalKey(v),
  deleteBeforeReplace: true,
  async create(inputs, ctx) {
    const fingerprint = fingerprintOf(ctx);
    const existing = await findSame(ctx, fingerprint);
    if (existing && !inputs.adopt) throw added(fingerprint, existing.uuid);
    const record = existing ?? (await ctx.client.sshKeys.create(WIRE.body(inputs) as CreateSshKeyRequest));
    const adopted = existing && `SSH key ${fingerprint} of the API user`;
    return { id: record.uuid, outs: WIRE.outputs(record), adopted };
  },
  async read(id, _olds, ctx) {
    const k = await findFirst(ctx.client.sshKeys.iterate(), (x) => x.uuid === id);
    return k && { outs: WIRE.outputs(k) };
  },
  async delete(id, _olds, ctx) {
    await ctx.client.sshKeys.delete(id);
  },
});
