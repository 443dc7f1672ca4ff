/**
 * `DomainMappingVerification`: the TXT ownership verification of one domain mapping of an
 * application-hosting environment (`:verifyTxtRecord`), the application-hosting counterpart of
 * `DomainVerification`. One program can declare the `DomainMappings`, publish each mapping's TXT record
 * with any DNS provider, then verify. Create asks the service to verify until it sees the record, within
 * `timeoutSeconds`; a mapping already verified succeeds at once. With `revalidate`, the service is then
 * asked to re-check the mapping's DNS and certificate (`:revalidate`).
 *
 * Read reports whether the mapping is verified: when it no longer is, the diff after a refresh shows a
 * change and the next update verifies again. A mapping removed from the environment reads as gone.
 *
 * Delete: forgets the resource. Verification cannot be undone on the service (remove the mapping from
 * the `DomainMappings` set to remove the domain).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { COMMON_INPUTS, timeoutSecondsInput } from "../core/inputs";
import { type Context, defineProvider, FORGOTTEN } from "../core/lifecycle";
import {
  DEFAULT_TIMEOUT_SECONDS,
  notVerifiedMessage,
  retryIntervalSecondsInput,
  verifyUntilSeen,
} from "../core/txt";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";
import { canonicalDomain, type MappingStatus, mappingStatus } from "./DomainMappings";
import { environmentAddress, environmentResourceName } from "./Environment";

const KIND = "DomainMappingVerification";

export const DomainMappingVerificationInputsSchema = z
  .object({
    ...environmentAddress,
    /** The mapped domain to verify, e.g. `www.example.com`. Changing it replaces the resource. */
    domain: z
      .string({ error: "domain is required and must be a string" })
      .transform(canonicalDomain)
      .pipe(
        z
          .string()
          .regex(
            /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/,
            "domain must be a domain name such as www.example.com (no scheme, no path, no wildcard)",
          ),
      ),
    /** Ask the service to re-check the mapping's DNS and certificate after verifying (default false). */
    revalidate: z.boolean({ error: "revalidate must be true or false" }).default(false),
    /** How long create waits for the TXT record to be seen, in seconds (default 600). */
    timeoutSeconds: timeoutSecondsInput(DEFAULT_TIMEOUT_SECONDS),
    /** Seconds between verification attempts (default 10, minimum 1). */
    retryIntervalSeconds: retryIntervalSecondsInput(),
    ...COMMON_INPUTS,
  })
  .strict();

export type DomainMappingVerificationInputs = z.output<typeof DomainMappingVerificationInputsSchema>;

/** Outputs: the inputs plus the mapping as the service reports it. */
export interface DomainMappingVerificationOutputs extends Record<string, unknown> {
  accountId: string;
  appId: string;
  environmentId: string;
  domain: string;
  /** Whether the service has verified the TXT record (false after a refresh found it lost). */
  txtVerified: boolean;
  /** The TXT record's name. */
  txtRecordName: string | null;
  /** The TXT record's value. */
  txtRecordValue: string | null;
  /** The mapping's state: CREATING, ACTIVE or DELETING. */
  state: string;
  /** The mapping's resource name (also the id). */
  resourceName: string;
}

type Address = Pick<DomainMappingVerificationInputs, "accountId" | "appId" | "environmentId" | "domain">;

/** The id: the mapping's resource name. */
export function mappingResourceName(a: Address): string {
  return `${environmentResourceName(a.accountId, a.appId, a.environmentId)}/domainMappings/${a.domain}`;
}

/** The live mapping of the domain, following every page; undefined when the environment has none. */
async function findMapping(ctx: Context, a: Address): Promise<MappingStatus | undefined> {
  for await (const m of ctx.client.domainMappings.iterate(a.accountId, a.appId, a.environmentId)) {
    const status = mappingStatus(m);
    if (status.domain === a.domain && status.state !== "DELETING") return status;
  }
  return undefined;
}

function outputs(a: Address, m: MappingStatus): DomainMappingVerificationOutputs {
  return {
    accountId: a.accountId,
    appId: a.appId,
    environmentId: a.environmentId,
    domain: a.domain,
    txtVerified: m.txtVerified === true,
    txtRecordName: m.txtRecordName,
    txtRecordValue: m.txtRecordValue,
    state: m.state,
    resourceName: m.resourceName ?? mappingResourceName(a),
  };
}

/** Verifies the mapping (at once when it already is), then revalidates it when asked. */
async function verify(
  ctx: Context,
  inputs: DomainMappingVerificationInputs,
): Promise<DomainMappingVerificationOutputs> {
  const { accountId, appId, environmentId, domain } = inputs;
  const mapping = await findMapping(ctx, inputs);
  if (!mapping) {
    throw new Error(
      `domain ${domain} is not mapped on environment ${environmentId} of app ${appId}: add it to the ` +
        "environment's DomainMappings first (and make this resource depend on it, e.g. dependsOn: [mappings])",
    );
  }
  let verified = mapping;
  if (mapping.txtVerified !== true) {
    const answer = await verifyUntilSeen({
      timeoutSeconds: inputs.timeoutSeconds,
      retryIntervalSeconds: inputs.retryIntervalSeconds,
      describe: `the TXT record of domain mapping ${domain}`,
      attempt: () => ctx.client.domainMappings.verifyTxtRecord(accountId, appId, environmentId, domain),
      explain: async (lastAnswer) => {
        // Read the mapping again for the record to publish: it is the one the service is looking for now.
        const latest = (await findMapping(ctx, inputs).catch(() => undefined)) ?? mapping;
        return notVerifiedMessage(
          `domain mapping ${domain} of environment ${environmentId}`,
          { name: latest.txtRecordName, value: latest.txtRecordValue },
          inputs.timeoutSeconds,
          lastAnswer,
          "publish the DNS TXT record shown by the mapping's txtRecordName and txtRecordValue",
        );
      },
    });
    verified = { ...mapping, ...mappingStatus(answer), txtVerified: true };
  }
  if (inputs.revalidate) {
    verified = {
      ...verified,
      ...mappingStatus(await ctx.client.domainMappings.revalidate(accountId, appId, environmentId, domain)),
    };
  }
  return outputs(inputs, verified);
}

export const provider = defineProvider<DomainMappingVerificationInputs, DomainMappingVerificationOutputs>({
  kind: KIND,
  schema: DomainMappingVerificationInputsSchema,
  replaceOn: ["accountId", "appId", "environmentId", "domain"],
  updatable: [],
  // The resource promises a verified mapping: a refresh that found it unverified is a change, answered
  // by an update that verifies again.
  lost: (olds) => (olds["txtVerified"] === false ? "update" : undefined),
  // Verifying a verified mapping succeeds at once, so `adopt` changes nothing.
  async create(inputs, ctx) {
    return { id: mappingResourceName(inputs), outs: await verify(ctx, inputs) };
  },
  async read(_id, olds, ctx) {
    const mapping = await findMapping(ctx, olds);
    if (!mapping) return undefined;
    const { accountId, appId, environmentId, domain } = olds;
    return { outs: outputs(olds, mapping), inputs: { accountId, appId, environmentId, domain } };
  },
  // Runs only when a refresh found the mapping no longer verified (see `diff` below): verify again.
  async update(_id, _olds, news, ctx) {
    return verify(ctx, news);
  },
  async delete() {
    return `${FORGOTTEN}a verification cannot be undone (the mapping stays verified)`;
  },
});

/** Arguments of a {@link DomainMappingVerification}. */
export interface DomainMappingVerificationArgs {
  /** The account that owns the app (UUID). Changing it replaces the resource. */
  accountId: pulumi.Input<string>;
  /** The app id. Changing it replaces the resource. */
  appId: pulumi.Input<string>;
  /** The environment id. Changing it replaces the resource. */
  environmentId: pulumi.Input<string>;
  /** The mapped domain to verify. Changing it replaces the resource. */
  domain: pulumi.Input<string>;
  /** Ask the service to re-check the mapping's DNS and certificate after verifying (default false). */
  revalidate?: pulumi.Input<boolean>;
  /** How long create waits for the TXT record to be seen, in seconds (default 600). */
  timeoutSeconds?: pulumi.Input<number>;
  /** Seconds between attempts (default 10, minimum 1). */
  retryIntervalSeconds?: pulumi.Input<number>;
  /** Accepted for uniformity; it changes nothing, as an already verified mapping succeeds at once. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * Completes the TXT ownership verification of one domain mapping of an application-hosting
 * environment. The id is the mapping's resource name. Create waits until the service sees the TXT record
 * (`timeoutSeconds`); delete only forgets (a verification cannot be undone).
 *
 * @example
 * const domains = new wpengine.DomainMappings("prod", { accountId, appId, environmentId, mappings: [{ domain: "www.example.com", primary: true }] });
 * new wpengine.DomainMappingVerification("www", { accountId, appId, environmentId, domain: "www.example.com" }, { dependsOn: [domains, txtRecord] });
 */
export class DomainMappingVerification extends WpEngineResource {
  /** The account that owns the app. */
  declare readonly accountId: pulumi.Output<string>;
  /** The app id. */
  declare readonly appId: pulumi.Output<string>;
  /** The environment id. */
  declare readonly environmentId: pulumi.Output<string>;
  /** The verified domain (lower case). */
  declare readonly domain: pulumi.Output<string>;
  /** Whether the mapping is verified (false after a refresh found the verification lost). */
  declare readonly txtVerified: pulumi.Output<boolean>;
  /** The TXT record's name. */
  declare readonly txtRecordName: pulumi.Output<string | null>;
  /** The TXT record's value. */
  declare readonly txtRecordValue: pulumi.Output<string | null>;
  /** The mapping's state: CREATING, ACTIVE or DELETING. */
  declare readonly state: pulumi.Output<string>;
  /** The mapping's resource name (also the id). */
  declare readonly resourceName: pulumi.Output<string>;
  /** Whether create and update revalidate the mapping after verifying. */
  declare readonly revalidate: pulumi.Output<boolean>;
  /** The wait limit of create, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** Seconds between verification attempts. */
  declare readonly retryIntervalSeconds: pulumi.Output<number>;
  /** Whether `adopt` was set (it has no effect on this resource). */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: DomainMappingVerificationArgs, opts?: ResourceOptions) {
    super(KIND, name, args, DOMAIN_MAPPING_VERIFICATION_OUTPUTS, opts);
  }
}

const DOMAIN_MAPPING_VERIFICATION_OUTPUTS = [
  "txtVerified",
  "txtRecordName",
  "txtRecordValue",
  "state",
  "resourceName",
  "revalidate",
  "timeoutSeconds",
  "retryIntervalSeconds",
  "adopt",
] as const;
