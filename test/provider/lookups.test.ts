import * as pulumi from "@pulumi/pulumi";
import { zipSync } from "fflate";
import { afterEach, describe, expect, it } from "vitest";
import { clearStackConfig } from "../../provider/core/config";
import { resetProgramClient } from "../../provider/core/programClient";
import {
  getAccounts,
  getAccountUser,
  getAccountUsers,
  getApp,
  getApps,
  getArchives,
  getBackup,
  getBackups,
  getBuild,
  getBuilds,
  getDomain,
  getDomainMappings,
  getDomains,
  getEnvironment,
  getEnvironments,
  getEnvironmentsOutput,
  getInstall,
  getInstallOutput,
  getInstalls,
  getReportSchedules,
  getReportTemplates,
  getSite,
  getSites,
  getSiteTransfer,
  getSiteTransfers,
  type LookupOptions,
} from "../../provider/lookups";
import type { WpEngineClient } from "../../sdk";
import { SEED } from "../../simulator";
import { useProviderConfig, useSimulator } from "../support/simulator";

const fixture = useSimulator();
const { accounts: A, installs: I, sites: S, apps } = SEED;
const APP = apps.acmeFrontend;

const client = fixture.client;
const opts = (extra: Omit<LookupOptions, "client"> = {}): LookupOptions => ({ client: client(), ...extra });
const gets = (path: RegExp) =>
  fixture.sim.requests().filter((r) => r.method === "GET" && path.test(r.path)).length;
const resolved = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

describe("hosting lookups", () => {
  it("getInstalls lists every install, or those of one account, as camelCase records", async () => {
    expect(await getInstalls({}, opts())).toHaveLength(Object.keys(I).length);
    const acme = await getInstalls({ accountId: A.acme.id }, opts());
    expect(acme.map((i) => i.name).sort()).toEqual([
      "acmeblog",
      "acmedev",
      "acmeprod",
      "acmesandbox",
      "acmestg",
    ]);
    expect(acme.find((i) => i.id === I.acmeprod.id)).toMatchObject({
      accountId: A.acme.id,
      siteId: S.acmeMarketing.id,
      environment: "production",
      stableIps: ["141.193.213.20", "141.193.213.21"],
      isMultisite: false,
    });
  });

  it("follows every page: the same records whatever the page size", async () => {
    const all = await getInstalls({ accountId: A.acme.id }, opts());
    fixture.sim.clearRequests();
    const paged = await getInstalls({ accountId: A.acme.id }, opts({ pageSize: 2 }));
    expect(paged).toEqual(all);
    expect(gets(/^\/v1\/installs$/)).toBe(3);
  });

  it("getBackups follows every page of a long list", async () => {
    const c = client();
    for (let n = 0; n < 5; n++)
      await c.backups.create(I.acmeprod.id, {
        description: `b${n}`,
        notification_emails: ["ops@acme.example"],
      });
    fixture.sim.clearRequests();
    const backups = await getBackups({ installId: I.acmeprod.id }, opts({ pageSize: 2 }));
    expect(backups).toHaveLength(7);
    expect(new Set(backups.map((b) => b.id)).size).toBe(7);
    expect(gets(/\/installs\/[^/]+\/backups$/)).toBe(4);
    expect(backups.find((b) => b.id === SEED.backups.acmeprodAborted.id)).toMatchObject({
      status: "aborted",
      description: "Interrupted nightly snapshot",
      cmsVersion: "6.7.2",
    });
  });

  it("getInstall reads one install with its WordPress version", async () => {
    expect(await getInstall({ installId: I.acmeprod.id }, opts())).toMatchObject({
      id: I.acmeprod.id,
      name: "acmeprod",
      status: "active",
      cmsVersion: "6.8.1",
      phpVersion: "8.2",
    });
  });

  it("getSites and getSite", async () => {
    const sites = await getSites({ accountId: A.acme.id }, opts({ pageSize: 1 }));
    expect(sites.map((s) => s.name).sort()).toEqual(["Acme Blog", "Acme Marketing", "Acme Sandbox"]);
    const site = await getSite({ siteId: S.acmeMarketing.id }, opts());
    expect(site).toMatchObject({
      name: "Acme Marketing",
      groupName: "Marketing",
      tags: ["marketing", "primary"],
    });
    expect(site.installs.map((i) => i.environment).sort()).toEqual(["development", "production", "staging"]);
  });

  it("getDomains (paged) and getDomain", async () => {
    const domains = await getDomains({ installId: I.acmeprod.id }, opts({ pageSize: 1 }));
    expect(domains.map((d) => d.name).sort()).toEqual(["acme.example", "www.acme.example"]);
    const www = await getDomain(
      { installId: I.acmeprod.id, domainId: SEED.domains.wwwAcmeExample.id },
      opts(),
    );
    expect(www).toMatchObject({ primary: false, redirectsTo: [{ id: SEED.domains.acmeExample.id }] });
  });

  it("getBackup and getArchives", async () => {
    const backup = await getBackup(
      { installId: I.acmeprod.id, backupId: SEED.backups.acmeprodCompleted.id },
      opts(),
    );
    expect(backup).toMatchObject({ status: "completed", completeTime: "2025-01-10T08:12:00.000Z" });
    const archives = await getArchives({ installId: I.acmeprod.id }, opts());
    expect(archives).toEqual([
      expect.objectContaining({
        id: SEED.archives.acmeprodCompleted.id,
        backupId: SEED.backups.acmeprodCompleted.id,
        state: "completed",
        downloadUri: expect.stringContaining(".zip"),
      }),
    ]);
  });

  it("getSiteTransfers and getSiteTransfer", async () => {
    const transfers = await getSiteTransfers({ accountId: A.acme.id }, opts());
    expect(transfers).toEqual([
      expect.objectContaining({
        id: SEED.siteTransfers.acmeBlogCancelled.id,
        site: "Acme Blog",
        originAccount: "Acme Corp",
        destinationAccount: "Initech",
        status: "cancelled",
      }),
    ]);
    const one = await getSiteTransfer(
      { siteId: S.acmeBlog.id, transferId: SEED.siteTransfers.acmeBlogCancelled.id },
      opts(),
    );
    expect(one).toEqual(transfers[0]);
  });

  it("getReportTemplates and getReportSchedules", async () => {
    const templates = await getReportTemplates({ accountId: A.acme.id }, opts());
    expect(templates).toContainEqual({
      uuid: SEED.templates.siteReport.uuid,
      name: "Site Report",
      sections: [...SEED.templates.siteReport.sections],
    });
    const schedules = await getReportSchedules({ siteId: S.acmeMarketing.id }, opts());
    expect(schedules).toEqual([
      expect.objectContaining({
        uuid: SEED.reportSchedules.acmeMonthly.uuid,
        title: "Acme monthly report",
        frequency: { value: 31, unit: "MONTHLY" },
        recipients: [{ name: "Olive Owner", email: "owner@acme.example" }],
        sections: ["cover", "overview", "usage"],
      }),
    ]);
  });

  it("getAccountUsers and getAccountUser (roles in canonical form)", async () => {
    const users = await getAccountUsers({ accountId: A.acme.id }, opts());
    expect(users.find((u) => u.userId === SEED.users.partialBilling.userId)).toMatchObject({
      roles: "partial,billing",
      installs: [{ id: I.acmestg.id, name: "acmestg" }],
    });
    const demo = await getAccountUser({ accountId: A.acme.id, userId: SEED.users.demo.userId }, opts());
    expect(demo).toMatchObject({ firstName: "Dee", roles: "owner", mfaEnabled: true });
  });
});

describe("application-hosting lookups", () => {
  it("getApps and getApp", async () => {
    const list = await getApps({ accountId: APP.accountId }, opts());
    expect(list.map((a) => a.appId)).toEqual([APP.appId]);
    expect(await getApp({ accountId: APP.accountId, appId: APP.appId }, opts())).toEqual(list[0]);
    expect(list[0]).toMatchObject({
      region: "regions/US-C",
      name: `accounts/${APP.accountId}/apps/${APP.appId}`,
    });
  });

  it("getEnvironments follows every page; getEnvironment reads one", async () => {
    fixture.sim.clearRequests();
    const envs = await getEnvironments({ accountId: APP.accountId, appId: APP.appId }, opts({ pageSize: 1 }));
    expect(envs.map((e) => e.environmentId).sort()).toEqual(["production", "staging"]);
    expect(gets(/\/environments$/)).toBeGreaterThanOrEqual(2);
    const prod = await getEnvironment(
      { accountId: APP.accountId, appId: APP.appId, environmentId: "production" },
      opts(),
    );
    expect(prod).toMatchObject({ displayName: "Production", branch: "uploadable", reconciling: false });
    expect(prod.build).toContain(APP.buildId);
  });

  it("getBuilds, getBuild and getDomainMappings", async () => {
    const env = { accountId: APP.accountId, appId: APP.appId, environmentId: "production" };
    const builds = await getBuilds(env, opts());
    expect(builds).toEqual([expect.objectContaining({ buildId: APP.buildId, state: "SUCCEEDED" })]);
    expect(await getBuild({ ...env, buildId: APP.buildId }, opts())).toEqual(builds[0]);
    const mappings = await getDomainMappings(env, opts());
    expect(mappings).toEqual([
      expect.objectContaining({
        domain: APP.domain,
        primary: true,
        state: "ACTIVE",
        destinationDomainMapping: null,
      }),
    ]);
  });
});

/**
 * Every list lookup, read with one record per page, returns exactly what it returns with the default
 * page size, and asks for at least one page per record: nothing is lost past the first page. (Installs,
 * backups and environments have their own tests above; account users and report templates are one
 * unpaged list on the service.)
 */
describe("every list lookup follows every page", () => {
  const env = { accountId: APP.accountId, appId: APP.appId, environmentId: "production" };
  const zip = (text: string) => Buffer.from(zipSync({ "index.html": new TextEncoder().encode(text) }));
  const cases: {
    name: string;
    /** Makes the list at least two records long. */
    prepare?: (c: WpEngineClient) => Promise<void>;
    list: (o: LookupOptions) => Promise<readonly object[]>;
    path: RegExp;
  }[] = [
    { name: "getSites", list: (o) => getSites({}, o), path: /^\/v1\/sites$/ },
    { name: "getDomains", list: (o) => getDomains({ installId: I.acmeprod.id }, o), path: /\/domains$/ },
    {
      name: "getArchives",
      prepare: async (c) => {
        await c.backups.create(I.acmeprod.id, {
          description: "a",
          notification_emails: ["ops@acme.example"],
        });
        fixture.sim.advance(86_400);
      },
      list: (o) => getArchives({ installId: I.acmeprod.id }, o),
      path: /\/archives$/,
    },
    {
      name: "getSiteTransfers",
      prepare: async (c) => {
        const at = new Date(Date.parse(fixture.sim.advance(0)) + 86_400_000).toISOString();
        await c.siteTransfers.create(S.acmeBlog.id, {
          destination_account_id: A.initech.id,
          scheduled_time: at,
        });
      },
      list: (o) => getSiteTransfers({ accountId: A.acme.id }, o),
      path: /\/accounts\/[^/]+\/site_transfers$/,
    },
    {
      name: "getApps",
      prepare: async (c) => {
        await c.apps.create(APP.accountId, "second-app", { region: "US-C" });
      },
      list: (o) => getApps({ accountId: APP.accountId }, o),
      path: /\/apps$/,
    },
    {
      name: "getBuilds",
      prepare: async (c) => {
        await c.environments.upload(env.accountId, env.appId, env.environmentId, zip("one"));
        fixture.sim.advance(3_600);
      },
      list: (o) => getBuilds(env, o),
      path: /\/builds$/,
    },
    {
      name: "getDomainMappings",
      prepare: async (c) => {
        await c.domainMappings.replace(env.accountId, env.appId, env.environmentId, {
          domainMappings: [
            { domain: APP.domain, primary: true },
            { domain: "acme-frontend.example", destinationDomainMapping: APP.domain },
          ],
        });
      },
      list: (o) => getDomainMappings(env, o),
      path: /\/domainMappings$/,
    },
  ];

  it.each(cases)("$name", async ({ prepare, list, path }) => {
    await prepare?.(client());
    const all = await list(opts());
    expect(all.length).toBeGreaterThanOrEqual(2);
    fixture.sim.clearRequests();
    const paged = await list(opts({ pageSize: 1 }));
    expect(paged).toEqual(all);
    expect(gets(path)).toBeGreaterThanOrEqual(all.length);
  });
});

describe("Output variants", () => {
  it("take pulumi.Input arguments and resolve to the same records", async () => {
    const install = await resolved(getInstallOutput({ installId: pulumi.output(I.acmeprod.id) }, opts()));
    expect(install).toEqual(await getInstall({ installId: I.acmeprod.id }, opts()));
    const envs = await resolved(
      getEnvironmentsOutput({ accountId: Promise.resolve(APP.accountId), appId: APP.appId }, opts()),
    );
    expect(envs).toHaveLength(2);
  });
});

describe("the program's client", () => {
  const envKeys = [
    "WPE_API_USER_ID",
    "WPE_API_PASSWORD",
    "WPE_API_URL",
    "WPE_APP_HOSTING_URL",
    "WPE_SIMULATOR",
  ];
  const savedEnv = Object.fromEntries(envKeys.map((k) => [k, process.env[k]]));
  afterEach(() => {
    pulumi.runtime.setAllConfig({});
    for (const k of envKeys) {
      if (savedEnv[k] === undefined) delete process.env[k];
      else process.env[k] = savedEnv[k];
    }
    useProviderConfig(fixture.sim);
    resetProgramClient();
  });
  const isolate = () => {
    // The program process has no plugin config: only its own stack config and the environment.
    clearStackConfig();
    for (const k of envKeys) delete process.env[k];
    resetProgramClient();
  };

  it("is built from the program's wpengine:* stack config when no client is given", async () => {
    isolate();
    pulumi.runtime.setAllConfig(
      {
        "wpengine:username": "demo",
        "wpengine:password": "demo",
        "wpengine:apiUrl": fixture.sim.apiUrl,
        "wpengine:appHostingUrl": fixture.sim.appHostingUrl,
      },
      ["wpengine:password"],
    );
    expect((await getInstall({ installId: I.acmestg.id })).name).toBe("acmestg");
  });

  it("reads as the stack's wpengine:profile, or as the profile a lookup names, as the resources run", async () => {
    isolate();
    const { owner, partial } = SEED.users;
    pulumi.runtime.setAllConfig(
      {
        "wpengine:username": "demo",
        "wpengine:password": "demo",
        "wpengine:apiUrl": fixture.sim.apiUrl,
        "wpengine:appHostingUrl": fixture.sim.appHostingUrl,
        "wpengine:profile": "client-a",
        "wpengine:profiles": JSON.stringify({
          "client-a": { username: owner.username, password: owner.password },
          "client-b": { username: partial.username, password: partial.password },
        }),
      },
      ["wpengine:password", "wpengine:profiles"],
    );
    // The owner of Acme Corp alone, not demo's three accounts; the partial user sees acmeprod alone.
    expect((await getAccounts({})).map((a) => a.name)).toEqual(["Acme Corp"]);
    const installs = await getInstalls({ accountId: A.acme.id }, { profile: "client-b" });
    expect(installs.map((i) => i.name)).toEqual(["acmeprod"]);
  });

  it("as a profile: refused credentials name the profile, and a 403 says which API user the lookup ran as", async () => {
    isolate();
    const { owner } = SEED.users;
    pulumi.runtime.setAllConfig(
      {
        "wpengine:username": "demo",
        "wpengine:password": "demo",
        "wpengine:apiUrl": fixture.sim.apiUrl,
        "wpengine:appHostingUrl": fixture.sim.appHostingUrl,
        "wpengine:profiles": JSON.stringify({
          "client-a": { username: owner.username, password: owner.password },
          wrong: { username: owner.username, password: "not-it" },
        }),
      },
      ["wpengine:password", "wpengine:profiles"],
    );
    await expect(getAccounts({}, { profile: "wrong" })).rejects.toThrow(
      `the API refused the credentials of profile wrong (API user ${owner.username})`,
    );
    // Acme's owner cannot see Initech.
    const denied = await getAccountUsers({ accountId: A.initech.id }, { profile: "client-a" }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(denied).toContain(
      `403 Not authorized: You don't have permission to perform that action. The call ran as profile client-a (API user ${owner.username}), which has no access to it`,
    );
    // Said once.
    expect(denied.split("The call ran as").length).toBe(2);
  });

  it("falls back to the environment variables", async () => {
    isolate();
    Object.assign(process.env, {
      WPE_API_USER_ID: "demo",
      WPE_API_PASSWORD: "demo",
      WPE_API_URL: fixture.sim.apiUrl,
      WPE_APP_HOSTING_URL: fixture.sim.appHostingUrl,
    });
    expect((await getSites({ accountId: A.initech.id })).map((s) => s.name)).toEqual(["Initech Portal"]);
  });

  it("never shows the password in an error", async () => {
    isolate();
    Object.assign(process.env, {
      WPE_API_USER_ID: "demo",
      WPE_API_PASSWORD: "not-the-password-7f3a",
      WPE_API_URL: fixture.sim.apiUrl,
    });
    const err = await getInstalls().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(/401/);
    expect(JSON.stringify({ message: String(err), ...(err as object) })).not.toContain(
      "not-the-password-7f3a",
    );
  });

  it("says which settings are missing, with no warning of a rejection handled late", async () => {
    isolate();
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", note);
    try {
      // As a program exports it: Pulumi awaits the promise only after a turn of I/O.
      const exported = getInstalls();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      await expect(exported).rejects.toThrow(/missing wpengine:username and wpengine:password/);
    } finally {
      process.off("unhandledRejection", note);
    }
  });

  it("fails as a pulumi.RunError, so an uncaught failure prints as its message alone", async () => {
    const err = await getInstall({ installId: "1e000000-0000-4000-8000-0000000000ff" }, opts()).then(
      () => undefined,
      (e: unknown) => e,
    );
    // The argument the service did not find, and the next step, as a resource's message says them.
    expect((err as Error).message).toBe(
      "wpengine:getInstall lookup failed: GET /v1/installs/1e000000-0000-4000-8000-0000000000ff: 404 Not found: " +
        'Install not found (input "installId"). Check the id: the service has no such object, or the API user ' +
        "the call ran as (the resource's or lookup's profile, else the default credentials) has no access to it",
    );
    expect(pulumi.RunError.isInstance(err)).toBe(true);
    // A name where the id goes is refused before any call, saying what it takes.
    fixture.sim.clearRequests();
    await expect(getInstall({ installId: "acmedev" }, opts())).rejects.toThrow(
      "getInstall: invalid input: installId: must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    );
    expect(fixture.sim.requests()).toEqual([]);
  });
});
