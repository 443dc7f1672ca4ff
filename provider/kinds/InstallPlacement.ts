/**
 * `InstallPlacement`: where an existing install lives: the site it belongs to and the environment
 * (production, staging or development) it fills there. Creating it moves the install (PATCH install);
 * it never creates an install.
 *
 * Delete: leaves the install where it is on the service and only forgets the placement (nothing on the
 * service "un-places" an install, and moving it back somewhere would be a guess).
 *
 * For installs made elsewhere (by hand, by another stack). An install this program creates with
 * `Install` is placed by that resource's `siteId`/`environment`; both on one install would fight.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { INSTALL_ENVIRONMENTS, type Install, type WpEngineClient } from "../../sdk";
import { COMMON_INPUTS, uuidString } from "../core/inputs";
import { defineProvider, FORGOTTEN } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "InstallPlacement";

/** The environments a site has one slot each of. */
export { INSTALL_ENVIRONMENTS };
/** One install environment. */
export type InstallEnvironment = (typeof INSTALL_ENVIRONMENTS)[number];

/**
 * The id outputs of the `Install` resources of this program, with their resource names. An `Install`
 * places its install itself; an `InstallPlacement` of the same install would fight it (each undoing
 * the other's move on every `up`), so the constructor refuses one.
 */
const managedInstalls = new WeakMap<object, string>();

/** Records an `Install`'s id output (its `id` or `installId`) as managed by the `Install` named `name`. */
export function markManagedInstall(output: object, name: string): void {
  managedInstalls.set(output, name);
}

export const InstallPlacementInputsSchema = z
  .object({
    /** The install to place; it must exist. Changing it replaces the placement. */
    installId: uuidString("installId"),
    /** The site the install belongs to; changing it moves the install. */
    siteId: uuidString("siteId"),
    /** The environment the install fills in its site: production, staging or development. */
    environment: z
      .string({ error: "environment is required: production, staging or development" })
      .trim()
      .toLowerCase()
      .pipe(
        z.enum(INSTALL_ENVIRONMENTS, {
          error: "environment must be one of production, staging, development",
        }),
      ),
    ...COMMON_INPUTS,
  })
  .strict();

export type InstallPlacementInputs = z.output<typeof InstallPlacementInputsSchema>;

/** Outputs of an InstallPlacement: its inputs plus facts about the install. */
export interface InstallPlacementOutputs extends Record<string, unknown> {
  installId: string;
  siteId: string | null;
  environment: string | null;
  installName: string;
  accountId: string | null;
  cname: string | null;
  primaryDomain: string | null;
  status: string | null;
}

/** Maps an install record to outputs. */
export function placementOutputs(i: Install): InstallPlacementOutputs {
  return {
    installId: i.id,
    siteId: i.site?.id ?? null,
    environment: i.environment?.toLowerCase() ?? null,
    installName: i.name,
    accountId: i.account?.id ?? null,
    cname: i.cname ?? null,
    primaryDomain: i.primary_domain ?? null,
    status: i.status ?? null,
  };
}

/** The PATCH that moves an install from `have` to `want`; `undefined` when it is already there. */
export function placementPatch(
  have: Pick<InstallPlacementOutputs, "siteId" | "environment">,
  want: Pick<InstallPlacementInputs, "siteId" | "environment">,
): { site_id?: string; environment?: InstallEnvironment } | undefined {
  const patch: { site_id?: string; environment?: InstallEnvironment } = {};
  if ((have.siteId ?? "").toLowerCase() !== want.siteId.toLowerCase()) patch.site_id = want.siteId;
  if (have.environment !== want.environment) patch.environment = want.environment;
  return Object.keys(patch).length ? patch : undefined;
}

async function place(
  installId: string,
  want: InstallPlacementInputs,
  client: WpEngineClient,
): Promise<InstallPlacementOutputs> {
  const current = placementOutputs(await client.installs.get(installId));
  const patch = placementPatch(current, want);
  if (!patch) return current;
  // Both fields are sent when both change: the service validates the pair (one install per environment).
  return placementOutputs(await client.installs.update(installId, patch));
}

export const provider = defineProvider<InstallPlacementInputs, InstallPlacementOutputs>({
  kind: KIND,
  schema: InstallPlacementInputsSchema,
  replaceOn: ["installId"],
  updatable: ["siteId", "environment"],
  normalize: (_key, v) => (typeof v === "string" ? v.toLowerCase() : (v ?? null)),
  // An install always has a placement, so there is nothing to adopt: creating one is the move itself
  // (`adopt` is accepted and changes nothing).
  async create(inputs, ctx) {
    const outs = await place(inputs.installId, inputs, ctx.client);
    return { id: inputs.installId, outs };
  },
  async read(id, _olds, ctx) {
    const outs = placementOutputs(await ctx.client.installs.get(id));
    const inputs: Partial<InstallPlacementInputs> = { installId: outs.installId };
    if (outs.siteId) inputs.siteId = outs.siteId;
    if (outs.environment) inputs.environment = outs.environment as InstallEnvironment;
    return { outs, inputs };
  },
  async update(id, _olds, news, ctx) {
    return place(id, news, ctx.client);
  },
  async delete(_id, olds) {
    // Deliberately nothing: the install stays in the site and environment it has now.
    return `${FORGOTTEN}install ${olds.installName} stays in site ${olds.siteId} as its ${olds.environment} install`;
  },
});

/** Arguments of an {@link InstallPlacement}. */
export interface InstallPlacementArgs {
  /** The install to place (it must exist). Changing it replaces the placement. */
  installId: pulumi.Input<string>;
  /** The site the install belongs to. Changing it moves the install in place. */
  siteId: pulumi.Input<string>;
  /** The environment the install fills: `production`, `staging` or `development`. */
  environment: pulumi.Input<string>;
  /** Accepted for uniformity; an install always has a placement, so there is nothing to take over. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * The site and environment of an existing install. The id is the install's UUID. Delete leaves the
 * install where it is and only forgets the placement.
 *
 * @example
 * new wpengine.InstallPlacement("staging", { installId, siteId, environment: "staging" });
 */
export class InstallPlacement extends WpEngineResource {
  /** The placed install (also the resource id). */
  declare readonly installId: pulumi.Output<string>;
  /** The site the install belongs to now. */
  declare readonly siteId: pulumi.Output<string>;
  /** The environment the install fills now. */
  declare readonly environment: pulumi.Output<string>;
  /** The install's name. */
  declare readonly installName: pulumi.Output<string>;
  /** The account owning the install. */
  declare readonly accountId: pulumi.Output<string | null>;
  /** The install's CNAME. */
  declare readonly cname: pulumi.Output<string | null>;
  /** The install's primary domain. */
  declare readonly primaryDomain: pulumi.Output<string | null>;
  /** The install's status (`active` or `pending`). */
  declare readonly status: pulumi.Output<string | null>;

  constructor(name: string, args: InstallPlacementArgs, opts?: ResourceOptions) {
    const owner = typeof args?.installId === "object" ? managedInstalls.get(args.installId) : undefined;
    if (owner !== undefined) {
      throw new Error(
        `wpengine:InstallPlacement ${name}: installId is the install of wpengine.Install "${owner}", which places ` +
          "it itself: set siteId and environment on that Install and remove this InstallPlacement " +
          "(InstallPlacement is for installs made outside this program)",
      );
    }
    super(KIND, name, args, INSTALL_PLACEMENT_OUTPUTS, opts);
  }
}

const INSTALL_PLACEMENT_OUTPUTS = ["installName", "accountId", "cname", "primaryDomain", "status"] as const;
