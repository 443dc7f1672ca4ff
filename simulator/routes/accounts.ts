import type { FastifyInstance } from "fastify";
import { requireAccount, rolesOn } from "../auth";
import { callerOf, paginate, type Req } from "../http";
import type { Sim } from "../sim";
import type { AccountRecord } from "../store";

function accountView(a: AccountRecord): Record<string, unknown> {
  return { id: a.id, name: a.name, nickname: a.nickname };
}

/** Accounts the caller has a role on, and the caller itself. */
export function registerAccounts(app: FastifyInstance, sim: Sim): void {
  app.get("/v1/accounts", async (req: Req) => {
    const caller = callerOf(req);
    const accounts = Object.values(sim.world.accounts).filter((a) => rolesOn(sim.world, caller.userId, a.id));
    return paginate(req, accounts, accountView);
  });

  app.get("/v1/accounts/:account_id", async (req: Req) => {
    return accountView(requireAccount(sim.world, callerOf(req), req.params["account_id"]!, "any"));
  });

  app.get("/v1/user", async (req: Req) => {
    const caller = callerOf(req);
    const member = sim.world.account_users.find((u) => u.user_id === caller.userId);
    return {
      id: caller.userId,
      first_name: member?.first_name ?? caller.username,
      last_name: member?.last_name ?? "",
      email: member?.email ?? `${caller.username}@example.com`,
      phone_number: member?.phone ?? null,
    };
  });
}
