import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import {
  getAccountLimits,
  getAccountUsage,
  getAccountUsageInsights,
  getAccountUsageSummary,
  getDomainCertificate,
  getDomainStatus,
  getDomainStatusOutput,
  getInstallCertificates,
  getInstallUsage,
  getOffloadValidationFile,
  getServiceStatus,
  type LookupOptions,
} from "../../index";
import { SEED } from "../../simulator";
import { usePacingOnSimulatorClock, useSimulator } from "../support/simulator";

const fixture = useSimulator();
const waited = usePacingOnSimulatorClock(fixture);
const { accounts: A, installs: I, domains: D } = SEED;
const opts = (extra: Omit<LookupOptions, "client"> = {}): LookupOptions => ({
  client: fixture.client(),
  ...extra,
});
const calls = (method: string, path: RegExp) =>
  fixture.sim.requests().filter((r) => r.method === method && path.test(r.path));
const resolved = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));
const order = {
  email_address: "jane@acme.example",
  given_name: "Jane",
  family_name: "Doe",
  region_code: "US",
};

describe("certificate lookups", () => {
  it("getInstallCertificates is an empty list when the install has none, and follows every page", async () => {
    expect(await getInstallCertificates({ installId: I.acmedev.id }, opts())).toEqual([]);
    await fixture.client().certificates.orderLetsEncrypt(I.acmeblog.id, D.blogAcmeExample.id, order);
    await fixture.client().domains.create(I.acmeblog.id, { name: "shop.acme.example" });
    fixture.sim.clearRequests();
    const certs = await getInstallCertificates({ installId: I.acmeblog.id }, opts({ pageSize: 1 }));
    expect(certs).toEqual([
      expect.objectContaining({
        source: "LETS_ENCRYPT",
        commonName: "blog.acme.example",
        status: "SUBMITTED",
      }),
    ]);
    expect(calls("GET", /ssl_certificates$/)).toHaveLength(1);
  });

  it("getDomainCertificate gives the domain's record and never a key", async () => {
    await fixture.client().certificates.orderLetsEncrypt(I.acmeblog.id, D.blogAcmeExample.id, order);
    fixture.sim.advance(5);
    const cert = await getDomainCertificate(
      { installId: I.acmeblog.id, domainId: D.blogAcmeExample.id },
      opts(),
    );
    expect(cert.certificate).toMatchObject({
      source: "LETS_ENCRYPT",
      status: "ENABLED",
      domains: ["blog.acme.example"],
    });
    await expect(
      getDomainCertificate({ installId: I.acmeprod.id, domainId: D.acmeExample.id }, opts()),
    ).rejects.toThrow(/404/);
  });
});

describe("domain status lookup", () => {
  it("checks, then reads the report until it is complete", async () => {
    const report = await getDomainStatus({ installId: I.acmeprod.id, domainId: D.acmeExample.id }, opts());
    expect(report.complete).toBe(true);
    expect(report.installName).toBe("acmeprod");
    expect(report.domains[0]).toMatchObject({
      name: "acme.example",
      complete: true,
      cname: "wp.wpenginepowered.com",
    });
  });

  it("paces checks of one install to one per 5 s in the process (on the simulator's clock), without a 429", async () => {
    fixture.sim.clearRequests();
    const args = { installId: I.acmeprod.id, domainId: D.acmeExample.id };
    const [a, b] = await Promise.all([
      getDomainStatus(args, opts()),
      getDomainStatusOutput(
        { installId: I.acmeprod.id, domainId: pulumi.output(D.wwwAcmeExample.id) },
        opts(),
      ),
    ]);
    expect(a.domains[0]!.name).toBe("acme.example");
    expect((await resolved(b)).domains[0]!.name).toBe("www.acme.example");
    expect(calls("POST", /check_status$/).map((r) => r.status)).toEqual([202, 202]);
    expect(waited()).toBeGreaterThanOrEqual(4_000);
  });

  it("waits out a 429 from a check made elsewhere", async () => {
    await fixture.client().domainStatus.check(I.acmestg.id, D.stagingAcmeExample.id);
    fixture.sim.clearRequests();
    const report = await getDomainStatus(
      { installId: I.acmestg.id, domainId: D.stagingAcmeExample.id },
      opts(),
    );
    expect(report.complete).toBe(true);
    expect(calls("POST", /check_status$/).map((r) => r.status)).toEqual([429, 202]);
  });
});

describe("usage lookups", () => {
  it("getAccountLimits, with null where the plan has no limit", async () => {
    expect(await getAccountLimits({ accountId: A.acme.id }, opts())).toEqual({
      visitors: 25_000,
      storageGb: 150,
      bandwidthGb: 1_000,
    });
    expect((await getAccountLimits({ accountId: A.initech.id }, opts())).visitors).toBeNull();
  });

  it("getAccountUsage reads every page and gives numbers", async () => {
    fixture.sim.clearRequests();
    const usage = await getAccountUsage({ accountId: A.acme.id }, opts({ pageSize: 2 }));
    expect(usage.installs.map((i) => i.installName).sort()).toEqual([
      "acmeblog",
      "acmedev",
      "acmeprod",
      "acmesandbox",
      "acmestg",
    ]);
    expect(calls("GET", /\/usage$/)).toHaveLength(3);
    expect(usage.totalSize).toBe(5);
    expect(typeof usage.installs[0]!.days[0]!.visitCount).toBe("number");
  });

  it("getInstallUsage over a range, with rollups that add up", async () => {
    const u = await getInstallUsage(
      { installId: I.acmeprod.id, firstDate: "2026-01-01", lastDate: "2026-01-07" },
      opts(),
    );
    expect(u.days).toHaveLength(7);
    expect(u.rollups["visitCount"]!.sum).toBe(u.days.reduce((s, d) => s + (d.visitCount ?? 0), 0));
    await expect(
      getInstallUsage({ installId: I.acmeprod.id, firstDate: "2026-01-01" }, opts()),
    ).rejects.toThrow(
      "getInstallUsage: invalid input: lastDate: give both firstDate and lastDate, or neither",
    );
  });

  it("names the program's arguments in a bad range, checks the 31-day limit before any call, and names a misspelt argument", async () => {
    fixture.sim.clearRequests();
    const account = { accountId: A.acme.id };
    await expect(getAccountUsage({ ...account, firstDate: "2026-11-01" }, opts())).rejects.toThrow(
      "getAccountUsage: invalid input: lastDate: give both firstDate and lastDate, or neither",
    );
    await expect(
      getAccountUsage({ ...account, firstDate: "2026-11-02", lastDate: "2026-11-01" }, opts()),
    ).rejects.toThrow(
      "getAccountUsage: invalid input: firstDate: must not be after lastDate (2026-11-02 > 2026-11-01)",
    );
    await expect(
      getAccountUsageSummary({ ...account, firstDate: "2026-01-01", lastDate: "2026-02-01" }, opts()),
    ).rejects.toThrow(
      "getAccountUsageSummary: invalid input: lastDate: the range is at most 31 days, both counted (2026-01-01 to 2026-02-01 is 32): split it into ranges of 31 days",
    );
    await expect(
      getAccountUsage({ ...account, firstDate: "1 Nov 2026", lastDate: "2026-11-30" }, opts()),
    ).rejects.toThrow(
      'getAccountUsage: invalid input: firstDate: must be a date formatted YYYY-MM-DD (it is "1 Nov 2026")',
    );
    // An impossible calendar day: the sdk's date rule, in the program's names (ut-retest51 N1).
    await expect(
      getAccountUsage({ ...account, firstDate: "2026-11-31", lastDate: "2026-12-01" }, opts()),
    ).rejects.toThrow(
      "getAccountUsage: invalid input: firstDate: 2026-11-31 is not a date (November has 30 days)",
    );
    await expect(
      getAccountUsageSummary({ ...account, firstDate: "2026-02-01", lastDate: "2026-02-30" }, opts()),
    ).rejects.toThrow(
      "getAccountUsageSummary: invalid input: lastDate: 2026-02-30 is not a date (February 2026 has 28 days)",
    );
    await expect(getInstallUsage({ installID: I.acmeprod.id } as never, opts())).rejects.toThrow(
      "getInstallUsage: invalid input: installID: is not an argument of getInstallUsage (did you mean installId?)",
    );
    expect(fixture.sim.requests()).toEqual([]);
    // 31 days, both counted, is allowed.
    const summary = await getAccountUsageSummary(
      { ...account, firstDate: "2026-01-01", lastDate: "2026-01-31" },
      opts(),
    );
    expect(summary["visitCount"]).toBeDefined();
  });

  it("getAccountUsageSummary and getAccountUsageInsights agree on the total", async () => {
    const summary = await getAccountUsageSummary({ accountId: A.acme.id }, opts());
    const insights = await getAccountUsageInsights({ accountId: A.acme.id }, opts());
    expect(insights["visitCount"]!.total).toBe(summary["visitCount"]!.sum);
    expect(Object.keys(insights["visitCount"]!.environmentTypes).sort()).toEqual([
      "development",
      "production",
      "staging",
    ]);
  });

  it("getServiceStatus and getOffloadValidationFile", async () => {
    expect((await getServiceStatus({}, opts())).success).toBe(true);
    const file = await getOffloadValidationFile({ installId: I.acmeprod.id }, opts());
    expect(file.name).toMatch(/\.largefs$/);
    expect(file.content).not.toBe("");
  });
});
