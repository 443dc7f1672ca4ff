import { z } from "zod";
import {
  type Domain as ApiDomain,
  type CreateDomainRequest,
  isRefusal,
  mayHaveActed,
  type UpdateDomainRequest,
  type WpEngineClient,
} from "../../sdk";
import { gathered, type Outcome } from "../core/batch";
import { defineKind, listedUnder, type OutputsOf } from "../core/define";
import { DOMAINS } from "../core/domains";
import { alreadyExists } from "../core/errors";
import { claim } from "../core/identity";
import { COMMON_INPUTS, domainNameInput, out, parentInput, uuidString } from "../core/inputs";
import { afterCreate, answer, type Context, say } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  installId: parentInput("The install the domain belongs to."),
  name: domainNameInput({ wildcard: true }).meta({
    description:
      "The domain name, e.g. `www.example.com` (a `*.` wildcard is allowed), stored lower case without a trailing dot.",
    replaces: true,
    key: true,
  }),
  primary: z.boolean().default(false).meta({
    description:
      "Whether this is the install's primary domain (one Domain of a program per install may set it); the domain it takes the primary from gets it back when this one is deleted or set false. A duplicate, wildcard or redirected domain cannot be.",
  }),
  redirectTo: uuidString
    .nullable()
    .default(null)
    .meta({
      description: "The id of another domain of the same install this one redirects to; `null` for none.",
      // The API removes a redirect on the string `nil`.
      wire: { read: "redirects_to.0.id", write: "redirect_to", none: "nil" },
    }),
  secureAllUrls: z.boolean().default(false).meta({ description: "Force HTTPS for all URLs of the domain." }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  domainId: out.string("The domain's UUID (also the resource id).", { stable: true, wire: "id" }),
  duplicate: out.boolean("Whether the service marks the domain as a duplicate."),
  networkType: out.stringOrNull("The network the domain is served on: AN, GES or LEGACY."),
  ownershipStatus: out.stringOrNull(
    "TXT_VERIFICATION_PENDING until ownership is verified, then TXT_VERIFIED.",
  ),
  txtVerificationKey: out.stringOrNull(
    "Name of the TXT record to publish for verification; null once verified.",
  ),
  txtVerificationValue: out.stringOrNull(
    "Value of the TXT record to publish for verification; null once verified.",
  ),
  txtVerifiedTime: out.stringOrNull("When ownership was verified, or null."),
  txtVerifiedDomain: out.stringOrNull(
    "The domain name the TXT record verifies (the service's txt_verified_domain).",
  ),
  cname: out.stringOrNull("The CNAME target to point the domain at.", {
    wire: "network_details.dns_config_info.cname",
  }),
  aRecords: out.strings("The A records to point the domain at.", {
    wire: "network_details.dns_config_info.a_records",
  }),
  primaryTakenFrom: out.stringOrNull(
    "The id of the domain that was the install's primary when this one took it, given it back when this one is deleted or set not primary while still the primary; null when none was.",
    { wire: false },
  ),
});

type DomainInputs = z.output<typeof inputs>;
type DomainOutputs = OutputsOf<typeof inputs, typeof outputs>;

/** The service's rules of a primary domain that the inputs decide: neither a wildcard nor redirected. */
const notPrimaryIf = (uses: (keyof DomainInputs)[], is: (i: DomainInputs) => boolean, reason: string) => ({
  uses,
  test: (i: DomainInputs) => (i.primary && is(i) ? { property: "primary", reason } : undefined),
});
const rules = [
  notPrimaryIf(
    ["name", "primary"],
    (i) => i.name.startsWith("*."),
    "cannot be true for a wildcard domain: make a domain without `*.` the install's primary",
  ),
  // A redirectTo still unknown (another domain's id, at preview) is set all the same: it is refused now.
  notPrimaryIf(
    ["primary"],
    (i) => !!i.redirectTo,
    "cannot be true for a domain that redirects: remove redirectTo, or make its target the primary",
  ),
];

// Compared without case, whatever the caller passes (the engine's inputs are checked, a direct diff's may not be).
const normalize = (key: string, v: unknown) =>
  key === "name" && typeof v === "string" ? v.toLowerCase() : v;
const WIRE = wireOf(inputs, outputs, normalize);

/** Maps a service record to outputs (the name lower case, as the input stores it), with whom it took the primary from. */
const domainOutputs = (d: ApiDomain, primaryTakenFrom?: unknown) =>
  WIRE.canonical(WIRE.outputs(d, { primaryTakenFrom: (primaryTakenFrom as string | null) ?? null }));

/** Whether a record carries what the outputs need (the Swagger's bulk record has no network details). */
const complete = (d: ApiDomain | undefined): d is ApiDomain => d?.network_details != null;
const byName = (all: ApiDomain[]) => new Map(all.map((d) => [d.name.toLowerCase(), d]));

/**
 * One bulk create of `names` on the install, one outcome per name: its record or its own error. A record
 * the answer lacks or gives short comes from a listing; a refusal of several names sends each again alone
 * (only the one at fault fails); after a lost answer (`mayHaveActed`) a name the install now holds was
 * made by this call (the look before did not find it) and the rest is sent again, once.
 */
async function createBulk(
  client: WpEngineClient,
  installId: string,
  names: string[],
  again = true,
): Promise<Outcome<ApiDomain>[]> {
  try {
    const answered = byName(
      await client.domains.createBulk(installId, { domains: names.map((name) => ({ name })) }),
    );
    if (names.every((n) => complete(answered.get(n)))) return names.map((n) => answered.get(n)!);
    const listed = byName(await client.domains.listAll(installId));
    return names.map(
      (n) =>
        (complete(answered.get(n)) ? answered.get(n) : listed.get(n)) ??
        new Error(`the bulk create of ${n} answered, but the install's domains do not hold it`),
    );
  } catch (err) {
    if (!mayHaveActed(err)) {
      if (names.length === 1 || !isRefusal(err)) return names.map(() => err as Error);
      return (await Promise.all(names.map((n) => createBulk(client, installId, [n], again)))).flat();
    }
    const listed = await client.domains.listAll(installId).then(byName, () => undefined);
    if (!listed) return names.map(() => err as Error);
    const found = names.filter((n) => listed.has(n));
    const rest = names.filter((n) => !listed.has(n));
    // Said once for the batch, as lifecycle.ts says a single create's.
    const tell = (what: string) => say("Domain", `install ${installId}`, what);
    if (found.length)
      tell(
        `a bulk create of ${names.length} ${answer(err)}, but ${found.length} of ${names.length} exist now (found by name on the install; none was there before the send): taken as created: ` +
          found.map((n) => `${n} (id ${listed.get(n)!.id})`).join(", "),
      );
    if (rest.length && again)
      tell(
        `${rest.length} of a bulk create of ${names.length} had not taken effect (nothing found by name on the install): sent again`,
      );
    const sent = rest.length && again ? await createBulk(client, installId, rest, false) : [];
    return names.map((n) => listed.get(n) ?? sent[rest.indexOf(n)] ?? (err as Error));
  }
}

/** Creates of domains on one install that arrive together go as one bulk call (up to 20; see `gathered`). */
const createGathered = gathered({ max: 20, quietMs: 250, maxWaitMs: 1_000, send: createBulk });

/** The primary domain of an install, which one resource of the program may claim. */
const PRIMARY = { what: "the primary domain of their install", fields: ["installId"] as const };
const PRIMARY_CLASH =
  "an install has one primary domain, and each `pulumi up` would take it from the other. Set primary: true on one of them.";

/**
 * The install's primary domain, unless it is `self` (a name or an id), with the name of the domain a give-back
 * would reach: past those this process saw declared `primary: false`, to the one each took it from.
 */
async function primaryOf(client: WpEngineClient, installId: string, self: string) {
  const all = await client.domains.listAll(installId);
  const primary = all.find((d) => d.primary);
  if (!primary || primary.id === self || primary.name.toLowerCase() === self) return undefined;
  let back: unknown = primary.id;
  for (let n = 0; notPrimary.has(back as string) && n < 10; n++) back = tookFrom.get(back as string);
  return { ...primary, backTo: all.find((d) => d.id === back)?.name };
}

/** Says that domain `name` took the primary from `taken`, if it did, and where a give-back would take it. */
function sayTaken(name: string, taken: { name: string; backTo: string | undefined } | undefined) {
  if (!taken) return;
  const back =
    taken.backTo === taken.name
      ? "given back when this one is deleted (unless that one is gone or declared primary: false by then)"
      : `which is declared primary: false: ${taken.backTo ? `${taken.backTo} gets it back` : "no domain gets it back"} when this one is deleted`;
  say("Domain", name, `takes the primary from ${taken.name}, ${back}`);
}

/** Runs an install's moves of the primary (`moves`) one at a time in this process: a swap's two race. */
const turns = new Map<string, Promise<unknown>>();
function primaryTurn<T>(installId: string, fn: () => Promise<T>, moves = true): Promise<T> {
  if (!moves) return fn();
  const next = (turns.get(installId) ?? Promise.resolve()).then(fn, fn);
  // The next move waits for this one whatever its outcome (`then(fn, fn)`); the caller is given its failure.
  turns.set(installId, next);
  return next;
}

/** Whom each domain this process saw took the primary from: a give-back to one gone goes on to its own. */
const tookFrom = new Map<string, unknown>();
/** The domains this process saw declared `primary: false`: a give-back passes over them too. */
const notPrimary = new Set<string>();
const seen = (id: string, olds: { primaryTakenFrom?: unknown }, news?: { primary?: unknown }) => {
  if (olds.primaryTakenFrom) tookFrom.set(id, olds.primaryTakenFrom);
  if (news?.primary === false) notPrimary.add(id);
  else if (news) notPrimary.delete(id);
};

/**
 * The primary back to the domain this one took it from, when this one still holds it (before its delete, or
 * after its `primary: false`), through those gone or declared `primary: false` to the one each took it from
 * (a domain of a swap that is still in the program). Never fails the caller: a domain refusing is said.
 * Whether it is settled: given back, or nowhere to go (not when another took it).
 */
async function givePrimaryBack(client: WpEngineClient, installId: string, id: string, to: unknown) {
  if (typeof to !== "string") return true;
  let back: ApiDomain | undefined;
  let name = id;
  const tell = (what: string) => say("Domain", name, `install ${installId} ${what}`);
  try {
    const all = await client.domains.listAll(installId);
    const from = all.find((d) => d.id === id);
    name = from?.name ?? id;
    if (from && !from.primary && all.some((d) => d.primary)) return false;
    const passed: ApiDomain[] = [];
    for (let at: unknown = to, n = 0; !back && typeof at === "string" && n < 10; at = tookFrom.get(at), n++) {
      const d = all.find((d) => d.id === at);
      if (d && (d.id === id || notPrimary.has(d.id))) passed.push(d);
      else back = d;
    }
    const declined = passed.filter((d) => d.id !== id).map((d) => d.name);
    if (!back) {
      const why = declined.length
        ? `not given back to ${declined.join(", ")}, declared primary: false`
        : `domain ${to}, which had it before, is gone`;
      tell(`has no primary domain now: ${why}; set primary: true on one of its domains`);
      return true;
    }
    await update(client, installId, back.id, { primary: true });
    say("Domain", back.name, `the install's primary domain again (given back by ${name})`);
  } catch (err) {
    tell(`may have no primary domain now: giving it back to ${back?.name ?? to} ${answer(err)}`);
  }
  return true;
}

/** PATCHes the domain; this process's reads of the install list again. */
const update = (client: WpEngineClient, installId: string, id: string, patch: UpdateDomainRequest) =>
  DOMAINS.writing(client, installId, client.domains.update(installId, id, patch));

export const definition = defineKind({
  kind: "Domain",
  description:
    "A domain on an install, created unverified (TXT_VERIFICATION_PENDING): its outputs give the TXT record to publish before a `DomainVerification` can complete ownership. The id is the domain's UUID.",
  deletes:
    "Deletes the domain from the install on the service. A domain already gone counts as deleted. A primary domain that took the primary from another domain (`primaryTakenFrom`) gives it back first, unless that one is gone.",
  gone: "A domain deleted on the service reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again.",
  importId: "{installId}/{id}",
  list: listedUnder(
    "installId",
    "The install whose domains are listed.",
    (client, installId) => client.domains.listAll(installId),
    (d) => [d.id, d.name],
  ),
  identity: {
    what: "the domain's name on its install",
    // A lost create's look lists afresh; check's look ahead shares the process's listing of the install.
    find: async (_i, ctx) =>
      (await DOMAINS.find(ctx.client, ctx.parent, ctx.key, ctx.ahead ? undefined : performance.now()))?.item
        .id,
    refusal: (id, ctx) => held(ctx.key, ctx.parent, id),
  },
  inputs,
  outputs,
  rules,
  normalize,
  // One primary domain per install among the program's domains (else each up takes it from the other).
  check(checked) {
    if (checked.failures?.length || checked.inputs["primary"] !== true) return checked;
    const taken = claim("Domain", PRIMARY, checked.inputs, normalize, PRIMARY_CLASH);
    return taken ? { ...checked, failures: [{ ...taken, property: "primary" }] } : checked;
  },
  create: (inputs, ctx) => primaryTurn(ctx.parent, () => createDomain(inputs, ctx), inputs.primary),
  async read(id, olds, ctx) {
    seen(id, olds);
    const d = await DOMAINS.read(ctx.client, ctx.parent, id);
    return d && { outs: domainOutputs(d, olds.primaryTakenFrom) };
  },
  update(id, olds, news, ctx) {
    seen(id, olds, news);
    return primaryTurn(ctx.parent, () => updateDomain(id, olds, news, ctx), olds.primary !== news.primary);
  },
  async delete(id, olds, ctx) {
    seen(id, olds);
    if (olds.primaryTakenFrom)
      await primaryTurn(ctx.parent, () => givePrimaryBack(ctx.client, ctx.parent, id, olds.primaryTakenFrom));
    try {
      await ctx.client.domains.delete(ctx.parent, id);
    } finally {
      // Even when the delete failed: a listing that lacks a live name only costs a refused create.
      DOMAINS.forget(ctx.client, ctx.parent, ctx.key.toLowerCase());
    }
  },
});

/** Create's refusal of a name the install holds already (check says it at preview). */
const held = (name: string, installId: string, id: string) =>
  alreadyExists(`domain ${name} already exists on install ${installId} (id ${id})`);

async function createDomain(inputs: DomainInputs, ctx: Context) {
  const { parent: installId, key: name } = ctx;
  const taken = inputs.primary ? await primaryOf(ctx.client, installId, name) : undefined;
  const takenFrom = taken?.id ?? null;
  const { item: record, created } =
    (await DOMAINS.find(ctx.client, installId, name)) ??
    (await DOMAINS.create(ctx.client, installId, name, () => {
      // The bulk body takes neither primary nor a redirect by id: such a domain goes alone, in one POST
      // (a redirect's target exists already: the engine sends it first, its id being an input here).
      if (!inputs.primary && !inputs.redirectTo) return createGathered(ctx.client, installId, name);
      const body = WIRE.body(inputs, ["name", "primary", "redirectTo"]) as CreateDomainRequest;
      return ctx.client.domains.create(installId, body);
    }));
  if (!created && !inputs.adopt) throw held(name, installId, record.id);
  const outs = domainOutputs(record, takenFrom);
  const adopted = created ? undefined : `domain ${name} of install ${installId}`;
  sayTaken(name, taken);
  const patch = WIRE.patch(outs, inputs) as UpdateDomainRequest | undefined;
  if (!patch) return { id: record.id, outs, adopted, found: outs };
  const updated = await afterCreate(record.id, outs, () => update(ctx.client, installId, record.id, patch));
  return { id: record.id, outs: domainOutputs(updated, takenFrom), adopted, found: outs };
}

async function updateDomain(id: string, olds: DomainOutputs, news: DomainInputs, ctx: Context) {
  const patch = WIRE.patch(olds, news) as UpdateDomainRequest | undefined;
  const taken = news.primary && !olds.primary ? await primaryOf(ctx.client, ctx.parent, id) : undefined;
  const takenFrom = taken ? taken.id : olds.primaryTakenFrom;
  const record = patch
    ? await update(ctx.client, ctx.parent, id, patch)
    : await ctx.client.domains.get(ctx.parent, id);
  // Giving the primary up: given back, it is settled; taken by another meanwhile, still owed (a swap).
  const owed =
    olds.primary && !news.primary && !(await givePrimaryBack(ctx.client, ctx.parent, id, takenFrom));
  sayTaken(news.name, taken);
  // Not primary before either: what it owes stays (a swap's domain, passed over by a give-back to it).
  return domainOutputs(record, news.primary || owed || !olds.primary ? takenFrom : null);
}

// Every diff of this process runs before its deletes: a domain of a swap still declared `primary: false`
// is known then, with whom it owes the primary (its recorded outputs), before a give-back could reach it.
const { diff } = definition.provider;
definition.provider.diff = (id, olds, news) => {
  seen(id, olds, news);
  return diff!(id, olds, news);
};
