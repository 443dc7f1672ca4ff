import { z } from "zod";
import {
  type AccountUser as ApiAccountUser,
  type CreateAccountUserRequest,
  isNotFound,
  normalizeRoles,
  type UpdateAccountUserRequest,
  type WpEngineClient,
} from "../../sdk";
import { sharedChildren, unlessGone } from "../core/children";
import { defineKind, listedUnder, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, out, parentInput, requiredString, stringInput, uuidString } from "../core/inputs";
import { afterCreate, type Context } from "../core/lifecycle";
import { wireOf } from "../core/wire";

/** The role sets the service accepts, in their canonical spelling. */
const CANONICAL_ROLES = ["owner", "full", "full,billing", "partial", "partial,billing"] as const;

/** A role set's canonical spelling (`Billing, Full` -> `full,billing`, the sdk's); `undefined` when not one of the five. */
export const canonicalRoles = (value: string): (typeof CANONICAL_ROLES)[number] | undefined =>
  CANONICAL_ROLES.find((r) => r === normalizeRoles(value));

/** Install ids lower case, sorted, without duplicates (the service treats them as a set); null when none. */
export const normalizeInstallIds = (ids: readonly string[] | null | undefined): string[] | null =>
  ids?.length ? [...new Set(ids.map((id) => id.toLowerCase()))].sort() : null;

/** A name of the user: the service cannot rename one, a change makes another user. */
const personName = (description: string) => requiredString.trim().meta({ description, replaces: true });

const inputs = z.object({
  accountId: parentInput("The account the user belongs to."),
  email: stringInput.trim().pipe(z.email("must be an email address")).meta({
    key: true,
    description: "The user's email address (the login), compared without case.",
    replaces: true,
  }),
  firstName: personName("First name. The service cannot rename a user."),
  lastName: personName("Last name. The service cannot rename a user."),
  // An overwrite, not a transform: its output is still a string.
  roles: z
    .string({ error: `is required: one of ${CANONICAL_ROLES.join(" | ")}` })
    .refine((s) => canonicalRoles(s) !== undefined, {
      error: (issue) =>
        `must be one of ${CANONICAL_ROLES.map((r) => `"${r}"`).join(", ")} (got "${String(issue.input)}")`,
    })
    .overwrite((s) => canonicalRoles(s) ?? s)
    .meta({
      values: CANONICAL_ROLES,
      description:
        "Role set: `owner`, `full`, `full,billing`, `partial` or `partial,billing` (YAML, Python and Go take any order, case or spacing; TypeScript's type takes these five), stored in that canonical form.",
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
});

const outputs = z.object({
  userId: out.string("The service's `user_id` of the user (also the resource id)."),
  inviteAccepted: out.boolean("Whether the user has accepted the invitation."),
  mfaEnabled: out.boolean("Whether the user has multi-factor authentication enabled."),
  lastOwner: out.booleanOrNull(
    "For owners: whether this is the last owner of the account (null for other roles).",
  ),
  phone: out.stringOrNull("The user's phone number, or null."),
  installs: z
    .array(z.object({ id: z.string(), name: z.string().nullable() }))
    .meta({ description: "The installs tied to a partial user, with their names, sorted by id." }),
});

type AccountUserInputs = z.output<typeof inputs>;
type AccountUserOutputs = OutputsOf<typeof inputs, typeof outputs>;

/** The two inputs a PATCH sends: the role set whole, with a partial set's installs. */
type Access = Pick<AccountUserInputs, "roles" | "installIds">;

/** A user's installs by the rule (partial roles take a set, the others none): as stored, and how `v` breaks it. */
function installsOf({ roles, installIds }: Access) {
  const ids = normalizeInstallIds(installIds);
  const partial = canonicalRoles(roles)?.startsWith("partial") ?? false;
  const stored = partial ? (ids ?? []) : undefined;
  if (partial === (ids !== null)) return { ids: stored };
  const reason = ids
    ? `applies only to partial roles; roles "${roles}" already reach every install`
    : `is required with roles "${roles}": a partial user only sees the installs listed`;
  return { ids: stored, failure: { property: "installIds", reason } };
}

const normalize = (key: string, v: unknown) => {
  if (key === "email" && typeof v === "string") return v.trim().toLowerCase();
  if (key === "installIds") return normalizeInstallIds(Array.isArray(v) ? (v as string[]) : null);
  if (key === "accountId" && typeof v === "string") return v.toLowerCase();
  return v;
};
const WIRE = wireOf(inputs, outputs, normalize);

/** `v` as sent and stored: a partial user's installs as a set (perhaps empty), none for the other roles. */
const withInstalls = <T extends Access>(v: T): T => ({ ...v, installIds: installsOf(v).ids });

/** Maps a service record (roles canonical: the sdk reads them so) to outputs, installs sorted by id. */
export function accountUserOutputs(u: ApiAccountUser): AccountUserOutputs {
  const live = WIRE.outputs(u);
  const installs = [...live.installs].sort((a, b) => a.id.localeCompare(b.id));
  // A partial user's installIds are its installs' ids; none for a full user (clearing a stale list on refresh).
  return withInstalls({ ...live, installs, installIds: installs.map((i) => i.id) });
}

/** The PATCH (roles whole, with a partial set's installs) from `have` to `want`; `undefined` when equal. */
export function accountUserPatch(have: Partial<AccountUserOutputs>, want: Access) {
  const sent = withInstalls(want);
  return WIRE.patch(have, sent) ? (WIRE.whole(sent) as UpdateAccountUserRequest) : undefined;
}

/** The account's users, listed once per plugin process (see `children.ts`): keyed by lower-case email. */
const USERS = sharedChildren<ApiAccountUser>({
  list: (client, accountId) => client.accountUsers.list(accountId),
  keyOf: (u) => (u.email ?? "").toLowerCase(),
  idOf: (u) => u.user_id,
  get: (client, accountId, id) => unlessGone(client.accountUsers.get(accountId, id)),
});

/** The user of `ctx.key` on its account, from a listing started after `after` if given (see `children.ts`). */
const findUser = (ctx: Context, after?: number) =>
  USERS.find(ctx.client, ctx.parent, ctx.key.toLowerCase(), after);

/** Why `adopt` cannot take the existing user `u` for these inputs (names differ: a user cannot be renamed). */
export function unadoptable(u: ApiAccountUser, inputs: AccountUserInputs, email: string, accountId: string) {
  const live = WIRE.outputs(u);
  const mismatch = (["firstName", "lastName"] as const)
    .filter((k) => live[k] != null && live[k] !== inputs[k])
    .map((k) => `${k} is "${live[k]}"`);
  if (!mismatch.length) return undefined;
  return new Error(
    `cannot adopt user ${email} on account ${accountId}: on the service its ${mismatch.join(" and ")}; names cannot be changed, so set the inputs to match`,
  );
}

/** PATCHes the user; this process's reads of the account list again. */
const update = (client: WpEngineClient, accountId: string, id: string, p: UpdateAccountUserRequest) =>
  USERS.writing(client, accountId, client.accountUsers.update(accountId, id, p));

/** Create's refusal of an email the account holds already (check says it at preview). */
const taken = (email: string, accountId: string, id: string) =>
  alreadyExists(`user ${email} already exists on account ${accountId} (user_id ${id})`);

export const definition = defineKind({
  kind: "AccountUser",
  description:
    "A person's access to one account, with a role set and, for partial roles, the installs they are restricted to. The service sends the invitation; `inviteAccepted` turns true when it is used. The id is the service's `user_id`.",
  deletes:
    "Removes the user from the account on the service. The service refuses to remove the last owner of an account; the error says so. A user already gone counts as deleted.",
  gone: "A user removed from the account on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again (an invitation is sent again).",
  importId: "{accountId}/{id}",
  list: listedUnder(
    "accountId",
    "The account whose users are listed.",
    (client, accountId) => client.accountUsers.list(accountId),
    (u) => [u.user_id, u.email ?? u.user_id],
  ),
  identity: {
    what: "the user's email on its account",
    // A lost create's look lists afresh; check's look ahead shares the process's listing of the account.
    find: async (_i, ctx) => (await findUser(ctx, ctx.ahead ? undefined : performance.now()))?.item.user_id,
    refusal: (id, ctx) => taken(ctx.key, ctx.parent, id),
  },
  inputs,
  outputs,
  rules: [{ uses: ["roles", "installIds"], test: (i) => installsOf(i).failure }],
  // The replacement has the same email more often than not: the old user must be gone first.
  deleteBeforeReplace: true,
  normalize,
  // Check's look under adopt (the account's listing this process shares): the names create would refuse.
  async takeover(inputs, ctx) {
    if (!inputs.adopt) return undefined;
    const found = await findUser(ctx);
    return found && unadoptable(found.item, inputs, ctx.key, ctx.parent);
  },
  async create(inputs, ctx) {
    const { parent: accountId, key: email } = ctx;
    const { item: existing, created } =
      (await findUser(ctx)) ??
      (await USERS.create(ctx.client, accountId, email.toLowerCase(), async () => {
        const body = { user: WIRE.body(withInstalls(inputs)) } as CreateAccountUserRequest;
        return (await ctx.client.accountUsers.create(accountId, body)).account_user;
      }));
    const id = existing.user_id;
    const outs = accountUserOutputs(existing);
    if (created) return { id, outs };
    if (!inputs.adopt) throw taken(email, accountId, id);
    const refused = unadoptable(existing, inputs, email, accountId);
    if (refused) throw refused;
    const adopted = `user ${email} of account ${accountId}`;
    const patch = accountUserPatch(outs, inputs);
    if (!patch) return { id, outs, adopted };
    const updated = await afterCreate(id, outs, () => update(ctx.client, accountId, id, patch));
    return { id, outs: accountUserOutputs(updated.account_user), adopted, found: outs };
  },
  async read(id, _olds, ctx) {
    const u = await USERS.read(ctx.client, ctx.parent, id);
    return u && { outs: accountUserOutputs(u) };
  },
  async update(id, olds, news, ctx) {
    const patch = accountUserPatch(olds, news);
    const live = patch
      ? (await update(ctx.client, ctx.parent, id, patch)).account_user
      : await ctx.client.accountUsers.get(ctx.parent, id);
    return accountUserOutputs(live);
  },
  async delete(id, _olds, ctx) {
    const { parent: accountId, key: email } = ctx;
    try {
      await ctx.client.accountUsers.delete(accountId, id);
    } catch (err) {
      if (isNotFound(err)) throw err;
      // The service refuses to remove the last owner: say that plainly instead of a bare status.
      const live = await ctx.client.accountUsers.get(accountId, id).catch(() => undefined);
      if (live?.last_owner)
        throw new Error(
          `${email} is the last owner of account ${accountId} and the service refuses to remove it; make another user an owner first (service said: ${err instanceof Error ? err.message : String(err)})`,
        );
      throw err;
    } finally {
      // Even when the delete failed: a listing that lacks a live email only costs a refused create.
      USERS.forget(ctx.client, accountId, email.toLowerCase());
    }
  },
});
