import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type { LookupOptions } from "../../provider/lookups";
import {
  getAccount,
  getAccountOutput,
  getAccounts,
  getAccountsOutput,
  getCurrentUser,
  getSshKeys,
} from "../../provider/lookups";
import { SEED } from "../../simulator";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
const { accounts: A, users: U } = SEED;
const opts = (extra: Omit<LookupOptions, "client"> = {}): LookupOptions => ({
  client: fixture.client(),
  ...extra,
});
const resolved = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));
const gets = (path: string) =>
  fixture.sim.requests().filter((r) => r.method === "GET" && r.path === path).length;

describe("account lookups", () => {
  it("getAccounts follows every page", async () => {
    fixture.sim.clearRequests();
    const all = await getAccounts({}, opts({ pageSize: 1 }));
    expect(all).toEqual(
      [A.acme, A.globex, A.initech].map((a) => ({ id: a.id, name: a.name, nickname: a.nickname })),
    );
    expect(gets("/v1/accounts")).toBe(3);
    expect(await resolved(getAccountsOutput({}, opts()))).toHaveLength(3);
  });

  it("getAccount reads one account; an unknown one fails with the status", async () => {
    expect(await getAccount({ accountId: A.initech.id }, opts())).toEqual({
      id: A.initech.id,
      name: "Initech",
      nickname: "initech",
    });
    expect((await resolved(getAccountOutput({ accountId: A.globex.id }, opts()))).nickname).toBe("globex");
    await expect(
      getAccount({ accountId: "00000000-0000-4000-8000-000000000000" }, opts()),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it("getCurrentUser is the API user; getSshKeys lists its keys (none, then the one added)", async () => {
    expect(await getCurrentUser({}, opts())).toMatchObject({
      id: U.demo.userId,
      email: expect.stringContaining("@"),
    });
    expect(await getSshKeys({}, opts())).toEqual([]);
    const key = await fixture.client().sshKeys.create({
      public_key:
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJHUPEcxk8IlK0Iio5WPowMFr/2W2FowztUF0Nwrpoza ci@example.com",
    });
    expect(await getSshKeys({}, opts())).toEqual([
      { id: key.uuid, comment: "ci@example.com", fingerprint: key.fingerprint, createdAt: key.created_at },
    ]);
  });
});
