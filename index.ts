/**
 * pulumi-wpengine: Pulumi dynamic resources for WP Engine hosting and application hosting.
 *
 * Every resource registers `pulumi-nodejs:dynamic/wpengine:<Name>`. Configuration comes from the
 * `wpengine:*` stack config or the environment (see README), never from resource inputs.
 */
import type { z } from "zod";
import type { DeepInput } from "./provider/dynamic/resource";
import type { DEFINITIONS } from "./provider/registry";

export { MissingCredentialsError } from "./provider/core/client";
export { CONFIG_KEYS } from "./provider/core/config";
export * from "./provider/kinds/generated";
export * from "./provider/lookups";

type MappingInput = z.input<(typeof DEFINITIONS)["DomainMappings"]["inputs"]>["mappings"][number];
/** One mapping of {@link DomainMappingsArgs.mappings}. */
export type DomainMappingArgs = { [K in keyof MappingInput]: DeepInput<MappingInput[K]> };
