import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const accountId = config.require("accountId");
const appName = config.get("appName") ?? "storefront";
const domain = config.require("domain"); // e.g. storefront.example.com: www.<domain> is primary
// What staging runs: a .zip, or a directory zipped on the fly (relative to where `pulumi` runs).
const stagingSource = config.get("stagingSource") ?? "./site";

const app = new wpengine.App("app", { accountId, name: appName, region: "US-C" });

const production = new wpengine.Environment("production", {
  accountId,
  appId: app.name,
  name: "production",
  displayName: "Production",
  branch: "main",
});

const staging = new wpengine.Environment("staging", {
  accountId,
  appId: app.name,
  name: "staging",
  displayName: "Staging",
  // Deployed by zip uploads instead of a git branch.
  branch: "uploadable",
});

// Deploys the local source to staging: uploaded once, and again whenever a file under it changes (the
// preview shows the change as an update), then waits until the build has succeeded.
const stagingDeploy = new wpengine.EnvironmentSource("staging-source", {
  accountId,
  appId: app.name,
  environmentId: staging.name,
  path: stagingSource,
});

// Every build of staging (the upload's among them once it exists).
const stagingBuilds = pulumi
  .all([app.name, staging.name, stagingDeploy.buildName])
  .apply(([appId, environmentId]) => wpengine.getBuilds({ accountId, appId, environmentId }));

// The complete set of production's domains: www.<domain> is primary, the apex redirects to it.
const domains = new wpengine.DomainMappings("production-domains", {
  accountId,
  appId: app.name,
  environmentId: production.name,
  mappings: [
    { domain: `www.${domain}`, primary: true },
    { domain, destinationDomainMapping: `www.${domain}` },
  ],
});

// Once the TXT record of www.<domain> is published (see the txtRecords output), `pulumi config set
// verifyWww true` and `pulumi up` verify the domain's ownership, then ask the service to re-check it.
const wwwVerification = config.getBoolean("verifyWww")
  ? new wpengine.DomainMappingVerification(
      "www-verification",
      {
        accountId,
        appId: app.name,
        environmentId: production.name,
        domain: `www.${domain}`,
        revalidate: true,
        retryIntervalSeconds: config.getNumber("retryIntervalSeconds") ?? 10,
      },
      { dependsOn: [domains] },
    )
  : undefined;

// Clears production's cache once created, and again whenever a trigger value changes.
const cacheClear = new wpengine.EnvironmentCacheClear("production-cache", {
  accountId,
  appId: app.name,
  environmentId: production.name,
  triggers: { domains: domains.mappings },
});

export const appResourceName = app.resourceName;
export const environments = [production.resourceName, staging.resourceName];
export const primaryDomain = domains.primaryDomain;
export const mappingStates = domains.domainMappings.apply((ms) =>
  Object.fromEntries(ms.map((m) => [m.domain, m.state])),
);
// Publish these TXT records with your DNS provider to prove ownership of the domains.
export const txtRecords = domains.domainMappings.apply((ms) =>
  ms
    .filter((m) => m.txtRecordName && !m.txtVerified)
    .map((m) => ({ name: m.txtRecordName, value: m.txtRecordValue })),
);
export const cacheClearedAt = cacheClear.lastClearedAt;
// null until the www mapping is verified (an undefined output would make Pulumi warn on every run).
export const wwwVerified = wwwVerification?.txtVerified ?? null;
export const stagingBuild = stagingDeploy.buildName;
export const stagingBuildState = stagingDeploy.buildState;
export const stagingSourceHash = stagingDeploy.sourceHash;
export const stagingBuildCount = stagingBuilds.apply((b) => b.length);
