import { afterEach, describe, expect, it } from "vitest";
import type { WpEngineValidationError } from "../../sdk";
import { API_URL, INSTALL, rejection, setup } from "./sdk-support";

let ctx: ReturnType<typeof setup> | undefined;
afterEach(async () => {
  await ctx?.done();
  ctx = undefined;
});

const ACCOUNT = "ac000000-0000-4000-8000-0000000000aa";
const SITE = { id: "5e000000-0000-4000-8000-0000000000aa", name: "Torque", account: { id: ACCOUNT } };

describe("sites", () => {
  it("creates with name and account_id (201), renames with PATCH {name}, and is not retried after a 502 (the upstream may have made it)", async () => {
    ctx = setup();
    ctx.api("POST", "/v1/sites", { status: 201, body: { ...SITE, installs: [] } });
    const site = await ctx.client.sites.create({ name: "Torque", account_id: ACCOUNT });
    expect([site.id, site.installs]).toEqual([SITE.id, []]);
    expect(ctx.json(0)).toEqual({ name: "Torque", account_id: ACCOUNT });
    ctx.api("PATCH", `/v1/sites/${SITE.id}`, { status: 200, body: { ...SITE, name: "Torque 2" } });
    expect((await ctx.client.sites.update(SITE.id, { name: "Torque 2" })).name).toBe("Torque 2");
    expect(ctx.json(1)).toEqual({ name: "Torque 2" });
    ctx.api("POST", "/v1/sites", { status: 502, body: { message: "bad gateway" } });
    expect(await rejection(ctx.client.sites.create({ name: "Again", account_id: ACCOUNT }))).toMatchObject({
      status: 502,
    });
    expect(ctx.seen).toHaveLength(3);
  });

  it("refuses a name over 40 characters before sending", async () => {
    ctx = setup();
    const err = await rejection(ctx.client.sites.create({ name: "x".repeat(41), account_id: ACCOUNT }));
    expect((err as WpEngineValidationError).field).toBe("name");
    expect(ctx.seen).toEqual([]);
  });
});

describe("installs create", () => {
  it("POSTs name, account, site and environment and reads the pending install", async () => {
    ctx = setup();
    ctx.api("POST", "/v1/installs", { status: 201, body: { ...INSTALL, status: "pending" } });
    const body = { name: "mysite", account_id: ACCOUNT, site_id: SITE.id, environment: "staging" } as const;
    expect((await ctx.client.installs.create(body)).status).toBe("pending");
    expect(ctx.json()).toEqual(body);
  });

  it.each(["ab", "1abc", "MySite", "my-site", "a234567890abcde"])(
    "refuses the name %j, naming name",
    async (name) => {
      ctx = setup();
      const err = await rejection(ctx.client.installs.create({ name, account_id: ACCOUNT }));
      expect((err as WpEngineValidationError).field).toBe("name");
    },
  );
});

describe("accounts, the current user and SSH keys", () => {
  it("follows every page of accounts and reads one account and the user", async () => {
    ctx = setup();
    const a = (n: number) => ({
      id: `ac000000-0000-4000-8000-00000000000${n}`,
      name: `a${n}`,
      nickname: `n${n}`,
    });
    ctx.api("GET", "/v1/accounts?limit=1", {
      status: 200,
      body: { results: [a(1)], count: 2, next: `${API_URL}/accounts?limit=1&offset=1`, previous: null },
    });
    ctx.api("GET", "/v1/accounts?limit=1&offset=1", {
      status: 200,
      body: { results: [a(2)], count: 2, next: null, previous: null },
    });
    const all: string[] = [];
    for await (const acc of ctx.client.accounts.iterate({ limit: 1 })) all.push(acc.id);
    expect(all).toEqual([a(1).id, a(2).id]);
    ctx.api("GET", `/v1/accounts/${a(1).id}`, { status: 200, body: a(1) });
    expect((await ctx.client.accounts.get(a(1).id)).nickname).toBe("n1");
    ctx.api("GET", "/v1/user", {
      status: 200,
      body: { id: "u1", email: "joe@example.com", phone_number: null },
    });
    expect(await ctx.client.accounts.currentUser()).toMatchObject({ id: "u1", email: "joe@example.com" });
  });

  it("adds a key with {public_key}, lists and deletes it", async () => {
    ctx = setup();
    const key = { uuid: "e41fa98f-ea80-4f16-a7b7-d748bcc9e64d", comment: "joe", fingerprint: "a1:b2" };
    ctx.api("POST", "/v1/ssh_keys", { status: 201, body: key });
    expect(await ctx.client.sshKeys.create({ public_key: "ssh-ed25519 AAAA joe" })).toMatchObject(key);
    expect(ctx.json()).toEqual({ public_key: "ssh-ed25519 AAAA joe" });
    ctx.api("GET", "/v1/ssh_keys", {
      status: 200,
      body: { results: [key], count: 1, next: null, previous: null },
    });
    expect((await ctx.client.sshKeys.list()).items.map((k) => k.uuid)).toEqual([key.uuid]);
    ctx.api("DELETE", `/v1/ssh_keys/${key.uuid}`, { status: 204 });
    await ctx.client.sshKeys.delete(key.uuid);
  });
});
