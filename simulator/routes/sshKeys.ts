import { createHash, randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest, notFound } from "../errors";
import { callerOf, paginate, parseBody, type Req } from "../http";
import type { Sim } from "../sim";
import type { SshKeyRecord } from "../store";

const KEY_TYPES = new Set([
  "ssh-rsa",
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
]);

const CreateSshKey = z.strictObject({ public_key: z.string().min(1) });

/** Parses an OpenSSH public key line; null when it is not one. */
function parseKey(line: string): { blob: Buffer; comment: string } | null {
  const [type, data, ...comment] = line.trim().split(/\s+/);
  if (!type || !data || !KEY_TYPES.has(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const blob = Buffer.from(data, "base64");
  // The blob starts with its own type name, length-prefixed.
  if (blob.length < 4) return null;
  const length = blob.readUInt32BE(0);
  if (blob.subarray(4, 4 + length).toString() !== type) return null;
  return { blob, comment: comment.join(" ") };
}

function sshKeyView(k: SshKeyRecord): Record<string, unknown> {
  return { uuid: k.uuid, comment: k.comment, fingerprint: k.fingerprint, created_at: k.created_at };
}

/** SSH keys of the calling API user: list, add, delete. */
export function registerSshKeys(app: FastifyInstance, sim: Sim): void {
  const mine = (req: Req) =>
    Object.values(sim.world.ssh_keys).filter((k) => k.user_id === callerOf(req).userId);

  app.get("/v1/ssh_keys", async (req: Req) => paginate(req, mine(req), sshKeyView));

  app.post("/v1/ssh_keys", async (req: Req, reply) => {
    const body = parseBody(CreateSshKey, req.body, "ssh_key");
    const parsed = parseKey(body.public_key);
    if (!parsed)
      throw badRequest("ssh_key", "public_key", "public_key is not an OpenSSH public key", "invalid_key");
    const fingerprint = (createHash("md5").update(parsed.blob).digest("hex").match(/../g) ?? []).join(":");
    if (mine(req).some((k) => k.fingerprint === fingerprint)) {
      throw badRequest(
        "ssh_key",
        "public_key",
        "This key has already been added",
        "already_exists",
        "value_unavailable",
      );
    }
    const key: SshKeyRecord = {
      uuid: randomUUID(),
      user_id: callerOf(req).userId,
      public_key: body.public_key.trim(),
      comment: parsed.comment,
      fingerprint,
      created_at: sim.clock.iso(),
    };
    sim.world.ssh_keys[key.uuid] = key;
    sim.store.touch();
    return reply.code(201).send(sshKeyView(key));
  });

  app.delete("/v1/ssh_keys/:ssh_key_id", async (req: Req, reply) => {
    const id = req.params["ssh_key_id"]!;
    if (!z.guid().safeParse(id).success)
      throw badRequest("ssh_key", "ssh_key_id", "ssh_key_id must be a UUID", "invalid_id");
    const key = sim.world.ssh_keys[id];
    if (!key || key.user_id !== callerOf(req).userId) throw notFound("SSH key");
    delete sim.world.ssh_keys[key.uuid];
    sim.store.touch();
    return reply.code(204).send();
  });
}
