/**
 * pulumi-wpengine: Pulumi dynamic resources for WP Engine hosting and application hosting.
 *
 * Every resource registers `pulumi-nodejs:dynamic/wpengine:<Name>`. Configuration comes from the
 * `wpengine:*` stack config or the environment (see README), never from resource inputs.
 */

export { MissingCredentialsError } from "./provider/core/client";
export { CONFIG_KEYS } from "./provider/core/config";
export * from "./provider/kinds";
export * from "./provider/lookups";
