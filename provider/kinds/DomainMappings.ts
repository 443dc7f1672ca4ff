import { z } from "zod";
import { canonicalDomain, type ReplaceDomainMappingsRequest } from "../../sdk";
import {
  environmentAddress,
  environmentOf,
  type MappingStatus,
  mappingStatuses,
  mappingStatusOutput,
  resourceNameOf,
} from "../core/appHosting";
import { collect, compareStrings, defineKind } from "../core/define";
import { alreadyExists } from "../core/errors";
import {
  type CheckFailure,
  COMMON_INPUTS,
  domainNameInput,
  out,
  ruled,
  timeoutSecondsInput,
  uuidString,
  whole,
} from "../core/inputs";
import { afterCreate, type Context, differs, waitFor } from "../core/lifecycle";
import { asIs, wireOf } from "../core/wire";

const mappingInput = z
  .object({
    domain: domainNameInput().meta({
      description: "The domain, e.g. `www.example.com` (compared case-insensitively, stored lower case).",
    }),
    primary: z
      .boolean()
      .default(false)
      .meta({ description: "Whether this is the environment's primary domain (at most one)." }),
    destinationDomainMapping: domainNameInput().nullable().default(null).meta({
      description:
        "Another domain of the set this one redirects to; null for none. A redirect cannot be primary.",
    }),
  })
  .strict();

const inputs = z.object({
  ...environmentAddress,
  mappings: ruled(
    z.array(mappingInput, { error: "is required and must be a list of {domain, ...}" }),
    mappingFailures,
  ).meta({
    description: "The full set of mappings of the environment: afterwards exactly these exist.",
    // The service names an error's field `domainMappings.<i>.<field>`.
    wire: "domainMappings",
  }),
  timeoutSeconds: timeoutSecondsInput(600),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  domainMappings: z.array(mappingStatusOutput).meta({
    description:
      "Every mapping as the service reports it, sorted by domain: state and TXT verification record.",
  }),
  primaryDomain: out.stringOrNull("The primary domain, or null when none is primary."),
});

const WIRE = wireOf(inputs, outputs, undefined, asIs);
/** The `:replace` body of a declared set (a null redirect left out). */
export const replaceBody = (i: Partial<z.output<typeof inputs>>) =>
  WIRE.body(i, ["mappings"]) as ReplaceDomainMappingsRequest;

const domainOf = (m: unknown) => String((m as { domain?: unknown } | null)?.domain ?? "");
const byDomain = (a: unknown, b: unknown) => compareStrings(domainOf(a), domainOf(b));

/** The canonical form of a set of mappings: sorted by domain, lower case, defaults filled. */
export function normalizeMappings(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value
    .map((m) => {
      if (!m || typeof m !== "object") return m;
      const { domain, primary, destinationDomainMapping: dest } = m as Record<string, unknown>;
      return {
        domain: typeof domain === "string" ? canonicalDomain(domain) : domain,
        primary: primary === true,
        destinationDomainMapping: typeof dest === "string" && dest !== "" ? canonicalDomain(dest) : null,
      };
    })
    .sort(byDomain);
}

/** The spec's rules on a set of mappings: unique domains, one primary at most, redirects inside the set. */
export function mappingFailures(mappings: readonly z.output<typeof mappingInput>[]): CheckFailure[] {
  const failures: CheckFailure[] = [];
  // Every reason a whole sentence but a duplicate's, which follows its property's name.
  const fail = (property: string, reason: string) => failures.push({ property, reason: whole(reason) });
  mappings.forEach((m, i) => {
    const seen = mappings.findIndex((other) => other.domain === m.domain);
    if (seen < i)
      failures.push({
        property: `mappings[${i}].domain`,
        reason: `${m.domain} appears more than once (also mappings[${seen}]); domains compare case-insensitively`,
      });
  });
  const primaries = mappings.filter((m) => m.primary).map((m) => m.domain);
  if (primaries.length > 1)
    fail("mappings", `at most one mapping may be primary; ${primaries.length} are: ${primaries.join(", ")}`);
  const all = new Map(mappings.map((m) => [m.domain, m]));
  mappings.forEach((m, i) => {
    const dest = m.destinationDomainMapping;
    if (dest === null) return;
    const at = `mappings[${i}].destinationDomainMapping`;
    const target = all.get(dest);
    if (dest === m.domain) fail(at, `${m.domain} cannot redirect to itself`);
    else if (!target) fail(at, `${dest} is not a domain of this set; a redirect must point at one`);
    else if (target.destinationDomainMapping !== null)
      fail(
        at,
        `${dest} itself redirects to ${target.destinationDomainMapping}; point ${m.domain} at the final domain`,
      );
    if (m.primary && dest !== m.domain)
      fail(`mappings[${i}].primary`, `${m.domain} redirects to ${dest} and so cannot be the primary domain`);
  });
  return failures;
}

/** The mappings the environment has (those being deleted are gone as far as the set goes), sorted. */
export const liveSet = (statuses: readonly MappingStatus[]) =>
  statuses.filter((m) => m.state !== "DELETING").sort(byDomain);

const statusesOf = (ctx: Context) => collect(mappingStatuses(ctx.client, environmentOf(ctx)));

/** The outputs of the live statuses (the inputs, the declared set among them, are the lifecycle's to keep). */
const mappingsOutputs = (statuses: MappingStatus[]) => ({
  domainMappings: statuses,
  primaryDomain: statuses.find((s) => s.primary)?.domain ?? null,
});

/** Polls until every declared domain is ACTIVE (and, for an empty set, until nothing is left). */
async function waitSettled(ctx: Context, mappings: readonly { domain: string }[]): Promise<MappingStatus[]> {
  const domains = mappings.map((m) => m.domain);
  const pending = (statuses: readonly MappingStatus[]) =>
    statuses.map((s) => `${s.domain} ${s.state}`).join(", ") || "missing";
  const all = await waitFor(
    ctx,
    `the domain mappings of ${resourceNameOf(ctx)} ${domains.length ? "to become ACTIVE" : "to be removed"}`,
    () => statusesOf(ctx),
    (all) => {
      if (!domains.length) return all.length ? pending(all) : undefined;
      const waiting = domains.filter((d) => all.find((s) => s.domain === d)?.state !== "ACTIVE");
      return waiting.length ? pending(all.filter((s) => waiting.includes(s.domain))) : undefined;
    },
  );
  return liveSet(all);
}

/**
 * Makes the environment's set exactly the `:replace` body's and waits until it is settled. Given the live
 * set (a create), one that already is that set (an import, the way back after a crash) is not sent again,
 * nor waited for when all of it is ACTIVE; a failed wait of a create (`id`) still records the resource.
 */
async function apply(ctx: Context, body: ReplaceDomainMappingsRequest, live?: MappingStatus[], id?: string) {
  const wanted = body.domainMappings;
  const same = live !== undefined && !differs(definition.normalize, "mappings", live, wanted);
  if (!same) await ctx.client.domainMappings.replace(...environmentOf(ctx), body);
  if (same && live.every((m) => m.state === "ACTIVE")) return live;
  const settled = () => waitSettled(ctx, wanted);
  return id === undefined ? settled() : afterCreate(id, mappingsOutputs([]), settled);
}

/** The environment's live mappings, and create's refusal of them (perhaps another stack's) without `adopt`. */
async function held(ctx: Context, adopt: boolean | undefined) {
  const existing = liveSet(await statusesOf(ctx));
  if (!existing.length || adopt) return { existing };
  const [, appId, environmentId] = environmentOf(ctx);
  const refused = alreadyExists(
    `environment ${environmentId} of app ${appId} already has domain mappings (${existing.map((m) => m.domain).join(", ")})`,
    "set adopt: true to replace them with this set",
  );
  return { existing, refused };
}

export const definition = defineKind({
  kind: "DomainMappings",
  description:
    "The complete set of domains an application-hosting environment answers on, one resource per environment. Applied with the service's `:replace` operation, so afterwards exactly the declared mappings exist; create and update wait until every one of them is ACTIVE. The id is `accounts/{accountId}/apps/{appId}/environments/{environmentId}/domainMappings`.",
  deletes:
    "Replaces the environment's set with none on the service (every mapping of the environment is removed) and waits until they are gone.",
  gone: "An environment left with no mapping at all (every declared one removed on the service, none added) reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again. Mappings that replaced the declared ones are drift: the next `pulumi up` sets the declared set back.",
  importId: "accounts/{accountId}/apps/{appId}/environments/{environmentId}/domainMappings",
  identity: { what: "the environment's domain mappings (an environment has one set)" },
  naturalKey: { resend: "create and update replace the whole set: sending it again leaves the same set." },
  list: {
    inputs: z.object({
      accountId: uuidString.meta({ description: "The account of the app." }),
      appId: z.string().min(1).meta({ description: "The app of the environment." }),
      environmentId: z.string().min(1).meta({
        description:
          "The environment whose mapping set is listed (one set per environment, none when empty).",
      }),
    }),
    items: async ({ accountId = "", appId = "", environmentId = "" }, client) => {
      const mappings = await collect(
        client.domainMappings.iterate(accountId, appId, environmentId, { pageSize: 1000 }),
      );
      return mappings.length
        ? [{ fields: { accountId, appId, environmentId }, name: `${appId}-${environmentId} domain mappings` }]
        : [];
    },
  },
  inputs,
  outputs,
  // The replacement may map the same domains on another environment: free them first.
  deleteBeforeReplace: true,
  normalize: (key, v) => (key === "mappings" ? normalizeMappings(v) : v),
  // Check says create's refusal at preview.
  takeover: async (inputs, ctx) => (await held(ctx, inputs.adopt)).refused,
  async create(inputs, ctx) {
    const id = `${resourceNameOf(ctx)}/domainMappings`;
    const [, , environmentId] = environmentOf(ctx);
    const { existing, refused } = await held(ctx, inputs.adopt);
    if (refused) throw refused;
    const outs = mappingsOutputs(await apply(ctx, replaceBody(inputs), existing, id));
    const adopted = existing.length ? `domain mappings of environment ${environmentId}` : undefined;
    return { id, outs, adopted, found: WIRE.outputs({ domainMappings: existing }) };
  },
  async read(_id, olds, ctx) {
    const statuses = liveSet(await statusesOf(ctx));
    // No mapping is left: the set this resource made is gone (an empty declared set never is).
    if (!statuses.length && Array.isArray(olds.mappings) && olds.mappings.length) return undefined;
    // The live set as the declared one too: a mapping changed on the service shows as drift.
    return { outs: { ...WIRE.outputs({ domainMappings: statuses }), ...mappingsOutputs(statuses) } };
  },
  update: async (_id, _olds, news, ctx) => mappingsOutputs(await apply(ctx, replaceBody(news))),
  async delete(_id, _olds, ctx) {
    await apply(ctx, { domainMappings: [] });
  },
});
