import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { accounts: A, installs: I, users: U } = SEED;
const users = (accountId: string) => `/v1/accounts/${accountId}/account_users`;
const newUser = (roles: string, extra: Record<string, unknown> = {}) => ({
  user: {
    account_id: A.acme.id,
    first_name: "Nia",
    last_name: "New",
    email: "nia@acme.example",
    roles,
    ...extra,
  },
});

describe("account users", () => {
  const sim = useSimulator();

  it("lists users of every role as {results}, roles shown the way the service does", async () => {
    const r = await call(sim(), "GET", users(A.acme.id));
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty("count");
    const roles = r.body.results.map((u: { roles: string }) => u.roles).sort();
    expect(roles).toEqual(["billing, full", "billing, partial", "full", "owner", "owner", "partial"]);
    const partial = r.body.results.find((u: { user_id: string }) => u.user_id === U.partial.userId);
    expect(partial.installs).toEqual([{ id: I.acmeprod.id, name: "acmeprod" }]);
    const owner = r.body.results.find((u: { user_id: string }) => u.user_id === U.owner.userId);
    expect(owner.last_owner).toBe(false);
  });

  it("creates a user wrapped in `user` (201 {message, account_user})", async () => {
    const r = await call(sim(), "POST", users(A.acme.id), newUser("full,billing"));
    expect(r.status).toBe(201);
    expect(r.body.message).toEqual(expect.any(String));
    expect(r.body.account_user).toMatchObject({
      user_id: expect.any(String),
      account_id: A.acme.id,
      email: "nia@acme.example",
      roles: "billing, full",
      invite_accepted: false,
    });
    const read = await call(sim(), "GET", `${users(A.acme.id)}/${r.body.account_user.user_id}`);
    expect(read.body.email).toBe("nia@acme.example");
  });

  it("accepts each of the five roles and rejects anything else with 400", async () => {
    for (const [i, roles] of ["owner", "full", "full,billing", "partial", "partial,billing"].entries()) {
      const r = await call(sim(), "POST", users(A.acme.id), newUser(roles, { email: `r${i}@acme.example` }));
      expect(r.status, roles).toBe(201);
    }
    const bad = await call(sim(), "POST", users(A.acme.id), newUser("admin"));
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ resource: "account_user", field: "user.roles" });
  });

  it("ties install_ids to partial roles only", async () => {
    const partial = await call(
      sim(),
      "POST",
      users(A.acme.id),
      newUser("partial", { install_ids: [I.acmedev.id] }),
    );
    expect(partial.body.account_user.installs).toEqual([{ id: I.acmedev.id, name: "acmedev" }]);
    const full = await call(
      sim(),
      "POST",
      users(A.acme.id),
      newUser("full", { email: "f@acme.example", install_ids: [I.acmedev.id] }),
    );
    expect(full.status).toBe(400);
    const foreign = await call(
      sim(),
      "POST",
      users(A.acme.id),
      newUser("partial", { email: "g@acme.example", install_ids: [I.initechprod.id] }),
    );
    expect(foreign.status).toBe(400);
  });

  it("requires the fields of `user` and its account_id to match the path", async () => {
    const missing = await call(sim(), "POST", users(A.acme.id), {
      user: { account_id: A.acme.id, roles: "full" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["user.first_name", "user.last_name", "user.email"]),
    );
    const mismatch = await call(sim(), "POST", users(A.acme.id), {
      user: { ...newUser("full").user, account_id: A.initech.id },
    });
    expect(mismatch.status).toBe(400);
  });

  it("changes roles with an unwrapped PATCH (200) and deletes with 204", async () => {
    const id = (await call(sim(), "POST", users(A.acme.id), newUser("full"))).body.account_user.user_id;
    const patched = await call(sim(), "PATCH", `${users(A.acme.id)}/${id}`, {
      roles: "partial",
      install_ids: [I.acmestg.id],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.account_user).toMatchObject({
      roles: "partial",
      installs: [{ id: I.acmestg.id, name: "acmestg" }],
    });
    expect((await call(sim(), "DELETE", `${users(A.acme.id)}/${id}`)).status).toBe(204);
    expect((await call(sim(), "GET", `${users(A.acme.id)}/${id}`)).status).toBe(404);
  });

  it("keeps the last owner: no demotion, no removal (400)", async () => {
    const demo = U.demo.userId;
    const r = await call(sim(), "DELETE", `${users(A.globex.id)}/${demo}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].code).toBe("last_owner");
    expect((await call(sim(), "PATCH", `${users(A.globex.id)}/${demo}`, { roles: "full" })).status).toBe(400);
    const list = await call(sim(), "GET", users(A.globex.id));
    expect(list.body.results[0].last_owner).toBe(true);
  });

  it("lets only owners and full users manage users; only owners grant owner (403)", async () => {
    expect((await call(sim(), "GET", users(A.acme.id), undefined, { user: "partial" })).status).toBe(403);
    expect((await call(sim(), "POST", users(A.acme.id), newUser("owner"), { user: "full" })).status).toBe(
      403,
    );
    expect((await call(sim(), "POST", users(A.acme.id), newUser("full"), { user: "full" })).status).toBe(201);
  });
});
