import { z } from "zod";
import type { Domain as ApiDomain } from "../../sdk";
import { unlessGone } from "../core/children";
import { defineKind } from "../core/define";
import { DOMAINS } from "../core/domains";
import { COMMON_INPUTS, out, parentInput, timeoutSecondsInput, uuidString } from "../core/inputs";
import { type Context, FORGOTTEN } from "../core/lifecycle";
import { DEFAULT_TIMEOUT_SECONDS, retryIntervalSecondsInput, verifyUntilSeen } from "../core/txt";
import { wireOf } from "../core/wire";

const VERIFIED = "TXT_VERIFIED";

const inputs = z.object({
  installId: parentInput("The install the domain belongs to. Changing it replaces the resource."),
  domainId: uuidString.meta({
    description:
      "The id of the domain to verify, e.g. `domain.id` of a `Domain`. Changing it replaces the resource.",
    replaces: true,
    key: true,
    wire: "id",
  }),
  timeoutSeconds: timeoutSecondsInput(DEFAULT_TIMEOUT_SECONDS).meta({
    description: "How long create waits for the TXT record to be seen, in seconds (at most 86400).",
  }),
  retryIntervalSeconds: retryIntervalSecondsInput.meta({
    description:
      "Seconds between verification attempts (at least 1). The real service allows one domain status check per install every 5 s: keep it at 5 or more there.",
    setting: true,
  }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  domainName: out.string("The domain name.", { wire: "name" }),
  ownershipStatus: out.string(
    "TXT_VERIFIED; TXT_VERIFICATION_PENDING after a refresh found the verification lost (drift).",
  ),
  verifiedTime: out.stringOrNull("When the TXT record was verified (ISO 8601).", {
    wire: "txt_verified_time",
  }),
  verifiedDomain: out.stringOrNull("The domain the TXT record was verified for.", {
    wire: "txt_verified_domain",
  }),
});

const WIRE = wireOf(inputs, outputs);

/** Maps a domain record to outputs, its ownership status derived from the verification time when absent. */
export const verificationOutputs = (d: ApiDomain) =>
  WIRE.outputs(d, {
    ownershipStatus: d.ownership_status ?? (d.txt_verified_time ? VERIFIED : "TXT_VERIFICATION_PENDING"),
  });

/** Verifies the domain: at once when it already is, else until the service sees the TXT record (400 till then). */
async function verify(ctx: Context, i: z.output<typeof inputs>) {
  const { parent: installId, key: domainId } = ctx;
  const domain = await unlessGone(ctx.client.domains.get(installId, domainId));
  if (!domain)
    throw new Error(
      `domainId ${domainId} is not a domain of installId ${installId} (404 Not found): check both inputs, and that the Domain exists before this resource (pass its id, e.g. domainId: domain.id)`,
    );
  const outs = verificationOutputs(domain);
  if (outs.ownershipStatus === VERIFIED) return outs;
  const answer = await verifyUntilSeen({
    // Paced by the inputs' timeoutSeconds and retryIntervalSeconds.
    ...i,
    // The domain's ownership changes: this process's reads of the install's domains list again.
    attempt: () => DOMAINS.writing(ctx.client, installId, ctx.client.domains.verify(installId, domainId)),
    subject: `domain ${domain.name} (id ${domain.id})`,
    record: async () => {
      const latest = await ctx.client.domains.get(installId, domainId).catch(() => domain);
      return { name: latest.txt_verification_key, value: latest.txt_verification_value };
    },
    fallback: "publish the DNS TXT record shown by the domain's txtVerificationKey and txtVerificationValue",
  });
  return {
    ...outs,
    ownershipStatus: VERIFIED,
    verifiedTime: answer.txt_verified_time ?? null,
    verifiedDomain: answer.txt_verified_domain ?? domain.name,
  };
}

export const definition = defineKind({
  kind: "DomainVerification",
  description:
    "The TXT ownership verification of a domain (TXT_VERIFICATION_PENDING to TXT_VERIFIED) as a resource, so one program can create a `Domain`, publish its TXT record with any DNS provider, and then verify. Create asks the service to verify until it sees the record, within `timeoutSeconds`; a domain already verified succeeds at once. When a refresh finds the domain no longer verified, the next update verifies again. The id is the domain id.",
  deletes:
    "Only forgets the resource: a verification cannot be undone on the service, the domain stays verified (delete the `Domain` to remove it). Nothing is sent to the service.",
  gone: "A verification cannot be undone; it reads as gone when its domain is deleted on the service, and the refresh removes it from the state.",
  importId: { none: "an action (a verification): there is no object of its own to adopt." },
  naturalKey: { resend: "a verification: asking again changes nothing on the service." },
  inputs,
  outputs,
  lost: ({ ownershipStatus }) =>
    typeof ownershipStatus === "string" && ownershipStatus !== VERIFIED ? "update" : undefined,
  // Verifying a verified domain succeeds at once, so `adopt` changes nothing.
  create: async (inputs, ctx) => ({ id: ctx.key, outs: await verify(ctx, inputs) }),
  async read(id, _olds, ctx) {
    return { outs: verificationOutputs(await ctx.client.domains.get(ctx.parent, ctx.key || id)) };
  },
  update: (_id, _olds, news, ctx) => verify(ctx, news),
  delete: async () => `${FORGOTTEN}a verification cannot be undone (the domain stays verified)`,
});
