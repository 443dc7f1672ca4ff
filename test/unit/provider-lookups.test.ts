import { describe, expect, it } from "vitest";
import { defaultConcurrency, rawConfigOf, resolveProviderConfig } from "../../provider/core/config";
import {
  App,
  DomainMapping,
  Environment,
  Install,
  ReportSchedule,
  SiteTransfer,
} from "../../provider/lookups/views";

const toAppInfo = App.map;
const toDomainMappingInfo = DomainMapping.map;
const toEnvironmentInfo = Environment.map;
const toInstallInfo = Install.map;
const toReportScheduleInfo = ReportSchedule.map;
const toSiteTransferInfo = SiteTransfer.map;

describe("program configuration", () => {
  it("lets the program's wpengine:* config win over the environment, and keeps the rest", () => {
    const config: Record<string, string> = {
      "wpengine:username": "from-config",
      "wpengine:apiUrl": "http://127.0.0.1:1/v1",
      "wpengine:password": "",
    };
    const resolved = resolveProviderConfig(
      { WPE_API_USER_ID: "from-env", WPE_API_PASSWORD: "env-password", WPE_APP_HOSTING_URL: "https://x" },
      rawConfigOf((key) => config[key]),
    );
    expect(resolved).toEqual({
      username: "from-config",
      password: "env-password",
      apiUrl: "http://127.0.0.1:1/v1",
      appHostingUrl: "https://x",
      // Unset: the engine's own default --parallel (no PULUMI_PARALLEL here).
      maxConcurrency: defaultConcurrency({}),
    });
  });
});

describe("wire to camelCase", () => {
  it("fills absent install fields with null or empty values, never undefined", () => {
    const info = toInstallInfo({ id: "i", name: "n" });
    expect(info).toEqual({
      id: "i",
      name: "n",
      account: null,
      accountId: null,
      site: null,
      siteId: null,
      environment: null,
      status: null,
      phpVersion: null,
      cname: null,
      stableIps: [],
      primaryDomain: null,
      isMultisite: false,
      createdAt: null,
      cmsVersion: null,
      deferCmsUpgradesUntil: null,
    });
    expect(Object.values(info)).not.toContain(undefined);
  });

  it("maps a site transfer, a report schedule, an app, an environment and a domain mapping", () => {
    expect(
      toSiteTransferInfo({ id: "t", status: "pending", origin_account: "A", destination_account_id: "d" }),
    ).toMatchObject({ originAccount: "A", destinationAccountId: "d", installs: [], scheduledTime: null });
    expect(
      toReportScheduleInfo({
        uuid: "u",
        frequency: { value: 7, unit: "DAYS" },
        sections: [{ name: "cover" }],
      }),
    ).toMatchObject({ frequency: { value: 7, unit: "DAYS" }, sections: ["cover"], recipients: [] });
    expect(toAppInfo({ name: "accounts/a/apps/x", appId: "x", uploadable: {} })).toMatchObject({
      uploadable: true,
    });
    expect(toAppInfo({ name: "accounts/a/apps/x", appId: "x" })).toMatchObject({ uploadable: false });
    expect(toEnvironmentInfo({ name: "n", environmentId: "e", build: "" })).toMatchObject({
      build: null,
      domains: [],
    });
    expect(
      toDomainMappingInfo({ domain: "d.example", txtVerification: { name: "_t", value: "v" } }),
    ).toMatchObject({
      primary: false,
      txtVerification: { name: "_t", value: "v", verified: false },
    });
  });
});
