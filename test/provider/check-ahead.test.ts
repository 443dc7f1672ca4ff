/**
 * Check's look ahead (provider/core/lifecycle.ts `lookAhead`): a new resource whose object already exists,
 * whose parent does not, or whose create would refuse to take over what is there (the kind's `takeover`: a
 * singleton's settings without adopt, an adoption that cannot be), is refused at check, so at `pulumi
 * preview`, in the words create would refuse it with; an update, a recovery and any fault other than a 404
 * leave create to decide, and an adoption is looked at only by `takeover`.
 */
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { resetClient } from "../../provider/core/client";
import { AFTER_A_CRASH } from "../../provider/core/errors";
import { forgetClaims } from "../../provider/core/identity";
import { COMMON_INPUTS, parentInput, stringInput, UNKNOWN } from "../../provider/core/inputs";
import { readJournal, resetRecoveryPlan, setJournalRun } from "../../provider/core/journal";
import { defineProvider } from "../../provider/core/lifecycle";
import { WpEngineProvider } from "../../provider/executable/server";
import { definition as accountUser } from "../../provider/kinds/AccountUser";
import { definition as cacheExclusions } from "../../provider/kinds/CacheExclusions";
import { definition } from "../../provider/kinds/Domain";
import { definition as domainMappingsKind } from "../../provider/kinds/DomainMappings";
import { definition as thirdPartyCertificate } from "../../provider/kinds/ThirdPartyCertificate";
import { WpEngineApiError, WpEngineTimeoutError } from "../../sdk";
import { SEED } from "../../simulator";
import { selfSigned } from "../fixtures/self-signed";
import { checkOk, createOk } from "../support/provider";
import { useSimulator } from "../support/simulator";

// biome-ignore lint/suspicious/noExplicitAny: the generated protobuf module has no types.
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
// biome-ignore lint/suspicious/noExplicitAny: the generated protobuf module has no types.
const { Struct }: any = require("google-protobuf/google/protobuf/struct_pb");
// biome-ignore lint/suspicious/noExplicitAny: a gRPC handler's answer.
type Handler = (call: { request: unknown }, cb: (err: unknown, res?: any) => void) => void;

const { provider } = definition;
const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;
const WWW = SEED.domains.wwwAcmeExample;
const MISSING = "1e000000-0000-4000-8000-0000000000ff";

const requests = () => fixture.sim.requests().map((r) => `${r.method} ${r.path}`);
const listings = () => requests().filter((l) => /^GET \/v1\/installs\/[^/]+\/domains$/.test(l));

/** Create's refusal of www.acme.example on acmeprod, whole. */
const REFUSAL =
  `domain ${WWW.name} already exists on install ${ACMEPROD} (id ${WWW.id}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over, ` +
  `or, after an interrupted run of this stack, run \`${AFTER_A_CRASH}\` (it adopts only what that run created). ` +
  "If another stack manages it, hand it over first (retainOnDelete there: docs/ownership.md), or both stacks would own it";

beforeEach(() => {
  resetClient(); // a new plugin process: no listing held
  fixture.sim.clearRequests();
});
afterEach(() => {
  delete process.env["WPE_ADOPT_EXISTING"];
  delete process.env["WPE_SKIP_CREDENTIALS_CHECK"];
});

describe("check of a new Domain", () => {
  it("whose name the install holds: one failure, on name, in create's words", async () => {
    const res = await provider.check!({}, { installId: ACMEPROD, name: WWW.name });
    expect(res.failures).toEqual([{ property: "name", reason: REFUSAL }]);
    // Create, sent past it, says the same.
    await expect(provider.create(res.inputs)).rejects.toThrow(`wpengine:Domain create failed: ${REFUSAL}`);
  });

  it("with adopt: no failure, and no look (create takes it over)", async () => {
    await checkOk(provider, { installId: ACMEPROD, name: WWW.name, adopt: true });
    expect(listings()).toEqual([]);
  });

  it("with the provider's adoptExisting: no failure; adopt: false still refuses, as create does", async () => {
    process.env["WPE_ADOPT_EXISTING"] = "true";
    await checkOk(provider, { installId: ACMEPROD, name: WWW.name });
    expect(listings()).toEqual([]);
    const res = await provider.check!({}, { installId: ACMEPROD, name: WWW.name, adopt: false });
    expect(res.failures).toEqual([{ property: "name", reason: REFUSAL }]);
  });

  it("that is an update, a replacement's old side or an import (olds given): no look at all", async () => {
    const olds = {
      installId: ACMEPROD,
      name: WWW.name,
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
    };
    await checkOk(provider, { installId: ACMEPROD, name: WWW.name, secureAllUrls: true }, olds);
    // A replacement (a new name): the engine checks it with the olds too.
    await checkOk(provider, { installId: ACMEPROD, name: "acme.example" }, olds);
    expect(requests().filter((l) => l !== "GET /v1/user")).toEqual([]);
  });

  it("that is a replacement checked again without olds (the engine does, for fresh defaults): no look", async () => {
    const olds = {
      installId: ACMEPROD,
      name: WWW.name,
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
    };
    const news = { installId: ACMEPROD, name: WWW.name, __claimant: "replaced" };
    await checkOk(provider, news, olds);
    await checkOk(provider, news, {});
    expect(listings()).toEqual([]);
    forgetClaims(); // the claim is this case's alone
  });

  it("that is a replacement checked again without olds, moved to another install or name: looked at as a new one", async () => {
    const olds = {
      installId: ACMESTG,
      name: "old.acme.example",
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
    };
    // The engine checks a replacement first with its olds, then again without them.
    const replaced = async (news: Record<string, unknown>) => {
      await checkOk(provider, news, olds);
      return provider.check!({}, news);
    };
    // To a name the new install holds: create's refusal, at preview.
    const held = await replaced({ installId: ACMEPROD, name: WWW.name, __claimant: "moved" });
    expect(held.failures).toEqual([{ property: "name", reason: REFUSAL }]);
    // To an install the service does not have.
    const missing = await replaced({
      installId: MISSING,
      name: "old.acme.example",
      __claimant: "moved-away",
    });
    expect(missing.failures?.map((f) => f.property)).toEqual(["installId"]);
    expect(missing.failures?.[0]?.reason).toContain(`installId ${MISSING} names no install on the service`);
    // To a free name: no failure.
    expect(
      (await replaced({ installId: ACMEPROD, name: "free.acme.example", __claimant: "renamed" })).failures,
    ).toBeUndefined();
    forgetClaims();
  });

  it("whose install the service does not have (a 404 listing it): one failure, on installId, and the next step", async () => {
    const res = await provider.check!({}, { installId: MISSING, name: "q.example.com" });
    expect(res.failures).toEqual([
      {
        property: "installId",
        reason: `installId ${MISSING} names no install on the service for the default credentials (API user demo): the create would fail. Check the id (a typo, or an install deleted since), or run the resource as a profile whose API user can reach it (its profile, or wpengine:profile)`,
      },
    ]);
  });

  it("when the listing fails otherwise (a 503 after the retries): no failure, create decides", async () => {
    process.env["WPE_MAX_RETRIES"] = "0";
    fixture.sim.setFaults([{ method: "GET", path: `/v1/installs/${ACMEPROD}/domains`, status: 503 }]);
    try {
      await checkOk(provider, { installId: ACMEPROD, name: WWW.name });
      expect(listings().length).toBeGreaterThan(0);
    } finally {
      fixture.sim.setFaults([]);
      delete process.env["WPE_MAX_RETRIES"];
    }
  });

  it("in an offline preview (skipCredentialsCheck): no look", async () => {
    process.env["WPE_SKIP_CREDENTIALS_CHECK"] = "true";
    await checkOk(provider, { installId: ACMEPROD, name: WWW.name });
    expect(requests()).toEqual([]);
  });

  it("whose name is free: no failure; N checks on two installs list each install once, and the creates share it", async () => {
    const names = Array.from({ length: 40 }, (_, i) => [i % 2 ? ACMEPROD : ACMESTG, `n${i}.ahead.example`]);
    const checked = await Promise.all(
      names.map(([installId, name]) => checkOk(provider, { installId, name })),
    );
    expect(listings().sort()).toEqual(
      [`GET /v1/installs/${ACMEPROD}/domains`, `GET /v1/installs/${ACMESTG}/domains`].sort(),
    );
    await Promise.all(checked.map((inputs) => provider.create(inputs)));
    expect(listings()).toHaveLength(2);
  });

  it("during a recovery (pulumi-wpengine recover's up): no look, and nothing written to the journal", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ahead-"));
    const plan = path.join(dir, "plan.json");
    fs.writeFileSync(plan, JSON.stringify({ token: "t1", adopt: [] }));
    process.env["WPE_RECOVER_PLAN"] = plan;
    process.env["WPE_JOURNAL_DIR"] = dir;
    setJournalRun(4242);
    resetRecoveryPlan();
    try {
      // Not covered by the plan: its create refuses it ("Not taken by pulumi-wpengine recover"); a check
      // failure would stop the recovery's whole up, and with it the adoption of the rest.
      await checkOk(provider, { installId: ACMEPROD, name: WWW.name });
      expect(listings()).toEqual([]);
      expect(readJournal(dir)).toEqual([]);
    } finally {
      setJournalRun(undefined);
      delete process.env["WPE_RECOVER_PLAN"];
      delete process.env["WPE_JOURNAL_DIR"];
      resetRecoveryPlan();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("records nothing in the journal when it refuses", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ahead-"));
    process.env["WPE_JOURNAL_DIR"] = dir;
    setJournalRun(4242);
    try {
      const res = await provider.check!({}, { installId: ACMEPROD, name: WWW.name });
      expect(res.failures).toHaveLength(1);
      await Promise.resolve();
      expect(readJournal(dir)).toEqual([]);
    } finally {
      setJournalRun(undefined);
      delete process.env["WPE_JOURNAL_DIR"];
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("check of a new resource whose create would refuse to take over what is there (the kind's takeover)", () => {
  const ACME = SEED.accounts.acme.id;
  const FAY = {
    accountId: ACME,
    email: "Full@Acme.Example",
    firstName: "Fay",
    lastName: "Full",
    roles: "full",
  };
  const userListings = () => requests().filter((l) => l === `GET /v1/accounts/${ACME}/account_users`);

  it("an AccountUser adopted with names that differ from the live user's: refused on email, in create's words", async () => {
    const users = accountUser.provider;
    const news = { ...FAY, firstName: "F", lastName: "L", adopt: true };
    const res = await users.check!({}, news);
    const refusal =
      `cannot adopt user ${FAY.email} on account ${ACME}: on the service its firstName is "Fay" and lastName is ` +
      `"Full"; names cannot be changed, so set the inputs to match`;
    expect(res.failures).toEqual([{ property: "email", reason: refusal }]);
    await expect(users.create(res.inputs)).rejects.toThrow(`wpengine:AccountUser create failed: ${refusal}`);
    // The provider's adoptExisting adopts too: the same refusal; matching names pass, one listing for all.
    process.env["WPE_ADOPT_EXISTING"] = "true";
    resetClient();
    fixture.sim.clearRequests();
    expect((await users.check!({}, { ...news, adopt: undefined })).failures).toEqual([
      { property: "email", reason: refusal },
    ]);
    await checkOk(users, { ...FAY, adopt: true });
    expect(userListings()).toHaveLength(1);
  });

  it("a ThirdPartyCertificate on an install that serves another (another stack's): refused on installId; adopt passes", async () => {
    const other = selfSigned(["other.acme.example"]);
    const mine = selfSigned(["www.acme.example"]);
    const certs = thirdPartyCertificate.provider;
    await createOk(certs, { installId: ACMEPROD, ...other });
    forgetClaims(); // the second stack's check is another process's
    const res = await certs.check!({}, { installId: ACMEPROD, ...mine });
    const serial = new X509Certificate(other.certificate).serialNumber;
    expect(res.failures).toEqual([
      {
        property: "installId",
        reason: expect.stringMatching(
          new RegExp(
            `^install ${ACMEPROD} already serves another third-party certificate \\(serial number ${serial}\\), perhaps another stack's; renamed a resource\\? give it \`aliases\` with its old name \\(docs/ownership\\.md\\); else set adopt: true to import this one over it`,
          ),
        ),
      },
    ]);
    await expect(certs.create(res.inputs)).rejects.toThrow(
      `wpengine:ThirdPartyCertificate create failed: ${res.failures![0]!.reason}`,
    );
    await checkOk(certs, { installId: ACMEPROD, ...mine, adopt: true });
    // The same pair again (a re-created resource) imports over itself: no refusal.
    await checkOk(certs, { installId: ACMEPROD, ...other });
    forgetClaims();
  });

  it("CacheExclusions on an install whose list holds exclusions: refused on installId; adopt passes; an update does not look", async () => {
    const exclusions = cacheExclusions.provider;
    const news = { installId: ACMEPROD, exclusions: [{ type: "url path", value: "^/shop/" }] };
    const res = await exclusions.check!({}, news);
    expect(res.failures?.map((f) => f.property)).toEqual(["installId"]);
    expect(res.failures?.[0]?.reason).toMatch(
      new RegExp(
        `^install ${ACMEPROD} already has \\d+ cache exclusions .*perhaps another stack's list; renamed a resource\\? give it \`aliases\` with its old name \\(docs/ownership\\.md\\); else set adopt: true`,
      ),
    );
    await expect(exclusions.create(res.inputs)).rejects.toThrow(
      `wpengine:CacheExclusions create failed: ${res.failures![0]!.reason}`,
    );
    await checkOk(exclusions, { ...news, adopt: true });
    fixture.sim.clearRequests();
    await checkOk(exclusions, news, { ...news, exclusions: [] });
    expect(requests().filter((l) => l !== "GET /v1/user")).toEqual([]);
    forgetClaims();
  });

  it("DomainMappings of an app this program creates (its name known at preview, a 404 until up): no failure, create decides", async () => {
    const { accountId } = SEED.apps.acmeFrontend;
    const news = { accountId, appId: "made-by-this-program", environmentId: "production", mappings: [] };
    const res = await domainMappingsKind.provider.check!({}, news);
    expect(res.failures ?? []).toEqual([]);
    expect(requests()).toContain(
      `GET /v1/accounts/${accountId}/apps/made-by-this-program/environments/production/domainMappings`,
    );
    forgetClaims();
  });

  it("in an offline preview (skipCredentialsCheck): no look, adopting or not", async () => {
    process.env["WPE_SKIP_CREDENTIALS_CHECK"] = "true";
    await checkOk(accountUser.provider, { ...FAY, firstName: "F", adopt: true });
    await checkOk(cacheExclusions.provider, { installId: ACMEPROD, exclusions: [] });
    expect(requests()).toEqual([]);
    forgetClaims();
  });
});

describe("the generic rule, by the fault its natural key's look meets", () => {
  const inputs = z.object({
    accountId: parentInput("The account."),
    name: stringInput.meta({ key: true, replaces: true }),
    ...COMMON_INPUTS,
  });
  const ACCOUNT = SEED.accounts.acme.id;
  let fault: unknown;
  let looks = 0;
  const thing = defineProvider({
    kind: "Thing",
    schema: inputs,
    replaceOn: ["accountId", "name"],
    updatable: [],
    identity: { what: "the thing's name in its account", fields: ["accountId", "name"] },
    naturalKey: {
      what: "the thing's name in its account",
      find: async () => {
        looks++;
        if (fault) throw fault;
        return "t1";
      },
    },
    create: async () => ({ id: "t1", outs: {} }),
    read: async () => undefined,
    delete: async () => undefined,
  });
  const api = (status: number, serverMessage?: string) =>
    new WpEngineApiError({ status, method: "GET", path: `/v1/accounts/${ACCOUNT}/things`, serverMessage });

  beforeEach(() => {
    fault = undefined;
    looks = 0;
  });

  it("an id found, with no words of the kind's own: the generic refusal, on the key", async () => {
    const res = await thing.check!({}, { accountId: ACCOUNT, name: "a" });
    expect(res.failures).toEqual([
      {
        property: "name",
        reason: expect.stringMatching(
          /^Thing a already exists under ac0.* \(id t1\); renamed a resource\? give it `aliases` with its old name \(docs\/ownership\.md\); else set adopt: true to take it over, or, after an interrupted run of this stack, run .*hand it over first/,
        ),
      },
    ]);
  });

  it("a 404 on the parent's listing: the parent the 404 names", async () => {
    fault = api(404, "Account not found");
    const res = await thing.check!({}, { accountId: ACCOUNT, name: "a" });
    expect(res.failures?.map((f) => f.property)).toEqual(["accountId"]);
    expect(res.failures?.[0]?.reason).toMatch(/^accountId ac0\S+ names no account on the service/);
  });

  it("a 403 on the parent's listing (another account's, the wrong profile): the parent, not reachable by whom", async () => {
    fault = api(403, "Not authorized");
    const res = await thing.check!({}, { accountId: ACCOUNT, name: "a" });
    expect(res.failures).toEqual([
      {
        property: "accountId",
        reason: `accountId ${ACCOUNT}: the service refuses the default credentials (API user demo) (403: Not authorized), so the create would fail. If its reason is the account's (a plan or feature it lacks), no profile helps: enable it on the account or drop the resource; else run the resource as a profile whose API user can reach it (its profile, or wpengine:profile), or grant that API user access in the User Portal`,
      },
    ]);
  });

  it("any other fault (503, 401 after the proof, a timeout): no failure", async () => {
    for (const f of [
      api(503),
      api(401),
      new WpEngineTimeoutError({ method: "GET", path: "/v1/x", timeoutMs: 1 }),
    ]) {
      fault = f;
      await checkOk(thing, { accountId: ACCOUNT, name: "a" });
    }
    expect(looks).toBe(3);
  });

  it("unknown inputs (a preview of a parent not made yet): no look", async () => {
    await checkOk(thing, { accountId: UNKNOWN, name: "a" });
    expect(looks).toBe(0);
  });
});

describe("the executable front door (YAML, Python, Go, .NET programs)", () => {
  it("refuses a new Domain whose name the install holds, as the engine prints it; an import (olds) passes", async () => {
    const svc = new WpEngineProvider("0.0.0").service() as Record<string, Handler>;
    const call = (method: string, request: unknown) =>
      new Promise<{ getFailuresList(): Array<{ getReason(): string; getProperty(): string }> }>(
        (resolve, reject) => svc[method]!({ request }, (err, res) => (err ? reject(err) : resolve(res))),
      );
    const config = {
      username: "demo",
      password: "demo",
      apiUrl: fixture.sim.apiUrl,
      appHostingUrl: fixture.sim.appHostingUrl,
    };
    await call("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(config)));
    const check = (name: string, olds: Record<string, unknown>) =>
      call(
        "check",
        new provproto.CheckRequest()
          .setUrn(`urn:pulumi:dev::p::wpengine:index:Domain::${name}`)
          // The engine sends a seed with every check (\`pulumi do\` sends none).
          .setRandomseed(new Uint8Array(32).fill(7))
          .setOlds(Struct.fromJavaScript(olds))
          .setNews(Struct.fromJavaScript({ installId: ACMEPROD, name: WWW.name })),
      );
    const failures = (await check("www", {})).getFailuresList();
    expect(failures.map((f) => [f.getProperty(), f.getReason()])).toEqual([["", `name: ${REFUSAL}`]]);
    // pulumi import (another command, so another provider process: no claim of www's run is held): the
    // engine checks with the inputs the read gave as olds.
    forgetClaims();
    const olds = {
      installId: ACMEPROD,
      name: WWW.name,
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
    };
    expect((await check("imported", olds)).getFailuresList()).toEqual([]);
  });
});
