import { z } from "zod";
import {
  type AccountUser as ApiAccountUser,
  type CreateAccountUserRequest,
  isNotFound,
  type UpdateAccountUserRequest,
  type WpEngineClient,
} from "../../sdk";
import { readListings } from "../core/batch";
import { sharedChildren, unlessGone } from "../core/children";
import { defineKind, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, type Rule, requiredString, stringInput, uuidString } from "../core/inputs";
import { CreatedButFailedError } from "../core/lifecycle";
import { wireOf } from "../core/wire";

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

/** The role set, in its canonical spelling (an overwrite, not a transform: its output is still a string). */
const rolesInput = z
  .string({ error: `is required: one of ${CANONICAL_ROLES.join(" | ")}` })
  .refine((s) => canonicalRoles(s) !== undefined, {
    error: (issue) =>
      `must be one of ${CANONICAL_ROLES.map((r) => `"${r}"`).join(", ")} (got "${String(issue.input)}")`,
  })
  .overwrite((s) => canonicalRoles(s) ?? s);

const inputs = z
  .object({
    accountId: uuidString.meta({
      description: "The account the user belongs to.",
      replaces: true,
    }),
    email: stringInput
      .trim()
      .pipe(z.email("must be an email address"))
      .meta({ description: "The user's email address (the login), compared without case.", replaces: true }),
    firstName: requiredString
      .trim()
      .meta({ description: "First name. The service cannot rename a user.", replaces: true }),
    lastName: requiredString
      .trim()
      .meta({ description: "Last name. The service cannot rename a user.", replaces: true }),
    roles: rolesInput.meta({
      values: CANONICAL_ROLES,
      description:
        "Role set: `owner`, `full`, `full,billing`, `partial` or `partial,billing` (any order, case or spacing), stored in that canonical form.",
    }),
    installIds: z
      .array(uuidString, { error: "must be a list of install ids" })
      .overwrite((ids) => normalizeInstallIds(ids) ?? [])
      .optional()
      .meta({
        description:
          "Installs a partial user may access: required with partial roles, refused with the others. A set: stored sorted, without duplicates (empty for other roles).",
      }),
    ...COMMON_INPUTS,
  })
  .strict();

const outputs = z.object({
  userId: z.string().meta({ description: "The service's `user_id` of the user (also the resource id)." }),
  inviteAccepted: z.boolean().meta({ description: "Whether the user has accepted the invitation." }),
  mfaEnabled: z.boolean().meta({ description: "Whether the user has multi-factor authentication enabled." }),
  lastOwner: z.boolean().nullable().meta({
    description: "For owners: whether this is the last owner of the account (null for other roles).",
  }),
  phone: z.string().nullable().meta({ description: "The user's phone number, or null." }),
  installs: z
    .array(z.object({ id: z.string(), name: z.string().nullable() }))
    .meta({ description: "The installs tied to a partial user, with their names, sorted by id." }),
});

type AccountUserInputs = z.output<typeof inputs>;
type AccountUserOutputs = OutputsOf<typeof inputs, typeof outputs>;

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
          reason: `is required with roles "${i.roles}": a partial user only sees the installs listed`,
        };
      if (!partial && i.installIds !== undefined && i.installIds.length > 0)
        return {
          property: "installIds",
          reason: `applies only to partial roles; roles "${i.roles}" already reach every install`,
        };
      return undefined;
    },
  },
];

const normalize = (key: string, v: unknown) => {
  if (key === "email" && typeof v === "string") return v.trim().toLowerCase();
  if (key === "roles" && typeof v === "string") return canonicalRoles(v) ?? v;
  if (key === "installIds") return normalizeInstallIds(Array.isArray(v) ? (v as string[]) : null);
  if (key === "accountId" && typeof v === "string") return v.toLowerCase();
  return v ?? null;
};
const WIRE = wireOf(inputs, outputs, normalize);

/** Maps a service record to outputs (roles canonical, installs sorted by id). */
export function accountUserOutputs(accountId: string, u: ApiAccountUser): AccountUserOutputs {
  const live = WIRE.outputs(u, { accountId });
  const installs = [...live.installs].sort((a, b) => a.id.localeCompare(b.id));
  // A role set the service reports that is not one of the five is kept as-is so the diff shows it.
  const roles = canonicalRoles(live.roles) ?? live.roles;
  // Only a partial user's installs are an input; a full user reaches every install and has none (an
  // undefined value also clears a stale list from the state on refresh, and adds none to the inputs).
  const ids = isPartial(roles) ? (normalizeInstallIds(installs.map((i) => i.id)) ?? []) : undefined;
  return { ...live, roles, installIds: ids, installs };
}

/** The installs a request carries: a partial user's (a list, perhaps empty), none for the other roles. */
const installsOf = (roles: string, ids: readonly string[] | null | undefined) =>
  isPartial(roles) ? (normalizeInstallIds(ids) ?? []) : undefined;

/** The PATCH that brings a user's access from `have` to `want`; `undefined` when nothing differs. */
export function accountUserPatch(
  have: Pick<AccountUserOutputs, "roles" | "installIds">,
  want: Pick<AccountUserInputs, "roles" | "installIds">,
): UpdateAccountUserRequest | undefined {
  const sameRoles = canonicalRoles(have.roles) === canonicalRoles(want.roles);
  const sameIds =
    JSON.stringify(normalizeInstallIds(have.installIds)) ===
    JSON.stringify(normalizeInstallIds(want.installIds));
  if (sameRoles && (sameIds || !isPartial(want.roles))) return undefined;
  // The service takes the role set whole, with a partial one's installs.
  const installIds = installsOf(want.roles, want.installIds);
  return WIRE.body({ ...want, installIds }, ["roles", "installIds"]) as UpdateAccountUserRequest;
}

/** The account's users by lower-case email, listed once per plugin process (see `children.ts`). */
const USERS = sharedChildren<ApiAccountUser>({
  list: (client, accountId) => client.accountUsers.list(accountId),
  keyOf: (u) => (u.email ?? "").toLowerCase(),
  get: (client, accountId, u) => unlessGone(client.accountUsers.get(accountId, u.user_id)),
});

/** Reads of the account's users served by one listing (one call, no pages) per process, as for domains. */
const READS = readListings<WpEngineClient, ApiAccountUser>({
  list: (client, accountId) => client.accountUsers.list(accountId),
  idOf: (u) => u.user_id,
});

/** Identity fields of an existing user that differ from the inputs (they cannot be changed in place). */
export function identityMismatch(u: ApiAccountUser, inputs: AccountUserInputs): string[] {
  const live = WIRE.outputs(u);
  const names = ["firstName", "lastName"] as const;
  return names.filter((k) => live[k] != null && live[k] !== inputs[k]).map((k) => `${k} is "${live[k]}"`);
}

export const definition = defineKind({
  kind: "AccountUser",
  description:
    "A person's access to one account, with a role set and, for partial roles, the installs they are restricted " +
    "to. The service sends the invitation; `inviteAccepted` turns true when it is used. The id is the service's " +
    "`user_id`.",
  deletes:
    "Removes the user from the account on the service. The service refuses to remove the last owner of an " +
    "account; the error says so. A user already gone counts as deleted.",
  gone: "A user removed from the account on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again (an invitation is sent again).",
  importId: "{accountId}/{id}",
  list: {
    inputs: z.object({
      accountId: uuidString.meta({ description: "The account whose users are listed." }),
    }),
    items: async (q, client) =>
      (await client.accountUsers.list(q["accountId"]!)).map((u) => ({
        fields: { accountId: q["accountId"]!, id: u.user_id },
        name: u.email ?? u.user_id,
      })),
  },
  identity: {
    what: "the user's email on its account",
    fields: ["accountId", "email"],
    find: async (i, ctx) =>
      (await USERS.find(ctx.client, i.accountId, i.email.toLowerCase(), performance.now()))?.item.user_id,
  },
  inputs,
  outputs,
  rules,
  // The replacement has the same email more often than not: the old user must be gone first.
  deleteBeforeReplace: true,
  normalize,
  async create(inputs, ctx) {
    const email = inputs.email.toLowerCase();
    const { item: existing, created } =
      (await USERS.find(ctx.client, inputs.accountId, email)) ??
      (await USERS.create(ctx.client, inputs.accountId, email, async () => {
        const user = WIRE.body({ ...inputs, installIds: installsOf(inputs.roles, inputs.installIds) });
        const made = await ctx.client.accountUsers.create(inputs.accountId, {
          user: user as CreateAccountUserRequest["user"],
        });
        return made.account_user;
      }));
    if (created) return { id: existing.user_id, outs: accountUserOutputs(inputs.accountId, existing) };
    if (!inputs.adopt) {
      throw alreadyExists(
        `user ${inputs.email} already exists on account ${inputs.accountId} (user_id ${existing.user_id})`,
      );
    }
    const mismatch = identityMismatch(existing, inputs);
    if (mismatch.length)
      throw new Error(
        `cannot adopt user ${inputs.email} on account ${inputs.accountId}: on the service its ${mismatch.join(" and ")}; ` +
          "names cannot be changed, so set the inputs to match",
      );
    const outs = accountUserOutputs(inputs.accountId, existing);
    const adopted = `user ${inputs.email} of account ${inputs.accountId}`;
    const patch = accountUserPatch(outs, inputs);
    if (!patch) return { id: existing.user_id, outs, adopted };
    try {
      const updated = await ctx.client.accountUsers
        .update(inputs.accountId, existing.user_id, patch)
        .finally(() => READS.drop(ctx.client, inputs.accountId));
      return {
        id: existing.user_id,
        outs: accountUserOutputs(inputs.accountId, updated.account_user),
        adopted,
      };
    } catch (err) {
      throw new CreatedButFailedError(existing.user_id, outs, err);
    }
  },
  async read(id, olds, ctx) {
    // A user the listing lacks is confirmed by a GET of its own (404: gone).
    const u =
      (await READS.find(ctx.client, olds.accountId, id)) ??
      (await ctx.client.accountUsers.get(olds.accountId, id));
    return { outs: accountUserOutputs(olds.accountId, u) };
  },
  async update(id, olds, news, ctx) {
    const patch = accountUserPatch(olds, news);
    const live = patch
      ? (
          await ctx.client.accountUsers
            .update(news.accountId, id, patch)
            .finally(() => READS.drop(ctx.client, news.accountId))
        ).account_user
      : await ctx.client.accountUsers.get(news.accountId, id);
    return accountUserOutputs(news.accountId, live);
  },
  async delete(id, olds, ctx) {
    try {
      await ctx.client.accountUsers.delete(olds.accountId, id);
    } catch (err) {
      if (isNotFound(err)) throw err;
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
      READS.drop(ctx.client, olds.accountId);
      // Even when the delete failed: a listing that lacks a live email only costs a refused create.
      USERS.forget(ctx.client, olds.accountId, olds.email.toLowerCase());
    }
  },
});

export const provider = definition.provider;
