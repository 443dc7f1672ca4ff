/**
 * The cost of looking before creating (provider/core/children.ts), counted in the simulator's request log:
 * N concurrent creates under one parent cost one listing (and, for domains, N/20 bulk creates), and the duplicate guard and
 * `adopt` still see what was made or deleted behind the provider's back meanwhile.
 */
import type * as pulumi from "@pulumi/pulumi";
import { beforeEach, describe, expect, it } from "vitest";
import { resetClient } from "../../provider/core/client";
import { definition as accountUsersKind } from "../../provider/kinds/AccountUser";
import { definition as domainsKind } from "../../provider/kinds/Domain";
import { SEED } from "../../simulator";
import { checkOk, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const accountUsers = accountUsersKind.provider;
const domains = domainsKind.provider;

const fixture = useSimulator();
const ACME = SEED.accounts.acme.id;
const ACMEDEV = SEED.installs.acmedev.id;
const ACMEPROD = SEED.installs.acmeprod.id;
const N = 50;

/** What the simulator answered since the log was last cleared, as `METHOD path` lines. */
function requests(): string[] {
  return fixture.sim.requests().map((r) => `${r.method} ${r.path}`);
}
const count = (lines: string[], line: string) => lines.filter((l) => l === line).length;

async function create(p: pulumi.dynamic.ResourceProvider, news: Record<string, unknown>) {
  return p.create(await checkOk(p, news));
}

beforeEach(() => {
  // A new plugin process: no listing yet.
  resetClient();
  fixture.sim.clearRequests();
});

describe("Domain: creates under one install share one listing", () => {
  it(`${N} concurrent creates on an install with 250 domains cost ${N}/20 bulk POSTs and the pages of one listing`, async () => {
    const sdk = fixture.client();
    for (let i = 0; i < 250; i += 20) {
      const names = Array.from({ length: 20 }, (_, j) => ({ name: `seeded-${i + j}.example.com` }));
      await sdk.domains.createBulk(ACMEDEV, { domains: names });
    }
    fixture.sim.clearRequests();
    for await (const _ of sdk.domains.iterate(ACMEDEV));
    const pages = count(requests(), `GET /v1/installs/${ACMEDEV}/domains`);
    expect(pages).toBeGreaterThan(1);
    // From the checks on (each looks ahead for its name): the creates share the checks' listing.
    fixture.sim.clearRequests();
    const checked = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        checkOk(domains, { installId: ACMEDEV, name: `new-${i}.example.com` }),
      ),
    );

    const made = await Promise.all(checked.map((inputs) => domains.create(inputs)));

    expect(new Set(made.map((m) => m.id)).size).toBe(N);
    const log = requests();
    console.log(
      `[listings] ${N} concurrent Domain checks and creates: ${log.length} requests (${pages} listing pages)`,
    );
    const bulks = Math.ceil(N / 20);
    expect(count(log, `POST /v1/installs/${ACMEDEV}/domains/bulk`)).toBe(bulks);
    expect(count(log, `GET /v1/installs/${ACMEDEV}/domains`)).toBe(pages);
    // And the credentials' proof (GET /user), once per client, by the first check.
    expect(log.length).toBe(1 + bulks + pages);
    const listed = new Map<string, string>();
    for await (const d of sdk.domains.iterate(ACMEDEV)) listed.set(d.name, d.id);
    for (const [i, m] of made.entries()) expect(listed.get(`new-${i}.example.com`)).toBe(m.id);
  });

  it("a refresh of N domains costs one listing of their install", async () => {
    const made = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create(domains, { installId: ACMEPROD, name: `r-${i}.example.com` }),
      ),
    );
    fixture.sim.clearRequests();
    const read = await Promise.all(made.map((m) => domains.read!(m.id, m.outs)));
    expect(read.map((r) => r.props)).toEqual(made.map((m) => m.outs));
    expect(requests()).toEqual([`GET /v1/installs/${ACMEPROD}/domains`]);
  });

  it("a domain made behind the provider's back after its listing is refused without adopt, and adopted with it", async () => {
    await create(domains, { installId: ACMEPROD, name: "first.example.com" });
    const behind = await fixture.client().domains.create(ACMEPROD, { name: "behind.example.com" });
    const other = await fixture.client().domains.create(ACMEPROD, { name: "other.example.com" });
    fixture.sim.clearRequests();

    await expect(create(domains, { installId: ACMEPROD, name: "behind.example.com" })).rejects.toThrow(
      `wpengine:Domain create failed: domain behind.example.com already exists on install ${ACMEPROD} (id ${behind.id}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
    // The service refused the create; the provider listed again to find what holds the name.
    expect(requests()).toEqual([
      `POST /v1/installs/${ACMEPROD}/domains/bulk`,
      `GET /v1/installs/${ACMEPROD}/domains`,
    ]);

    const adopted = await create(domains, {
      installId: ACMEPROD,
      name: "other.example.com",
      adopt: true,
      secureAllUrls: true,
    });
    expect(adopted.id).toBe(other.id);
    expect(adopted.outs).toMatchObject({ domainId: other.id, secureAllUrls: true, adopt: true });
    expect((await fixture.client().domains.get(ACMEPROD, other.id)).secure_all_urls).toBe(true);
  });

  it("a domain deleted behind the provider's back after its listing can be created again", async () => {
    const www = SEED.domains.wwwAcmeExample;
    await create(domains, { installId: ACMEPROD, name: "first.example.com" });
    await fixture.client().domains.delete(ACMEPROD, www.id);
    fixture.sim.clearRequests();

    const made = await create(domains, { installId: ACMEPROD, name: www.name });

    expect(made.id).not.toBe(www.id);
    // The listing still held the name: one GET found it gone, then the create.
    expect(requests()).toEqual([
      `GET /v1/installs/${ACMEPROD}/domains/${www.id}`,
      `POST /v1/installs/${ACMEPROD}/domains/bulk`,
    ]);
  });

  it("a create after a read in the same process looks in the reads' listing", async () => {
    const made = await create(domains, { installId: ACMEPROD, name: "kept.example.com" });
    const later = await checkOk(domains, { installId: ACMEPROD, name: "later.example.com" });
    resetClient();
    fixture.sim.clearRequests();
    await domains.read!(made.id, made.outs);
    await domains.create(later);
    expect(requests()).toEqual([
      `GET /v1/installs/${ACMEPROD}/domains`,
      `POST /v1/installs/${ACMEPROD}/domains/bulk`,
    ]);
  });

  it("what this process deletes and creates keeps its listing current", async () => {
    const made = await create(domains, { installId: ACMEPROD, name: "again.example.com" });
    await domains.delete!(made.id, made.outs);
    fixture.sim.clearRequests();

    const again = await create(domains, { installId: ACMEPROD, name: "again.example.com" });
    expect(again.id).not.toBe(made.id);
    expect(requests()).toEqual([`POST /v1/installs/${ACMEPROD}/domains/bulk`]);
    // Refused at check (preview), from the listing with this process's create in it, and at create.
    const inputs = await refusedAtCheck(
      domains,
      { installId: ACMEPROD, name: "again.example.com" },
      `already exists on install ${ACMEPROD} (id ${again.id})`,
    );
    await expect(domains.create(inputs)).rejects.toThrow(
      `already exists on install ${ACMEPROD} (id ${again.id})`,
    );
  });
});

describe("AccountUser: creates under one account share one listing", () => {
  const user = (i: number) => ({
    accountId: ACME,
    email: `user-${i}@acme.example`,
    firstName: "U",
    lastName: `Ser${i}`,
    roles: "full",
  });

  it("concurrent creates cost one listing, and a user added behind the provider's back is still refused", async () => {
    // From the checks on (each looks ahead for its email): the creates share the checks' listing.
    fixture.sim.clearRequests();
    const checked = await Promise.all(Array.from({ length: 20 }, (_, i) => checkOk(accountUsers, user(i))));
    await Promise.all(checked.map((inputs) => accountUsers.create(inputs)));
    const log = requests();
    expect(count(log, `POST /v1/accounts/${ACME}/account_users`)).toBe(20);
    expect(count(log, `GET /v1/accounts/${ACME}/account_users`)).toBe(1);
    expect(log.length).toBe(1 + 21); // and the credentials' proof, by the first check

    const behind = await fixture.client().accountUsers.create(ACME, {
      user: {
        account_id: ACME,
        email: "behind@acme.example",
        first_name: "Be",
        last_name: "Hind",
        roles: "full",
      },
    });
    await expect(
      create(accountUsers, { ...user(99), email: "behind@acme.example", firstName: "Be", lastName: "Hind" }),
    ).rejects.toThrow(
      `user behind@acme.example already exists on account ${ACME} (user_id ${behind.account_user.user_id})`,
    );
  });

  it("a refresh of N users costs one listing of their account; a change behind its back shows on exactly that user", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => create(accountUsers, user(i))));
    const sdk = fixture.client();
    await sdk.accountUsers.update(ACME, made[1]!.id, { roles: "owner" });
    await sdk.accountUsers.delete(ACME, made[3]!.id);
    resetClient();
    fixture.sim.clearRequests();
    const read = await Promise.all(made.map((m) => accountUsers.read!(m.id, m.outs)));
    read.forEach((r, i) => {
      if (i === 3) expect(r.id).toBe("");
      // An owner is told whether it is the last one.
      else if (i === 1) expect(r.props).toEqual({ ...made[1]!.outs, roles: "owner", lastOwner: false });
      else expect(r.props).toEqual(made[i]!.outs);
    });
    // The one the listing lacks is confirmed gone by a GET of its own.
    expect(requests()).toEqual([
      `GET /v1/accounts/${ACME}/account_users`,
      `GET /v1/accounts/${ACME}/account_users/${made[3]!.id}`,
    ]);
  });

  it("a read after this process created a user lists again: another owner is no longer the last", async () => {
    const GLOBEX = SEED.accounts.globex.id;
    // demo is the only owner of Globex.
    const demo = await create(accountUsers, {
      accountId: GLOBEX,
      email: "demo@example.com",
      firstName: "Dee",
      lastName: "Mo",
      roles: "owner",
      adopt: true,
    });
    expect((await accountUsers.read!(demo.id, demo.outs)).props).toMatchObject({ lastOwner: true });
    await create(accountUsers, { ...user(1), accountId: GLOBEX, roles: "owner" });
    fixture.sim.clearRequests();
    expect((await accountUsers.read!(demo.id, demo.outs)).props).toMatchObject({ lastOwner: false });
    expect(requests()).toEqual([`GET /v1/accounts/${GLOBEX}/account_users`]);
  });
});
