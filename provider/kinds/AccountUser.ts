/**
 * `AccountUser`: a person's access to one account, with a role set and, for partial roles, the installs
 * they are restricted to. The service sends the invitation; `inviteAccepted` turns true when it is used.
 *
 * Delete: removes the user from the account on the service (the service refuses to remove the last
 * owner of an account; the error says so).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { AccountUser as ApiAccountUser } from "../../sdk";
import { sharedChildren, unlessGone } from "../core/children";
import { COMMON_INPUTS, type Rule, requiredString, uuidString } from "../core/inputs";
import { CreatedButFailedError, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "AccountUser";

/** The role sets the service accepts, in their canonical spelling. */
export const CANONICAL_ROLES = ["owner", "full", "full,billing", "partial", "partial,billing"] as const;
/** One canonical role set. */
export type CanonicalRoles = (typeof CANONICAL_ROLES)[number];

/**
 * The canonical spelling of a role set: `Billing, Full`, `billing,full` and `full, billing` are all
 * `full,billing`. `undefined` when the value is not one of the allowed sets.
 */
export function canonicalRoles(value: string): CanonicalRoles | undefined {
  const parts = [
    ...new Set(
      value
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter((p) => p !== ""),
    ),
  ];
  const base = parts.filter((p) => p !== "billing");
  if (base.length !== 1) return undefined;
  const joined = parts.includes("billing") ? `${base[0]},billing` : `${base[0]}`;
  return (CANONICAL_ROLES as readonly string[]).includes(joined) ? (joined as CanonicalRoles) : undefined;
}

/** Whether a (canonical) role set is restricted to a list of installs. */
export function isPartial(roles: string): boolean {
  return canonicalRoles(roles)?.startsWith("partial") ?? false;
}

/** Install ids in a stable order without duplicates (the service treats them as a set). */
export function normalizeInstallIds(ids: readonly string[] | null | undefined): string[] | null {
  if (!ids || ids.length === 0) return null;
  return [...new Set(ids.map((id) => id.toLowerCase()))].sort();
}

const rolesInput = z
  .string({ error: `roles is required: one of ${CANONICAL_ROLES.join(" | ")}` })
  .transform((s, ctx) => {
    const canonical = canonicalRoles(s);
    if (canonical) return canonical;
    ctx.addIssue({
      code: "custom",
      message: `roles must be one of ${CANONICAL_ROLES.map((r) => `"${r}"`).join(", ")} (got "${s}")`,
    });
    return z.NEVER;
  });

export const AccountUserInputsSchema = z
  .object({
    /** The account the user belongs to. Changing it replaces the user. */
    accountId: uuidString("accountId"),
    /** The user's email address (the login). Changing it replaces the user. */
    email: z
      .string({ error: "email is required and must be a string" })
      .trim()
      .pipe(z.email("email must be an email address")),
    /** First name. The service cannot rename a user: changing it replaces the user. */
    firstName: requiredString("firstName").transform((s) => s.trim()),
    /** Last name. The service cannot rename a user: changing it replaces the user. */
    lastName: requiredString("lastName").transform((s) => s.trim()),
    /** Role set: owner, full, full,billing, partial or partial,billing (any order, case or spacing). */
    roles: rolesInput,
    /** Installs a partial user may access (required with partial roles, refused otherwise). */
    installIds: z
      .array(uuidString("installIds[]"), { error: "installIds must be a list of install ids" })
      .transform((ids) => normalizeInstallIds(ids) ?? [])
      .optional(),
    ...COMMON_INPUTS,
  })
  .strict();

export type AccountUserInputs = z.output<typeof AccountUserInputsSchema>;

/** The spec's rule 5 of authentication: partial roles are restricted to the installs in installIds. */
const rules: Rule<AccountUserInputs>[] = [
  {
    uses: ["roles", "installIds"],
    test: (i) => {
      const partial = isPartial(i.roles);
      const has = (i.installIds?.length ?? 0) > 0;
      if (partial && !has)
        return {
          property: "installIds",
          reason: `installIds is required with roles "${i.roles}": a partial user only sees the installs listed`,
        };
      if (!partial && i.installIds !== undefined && i.installIds.length > 0)
        return {
          property: "installIds",
          reason: `installIds applies only to partial roles; roles "${i.roles}" already reach every install`,
        };
      return undefined;
    },
  },
];

/** An install a partial user is tied to. */
export interface AccountUserInstall {
  id: string;
  name: string | null;
}

/** Outputs of an AccountUser: its inputs plus what the service reports. */
export interface AccountUserOutputs extends Record<string, unknown> {
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string;
  installIds: string[];
  userId: string;
  inviteAccepted: boolean;
  mfaEnabled: boolean;
  lastOwner: boolean | null;
  phone: string | null;
  installs: AccountUserInstall[];
}

/** Maps a service record to outputs (roles canonical, installs sorted by id). */
export function accountUserOutputs(accountId: string, u: ApiAccountUser): AccountUserOutputs {
  const installs = [...(u.installs ?? [])]
    .map((i) => ({ id: i.id, name: i.name ?? null }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const ids = normalizeInstallIds(installs.map((i) => i.id)) ?? [];
  const roles = canonicalRoles(u.roles) ?? u.roles;
  return {
    accountId: u.account_id ?? accountId,
    email: u.email ?? "",
    firstName: u.first_name ?? "",
    lastName: u.last_name ?? "",
    roles,
    installIds: ids,
    userId: u.user_id,
    inviteAccepted: u.invite_accepted ?? false,
    mfaEnabled: u.mfa_enabled ?? false,
    lastOwner: u.last_owner ?? null,
    phone: u.phone ?? null,
    installs,
  };
}

/** The inputs that reproduce a live user (what `read` reports so refresh shows drift). */
export function accountUserInputsOf(outs: AccountUserOutputs): Partial<AccountUserInputs> {
  const { accountId, email, firstName, lastName, roles, installIds } = outs;
  // A role set the service reports that is not one of the five is kept as-is so the diff shows it.
  return { accountId, email, firstName, lastName, roles: roles as CanonicalRoles, installIds };
}

/** The PATCH that brings a user's access from `have` to `want`; `undefined` when nothing differs. */
export function accountUserPatch(
  have: Pick<AccountUserOutputs, "roles" | "installIds">,
  want: Pick<AccountUserInputs, "roles" | "installIds">,
): { roles: string; install_ids?: string[] } | undefined {
  const sameRoles = canonicalRoles(have.roles) === canonicalRoles(want.roles);
  const haveIds = normalizeInstallIds(have.installIds);
  const wantIds = normalizeInstallIds(want.installIds);
  const sameIds = JSON.stringify(haveIds) === JSON.stringify(wantIds);
  if (sameRoles && (sameIds || !isPartial(want.roles))) return undefined;
  return { roles: want.roles, ...(isPartial(want.roles) ? { install_ids: wantIds ?? [] } : {}) };
}

/** The account's users by lower-case email, listed once per plugin process (see `children.ts`). */
const USERS = sharedChildren<ApiAccountUser>({
  list: (client, accountId) => client.accountUsers.list(accountId),
  keyOf: (u) => (u.email ?? "").toLowerCase(),
  get: (client, accountId, u) => unlessGone(client.accountUsers.get(accountId, u.user_id)),
});

/** Identity fields of an existing user that differ from the inputs (they cannot be changed in place). */
export function identityMismatch(u: ApiAccountUser, inputs: AccountUserInputs): string[] {
  const out: string[] = [];
  if (u.first_name != null && u.first_name !== inputs.firstName) out.push(`firstName is "${u.first_name}"`);
  if (u.last_name != null && u.last_name !== inputs.lastName) out.push(`lastName is "${u.last_name}"`);
  return out;
}

export const provider = defineProvider<AccountUserInputs, AccountUserOutputs>({
  kind: KIND,
  schema: AccountUserInputsSchema,
  rules,
  replaceOn: ["accountId", "email", "firstName", "lastName"],
  updatable: ["roles", "installIds"],
  // The replacement has the same email more often than not: the old user must be gone first.
  deleteBeforeReplace: true,
  normalize: (key, v) => {
    if (key === "email" && typeof v === "string") return v.trim().toLowerCase();
    if (key === "roles" && typeof v === "string") return canonicalRoles(v) ?? v;
    if (key === "installIds") return normalizeInstallIds(Array.isArray(v) ? (v as string[]) : null);
    if (key === "accountId" && typeof v === "string") return v.toLowerCase();
    return v ?? null;
  },
  async create(inputs, ctx) {
    const email = inputs.email.toLowerCase();
    const { item: existing, created } =
      (await USERS.find(ctx.client, inputs.accountId, email)) ??
      (await USERS.create(ctx.client, inputs.accountId, email, async () => {
        const made = await ctx.client.accountUsers.create(inputs.accountId, {
          user: {
            account_id: inputs.accountId,
            first_name: inputs.firstName,
            last_name: inputs.lastName,
            email: inputs.email,
            roles: inputs.roles,
            ...(isPartial(inputs.roles) ? { install_ids: inputs.installIds ?? [] } : {}),
          },
        });
        return made.account_user;
      }));
    if (created) return { id: existing.user_id, outs: accountUserOutputs(inputs.accountId, existing) };
    if (!inputs.adopt) {
      throw new Error(
        `user ${inputs.email} already exists on account ${inputs.accountId} (user_id ${existing.user_id}); ` +
          "set adopt: true to take it over",
      );
    }
    const mismatch = identityMismatch(existing, inputs);
    if (mismatch.length)
      throw new Error(
        `cannot adopt user ${inputs.email} on account ${inputs.accountId}: on the service its ${mismatch.join(" and ")}; ` +
          "names cannot be changed, so set the inputs to match",
      );
    const outs = accountUserOutputs(inputs.accountId, existing);
    const patch = accountUserPatch(outs, inputs);
    if (!patch) return { id: existing.user_id, outs };
    try {
      const updated = await ctx.client.accountUsers.update(inputs.accountId, existing.user_id, patch);
      return { id: existing.user_id, outs: accountUserOutputs(inputs.accountId, updated.account_user) };
    } catch (err) {
      throw new CreatedButFailedError(existing.user_id, outs, err);
    }
  },
  async read(id, olds, ctx) {
    const u = await ctx.client.accountUsers.get(olds.accountId, id);
    const outs = accountUserOutputs(olds.accountId, u);
    return { outs, inputs: accountUserInputsOf(outs) };
  },
  async update(id, olds, news, ctx) {
    const patch = accountUserPatch(olds, news);
    const live = patch
      ? (await ctx.client.accountUsers.update(news.accountId, id, patch)).account_user
      : await ctx.client.accountUsers.get(news.accountId, id);
    return accountUserOutputs(news.accountId, live);
  },
  async delete(id, olds, ctx) {
    try {
      await ctx.client.accountUsers.delete(olds.accountId, id);
    } catch (err) {
      if ((err as { status?: number }).status === 404) throw err;
      // The service refuses to remove the last owner: say that plainly instead of a bare status.
      const live = await ctx.client.accountUsers.get(olds.accountId, id).catch(() => undefined);
      if (live?.last_owner) {
        throw new Error(
          `${olds.email} is the last owner of account ${olds.accountId} and the service refuses to remove it; ` +
            `make another user an owner first (service said: ${err instanceof Error ? err.message : String(err)})`,
        );
      }
      throw err;
    } finally {
      // Even when the delete failed: a listing that lacks a live email only costs a refused create.
      USERS.forget(ctx.client, olds.accountId, olds.email.toLowerCase());
    }
  },
});

/** Arguments of an {@link AccountUser}. */
export interface AccountUserArgs {
  /** The account to add the user to. Changing it replaces the user. */
  accountId: pulumi.Input<string>;
  /** The user's email address. Changing it replaces the user. */
  email: pulumi.Input<string>;
  /** First name. Changing it replaces the user (the service cannot rename). */
  firstName: pulumi.Input<string>;
  /** Last name. Changing it replaces the user (the service cannot rename). */
  lastName: pulumi.Input<string>;
  /** Role set: `owner`, `full`, `full,billing`, `partial` or `partial,billing` (order, case and spaces are free). */
  roles: pulumi.Input<string>;
  /** Installs a partial user may access: required with partial roles, refused with the others. */
  installIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Take over a user with this email that already exists on the account instead of failing. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A user of an account. The id is the service's `user_id`. Delete removes the user from the account.
 *
 * @example
 * const editor = new wpengine.AccountUser("editor", {
 *   accountId, email: "editor@example.com", firstName: "Ed", lastName: "Itor",
 *   roles: "partial", installIds: [prodInstallId],
 * });
 */
export class AccountUser extends WpEngineResource {
  /** The account the user belongs to. */
  declare readonly accountId: pulumi.Output<string>;
  /** The user's email address. */
  declare readonly email: pulumi.Output<string>;
  /** First name. */
  declare readonly firstName: pulumi.Output<string>;
  /** Last name. */
  declare readonly lastName: pulumi.Output<string>;
  /** The role set in canonical form (`owner`, `full`, `full,billing`, `partial`, `partial,billing`). */
  declare readonly roles: pulumi.Output<string>;
  /** Installs a partial user may access, sorted (empty for other roles). */
  declare readonly installIds: pulumi.Output<string[]>;
  /** The service's id of the user (also the resource id). */
  declare readonly userId: pulumi.Output<string>;
  /** Whether the user has accepted the invitation. */
  declare readonly inviteAccepted: pulumi.Output<boolean>;
  /** Whether the user has multi-factor authentication enabled. */
  declare readonly mfaEnabled: pulumi.Output<boolean>;
  /** For owners: whether this is the last owner of the account (null for other roles). */
  declare readonly lastOwner: pulumi.Output<boolean | null>;
  /** The user's phone number, or null. */
  declare readonly phone: pulumi.Output<string | null>;
  /** The installs tied to a partial user, with their names. */
  declare readonly installs: pulumi.Output<AccountUserInstall[]>;
  /** Whether this resource took over an existing user. */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: AccountUserArgs, opts?: ResourceOptions) {
    super(KIND, name, args, ACCOUNT_USER_OUTPUTS, opts);
  }
}

const ACCOUNT_USER_OUTPUTS = [
  "userId",
  "inviteAccepted",
  "mfaEnabled",
  "lastOwner",
  "phone",
  "installs",
  "installIds",
  "adopt",
] as const;
