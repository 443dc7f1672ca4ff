/**
 * `Install`: a WordPress install, created in an account and placed in a site as its production,
 * staging or development install. The service provisions it asynchronously (`status` is `pending`,
 * for minutes on WP Engine): create waits until it is `active`, within `timeoutSeconds`. Its name (also
 * its subdomain, unique across the service) and account cannot change, so they replace it; its site and
 * environment change in place. An `Install` manages its own placement: do not also declare an
 * `InstallPlacement` for it (that resource is for installs made elsewhere).
 *
 * Delete: deletes the install and everything on it (domains, backups, settings) for good. So
 * `deletionProtection` is on by default and delete refuses until it has been turned off.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type Install as ApiInstall, INSTALL_NAME_PATTERN, pollUntil } from "../../sdk";
import { COMMON_INPUTS, deletionProtectionInput, timeoutSecondsInput, uuidString } from "../core/inputs";
import { type Context, CreatedButFailedError, defineProvider } from "../core/lifecycle";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { type InstallInfo, toInstallInfo } from "../lookups";
import { POLL_FIRST_MS, POLL_MAX_MS } from "./Environment";
import {
  INSTALL_ENVIRONMENTS,
  type InstallEnvironment,
  markManagedInstall,
  placementPatch,
} from "./InstallPlacement";

const KIND = "Install";

export const InstallInputsSchema = z
  .object({
    /** The install name: 3 to 14 lower-case letters or digits, starting with a letter. Changing it replaces the install. */
    name: z
      .string({ error: "name is required and must be a string" })
      .regex(
        INSTALL_NAME_PATTERN,
        "name must be 3 to 14 lower-case letters or digits, starting with a letter (^[a-z][a-z0-9]{2,13}$)",
      ),
    /** The account the install belongs to. Changing it replaces the install. */
    accountId: uuidString("accountId"),
    /** The site the install belongs to (of the same account); changing it moves the install in place. */
    siteId: uuidString("siteId"),
    /** The environment it fills in its site; changing it moves the install in place. */
    environment: z
      .string({ error: "environment is required: production, staging or development" })
      .trim()
      .toLowerCase()
      .pipe(
        z.enum(INSTALL_ENVIRONMENTS, {
          error: "environment must be one of production, staging, development",
        }),
      ),
    /** How long create waits for the install to be provisioned (`active`), in seconds (default 1800). */
    timeoutSeconds: timeoutSecondsInput(1800),
    /** Refuse to delete (or replace) the install while true (the default). */
    deletionProtection: deletionProtectionInput,
    ...COMMON_INPUTS,
  })
  .strict();

export type InstallInputs = z.output<typeof InstallInputsSchema>;

/**
 * Outputs of an Install: its inputs plus what the service reports (the lookups' {@link InstallInfo}, id as
 * `installId`), without the primary domain and the WordPress version: they change through other
 * resources (`Domain`, `BackupRestore`) and by themselves (core updates), which would show as drift on
 * every refresh (`getInstall` reads them).
 */
export interface InstallOutputs
  extends Omit<InstallInfo, "id" | "primaryDomain" | "cmsVersion">,
    Record<string, unknown> {
  installId: string;
  deletionProtection: boolean;
}

/** Maps a service record to outputs (the guard is the input's, never the service's). */
export function installOutputs(i: ApiInstall, deletionProtection: boolean): InstallOutputs {
  const { id, environment, primaryDomain: _p, cmsVersion: _c, ...rest } = toInstallInfo(i);
  return { ...rest, installId: id, environment: environment?.toLowerCase() ?? null, deletionProtection };
}

/** What deleting an install destroys, in words. */
export function installLoss(olds: Pick<InstallOutputs, "name" | "installId">): string {
  return `install ${olds.name} (${olds.installId}) with its domains, backups and settings`;
}

/** Polls an install until it is `active`, within `timeoutSeconds`. */
export function waitActive(ctx: Context, installId: string, name: string, timeoutSeconds: number) {
  return pollUntil<ApiInstall>({
    deadlineMs: timeoutSeconds * 1000,
    intervalMs: POLL_FIRST_MS,
    maxIntervalMs: POLL_MAX_MS,
    describe: `install ${name} to be provisioned (status active; timeoutSeconds ${timeoutSeconds})`,
    check: async () => {
      const i = await ctx.client.installs.get(installId);
      return i.status === "active" || !i.status
        ? { done: true, value: i }
        : { done: false, state: i.status ?? undefined };
    },
  });
}

async function findByName(ctx: Context, accountId: string, name: string): Promise<ApiInstall | undefined> {
  for await (const i of ctx.client.installs.iterate({ accountId })) if (i.name === name) return i;
  return undefined;
}

/** Brings an install to the declared site and environment; the record as it is afterwards. */
async function place(ctx: Context, record: ApiInstall, want: InstallInputs): Promise<ApiInstall> {
  const have = { siteId: record.site?.id ?? null, environment: record.environment?.toLowerCase() ?? null };
  const patch = placementPatch(have, want);
  // Both fields are sent when both change: the service validates the pair (one install per environment).
  return patch ? ctx.client.installs.update(record.id, patch) : record;
}

export const provider = defineProvider<InstallInputs, InstallOutputs>({
  kind: KIND,
  schema: InstallInputsSchema,
  replaceOn: ["name", "accountId"],
  updatable: ["siteId", "environment", "timeoutSeconds", "deletionProtection"],
  normalize: (key, v) =>
    (key === "accountId" || key === "siteId" || key === "environment") && typeof v === "string"
      ? v.toLowerCase()
      : (v ?? null),
  protects: installLoss,
  async create(inputs, ctx) {
    const existing = await findByName(ctx, inputs.accountId, inputs.name);
    if (existing && !inputs.adopt) {
      throw new Error(
        `install ${inputs.name} already exists in account ${inputs.accountId} (id ${existing.id}); set adopt: true to take it over`,
      );
    }
    const record =
      existing ??
      (await ctx.client.installs.create({
        name: inputs.name,
        account_id: inputs.accountId,
        site_id: inputs.siteId,
        environment: inputs.environment,
      }));
    let outs = installOutputs(record, inputs.deletionProtection);
    try {
      if (existing) outs = installOutputs(await place(ctx, existing, inputs), inputs.deletionProtection);
      const active = await waitActive(ctx, record.id, inputs.name, inputs.timeoutSeconds);
      return { id: record.id, outs: installOutputs(active, inputs.deletionProtection) };
    } catch (err) {
      throw new CreatedButFailedError(record.id, outs, err);
    }
  },
  async read(id, olds, ctx) {
    const outs = installOutputs(await ctx.client.installs.get(id), olds.deletionProtection);
    const inputs: Partial<InstallInputs> = { name: outs.name };
    if (outs.accountId) inputs.accountId = outs.accountId;
    if (outs.siteId) inputs.siteId = outs.siteId;
    if (outs.environment) inputs.environment = outs.environment as InstallEnvironment;
    return { outs, inputs };
  },
  async update(id, _olds, news, ctx) {
    const record = await place(ctx, await ctx.client.installs.get(id), news);
    return installOutputs(record, news.deletionProtection);
  },
  async delete(id, olds, ctx) {
    await ctx.client.installs.delete(id);
    return `deleted on the service (deletionProtection was off): ${installLoss(olds)}`;
  },
});

/** Arguments of an {@link Install}. */
export interface InstallArgs {
  /** The install name: 3 to 14 lower-case letters or digits, starting with a letter (also its subdomain). Changing it replaces the install. */
  name: pulumi.Input<string>;
  /** The account the install belongs to (UUID). Changing it replaces the install. */
  accountId: pulumi.Input<string>;
  /** The site the install belongs to, of the same account. Changing it moves the install in place. */
  siteId: pulumi.Input<string>;
  /** `production`, `staging` or `development` (free in the site). Changing it moves the install in place. */
  environment: pulumi.Input<string>;
  /** How long create waits for provisioning, in seconds (default 1800). */
  timeoutSeconds?: pulumi.Input<number>;
  /**
   * Refuse to delete the install, and to replace it, while true (default true): deleting an install
   * destroys the website. Set false and run `pulumi up` before a destroy.
   */
  deletionProtection?: pulumi.Input<boolean>;
  /** Take over the install of that name in the account instead of failing (and place it as declared). */
  adopt?: pulumi.Input<boolean>;
}

/**
 * A WordPress install in a site. The id is the install's UUID. Create waits until it is provisioned.
 * Delete deletes the install, and is refused while `deletionProtection` is on (the default).
 *
 * @example
 * const prod = new wpengine.Install("prod", { name: "blogprod", accountId, siteId: site.id, environment: "production" });
 */
export class Install extends WpEngineResource {
  /** The install name. */
  declare readonly name: pulumi.Output<string>;
  /** The account the install belongs to. */
  declare readonly accountId: pulumi.Output<string>;
  /** The site the install belongs to. */
  declare readonly siteId: pulumi.Output<string>;
  /** The environment it fills in its site. */
  declare readonly environment: pulumi.Output<string>;
  /** How long create waits for provisioning, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** Whether delete and replacement are refused. */
  declare readonly deletionProtection: pulumi.Output<boolean>;
  /** The install's UUID (also the resource id): pass it as `installId` to the resources that act on it. */
  declare readonly installId: pulumi.Output<string>;
  /** `active` once provisioned (`pending` before). */
  declare readonly status: pulumi.Output<string | null>;
  /** PHP version. */
  declare readonly phpVersion: pulumi.Output<string | null>;
  /** The install's CNAME (`<name>.wpengine.com`). */
  declare readonly cname: pulumi.Output<string | null>;
  /** Stable IPs (some premium plans only; empty otherwise). */
  declare readonly stableIps: pulumi.Output<string[]>;
  /** Whether the install is a multisite. */
  declare readonly isMultisite: pulumi.Output<boolean>;
  /** When the install was created (UTC). */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** Automatic core major updates are deferred until this date, or null. */
  declare readonly deferCmsUpgradesUntil: pulumi.Output<string | null>;
  /** Whether this resource took over an existing install. */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: InstallArgs, opts?: ResourceOptions) {
    super(KIND, name, args, INSTALL_OUTPUTS, opts);
    markManagedInstall(this.id, name);
    markManagedInstall(this.installId, name);
  }
}

const INSTALL_OUTPUTS = [
  "timeoutSeconds",
  "deletionProtection",
  "installId",
  "status",
  "phpVersion",
  "cname",
  "stableIps",
  "isMultisite",
  "createdAt",
  "deferCmsUpgradesUntil",
  "adopt",
] as const;
