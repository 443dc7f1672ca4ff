/** SSH keys of the calling API user (used for SSH gateway and git access to every install it can reach). */
import { z } from "zod";
import { EnvelopeListing } from "./core/listing";
import type { Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** An SSH key as the service lists it (the public key itself is not returned). */
export const SshKeySchema = z.looseObject({
  /** The key's UUID. */
  uuid: z.string(),
  /** The comment of the key line (often an email address). */
  comment: z.string().nullish(),
  /** MD5 fingerprint, colon-separated hex (`a1:b2:...`). */
  fingerprint: z.string().nullish(),
  /** When the key was added. */
  created_at: z.string().nullish(),
});
/** An SSH key. */
export type SshKey = z.infer<typeof SshKeySchema>;

/** Body of `POST /ssh_keys`. */
export const CreateSshKeyRequestSchema = z.strictObject({
  /** The OpenSSH public key line, e.g. `ssh-ed25519 AAAA... joe@example.com`. */
  public_key: z.string().min(1, "public_key must not be empty"),
});
/** Body of `POST /ssh_keys`. */
export type CreateSshKeyRequest = z.infer<typeof CreateSshKeyRequestSchema>;

/** Query of `GET /ssh_keys`. */
export const ListSshKeysParamsSchema = z.strictObject({
  /** Records per page, 1 to 100. */
  limit: z.number().int().min(1).max(100).optional(),
  /** Index of the first record. */
  offset: z.number().int().min(0).optional(),
});
/** Query of `GET /ssh_keys`. */
export type ListSshKeysParams = z.infer<typeof ListSshKeysParamsSchema>;

/** Operations on the calling user's SSH keys. */
export class SshKeys {
  readonly #list: EnvelopeListing<SshKey>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, SshKeySchema);
  }

  /** Lists one page of the caller's keys. */
  async list(params: ListSshKeysParams = {}): Promise<Page<SshKey>> {
    const p = validateInput("sshKeys.list", ListSshKeysParamsSchema, params);
    return this.#list.page("/ssh_keys", { limit: p.limit, offset: p.offset });
  }

  /** Iterates every key of the caller, following the pages (there is no single-key GET). */
  iterate(params: Omit<ListSshKeysParams, "offset"> = {}): AsyncIterable<SshKey> {
    const p = validateInput("sshKeys.iterate", ListSshKeysParamsSchema, params);
    return this.#list.all("/ssh_keys", { limit: p.limit });
  }

  /** Adds a public key (201). */
  async create(body: CreateSshKeyRequest): Promise<SshKey> {
    const req = validateInput("sshKeys.create", CreateSshKeyRequestSchema, body);
    // Creates a record: not retried once the request may have reached the server.
    return this.transport.request(
      { method: "POST", path: "/ssh_keys", body: req, retry: "unsafe" },
      SshKeySchema,
    );
  }

  /** Deletes a key (204). */
  async delete(sshKeyId: string): Promise<void> {
    await this.transport.requestVoid({ method: "DELETE", path: path`/ssh_keys/${sshKeyId}` });
  }
}
