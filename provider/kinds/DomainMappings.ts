import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { canonicalDomain, POLL_FIRST_MS, POLL_MAX_MS, pollUntil } from "../../sdk";
import {
  environmentAddress,
  environmentResourceName,
  type MappingStatus,
  mappingStatus,
  mappingStatusOutput,
} from "../core/appHosting";
import { collect, defineKind, type OutputsOf } from "../core/define";
import { alreadyExists } from "../core/errors";
import {
  type CheckFailure,
  COMMON_INPUTS,
  domainNameInput,
  type Rule,
  timeoutSecondsInput,
  uuidString,
  whole,
} from "../core/inputs";
import { type Context, CreatedButFailedError } from "../core/lifecycle";

/** One mapping as declared. */
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

/** One mapping as declared, with defaults. */
export type MappingInput = z.output<typeof mappingInput>;

const inputs = z
  .object({
    ...environmentAddress,
    mappings: z.array(mappingInput, { error: "is required and must be a list of {domain, ...}" }).meta({
      description: "The full set of mappings of the environment: afterwards exactly these exist.",
      wire: "domainMappings",
    }),
    timeoutSeconds: timeoutSecondsInput(600),
    ...COMMON_INPUTS,
  })
  .strict();

const outputs = z.object({
  domainMappings: z.array(mappingStatusOutput).meta({
    description:
      "Every mapping as the service reports it, sorted by domain: state and TXT verification record.",
  }),
  primaryDomain: z
    .string()
    .nullable()
    .meta({ description: "The primary domain, or null when none is primary." }),
});

type DomainMappingsInputs = z.output<typeof inputs>;
type DomainMappingsOutputs = OutputsOf<typeof inputs, typeof outputs>;

/** The canonical form of a set of mappings: sorted by domain, lower case, defaults filled. */
export function normalizeMappings(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value
    .map((m) => {
      if (!m || typeof m !== "object") return m;
      const r = m as Record<string, unknown>;
      const dest = r["destinationDomainMapping"];
      return {
        domain: typeof r["domain"] === "string" ? canonicalDomain(r["domain"]) : r["domain"],
        primary: r["primary"] === true,
        destinationDomainMapping: typeof dest === "string" && dest !== "" ? canonicalDomain(dest) : null,
      };
    })
    .sort((a, b) => {
      const da = String((a as { domain?: unknown })?.domain ?? "");
      const db = String((b as { domain?: unknown })?.domain ?? "");
      return da < db ? -1 : da > db ? 1 : 0;
    });
}

/** The spec's rules on a set of mappings: unique domains, one primary at most, redirects inside the set. */
export function mappingFailures(mappings: readonly MappingInput[]): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const seen = new Map<string, number>();
  mappings.forEach((m, i) => {
    const first = seen.get(m.domain);
    if (first !== undefined) {
      failures.push({
        property: `mappings[${i}].domain`,
        reason: `${m.domain} appears more than once (also mappings[${first}]); domains compare case-insensitively`,
      });
    } else seen.set(m.domain, i);
  });
  const primaries = mappings.filter((m) => m.primary).map((m) => m.domain);
  if (primaries.length > 1) {
    failures.push({
      property: "mappings",
      reason: whole(`at most one mapping may be primary; ${primaries.length} are: ${primaries.join(", ")}`),
    });
  }
  const byDomain = new Map(mappings.map((m) => [m.domain, m]));
  mappings.forEach((m, i) => {
    const dest = m.destinationDomainMapping;
    if (dest === null) return;
    const property = `mappings[${i}].destinationDomainMapping`;
    if (dest === m.domain) {
      failures.push({ property, reason: whole(`${m.domain} cannot redirect to itself`) });
      return;
    }
    const target = byDomain.get(dest);
    if (!target) {
      failures.push({
        property,
        reason: whole(`${dest} is not a domain of this set; a redirect must point at one`),
      });
    } else if (target.destinationDomainMapping !== null) {
      failures.push({
        property,
        reason: whole(
          `${dest} itself redirects to ${target.destinationDomainMapping}; point ${m.domain} at the final domain`,
        ),
      });
    }
    if (m.primary) {
      failures.push({
        property: `mappings[${i}].primary`,
        reason: whole(`${m.domain} redirects to ${dest} and so cannot be the primary domain`),
      });
    }
  });
  return failures;
}

const rules: Rule<DomainMappingsInputs>[] = [
  { uses: ["mappings"], test: (inputs) => mappingFailures(inputs.mappings) },
];

/** The mappings the environment has (those being deleted are already gone as far as the set goes), sorted. */
export function liveSet(statuses: readonly MappingStatus[]): MappingStatus[] {
  return statuses
    .filter((m) => m.state !== "DELETING")
    .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/** The declared shape of live mappings (what `read` reports as inputs). */
export function asInputs(statuses: readonly MappingStatus[]): MappingInput[] {
  return statuses.map((s) => ({
    domain: s.domain,
    primary: s.primary,
    destinationDomainMapping: s.destinationDomainMapping,
  }));
}

/** The `:replace` request body's mappings for a declared set. */
export function replaceBody(
  mappings: readonly MappingInput[],
): { domain: string; primary?: boolean; destinationDomainMapping?: string }[] {
  return mappings.map((m) => ({
    domain: m.domain,
    ...(m.primary ? { primary: true } : {}),
    ...(m.destinationDomainMapping ? { destinationDomainMapping: m.destinationDomainMapping } : {}),
  }));
}

function mappingsOutputs(
  inputs: Pick<DomainMappingsInputs, "accountId" | "appId" | "environmentId" | "timeoutSeconds">,
  mappings: MappingInput[],
  statuses: MappingStatus[],
): DomainMappingsOutputs {
  return {
    ...inputs,
    mappings: normalizeMappings(mappings) as MappingInput[],
    domainMappings: statuses,
    primaryDomain: statuses.find((s) => s.primary)?.domain ?? null,
  };
}

/** Every mapping of the environment as statuses, following every page. */
async function listAll(
  ctx: Context,
  a: Pick<DomainMappingsInputs, "accountId" | "appId" | "environmentId">,
): Promise<MappingStatus[]> {
  const out: MappingStatus[] = [];
  for await (const m of ctx.client.domainMappings.iterate(a.accountId, a.appId, a.environmentId))
    out.push(mappingStatus(m));
  return out;
}

/** Polls until every declared domain is ACTIVE (and, for an empty set, until nothing is left). */
function waitSettled(
  ctx: Context,
  inputs: Pick<DomainMappingsInputs, "accountId" | "appId" | "environmentId" | "timeoutSeconds">,
  domains: readonly string[],
): Promise<MappingStatus[]> {
  const name = environmentResourceName(inputs.accountId, inputs.appId, inputs.environmentId);
  return pollUntil<MappingStatus[]>({
    deadlineMs: inputs.timeoutSeconds * 1000,
    intervalMs: POLL_FIRST_MS,
    maxIntervalMs: POLL_MAX_MS,
    describe: domains.length
      ? `the domain mappings of ${name} to become ACTIVE (timeoutSeconds ${inputs.timeoutSeconds})`
      : `the domain mappings of ${name} to be removed (timeoutSeconds ${inputs.timeoutSeconds})`,
    check: async () => {
      const all = await listAll(ctx, inputs);
      if (!domains.length) {
        return all.length ? { done: false, state: pending(all) } : { done: true, value: [] };
      }
      const waiting = domains.filter((d) => all.find((s) => s.domain === d)?.state !== "ACTIVE");
      if (waiting.length)
        return { done: false, state: pending(all.filter((s) => waiting.includes(s.domain))) };
      return { done: true, value: liveSet(all) };
    },
  });
}

function pending(statuses: readonly MappingStatus[]): string {
  return statuses.map((s) => `${s.domain} ${s.state}`).join(", ") || "missing";
}

/** Makes the environment's set exactly `mappings` (`:replace`). */
async function replace(
  ctx: Context,
  a: Pick<DomainMappingsInputs, "accountId" | "appId" | "environmentId">,
  mappings: readonly MappingInput[],
): Promise<void> {
  // The service names an error's field `domainMappings.<i>.<field>`: the input's wire name.
  await ctx.client.domainMappings.replace(a.accountId, a.appId, a.environmentId, {
    domainMappings: replaceBody(mappings),
  });
}

const domainsOf = (mappings: readonly MappingInput[]) => mappings.map((m) => m.domain);

export const definition = defineKind({
  kind: "DomainMappings",
  description:
    "The complete set of domains an application-hosting environment answers on, one resource per environment. " +
    "Applied with the service's `:replace` operation, so afterwards exactly the declared mappings exist; create " +
    "and update wait until every one of them is ACTIVE. The id is " +
    "`accounts/{accountId}/apps/{appId}/environments/{environmentId}/domainMappings`.",
  deletes:
    "Replaces the environment's set with none on the service (every mapping of the environment is removed) and " +
    "waits until they are gone.",
  gone: "A set whose every declared mapping was removed on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "accounts/{accountId}/apps/{appId}/environments/{environmentId}/domainMappings",
  identity: {
    what: "the environment's domain mappings (an environment has one set)",
    fields: ["accountId", "appId", "environmentId"],
  },
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
    items: async (q, client) => {
      const [accountId, appId, environmentId] = [q["accountId"]!, q["appId"]!, q["environmentId"]!];
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
  rules,
  // The replacement may map the same domains on another environment: free them first.
  deleteBeforeReplace: true,
  normalize: (key, v) => (key === "mappings" ? normalizeMappings(v) : v),
  async create(inputs, ctx) {
    const id = `${environmentResourceName(inputs.accountId, inputs.appId, inputs.environmentId)}/domainMappings`;
    const existing = liveSet(await listAll(ctx, inputs));
    if (existing.length && !inputs.adopt) {
      throw alreadyExists(
        `environment ${inputs.environmentId} of app ${inputs.appId} already has domain mappings ` +
          `(${existing.map((m) => m.domain).join(", ")})`,
        "set adopt: true to replace them with this set",
      );
    }
    // A set that already is the declared one (an import, the way back after a crash) is not sent again.
    const same = isDeepStrictEqual(normalizeMappings(asInputs(existing)), normalizeMappings(inputs.mappings));
    if (!same) await replace(ctx, inputs, inputs.mappings);
    try {
      const settled = same && existing.every((m) => m.state === "ACTIVE");
      const statuses = settled ? existing : await waitSettled(ctx, inputs, domainsOf(inputs.mappings));
      return {
        id,
        outs: mappingsOutputs(inputs, inputs.mappings, statuses),
        ...(existing.length ? { adopted: `domain mappings of environment ${inputs.environmentId}` } : {}),
      };
    } catch (err) {
      throw new CreatedButFailedError(id, mappingsOutputs(inputs, inputs.mappings, []), err);
    }
  },
  async read(_id, olds, ctx) {
    const statuses = liveSet(await listAll(ctx, olds));
    // Every declared mapping was removed: the set this resource made is gone (an empty declared set never is).
    if (!statuses.length && Array.isArray(olds.mappings) && olds.mappings.length) return undefined;
    return { outs: mappingsOutputs(olds, asInputs(statuses), statuses) };
  },
  async update(_id, _olds, news, ctx) {
    await replace(ctx, news, news.mappings);
    const statuses = await waitSettled(ctx, news, domainsOf(news.mappings));
    return mappingsOutputs(news, news.mappings, statuses);
  },
  async delete(_id, olds, ctx) {
    await replace(ctx, olds, []);
    await waitSettled(ctx, { ...olds, timeoutSeconds: Number(olds.timeoutSeconds) || 600 }, []);
  },
});

export const provider = definition.provider;
