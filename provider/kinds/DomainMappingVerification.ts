import { z } from "zod";
import {
  environmentAddress,
  environmentOf,
  type MappingStatus,
  mappingStatus,
  mappingStatuses,
  resourceNameOf,
} from "../core/appHosting";
import { defineKind, findFirst } from "../core/define";
import { COMMON_INPUTS, domainNameInput, out, timeoutSecondsInput } from "../core/inputs";
import { type Context, FORGOTTEN } from "../core/lifecycle";
import { DEFAULT_TIMEOUT_SECONDS, retryIntervalSecondsInput, verifyUntilSeen } from "../core/txt";
import { asIs, wireOf } from "../core/wire";

const inputs = z.object({
  ...environmentAddress,
  domain: domainNameInput().meta({
    description: "The mapped domain to verify, e.g. `www.example.com` (stored lower case).",
    replaces: true,
    key: true,
  }),
  revalidate: z.boolean().default(false).meta({
    description: "Ask the service to re-check the mapping's DNS and certificate after verifying.",
    setting: true,
  }),
  timeoutSeconds: timeoutSecondsInput(DEFAULT_TIMEOUT_SECONDS),
  retryIntervalSeconds: retryIntervalSecondsInput.meta({
    description: "Seconds between verification attempts (1 to 3600).",
    setting: true,
  }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  txtVerified: out.boolean(
    "Whether the service has verified the TXT record (false after a refresh found the verification lost).",
  ),
  txtRecordName: out.stringOrNull("The TXT record's name."),
  txtRecordValue: out.stringOrNull("The TXT record's value."),
  state: out.string("The mapping's state: CREATING, ACTIVE or DELETING."),
  resourceName: out.string("The mapping's resource name (also the resource id)."),
});

/** The live mapping of the domain (its pages followed only as far as needed); undefined when there is none. */
const findMapping = (ctx: Context) =>
  findFirst(
    mappingStatuses(ctx.client, environmentOf(ctx)),
    (m) => m.domain === ctx.key && m.state !== "DELETING",
  );

const STATUS = wireOf<z.ZodObject, typeof outputs>(z.object({}), outputs, undefined, asIs);

/** The outputs of the mapping's status (the inputs are the lifecycle's to keep); the id is its resource name. */
const verificationOutputs = (m: MappingStatus, ctx: Context) =>
  STATUS.outputs(m, { resourceName: m.resourceName ?? resourceNameOf(ctx) });

/** Verifies the mapping (at once when it already is), then revalidates it when asked. */
async function verify(ctx: Context, i: z.output<typeof inputs>) {
  const [, appId, environmentId] = environmentOf(ctx);
  const mapping = await findMapping(ctx);
  if (!mapping)
    throw new Error(
      `domain ${ctx.key} is not mapped on environment ${environmentId} of app ${appId}: add it to the environment's DomainMappings first (and make this resource depend on it, e.g. dependsOn: [mappings])`,
    );
  let verified = mapping;
  if (mapping.txtVerified !== true) {
    const answer = await verifyUntilSeen({
      // Paced by the inputs' timeoutSeconds and retryIntervalSeconds.
      ...i,
      attempt: () => ctx.client.domainMappings.verifyTxtRecord(...environmentOf(ctx), ctx.key),
      subject: `domain mapping ${ctx.key} of environment ${environmentId}`,
      record: async () => {
        const latest = (await findMapping(ctx).catch(() => undefined)) ?? mapping;
        return { name: latest.txtRecordName, value: latest.txtRecordValue };
      },
      fallback: "publish the DNS TXT record shown by the mapping's txtRecordName and txtRecordValue",
    });
    verified = { ...mapping, ...mappingStatus(answer), txtVerified: true };
  }
  if (i.revalidate) {
    const revalidated = await ctx.client.domainMappings.revalidate(...environmentOf(ctx), ctx.key);
    verified = { ...verified, ...mappingStatus(revalidated) };
  }
  return verificationOutputs(verified, ctx);
}

export const definition = defineKind({
  kind: "DomainMappingVerification",
  description:
    "The TXT ownership verification of one domain mapping of an application-hosting environment (`:verifyTxtRecord`), the application-hosting counterpart of `DomainVerification`. Create asks the service to verify until it sees the record, within `timeoutSeconds`; a mapping already verified succeeds at once. With `revalidate`, the service is then asked to re-check the mapping's DNS and certificate. When a refresh finds the mapping no longer verified, the next update verifies again. The id is the mapping's resource name.",
  deletes:
    "Forgets the resource only; nothing is sent to the service: a verification cannot be undone (remove the mapping from the `DomainMappings` set to remove the domain). Delete says so in one line among the update's diagnostics (`wpengine:DomainMappingVerification <id>: forgotten only, nothing sent to the service: ...`).",
  gone: "A mapping removed from its set on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again (verifying it anew).",
  importId: { none: "an action (verification): there is nothing of it to adopt." },
  naturalKey: { resend: "a verification: asking again changes nothing on the service." },
  inputs,
  outputs,
  lost: (olds) => (olds["txtVerified"] === false ? "update" : undefined),
  // Verifying a verified mapping succeeds at once, so `adopt` changes nothing.
  create: async (inputs, ctx) => ({ id: resourceNameOf(ctx), outs: await verify(ctx, inputs) }),
  async read(_id, _olds, ctx) {
    const mapping = await findMapping(ctx);
    return mapping && { outs: verificationOutputs(mapping, ctx) };
  },
  update: (_id, _olds, news, ctx) => verify(ctx, news),
  delete: async () => `${FORGOTTEN}a verification cannot be undone (the mapping stays verified)`,
});
