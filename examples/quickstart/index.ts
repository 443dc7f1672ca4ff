/**
 * Quickstart: a few domains on an install with cache exclusions, an account user, a monthly report
 * schedule, and an application with an environment and its domain mappings.
 *
 * Ids come from stack config (`pulumi config set installId ...`); credentials and URLs from the
 * `wpengine:*` config or the WPE_* environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const accountId = config.require("accountId");
const installId = config.require("installId");
const siteId = config.require("siteId");
const templateUuid = config.require("reportTemplateUuid");
const baseDomain = config.get("baseDomain") ?? "quickstart.example";
const appName = config.get("appName") ?? "quickstart-frontend";

// Domains: the primary www domain, and the apex redirecting to it.
const www = new wpengine.Domain("www", {
  installId,
  name: `www.${baseDomain}`,
  primary: true,
  secureAllUrls: true,
});
// `www.id` (the domain's id) rather than `www.domainId`: a resource's id stays known while it is updated,
// so a preview that updates www does not report apex as changing too.
const apex = new wpengine.Domain("apex", { installId, name: baseDomain, redirectTo: www.id });

// Cache exclusions: the whole list of the install. The install already holds exclusions made by hand;
// `adopt: true` says to replace them (without it, create stops and names them).
const cache = new wpengine.CacheExclusions("cache", {
  installId,
  adopt: true,
  exclusions: [
    { type: "url path", value: "^/cart/" },
    { type: "url path", value: "^/checkout/" },
    { type: "query arg", value: "^utm_" },
  ],
});

// An editor restricted to this install.
const editor = new wpengine.AccountUser("editor", {
  accountId,
  email: `editor@${baseDomain}`,
  firstName: "Erin",
  lastName: "Editor",
  roles: "partial",
  installIds: [installId],
});

// A monthly report on the 1st, to the site owner.
const report = new wpengine.ReportSchedule("monthly-report", {
  siteId,
  title: "Quickstart monthly report",
  // The next 1 January: always ahead (the service refuses a past date when it is sent), and the same
  // value all year, so a rerun plans no change (a date computed from the clock would change every run).
  nextScheduledDate: `${new Date().getUTCFullYear() + 1}-01-01T09:00:00Z`,
  templateUuid,
  frequency: { unit: "MONTHLY", value: 1 },
  recipients: [{ name: "Site Owner", email: `owner@${baseDomain}` }],
  sections: [{ name: "cover" }, { name: "overview" }, { name: "usage" }],
});

// Application hosting: an app, its production environment, and the environment's domains.
const app = new wpengine.App("frontend", { accountId, name: appName, region: "US-C" });
const production = new wpengine.Environment("production", {
  accountId,
  appId: app.name,
  name: "production",
  displayName: "Production",
  branch: "main",
});
const mappings = new wpengine.DomainMappings("production-domains", {
  accountId,
  appId: app.name,
  environmentId: production.name,
  mappings: [
    { domain: `app.${baseDomain}`, primary: true },
    { domain: `www.app.${baseDomain}`, destinationDomainMapping: `app.${baseDomain}` },
  ],
});

export const wwwDomainId = www.domainId;
export const wwwOwnershipStatus = www.ownershipStatus;
export const wwwTxtRecord = { name: www.txtVerificationKey, value: www.txtVerificationValue };
export const apexRedirectsTo = apex.redirectTo;
export const cacheExclusions = cache.exclusions;
export const editorUserId = editor.userId;
export const reportScheduleId = report.scheduleId;
export const appResourceName = app.resourceName;
export const productionReconciling = production.reconciling;
export const productionDomains = mappings.domainMappings;
