/**
 * `pulumi-wpengine/sdk`: a typed client of the WP Engine Hosting Platform API and the application-hosting
 * API. Schemas (zod) are the types; errors carry the status and kind; lists page themselves.
 */
export * from "./accounts";
export * from "./accountUsers";
export * from "./apps";
export * from "./archives";
export * from "./backups";
export * from "./builds";
export * from "./cacheExclusions";
export * from "./cachePurge";
export * from "./certificates";
export * from "./client";
export * from "./common";
export * from "./core";
export * from "./domainMappings";
export * from "./domainStatus";
export * from "./domains";
export * from "./environments";
export * from "./installCopy";
export * from "./installs";
export * from "./offloadSettings";
export * from "./reportSchedules";
export * from "./sites";
export * from "./siteTransfers";
export * from "./sshKeys";
export * from "./usage";
