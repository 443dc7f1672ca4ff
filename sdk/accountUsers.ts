/** Account users and their roles. */
import { z } from "zod";
import { emailString, idString } from "./common";
import { iterateAll } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** The roles the service accepts, in canonical form. */
export const ACCOUNT_USER_ROLES = ["owner", "full", "full,billing", "partial", "partial,billing"] as const;
/** A role string in canonical form. */
export type AccountUserRole = (typeof ACCOUNT_USER_ROLES)[number];

const ROLE_RANK: Record<string, number> = { owner: 0, full: 1, partial: 2, billing: 3 };

/**
 * Canonical form of a roles string: lower case, no spaces, primary role first, then `billing`
 * (the service answers e.g. `"billing, partial"` for `partial,billing`).
 */
export function normalizeRoles(roles: string): string {
  const parts = [
    ...new Set(
      roles
        .split(",")
        .map((r) => r.trim().toLowerCase())
        .filter((r) => r !== ""),
    ),
  ];
  parts.sort((a, b) => (ROLE_RANK[a] ?? 9) - (ROLE_RANK[b] ?? 9) || a.localeCompare(b));
  return parts.join(",");
}

/** An install a partial user can access. */
export const AccountUserInstallSchema = z.looseObject({
  /** Install UUID. */
  id: z.string(),
  /** Install name. */
  name: z.string().nullish(),
});

/** An account user. */
export const AccountUserSchema = z.looseObject({
  /** The user's UUID. */
  user_id: z.string(),
  /** The account's UUID. */
  account_id: z.string().nullish(),
  /** First name. */
  first_name: z.string().nullish(),
  /** Last name. */
  last_name: z.string().nullish(),
  /** Email address. */
  email: z.string().nullish(),
  /** Phone number. */
  phone: z.string().nullish(),
  /** Whether the invitation was accepted. */
  invite_accepted: z.boolean().nullish(),
  /** Whether MFA is enabled. */
  mfa_enabled: z.boolean().nullish(),
  /** Roles, normalised to the canonical form (`partial,billing`, never `billing, partial`). */
  roles: z.string().transform(normalizeRoles),
  /** True when this owner is the last one of the account (owner-level users only). */
  last_owner: z.boolean().nullish(),
  /** Installs a partial user can access. */
  installs: z.array(AccountUserInstallSchema).nullish(),
});
/** An account user. */
export type AccountUser = z.infer<typeof AccountUserSchema>;

/** A roles input: any order and spacing is accepted, then it must be one of the five valid sets. */
const rolesInput = z
  .string({ error: `roles must be one of ${ACCOUNT_USER_ROLES.join(" | ")}` })
  .transform(normalizeRoles)
  .pipe(z.enum(ACCOUNT_USER_ROLES, { error: `roles must be one of ${ACCOUNT_USER_ROLES.join(" | ")}` }));

function partialOnly<T extends { roles: string; install_ids?: string[] | undefined }>(
  value: T,
  ctx: z.RefinementCtx,
  at: PropertyKey[],
): void {
  if (value.install_ids && value.install_ids.length > 0 && !value.roles.startsWith("partial")) {
    ctx.addIssue({
      code: "custom",
      path: [...at, "install_ids"],
      message: "install_ids is only used with partial roles",
    });
  }
}

/** The `user` object of a create request. */
export const NewAccountUserSchema = z.strictObject({
  /** The account's UUID. */
  account_id: idString("account_id"),
  /** First name. */
  first_name: z.string().min(1, "must not be empty"),
  /** Last name. */
  last_name: z.string().min(1, "must not be empty"),
  /** Email address. */
  email: emailString,
  /** owner, full, full,billing, partial or partial,billing. */
  roles: rolesInput,
  /** Installs a partial user may access. */
  install_ids: z.array(idString("install id")).optional(),
});

/** Body of `POST /accounts/{id}/account_users`. */
export const CreateAccountUserRequestSchema = z
  .strictObject({
    /** The user to create. */
    user: NewAccountUserSchema,
  })
  .superRefine((v, ctx) => partialOnly(v.user, ctx, ["user"]));
/** Body of `POST /accounts/{id}/account_users`. */
export type CreateAccountUserRequest = z.input<typeof CreateAccountUserRequestSchema>;

/** Body of `PATCH /accounts/{id}/account_users/{user_id}` (name and email cannot change). */
export const UpdateAccountUserRequestSchema = z
  .strictObject({
    /** owner, full, full,billing, partial or partial,billing. */
    roles: rolesInput,
    /** Installs a partial user may access. */
    install_ids: z.array(idString("install id")).optional(),
  })
  .superRefine((v, ctx) => partialOnly(v, ctx, []));
/** Body of `PATCH /accounts/{id}/account_users/{user_id}`. */
export type UpdateAccountUserRequest = z.input<typeof UpdateAccountUserRequestSchema>;

/** Answer of create and update: `{message, account_user}`. */
export const AccountUserMutationSchema = z.looseObject({
  /** Confirmation text. */
  message: z.string().nullish(),
  /** The user as stored. */
  account_user: AccountUserSchema,
});
/** Answer of create and update. */
export type AccountUserMutation = z.infer<typeof AccountUserMutationSchema>;

const AccountUserListSchema = z.preprocess(
  (raw) => (Array.isArray(raw) ? { results: raw } : raw),
  z.looseObject({ results: z.array(AccountUserSchema) }),
);

/** Operations on account users. */
export class AccountUsers {
  constructor(private readonly transport: Transport) {}

  /** Lists every user of the account (the service answers `{results}` without paging). */
  async list(accountId: string): Promise<AccountUser[]> {
    return this.#list(path`/accounts/${accountId}/account_users`);
  }

  /** Iterates every user of the account. */
  iterate(accountId: string): AsyncIterable<AccountUser> {
    const listPath = path`/accounts/${accountId}/account_users`;
    return iterateAll(() => this.#list(listPath));
  }

  async #list(listPath: string): Promise<AccountUser[]> {
    return (await this.transport.request({ method: "GET", path: listPath }, AccountUserListSchema)).results;
  }

  /** Reads one user. */
  async get(accountId: string, userId: string): Promise<AccountUser> {
    return this.transport.request(
      { method: "GET", path: path`/accounts/${accountId}/account_users/${userId}` },
      AccountUserSchema,
    );
  }

  /** Invites a user (201 `{message, account_user}`). */
  async create(accountId: string, body: CreateAccountUserRequest): Promise<AccountUserMutation> {
    const req = validateInput("accountUsers.create", CreateAccountUserRequestSchema, body);
    // Creates a user and sends an invitation: not retried once the request may have reached the server.
    return this.transport.request(
      { method: "POST", path: path`/accounts/${accountId}/account_users`, body: req, retry: "unsafe" },
      AccountUserMutationSchema,
    );
  }

  /** Changes a user's roles and installs. */
  async update(
    accountId: string,
    userId: string,
    body: UpdateAccountUserRequest,
  ): Promise<AccountUserMutation> {
    const req = validateInput("accountUsers.update", UpdateAccountUserRequestSchema, body);
    // PATCH sets absolute values: repeating it leaves the same state, so it is retried freely.
    return this.transport.request(
      {
        method: "PATCH",
        path: path`/accounts/${accountId}/account_users/${userId}`,
        body: req,
        retry: "safe",
      },
      AccountUserMutationSchema,
    );
  }

  /** Removes a user from the account (204). */
  async delete(accountId: string, userId: string): Promise<void> {
    await this.transport.requestVoid({
      method: "DELETE",
      path: path`/accounts/${accountId}/account_users/${userId}`,
    });
  }
}
