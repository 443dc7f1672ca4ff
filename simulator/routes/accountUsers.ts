import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type Caller, canonicalRoles, displayRoles, requireAccount, rolesOn } from "../auth";
import { badRequest, forbidden, notFound } from "../errors";
import { callerOf, parseBody, type Req } from "../http";
import type { Sim } from "../sim";
import type { AccountUserRecord, World } from "../store";

const Roles = z.string().min(1);

const CreateAccountUser = z.strictObject({
  user: z.strictObject({
    account_id: z.guid(),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    email: z.email(),
    roles: Roles,
    install_ids: z.array(z.guid()).optional(),
  }),
});

const PatchAccountUser = z.strictObject({
  roles: Roles,
  install_ids: z.array(z.guid()).optional(),
});

function owners(world: World, accountId: string): AccountUserRecord[] {
  return world.account_users.filter((u) => u.account_id === accountId && u.roles === "owner");
}

/** The Account user record of spec section 2; roles shown the way the real service does (`billing, full`). */
function accountUserView(world: World, u: AccountUserRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    user_id: u.user_id,
    account_id: u.account_id,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    phone: u.phone,
    invite_accepted: u.invite_accepted,
    mfa_enabled: u.mfa_enabled,
    roles: displayRoles(u.roles),
  };
  if (u.roles === "owner") view["last_owner"] = owners(world, u.account_id).length === 1;
  if (u.roles.includes("partial")) {
    view["installs"] = u.install_ids.flatMap((id) => {
      const install = world.installs[id];
      return install ? [{ id, name: install.name }] : [];
    });
  }
  return view;
}

/** Validates roles and install ids together; only owners may grant or take the owner role. */
function checkRoles(
  world: World,
  caller: Caller,
  accountId: string,
  rolesInput: string,
  installIds: string[] | undefined,
  field: (name: string) => string,
): string {
  const roles = canonicalRoles(rolesInput);
  if (!roles) {
    throw badRequest(
      "account_user",
      field("roles"),
      "roles must be one of owner, full, full,billing, partial, partial,billing",
      "invalid_role",
    );
  }
  if (roles === "owner" && !rolesOn(world, caller.userId, accountId)?.has("owner")) {
    throw forbidden("Only an owner can grant the owner role");
  }
  if (installIds && installIds.length > 0 && !roles.includes("partial")) {
    throw badRequest(
      "account_user",
      field("install_ids"),
      "install_ids can only be given with a partial role",
    );
  }
  installIds?.forEach((id, i) => {
    if (world.installs[id]?.account_id !== accountId) {
      throw badRequest(
        "account_user",
        `${field("install_ids")}.${i}`,
        `${id} is not an install of the account`,
        "not_found",
      );
    }
  });
  return roles;
}

function requireMember(world: World, accountId: string, userId: string): AccountUserRecord {
  const member = world.account_users.find((u) => u.account_id === accountId && u.user_id === userId);
  if (!member) throw notFound("Account user");
  return member;
}

/** Account users: list, read, create (wrapped in `user`), change roles, delete. */
export function registerAccountUsers(app: FastifyInstance, sim: Sim): void {
  const base = "/v1/accounts/:account_id/account_users";

  app.get(base, async (req: Req) => {
    const account = requireAccount(sim.world, callerOf(req), req.params["account_id"]!, "admin");
    return {
      results: sim.world.account_users
        .filter((u) => u.account_id === account.id)
        .map((u) => accountUserView(sim.world, u)),
    };
  });

  app.get(`${base}/:user_id`, async (req: Req) => {
    const account = requireAccount(sim.world, callerOf(req), req.params["account_id"]!, "admin");
    return accountUserView(sim.world, requireMember(sim.world, account.id, req.params["user_id"]!));
  });

  app.post(base, async (req: Req, reply) => {
    const world = sim.world;
    const caller = callerOf(req);
    const account = requireAccount(world, caller, req.params["account_id"]!, "admin");
    const { user } = parseBody(CreateAccountUser, req.body, "account_user");
    if (user.account_id !== account.id) {
      throw badRequest("account_user", "user.account_id", "user.account_id must be the account of the path");
    }
    const roles = checkRoles(world, caller, account.id, user.roles, user.install_ids, (f) => `user.${f}`);
    const email = user.email.toLowerCase();
    if (world.account_users.some((u) => u.account_id === account.id && u.email.toLowerCase() === email)) {
      throw badRequest(
        "account_user",
        "user.email",
        `${user.email} is already a user of the account`,
        "already_exists",
        "value_unavailable",
      );
    }
    // The same person on several accounts keeps one user id.
    const known = world.account_users.find((u) => u.email.toLowerCase() === email);
    const record: AccountUserRecord = {
      user_id: known?.user_id ?? randomUUID(),
      account_id: account.id,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      phone: null,
      invite_accepted: false,
      mfa_enabled: false,
      roles,
      install_ids: roles.includes("partial") ? [...new Set(user.install_ids ?? [])] : [],
    };
    world.account_users.push(record);
    sim.store.touch();
    return reply
      .code(201)
      .send({ message: "Your change was successful.", account_user: accountUserView(world, record) });
  });

  app.patch(`${base}/:user_id`, async (req: Req) => {
    const world = sim.world;
    const caller = callerOf(req);
    const account = requireAccount(world, caller, req.params["account_id"]!, "admin");
    const member = requireMember(world, account.id, req.params["user_id"]!);
    const body = parseBody(PatchAccountUser, req.body, "account_user");
    const roles = checkRoles(world, caller, account.id, body.roles, body.install_ids, (f) => f);
    if (member.roles === "owner" && roles !== "owner") {
      if (!rolesOn(world, caller.userId, account.id)?.has("owner"))
        throw forbidden("Only an owner can change an owner");
      if (owners(world, account.id).length === 1) {
        throw badRequest(
          "account_user",
          "roles",
          "The last owner of an account cannot be demoted",
          "last_owner",
        );
      }
    }
    member.roles = roles;
    member.install_ids = roles.includes("partial")
      ? [...new Set(body.install_ids ?? member.install_ids)]
      : [];
    sim.store.touch();
    return { message: "Your change was successful.", account_user: accountUserView(world, member) };
  });

  app.delete(`${base}/:user_id`, async (req: Req, reply) => {
    const world = sim.world;
    const caller = callerOf(req);
    const account = requireAccount(world, caller, req.params["account_id"]!, "admin");
    const member = requireMember(world, account.id, req.params["user_id"]!);
    if (member.roles === "owner") {
      if (!rolesOn(world, caller.userId, account.id)?.has("owner"))
        throw forbidden("Only an owner can remove an owner");
      if (owners(world, account.id).length === 1) {
        throw badRequest(
          "account_user",
          "user_id",
          "The last owner of an account cannot be removed",
          "last_owner",
        );
      }
    }
    world.account_users = world.account_users.filter((u) => u !== member);
    sim.store.touch();
    return reply.code(204).send();
  });
}
