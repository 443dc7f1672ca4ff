/**
 * One owner per object (issue 29): a second claim of one identity fails `check` in both front doors,
 * naming both resources and the key, with no API write; an adoption never makes a second owner; every
 * adoption says what it took, with its id.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CLAIMANT, forgetClaims, own } from "../../provider/core/identity";
import { UNKNOWN } from "../../provider/core/inputs";
import { WpEngineProvider } from "../../provider/executable/server";
import { definition as accountUserKind } from "../../provider/kinds/AccountUser";
import { definition as cacheExclusionsKind } from "../../provider/kinds/CacheExclusions";
import { definition as domainKind } from "../../provider/kinds/Domain";
import { definition as siteKind } from "../../provider/kinds/Site";
import { SEED } from "../../simulator";
import { checkFails, checkOk, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const accountUser = accountUserKind.provider;
const cacheExclusions = cacheExclusionsKind.provider;
const domain = domainKind.provider;

// biome-ignore-start lint/suspicious/noExplicitAny: protobuf messages.
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const { Struct }: any = require("google-protobuf/google/protobuf/struct_pb");
type Handler = (call: { request: unknown }, cb: (err: unknown, res?: any) => void) => void;
// biome-ignore-end lint/suspicious/noExplicitAny: end.

const fixture = useSimulator();
const INSTALL = SEED.installs.acmestg.id;
const ACCOUNT = SEED.accounts.acme.id;
const writes = () => fixture.sim.requests().filter((r) => r.method !== "GET");

afterEach(() => forgetClaims());

describe("the dynamic front door (one plugin process for the program's resources)", () => {
  it("a second Domain of the same name on one install fails check naming both resources and the key, with no write", async () => {
    fixture.sim.clearRequests();
    await checkOk(domain, { installId: INSTALL, name: "twice.example.com", [CLAIMANT]: "www-a" });
    const failures = await checkFails(domain, {
      installId: INSTALL,
      name: "Twice.Example.com.",
      [CLAIMANT]: "www-b",
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('wpengine:Domain "www-b" and wpengine:Domain "www-a" both claim');
    expect(failures[0]).toContain("the domain's name on its install");
    expect(failures[0]).toContain(`installId "${INSTALL}", name "twice.example.com"`);
    // The first claimant checks again (preview, then up) and still passes; another name does too.
    await checkOk(domain, { installId: INSTALL, name: "twice.example.com", [CLAIMANT]: "www-a" });
    await checkOk(domain, { installId: INSTALL, name: "other.example.com", [CLAIMANT]: "www-b" });
    expect(writes()).toEqual([]);
  });

  it("a new Domain of the name an existing resource holds fails check naming that resource, not only that the domain exists", async () => {
    const seeded = SEED.domains.stagingAcmeExample;
    const www = { installId: INSTALL, name: seeded.name, [CLAIMANT]: "www" };
    await checkOk(domain, www, { installId: INSTALL, name: seeded.name });
    const failures = await checkFails(domain, {
      installId: INSTALL,
      name: `${seeded.name.toUpperCase()}.`,
      [CLAIMANT]: "www-again",
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('wpengine:Domain "www-again" and wpengine:Domain "www" both claim');
    expect(failures[0]).not.toContain("already exists");
  });

  it("two primary Domains on one install fail check naming both (each up would take it from the other)", async () => {
    await checkOk(domain, { installId: INSTALL, name: "p1.example.com", primary: true, [CLAIMANT]: "p1" });
    const [failure] = await checkFails(domain, {
      installId: INSTALL,
      name: "p2.example.com",
      primary: true,
      [CLAIMANT]: "p2",
    });
    expect(failure).toBe(
      `primary: wpengine:Domain "p2" and wpengine:Domain "p1" both claim the primary domain of their install ` +
        `(installId "${INSTALL}"): an install has one primary domain, and each \`pulumi up\` would take it from ` +
        "the other. Set primary: true on one of them.",
    );
    // Not primary, or on another install: no clash.
    await checkOk(domain, { installId: INSTALL, name: "p2.example.com", [CLAIMANT]: "p2" });
    await checkOk(domain, {
      installId: SEED.installs.acmeprod.id,
      name: "p3.example.com",
      primary: true,
      [CLAIMANT]: "p3",
    });
  });

  it("users by email on an account and singletons (an install's cache exclusions) are claimed once", async () => {
    const user = { accountId: ACCOUNT, firstName: "A", lastName: "B", roles: "full" };
    await checkOk(accountUser, { ...user, email: "one@example.com", [CLAIMANT]: "u1" });
    const [failure] = await checkFails(accountUser, { ...user, email: "ONE@example.com", [CLAIMANT]: "u2" });
    expect(failure).toContain('wpengine:AccountUser "u2" and wpengine:AccountUser "u1" both claim');
    expect(failure).toContain("the user's email on its account");

    await checkOk(cacheExclusions, { installId: INSTALL, exclusions: [], [CLAIMANT]: "ce1" });
    const [single] = await checkFails(cacheExclusions, {
      installId: INSTALL,
      exclusions: [],
      [CLAIMANT]: "ce2",
    });
    expect(single).toContain("the install's cache exclusions (an install has one list)");
  });

  it("a key unknown at preview is claimed once it is known", async () => {
    await checkOk(domain, { installId: INSTALL, name: "later.example.com", [CLAIMANT]: "a" });
    await checkOk(domain, { installId: UNKNOWN, name: "later.example.com", [CLAIMANT]: "b" });
    await checkFails(domain, { installId: INSTALL, name: "later.example.com", [CLAIMANT]: "b" });
  });

  it("an adoption of an object another resource of the stack holds fails; an adoption says what it took and its id", async () => {
    const a = await checkOk(domain, { installId: INSTALL, name: "held.example.com", [CLAIMANT]: "a" });
    const made = await domain.create(a);
    // The same claimant adopting its own object again (a lost answer, a retried run) stays its owner.
    expect((await domain.create({ ...a, adopt: true })).id).toBe(made.id);
    // A second resource whose key was not checked against the first (keys unknown at check, say).
    const b = { ...a, [CLAIMANT]: "b", adopt: true };
    const { lines } = await said(async () => {
      await expect(domain.create(b)).rejects.toThrow(
        `wpengine:Domain "b" would take over Domain ${made.id}, which wpengine:Domain "a" already holds in this stack`,
      );
    });
    expect(lines.join("\n")).not.toContain("adopted");
    // A first owner that adopts is told what it took.
    forgetClaims();
    const { lines: adopting } = await said(() => domain.create(b));
    expect(adopting).toContain(
      `wpengine:Domain held.example.com: adopted the existing domain held.example.com of install ${INSTALL} (id ${made.id})`,
    );
  });
});

describe("a resource's object another resource took over in this run", () => {
  it("is not deleted by its previous resource (a replacement, or a name a regenerated program moved)", async () => {
    // Made in an earlier run by "shop" (this process never saw that create).
    const old = await checkOk(domain, { installId: INSTALL, name: "moved.example.com", [CLAIMANT]: "shop" });
    const made = await domain.create(old);
    forgetClaims();
    // This run: the program now names that domain "shop-acmestg", which adopts it...
    const taken = await checkOk(domain, {
      installId: INSTALL,
      name: "moved.example.com",
      adopt: true,
      [CLAIMANT]: "shop-acmestg",
    });
    expect((await domain.create(taken)).id).toBe(made.id);
    // ... and "shop", replaced onto another install, deletes its original: the service keeps the domain.
    fixture.sim.clearRequests();
    const { lines } = await said(() => domain.delete!(made.id, { ...made.outs, [CLAIMANT]: "shop" }));
    expect(writes()).toEqual([]);
    expect(lines).toContain(
      'wpengine:Domain moved.example.com: not deleted on the service: wpengine:Domain "shop-acmestg" took it over in this run and holds it now; only that resource lets it go',
    );
    expect((await fixture.client().domains.get(INSTALL, made.id)).name).toBe("moved.example.com");
    // Its own holder still deletes it (a later run: a destroy).
    forgetClaims();
    await domain.delete!(made.id, { ...made.outs, [CLAIMANT]: "shop-acmestg" });
    expect(writes().map((r) => r.method)).toEqual(["DELETE"]);
  });

  it("is not deleted by the resource it replaces, when the replacement adopted it (pulumi up --replace with adopt)", async () => {
    const inputs = { installId: INSTALL, name: "replaced.example.com", [CLAIMANT]: "shop" };
    const made = await domain.create(await checkOk(domain, inputs));
    forgetClaims();
    // The engine creates the replacement first: with adopt, it takes the same domain...
    expect((await domain.create(await checkOk(domain, { ...inputs, adopt: true }))).id).toBe(made.id);
    // ... then deletes the resource it replaces: the domain stays, held by the replacement.
    fixture.sim.clearRequests();
    const { lines } = await said(() => domain.delete!(made.id, { ...made.outs, [CLAIMANT]: "shop" }));
    expect(writes()).toEqual([]);
    expect(lines).toContain(
      "wpengine:Domain replaced.example.com: not deleted on the service: its replacement took it over in this run and holds it now; only that resource lets it go",
    );
    expect((await fixture.client().domains.get(INSTALL, made.id)).name).toBe("replaced.example.com");
  });

  it("is not deleted, guard on or off, while another resource of the program declares it (a rename undone)", async () => {
    const site = siteKind.provider;
    const args = { accountId: ACCOUNT, name: "Undone rename", deletionProtection: false };
    const made = await site.create(await checkOk(site, { ...args, [CLAIMANT]: "blog" }));
    forgetClaims();
    // This run declares it as "blog" again (already in the state: an update, no create), and "blog2", which
    // held it since the rename, leaves the program: its delete must not take the site from "blog".
    await checkOk(site, { ...args, [CLAIMANT]: "blog" }, made.outs);
    fixture.sim.clearRequests();
    for (const deletionProtection of [false, true]) {
      const { lines } = await said(() =>
        site.delete!(made.id, { ...made.outs, deletionProtection, [CLAIMANT]: "blog2" }),
      );
      expect(lines).toContain(
        'wpengine:Site Undone rename: not deleted on the service: wpengine:Site "blog" declares it in this run; only that resource lets it go',
      );
    }
    expect(writes()).toEqual([]);
    expect((await fixture.client().sites.get(made.id)).name).toBe("Undone rename");
  });
});

describe("what an id names", () => {
  it("an id is one object within its identity's parent: one person in two accounts is two objects, each held once", () => {
    const identity = accountUserKind.identity!;
    const user = (accountId: string, claimant: string) => ({
      accountId,
      email: "a@x.io",
      [CLAIMANT]: claimant,
    });
    expect(own("AccountUser", identity, "u1", user("acc1", "in-acc1"))).toBeUndefined();
    expect(own("AccountUser", identity, "u1", user("acc2", "in-acc2"))).toBeUndefined();
    expect(own("AccountUser", identity, "u1", user("acc1", "second"))?.message).toContain(
      'wpengine:AccountUser "second" would take over AccountUser u1, which wpengine:AccountUser "in-acc1" already holds',
    );
  });
});

describe("the executable front door (one process per provider instance)", () => {
  it("a second resource with one key fails check naming both URNs and the key; the claim is no input", async () => {
    const svc = new WpEngineProvider("0.0.0").service() as Record<string, Handler>;
    const call = (method: string, request: unknown) =>
      new Promise<{
        getFailuresList(): Array<{ getReason(): string; getProperty(): string }>;
        getInputs(): { toJavaScript(): Record<string, unknown> };
      }>((resolve, reject) => svc[method]!({ request }, (err, res) => (err ? reject(err) : resolve(res))));
    const config = {
      username: "demo",
      password: "demo",
      apiUrl: fixture.sim.apiUrl,
      appHostingUrl: fixture.sim.appHostingUrl,
    };
    await call("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(config)));
    const check = (name: string) =>
      call(
        "check",
        new provproto.CheckRequest()
          .setUrn(`urn:pulumi:dev::p::wpengine:index:Domain::${name}`)
          .setOlds(Struct.fromJavaScript({}))
          .setNews(Struct.fromJavaScript({ installId: INSTALL, name: "yaml.example.com" })),
      );
    fixture.sim.clearRequests();
    const first = await check("first");
    expect(first.getFailuresList()).toEqual([]);
    expect(Object.keys(first.getInputs().toJavaScript())).not.toContain(CLAIMANT);
    const second = await check("second");
    const reasons = second.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toContain(
      'name: wpengine:index:Domain "second" and wpengine:index:Domain "first" both claim',
    );
    expect(reasons[0]).toContain(`name "yaml.example.com"`);
    expect(writes()).toEqual([]);
  });
});
