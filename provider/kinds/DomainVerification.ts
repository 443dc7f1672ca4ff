/**
 * `DomainVerification`: the TXT ownership verification of a domain (TXT_VERIFICATION_PENDING →
 * TXT_VERIFIED) as a resource, so one program can create a `Domain`, publish its TXT record with any
 * DNS provider, and then verify. Create asks the service to verify until it sees the record, within
 * `timeoutSeconds`; a domain already verified succeeds at once.
 *
 * Read reports the domain's ownership status: when the domain is no longer verified, the diff after a
 * refresh shows a change and the next update verifies again.
 *
 * Delete: forgets the resource. Verification cannot be undone on the service; the domain stays verified
 * (delete the `Domain` to remove it).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type Domain as ApiDomain, isNotFound } from "../../sdk";
import { COMMON_INPUTS, timeoutSecondsInput, uuidString } from "../core/inputs";
import { type Context, defineProvider, FORGOTTEN } from "../core/lifecycle";
import {
  DEFAULT_TIMEOUT_SECONDS,
  retryIntervalSecondsInput,
  notVerifiedMessage as txtNotVerifiedMessage,
  verifyUntilSeen,
} from "../core/txt";
import { type ResourceOptions, WpEngineResource } from "../dynamic/resource";

const KIND = "DomainVerification";

/** The ownership status of a verified domain. */
export const VERIFIED = "TXT_VERIFIED";

export const DomainVerificationInputsSchema = z
  .object({
    /** The install the domain belongs to. Changing it replaces the resource. */
    installId: uuidString("installId"),
    /** The id of the domain to verify (a `Domain`'s id). Changing it replaces the resource. */
    domainId: uuidString("domainId"),
    /** How long create waits for the TXT record to be seen, in seconds (default 600). */
    timeoutSeconds: timeoutSecondsInput(DEFAULT_TIMEOUT_SECONDS),
    /**
     * Seconds between verification attempts (default 10, minimum 1). The real service allows one
     * domain status check per install every 5 s: keep it at 5 or more there.
     */
    retryIntervalSeconds: retryIntervalSecondsInput(),
    ...COMMON_INPUTS,
  })
  .strict();

export type DomainVerificationInputs = z.output<typeof DomainVerificationInputsSchema>;

/** Outputs of a DomainVerification: the inputs plus the verification the service recorded. */
export interface DomainVerificationOutputs extends Record<string, unknown> {
  installId: string;
  domainId: string;
  /** The domain name. */
  domainName: string;
  /** TXT_VERIFIED, or TXT_VERIFICATION_PENDING when the verification was lost (drift). */
  ownershipStatus: string | null;
  /** When the TXT record was verified. */
  verifiedTime: string | null;
  /** The domain the TXT record was verified for. */
  verifiedDomain: string | null;
}

/** The ownership status of a domain record, derived from the verification time when the field is absent. */
export function ownershipStatusOf(d: Pick<ApiDomain, "ownership_status" | "txt_verified_time">): string {
  return d.ownership_status ?? (d.txt_verified_time ? VERIFIED : "TXT_VERIFICATION_PENDING");
}

/** Maps a domain record to outputs. */
export function verificationOutputs(installId: string, d: ApiDomain): DomainVerificationOutputs {
  return {
    installId,
    domainId: d.id,
    domainName: d.name,
    ownershipStatus: ownershipStatusOf(d),
    verifiedTime: d.txt_verified_time ?? null,
    verifiedDomain: d.txt_verified_domain ?? null,
  };
}

/** The message of a verification that ran out of time: what to publish, and what the service last said. */
export function notVerifiedMessage(
  d: Pick<ApiDomain, "name" | "id" | "txt_verification_key" | "txt_verification_value">,
  timeoutSeconds: number,
  lastAnswer: string | undefined,
): string {
  return txtNotVerifiedMessage(
    `domain ${d.name} (id ${d.id})`,
    { name: d.txt_verification_key, value: d.txt_verification_value },
    timeoutSeconds,
    lastAnswer,
    "publish the DNS TXT record shown by the domain's txtVerificationKey and txtVerificationValue",
  );
}

/**
 * Verifies the domain: at once when it already is, else asks the service every `retryIntervalSeconds`
 * until it sees the TXT record (it answers 400 until then) or `timeoutSeconds` pass.
 */
async function verify(ctx: Context, inputs: DomainVerificationInputs): Promise<DomainVerificationOutputs> {
  const { installId, domainId } = inputs;
  const domain = await ctx.client.domains.get(installId, domainId).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
    throw new Error(
      `domainId ${domainId} is not a domain of installId ${installId} (404 Not found): check both inputs, ` +
        "and that the Domain exists before this resource (pass its id, e.g. domainId: domain.id)",
    );
  });
  if (ownershipStatusOf(domain) === VERIFIED) return verificationOutputs(installId, domain);
  const answer = await verifyUntilSeen({
    timeoutSeconds: inputs.timeoutSeconds,
    retryIntervalSeconds: inputs.retryIntervalSeconds,
    describe: `the TXT record of domain ${domain.name}`,
    attempt: () => ctx.client.domains.verify(installId, domainId),
    explain: async (lastAnswer) => {
      // Read the domain again for the record to publish: it is the one the service is looking for now.
      const latest = await ctx.client.domains.get(installId, domainId).catch(() => domain);
      return notVerifiedMessage(latest, inputs.timeoutSeconds, lastAnswer);
    },
  });
  return {
    ...verificationOutputs(installId, domain),
    ownershipStatus: VERIFIED,
    verifiedTime: answer.txt_verified_time ?? null,
    verifiedDomain: answer.txt_verified_domain ?? domain.name,
  };
}

export const provider = defineProvider<DomainVerificationInputs, DomainVerificationOutputs>({
  kind: KIND,
  schema: DomainVerificationInputsSchema,
  replaceOn: ["installId", "domainId"],
  updatable: [],
  // The resource promises a verified domain: a refresh that found it no longer TXT_VERIFIED is a
  // change, answered by an update that verifies again.
  lost: (olds) =>
    typeof olds["ownershipStatus"] === "string" && olds["ownershipStatus"] !== VERIFIED
      ? "update"
      : undefined,
  // Verifying a verified domain succeeds at once, so `adopt` changes nothing.
  async create(inputs, ctx) {
    return { id: inputs.domainId, outs: await verify(ctx, inputs) };
  },
  async read(id, olds, ctx) {
    const domainId = olds.domainId ?? id;
    const outs = verificationOutputs(olds.installId, await ctx.client.domains.get(olds.installId, domainId));
    return { outs, inputs: { installId: olds.installId, domainId } };
  },
  // Runs only when a refresh found the domain no longer verified (see `diff` below): verify again.
  async update(_id, _olds, news, ctx) {
    return verify(ctx, news);
  },
  // Verification cannot be undone on the service: delete only forgets.
  async delete() {
    return `${FORGOTTEN}a verification cannot be undone (the domain stays verified)`;
  },
});

/** Arguments of a {@link DomainVerification}. */
export interface DomainVerificationArgs {
  /** The install the domain belongs to. Changing it replaces the resource. */
  installId: pulumi.Input<string>;
  /** The id of the domain to verify, e.g. `domain.id` of a `Domain`. Changing it replaces the resource. */
  domainId: pulumi.Input<string>;
  /** How long create waits for the TXT record to be seen, in seconds (default 600). */
  timeoutSeconds?: pulumi.Input<number>;
  /** Seconds between attempts (default 10, minimum 1; keep it at 5 or more on the real service). */
  retryIntervalSeconds?: pulumi.Input<number>;
  /** Accepted for uniformity; it changes nothing, as an already verified domain succeeds at once. */
  adopt?: pulumi.Input<boolean>;
}

/**
 * Completes the TXT ownership verification of a domain. The id is the domain id. Create waits until
 * the service sees the TXT record (`timeoutSeconds`); delete only forgets (a verification cannot be undone).
 *
 * @example
 * const www = new wpengine.Domain("www", { installId, name: "www.example.com" });
 * const txt = new cloudflare.Record("www-txt", {
 *   zoneId, type: "TXT", name: www.txtVerificationKey, content: www.txtVerificationValue,
 * });
 * new wpengine.DomainVerification("www", { installId, domainId: www.id }, { dependsOn: [txt] });
 */
export class DomainVerification extends WpEngineResource {
  /** The install the domain belongs to. */
  declare readonly installId: pulumi.Output<string>;
  /** The verified domain's id (also the resource id). */
  declare readonly domainId: pulumi.Output<string>;
  /** The domain name. */
  declare readonly domainName: pulumi.Output<string>;
  /** TXT_VERIFIED; TXT_VERIFICATION_PENDING after a refresh found the verification lost. */
  declare readonly ownershipStatus: pulumi.Output<string>;
  /** When the TXT record was verified (ISO 8601). */
  declare readonly verifiedTime: pulumi.Output<string | null>;
  /** The domain the TXT record was verified for. */
  declare readonly verifiedDomain: pulumi.Output<string | null>;
  /** The wait limit of create, in seconds. */
  declare readonly timeoutSeconds: pulumi.Output<number>;
  /** Seconds between verification attempts. */
  declare readonly retryIntervalSeconds: pulumi.Output<number>;
  /** Whether `adopt` was set (it has no effect on this resource). */
  declare readonly adopt: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: DomainVerificationArgs, opts?: ResourceOptions) {
    super(KIND, name, args, DOMAIN_VERIFICATION_OUTPUTS, opts);
  }
}

const DOMAIN_VERIFICATION_OUTPUTS = [
  "installId",
  "domainId",
  "domainName",
  "ownershipStatus",
  "verifiedTime",
  "verifiedDomain",
  "timeoutSeconds",
  "retryIntervalSeconds",
  "adopt",
] as const;
