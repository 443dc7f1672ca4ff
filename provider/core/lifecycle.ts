/** The lifecycle rules every resource shares; a resource supplies only what differs (style.md item 7). */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  isLostWrite,
  isNotAuthorized,
  isNotFound,
  isRateLimited,
  mayHaveActed,
  POLL_FIRST_MS,
  POLL_MAX_MS,
  pollUntil,
  type WpEngineClient,
  WpEngineTimeoutError,
  wasTurnedAway,
} from "../../sdk";
import { getClient, proveCredentials } from "./client";
import { resolveProviderConfig } from "./config";
import { alreadyExists, explainError, noSuchParent, noteSends, notFoundInputs, nothingDone } from "./errors";
import { CLAIMANT, claim, holderOf, type Identity, nameOf, own, standingClaimant } from "./identity";
import {
  type CheckFailure,
  checkInputs,
  containsUnknown,
  named,
  type Props,
  type Rule,
  UUID,
} from "./inputs";
import { createHolds, identityFields, journalCreate, journalDeleted, withinRecovery } from "./journal";
import { heldInStack, heldOutsideRun, holdingToo, inTargetedRun } from "./stackState";
import type { Normalize } from "./wire";

/** What a lifecycle method gets besides its arguments: the client, the kind for messages, the object's address. */
export interface Context {
  client: WpEngineClient;
  kind: string;
  /** The values of the inputs marked `parent`, outermost first (`[accountId, appId]`). */
  parents: readonly string[];
  /** The innermost of `parents` (the install of a domain, the account of a user); `""` for none. */
  parent: string;
  /** The value of the input marked `key`, the object's own name under its parent; `""` for none. */
  key: string;
  /** How long the call may wait for the service: its `timeoutSeconds` (else that input's default; 0 for none). */
  timeoutSeconds: number;
  /** A look ahead from check (no write follows it in this call): a listing this process already holds will do. */
  ahead?: boolean;
}

/** The address of a kind under two parents (an install and its domain or backup), to spread into an sdk call. */
export const twoParents = (ctx: Context) => ctx.parents as readonly [outer: string, inner: string];

/** The inputs of a schema marked `marker`, in its order (the parents outermost first). */
const marked = (schema: z.ZodObject, marker: "parent" | "key") =>
  Object.entries(schema.shape)
    .filter(([, s]) => (s as z.ZodType).meta()?.[marker])
    .map(([k]) => k);

/** The context of a call on the object `values` describe (its inputs, or its recorded outputs). */
export function contextOf(
  def: Pick<AnyDef, "kind" | "schema">,
  client: WpEngineClient,
  values: Props,
): Context {
  const parents = marked(def.schema, "parent").map((k) => String(values[k] ?? ""));
  const timeout =
    values["timeoutSeconds"] ??
    (def.schema.shape["timeoutSeconds"] as z.ZodType | undefined)?.safeParse(undefined).data;
  return {
    client,
    kind: def.kind,
    parents,
    parent: parents.at(-1) ?? "",
    key: marked(def.schema, "key").map((k) => String(values[k] ?? ""))[0] ?? "",
    timeoutSeconds: typeof timeout === "number" ? timeout : 0,
  };
}

/** The last read, once `pending` (what is still awaited, in words) is undefined, within `timeoutSeconds`. */
export function waitFor<T>(
  ctx: Context,
  what: string,
  read: () => Promise<T>,
  pending: (value: T) => string | undefined,
  { note, pace }: { note?: string; pace?: { intervalMs: number; maxIntervalMs: number } } = {},
): Promise<T> {
  return pollUntil<T>({
    deadlineMs: ctx.timeoutSeconds * 1000,
    ...(pace ?? { intervalMs: POLL_FIRST_MS, maxIntervalMs: POLL_MAX_MS }),
    describe: `${what} (${note ? `${note}; ` : ""}timeoutSeconds ${ctx.timeoutSeconds})`,
    check: async () => {
      const value = await read();
      const state = pending(value);
      return state === undefined ? { done: true, value } : { done: false, state };
    },
  });
}

/** What a create returns; what it `adopted`, in words (`domain www.example.com`), and that one as `found`. */
type Created<O> = { id: string; outs: O; adopted?: string; found?: Partial<O> };

/** A failure after the object exists (or the action ran): the engine records `properties` with it. */
export class CreatedButFailedError extends Error {
  constructor(
    readonly id: string,
    public properties: Props,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "CreatedButFailedError";
  }
}

/** Runs a step after object `id` exists (or an action ran): its failure records `outs` as created. */
export async function afterCreate<T>(id: string, outs: Props, step: () => Promise<T>): Promise<T> {
  createHolds(id);
  try {
    return await step();
  } catch (err) {
    throw new CreatedButFailedError(id, outs, err);
  }
}

/**
 * How an unsafe call whose answer is lost is resolved (the transport never resends one): `find` looks the
 * object up (found: taken as made; else sent again), `resend` sends again, `none` gives the `recover` step.
 */
export type NaturalKey<I> =
  | {
      what: string;
      find(inputs: I, ctx: Context): Promise<string | undefined>;
      /** What create throws when `find` answers `id` (its "already exists"); check says the same at preview. */
      refusal?(id: string, ctx: Context): Error;
    }
  | { resend: string }
  | { none: string; recover: string };

/** How many times a create whose responses are lost is sent, at most. */
export const LOST_SENDS = 3;

/** What check returns: the inputs, as checked, and the failures if any. */
export type Checked = { inputs: Props; failures?: CheckFailure[] };

/** Everything a resource defines; the generic methods do the rest. `R`: what create, read and update return. */
export interface ResourceDefinition<I extends Props, O extends Props, R = Partial<O>> {
  /** The resource kind (the `<Name>` of `pulumi-nodejs:dynamic/wpengine:<Name>`). */
  kind: string;
  /** Strict schema of the inputs (camelCase), with defaults. */
  schema: z.ZodObject<z.ZodRawShape>;
  /** Cross-field rules of the spec. */
  rules?: readonly Rule<I>[];
  // The inputs (and outputs) by their markers (define.ts says what each means).
  replaceOn: readonly (keyof I & string)[];
  updatable: readonly (keyof I & string)[];
  kept?: readonly string[];
  stableOutputs?: readonly string[];
  writeOnly?: readonly (keyof I & string)[];
  secrets?: readonly string[];
  /** Delete the old object before creating its replacement, always or as decided from what replaces (and the inputs). */
  deleteBeforeReplace?: boolean | ((replaces: readonly string[], olds: Props, news: Props) => boolean);
  /** What the recorded outputs say is lost, and whether an update or a replacement (of that output) restores it. */
  lost?: (olds: Props) => "update" | { replace: string } | undefined;
  /** Canonical form of a value for comparison, so order and casing never show as a change (wire.ts's `comparable`). */
  normalize?: Normalize;
  /** What a delete would destroy, in words: while `deletionProtection` is on, delete and replace refuse. */
  protects?: (olds: O) => string;
  /** How a lost response to a create or another unsafe call is resolved. */
  naturalKey?: NaturalKey<I>;
  /** Rules that need the service, run by check once every input is known, unless `adopt` takes what is there; a fault reaching it is no failure. */
  preflight?(inputs: I, ctx: Context, olds: Props): Promise<CheckFailure[]>;
  /**
   * Create's refusal, before it writes, to take over what the service holds: one held without `adopt` that
   * no natural key finds (a singleton), or one `adopt` cannot take (a user whose names differ); check, too.
   */
  takeover?(inputs: I, ctx: Context): Promise<Error | undefined>;
  /** The kind's own end of check, given the generic result and the old inputs (a computed input, a rule of time). */
  check?(checked: Checked, olds: Props): Checked | Promise<Checked>;
  /** The inputs that address one object on the service (identity.ts); absent for actions. */
  identity?: Identity<I>;
  /** Creates the object, or takes over the one found (`adopt`); the lifecycle overlays the inputs on its outputs. */
  create(inputs: I, ctx: Context): Promise<Created<R>>;
  /** The live outputs, or `undefined` when the object is gone; what they leave out stays as recorded. */
  read(id: string, olds: O, ctx: Context): Promise<{ outs: R } | undefined>;
  /** In-place update; the lifecycle overlays the inputs on its outputs (on the recorded ones when it re-ran nothing: `undefined`). Absent when every input replaces. */
  update?(id: string, olds: O, news: I, ctx: Context): Promise<R | undefined>;
  /** Deletes on the service (a 404 is already success); a delete that does something else says what. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a delete that simply deletes returns nothing.
  delete(id: string, olds: O, ctx: Context): Promise<void | string>;
}

/** How a delete that sends nothing starts its message. */
export const FORGOTTEN = "forgotten only, nothing sent to the service: ";

/** Where the user's lines go: stderr (shown for the dynamic plugin), or the engine's log (`tellThrough`). */
let tell: (line: string) => unknown = (line) => process.stderr.write(`${line}\n`);

/** Sends the provider's lines for the user through `sink` (the executable provider's engine log). */
export function tellThrough(sink: (line: string) => unknown): void {
  tell = sink;
}

/** One line among the update's diagnostics, built from ids and service facts only (never credentials). */
export function say(kind: string, subject: string, what: string): void {
  tell(`wpengine:${kind}${subject ? ` ${subject}` : ""}: ${what}`);
}

/** Removes `undefined` (the engine cannot record it) and turns Dates into ISO strings. */
export function toPlain<T>(value: T): T {
  if (value instanceof Date) return value.toISOString() as T;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : toPlain(v))) as T;
  if (value !== null && typeof value === "object") {
    const out: Props = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toPlain(v);
    return out as T;
  }
  return value;
}

type AnyDef = ResourceDefinition<Props, Props>;

/** Whether two values of input `key` differ once normalised (by the definition's `normalize`). */
export function differs(normalize: AnyDef["normalize"], key: string, a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (normalize ? normalize(key, v) : v);
  return !isDeepStrictEqual(toPlain(norm(a)), toPlain(norm(b)));
}

/**
 * Whether `check` sees a create: no object yet (no old inputs), or a change of an input that replaces it.
 * A rule of time (a date ahead of now) holds only then: an existing object's date falls into the past.
 */
export function isCreating(
  def: Pick<AnyDef, "schema" | "replaceOn" | "normalize">,
  olds: Props,
  news: Props,
) {
  return (
    Object.keys(def.schema.shape).every((k) => olds[k] === undefined) ||
    def.replaceOn.some((k) => differs(def.normalize, k, olds[k], news[k]))
  );
}

/** How a user turns a deletion guard off: an update that sends nothing to the service. */
const UNPROTECT =
  "Set deletionProtection: false on the resource and run `pulumi up` (that update changes nothing on the service)";

/** Whether recorded outputs have the deletion guard on (absent counts as on). */
const isProtected = (olds: Props) => olds["deletionProtection"] !== false;

/** The diff of a definition: what changed and replaces, by name, and what an update in place keeps. */
export function diffOf<I extends Props, O extends Props, R>(
  def: ResourceDefinition<I, O, R>,
  olds: Props,
  news: Props,
) {
  const replaces: string[] = [];
  const diffs: string[] = [];
  for (const key of [...def.replaceOn, ...def.updatable, ...(def.kept ?? [])]) {
    const required = !(def.schema.shape[key] as z.ZodType | undefined)?.safeParse(undefined).success;
    if (olds[key] === undefined && required && def.writeOnly?.includes(key)) continue;
    if (!containsUnknown(news[key]) && !differs(def.normalize, key, olds[key], news[key])) continue;
    diffs.push(key);
    if (def.replaceOn.includes(key)) replaces.push(key);
  }
  // Only a certain replacement fails the preview: an unknown value may turn out unchanged.
  const certain = replaces.filter((k) => !containsUnknown(news[k]));
  if (certain.length && def.protects && isProtected(olds)) {
    throw new Error(
      `wpengine:${def.kind} cannot be replaced: changing ${certain.join(", ")} replaces it, which deletes ` +
        `${def.protects(olds as O)} for good, and deletionProtection is on. ${UNPROTECT} first, ` +
        `then make this change; or keep ${certain.join(", ")} as ${certain.length > 1 ? "they are" : "it is"}.`,
    );
  }
  const lost = def.lost?.(olds);
  if (lost && lost !== "update") {
    if (!replaces.includes(lost.replace)) replaces.push(lost.replace);
    if (!diffs.includes(lost.replace)) diffs.push(lost.replace);
  }
  const changes = diffs.length > 0 || lost !== undefined;
  // An update in place keeps every input it does not change and the stable outputs known in the preview.
  const stables =
    changes && !replaces.length
      ? [
          ...Object.keys(def.schema.shape).filter((k) => !diffs.includes(k) && !containsUnknown(news[k])),
          ...(def.stableOutputs ?? []),
        ]
      : [];
  const dbr = def.deleteBeforeReplace;
  const deleteFirst =
    replaces.length > 0 && (typeof dbr === "function" ? dbr(replaces, olds, news) : dbr === true);
  return {
    changes,
    ...(replaces.length ? { replaces } : {}),
    ...(diffs.length ? { diffs } : {}),
    ...(stables.length ? { stables } : {}),
    ...(deleteFirst ? { deleteBeforeReplace: true } : {}),
  };
}

/** Builds the provider object of a resource from its definition. */
export function defineProvider<I extends Props, O extends Props, R extends Props = Partial<O>>(
  def: ResourceDefinition<I, O, R>,
): pulumi.dynamic.ResourceProvider & { definition: ResourceDefinition<I, O, R> } {
  const ctx = async (values: Props) => contextOf(def, await getClient(), values);
  const fail = (action: string, err: unknown, then?: string): never => {
    throw explainError(def.kind, action, err, then, def.schema);
  };
  // After a failed write that certainly did nothing, the next step (one that may have acted: `withStep`).
  const next = (action: string, err: unknown) =>
    wasTurnedAway(err)
      ? nothingDone(action, err)
      : action === "delete" && isLostWrite(err)
        ? "It may have been deleted (the service may have acted before its answer was lost): run the same command again, which finds it gone if so"
        : undefined;
  // Keeps the provider in the recorded properties so a later destroy or refresh can run.
  const recorded = (action: string, err: CreatedButFailedError, inputs: Props) => {
    err.properties = { ...withInputs(def, inputs, err.properties), __provider: inputs["__provider"] };
    err.message = explainError(def.kind, action, err.cause ?? err, undefined, def.schema).message;
    return err;
  };
  return {
    definition: def,

    async check(olds: Props, news: Props) {
      await proveCredentials();
      const { [CLAIMANT]: claimant, ...given } = news;
      const { inputs, failures } = checkInputs<z.ZodRawShape, I>(def.schema, given, def.rules ?? []);
      if (!failures.length && def.preflight && !inputs["adopt"] && !containsUnknown(inputs))
        failures.push(...(await def.preflight(inputs as I, await ctx(inputs), olds)).map(named));
      // An update, a replacement (checked again without olds), an import (olds: the read inputs): no new object.
      const existing = Object.keys(def.schema.shape).some((k) => olds[k] !== undefined);
      const standing = standingClaimant(def.kind, claimant, existing ? olds : undefined);
      // A replacement checked again without olds whose parent or key changes is a new object elsewhere.
      const elsewhere = [...marked(def.schema, "parent"), ...marked(def.schema, "key")].some(
        (k) => standing && differs(def.normalize, k, standing[k], inputs[k]),
      );
      // One moved to another profile: the new profile's API user must reach its parent (a 403 otherwise).
      const moved = existing && (olds["profile"] ?? null) !== (inputs["profile"] ?? null);
      if (claimant !== undefined) inputs[CLAIMANT] = claimant;
      // A second claim names the resource holding the object, where a look would say only that it exists.
      const taken = !failures.length && claim(def.kind, def.identity, inputs, def.normalize);
      if (taken) failures.push(taken);
      if ((moved || (!existing && (!standing || elsewhere))) && !failures.length && !containsUnknown(inputs))
        failures.push(...(await lookAhead(def, inputs, moved)));
      const checked = failures.length ? { inputs, failures } : { inputs };
      return def.check ? await def.check(checked, olds) : checked;
    },

    async diff(id: string, olds: Props, news: Props) {
      // The dynamic-provider plugin passes on neither the names nor the stables.
      const { diffs: _named, stables: _stables, ...result } = diffOf(def, olds, news);
      if (result.deleteBeforeReplace) {
        // An input not known yet (it comes from a resource being replaced) may or may not change.
        const known = (result.replaces ?? []).filter((k) => !containsUnknown(news[k]));
        const unsure = (result.replaces ?? []).filter((k) => !known.includes(k));
        const [is, comes, changes] =
          unsure.length > 1 ? ["are", "they come", "they change"] : ["is", "it comes", "it changes"];
        say(
          def.kind,
          nameOf(def.identity, olds) || id,
          `${known.length ? `changing ${known.join(", ")} replaces it` : `${unsure.join(", ")} ${is} not known until what ${comes} from is updated; if ${changes}, that replaces it`} ` +
            "by deleting it first, then creating the new one: between the two, neither exists on the service",
        );
      }
      return result;
    },

    async create(inputs: Props) {
      const journal = journalCreate(def.kind, identityFields(def), inputs);
      try {
        // The provider-wide switch, or the recovery of this stack's interrupted run: adopt.
        const adopting =
          inputs["adopt"] === undefined && (journal.adopt || resolveProviderConfig().adoptExisting === true);
        const given = (adopting ? { ...inputs, adopt: true } : inputs) as I;
        const { [CLAIMANT]: _claimant, ...sent } = given;
        const context = await ctx(sent);
        // A recovery adopts only the id the killed run recorded.
        const key = finder(def);
        if (journal.adopt && key) {
          const foreign = journal.foreign(await key.find(sent as I, context));
          if (foreign) throw foreign;
        }
        const { id, outs, adopted, found } = await journal.run(() =>
          createResolvingLost(def, sent as I, context),
        );
        if (!id) throw new Error(`${def.kind}: the service returned no id`);
        const second = def.identity && own(def.kind, def.identity, id, given, def.normalize, !!adopted);
        if (second) throw second;
        journal.made(id, adopted !== undefined);
        if (adopted) {
          const whose = !journal.adopt
            ? ""
            : journal.answered
              ? ", which the interrupted run created (pulumi-wpengine recover)"
              : ", which the interrupted run's create most likely made: it was sent and never answered, and the " +
                "service records no maker, so if another stack made one under this name after the kill, both " +
                "stacks now hold it: then drop it from this stack's state with `pulumi state delete <urn>` " +
                "(`pulumi stack --show-urns` gives it) and remove it from the program (removing it first would " +
                "delete it) (pulumi-wpengine recover)";
          say(
            def.kind,
            nameOf(def.identity, inputs),
            `adopted the existing ${adopted} (id ${id})${whose}${adoptionChanges(def, found, sent)}`,
          );
        }
        return { id, outs: withInputs(def, inputs, outs) };
      } catch (err) {
        if (!(err instanceof CreatedButFailedError))
          return fail("create", withStep(def, inputs, journal.failed(err)), next("create", err));
        journal.made(err.id);
        throw recorded("create", err, inputs);
      }
    },

    async read(id: string, props: Props) {
      try {
        const live = await def.read(id, props as O, await ctx(props));
        if (!live) return { id: "" };
        // Inputs the service cannot report (write-only values, adopt, timeouts) carry over from state.
        const read = withInputs(def, props, live.outs);
        // An input neither holds (an import) takes its default, as check gives it: no planned change.
        for (const [key, field] of Object.entries(def.schema.shape))
          if (read[key] === undefined) read[key] = (field as z.ZodType).safeParse(undefined).data;
        // The schema's inputs, any input check computes (a source's hash), and the resource's claim.
        const keys = [...Object.keys(def.schema.shape), ...def.updatable, CLAIMANT];
        const inputs = Object.fromEntries(keys.map((key) => [key, read[key]]));
        return { id, props: toPlain(read), inputs: toPlain(inputs) };
      } catch (err) {
        if (isNotFound(err)) return { id: "" };
        return fail("read", err);
      }
    },

    async update(id: string, olds: Props, given: Props) {
      // Only settings the state keeps changed (the API user later calls run as): the object read once as
      // the new one (an API user that cannot reach it is refused before it is recorded), nothing written.
      const changed = diffOf(def, olds, given).diffs ?? [];
      const { __provider: _p, ...kept } = olds;
      if (changed.length && changed.every((k) => def.kept?.includes(k))) {
        try {
          await def.read(id, olds as O, await ctx(given));
        } catch (err) {
          if (!isNotFound(err)) return fail("update", err);
        }
        for (const k of changed) delete kept[k];
        return { outs: withInputs(def, given, kept) };
      }
      if (!def.update) return fail("update", new Error("every input of this resource replaces it"));
      const { [CLAIMANT]: _claimant, ...news } = given;
      try {
        const context = await ctx(news);
        // An update that only repeats is sent again when its answer is lost (bounded, like a create).
        const outs = await resending(def.kind, id, "updated", "resend" in (def.naturalKey ?? {}), () =>
          def.update!(id, olds as O, news as I, context),
        );
        return { outs: withInputs(def, given, outs ?? { ...kept, ...news }) };
      } catch (err) {
        if (err instanceof CreatedButFailedError) throw recorded("update", err, given);
        return fail("update", withStep(def, news, err), next("update", err));
      }
    },

    async delete(id: string, props: Props) {
      // Another resource's now (whatever this one's guard says): forgotten, never deleted under it.
      const holder = def.identity && holderOf(def.kind, def.identity, id, props, def.normalize);
      const others = def.identity && !holder ? await heldOutsideRun(def.kind, id, props[CLAIMANT]) : [];
      const held = holder || (Array.isArray(others) && others.length ? holdingToo(def.kind, others) : "");
      if (held)
        return say(
          def.kind,
          nameOf(def.identity, props) || id,
          `not deleted on the service: ${held}; only that resource lets it go`,
        );
      if (others instanceof Error)
        say(
          def.kind,
          id,
          `could not read this stack's state to see whether a resource this targeted run leaves out holds it too (${others.message}): deleting it`,
        );
      if (def.protects && isProtected(props))
        fail(
          "delete",
          new Error(
            `deletionProtection is on: deleting would destroy ${def.protects(props as O)} for good. ` +
              `To delete it, ${UNPROTECT.charAt(0).toLowerCase()}${UNPROTECT.slice(1)}, then destroy or remove it ` +
              "(removed from the program already: put it back with deletionProtection: false, or keep the object " +
              "and forget the resource with `pulumi state delete <its urn>`).",
          ),
        );
      try {
        const said = await def.delete(id, props as O, await ctx(props));
        if (said) say(def.kind, id, said);
      } catch (err) {
        if (!isNotFound(err)) fail("delete", err, next("delete", err));
      }
      journalDeleted(def.kind, identityFields(def), props, id);
    },
  };
}

/**
 * The refusal create would give a new object, said by check at preview: what its natural key finds ("already
 * exists"), a parent the service lacks (404) or refuses (403: another account's, the wrong profile), or what
 * `takeover` refuses. Not offline (`skipCredentialsCheck`) nor in a recovery (its creates decide); under
 * `adopt` only `takeover` looks. `parentOnly`: an existing resource moved to another profile, whose parent it
 * must reach. Any other fault is no failure (create decides). Records nothing in the journal.
 */
async function lookAhead<I extends Props, O extends Props, R>(
  def: ResourceDefinition<I, O, R>,
  inputs: Props,
  parentOnly = false,
): Promise<CheckFailure[]> {
  const key = finder(def);
  if ((!key && !def.takeover) || withinRecovery()) return [];
  const config = resolveProviderConfig();
  const adopting = inputs["adopt"] === undefined ? config.adoptExisting === true : !!inputs["adopt"];
  // A targeted run's adoption looks, too: a resource of the stack the run leaves out may hold the object.
  const targeted = adopting && key && inTargetedRun();
  if (config.skipCredentialsCheck || (adopting && !def.takeover && !parentOnly && !targeted)) return [];
  const { [CLAIMANT]: _claimant, ...sent } = inputs;
  const context = { ...contextOf(def, await getClient(), sent), ahead: true };
  const [own] = marked(def.schema, "key");
  const parents = marked(def.schema, "parent");
  try {
    if (parentOnly) {
      await (key
        ? key.find(sent as I, context)
        : def.takeover?.({ ...sent, adopt: true } as unknown as I, context));
      return [];
    }
    const id = key && (!adopting || targeted) ? await key.find(sent as I, context) : undefined;
    const object = `${def.kind} ${nameOf(def.identity, inputs) || id}`;
    if (id !== undefined && !adopting) {
      // A resource of the stack's state holds it (one the engine checks later, or this one renamed without
      // aliases): named as a second claim is, whichever the engine checks first.
      const [holder] = await heldInStack(def.kind, id, inputs[CLAIMANT]);
      const clash = holder && claim(def.kind, def.identity, inputs, def.normalize, undefined, holder);
      if (clash)
        return [
          {
            ...clash,
            reason: `${clash.reason} If this resource is that one renamed, give it \`aliases\` with its old name (docs/ownership.md).`,
          },
        ];
      const under = context.parent ? ` under ${context.parent}` : "";
      const error =
        key?.refusal?.(id, context) ?? alreadyExists(`${object} already exists${under} (id ${id})`);
      return [{ property: own ?? "", reason: error.message }];
    }
    const holders = id !== undefined ? await heldOutsideRun(def.kind, id, inputs[CLAIMANT]) : [];
    if (Array.isArray(holders) && holders.length)
      return [
        {
          property: own ?? "",
          reason:
            `would adopt ${object} (id ${id}), but ${holdingToo(def.kind, holders)}: ` +
            "the state would hold it twice, and destroying either would delete it under the other. Renamed or moved under another parent? " +
            "Give this resource `aliases` naming the old one instead of `adopt`; else run `pulumi up` without " +
            "--target, which lets the old one go in the same run",
        },
      ];
    const error = await def.takeover?.({ ...sent, adopt: adopting } as unknown as I, context);
    return error ? [{ property: own ?? parents.at(-1) ?? "", reason: error.message }] : [];
  } catch (err) {
    if (!isNotFound(err) && !isNotAuthorized(err)) return [];
    const parent = notFoundInputs(err, def.schema).findLast((k) => parents.includes(k)) ?? parents.at(-1);
    const forbidden = isNotAuthorized(err) ? err : undefined;
    // A 404 refuses only a service-assigned id (a UUID): one this program creates is unknown at preview. A
    // name (an app's, an environment's) may be one this program creates: create decides.
    if (!parent || (!forbidden && !UUID.test(String(inputs[parent])))) return [];
    const action = parentOnly ? "update" : "create";
    return [{ property: parent, reason: noSuchParent(parent, String(inputs[parent]), forbidden, action) }];
  }
}

/** The natural key that looks the object up, if the kind has one (not a `resend` or `none`). */
const finder = <I>(def: { naturalKey?: NaturalKey<I> }) =>
  def.naturalKey && "what" in def.naturalKey ? def.naturalKey : undefined;

/** What an adoption changed, in words: the declared inputs the object held otherwise, with what it held. */
function adoptionChanges(
  def: { updatable: readonly string[] } & Pick<AnyDef, "writeOnly" | "secrets" | "normalize">,
  found: Props | undefined,
  inputs: Props,
): string {
  if (!found) return "";
  const declared = (k: string) => inputs[k] !== undefined && !def.writeOnly?.includes(k);
  const changed = def.updatable.filter((k) => declared(k) && differs(def.normalize, k, found[k], inputs[k]));
  // Whole (what a takeover replaced is what a user may need to put back), none for nothing.
  const had = (k: string) =>
    def.secrets?.includes(k) ? k : `${k} ${found[k] == null ? "none" : JSON.stringify(toPlain(found[k]))}`;
  return changed.length
    ? `, and set ${changed.join(", ")} as declared (it had ${changed.map(had).join("; ")})`
    : "";
}

/** Runs a create, sent again after a lost answer unless the natural key finds it made ({@link NaturalKey}). */
async function createResolvingLost<I extends Props, O extends Props, R>(
  def: ResourceDefinition<I, O, R>,
  inputs: I,
  ctx: Context,
): Promise<Created<R>> {
  const key = def.naturalKey;
  let given = inputs;
  const what = nameOf(def.identity, inputs);
  const resolve = async (err: unknown, said: string) => {
    if (!isLostWrite(err)) return said;
    // Whatever holds the key from now on was made by this create (nothing held it when the create looked
    // before sending, and a lost request may still land): a send again takes it over, as a resent PUT of a
    // whole list finds the list it wrote.
    given = { ...inputs, adopt: true };
    if (!key || !("what" in key)) return said;
    const found = await key.find(inputs, ctx);
    if (!found) return `${said} and had not taken effect (nothing found by ${key.what})`;
    say(
      def.kind,
      what,
      `${said}, but what it asked for exists now (found by ${key.what}: ${found}; nothing held it before the send): taken as created`,
    );
    return undefined;
  };
  const resends = !!key && !("none" in key);
  const created = await resending(def.kind, what, "created", resends, () => def.create(given, ctx), resolve);
  // Taken after a lost send: this create's own object, said above, not an adoption of another's.
  return given === inputs ? created : { id: created.id, outs: created.outs };
}

/** Sends again while `resendable` after a lost answer or a 429; `lost` says what became of each send. */
async function resending<T>(
  kind: string,
  subject: string,
  done: string,
  resendable: boolean,
  send: () => Promise<T>,
  lost = async (_err: unknown, said: string): Promise<string | undefined> => said,
): Promise<T> {
  const earlier: string[] = [];
  for (let sent = 1; ; sent++) {
    try {
      const result = await send();
      if (earlier.length) say(kind, subject, `${done} on send ${sent} (${earlier.join("; ")})`);
      return result;
    } catch (err) {
      if (!resendable || !(isRateLimited(err) || mayHaveActed(err)) || sent >= LOST_SENDS) {
        noteSends(err, sent);
        throw err;
      }
      const happened = await lost(err, `send ${sent} ${answer(err)}`);
      if (happened) earlier.push(happened);
    }
  }
}

/** What became of a failed send, in words: "was answered" its status, or "got no answer" (a cut, a timeout). */
export function answer(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== "number") return `got no answer (${message})`;
  return `was answered ${/: (\d{3} [^:]+)/.exec(message)?.[1] ?? String(status)}`;
}

/** The error with the step that recovers from a lost answer the kind cannot resolve on its own. */
function withStep(def: Pick<AnyDef, "naturalKey">, inputs: Props, err: unknown): unknown {
  const key = def.naturalKey;
  if (!isLostWrite(err) || !(err instanceof Error) || !key || "resend" in key) return err;
  const status = (err as { status?: unknown }).status;
  const unknown =
    typeof status === "number"
      ? `. A ${status} answer does not prove the service did nothing, so whether the request took effect is unknown`
      : err instanceof WpEngineTimeoutError
        ? ". No answer came in time, so whether the request took effect is unknown"
        : ". The connection was cut before an answer came, so whether the request took effect is unknown";
  const step =
    "what" in key
      ? // Still unsettled after every send, or in an update (a Let's Encrypt order placed again).
        `${unknown}: the next \`pulumi up\` runs this step again (a create first looks the object up by ${key.what})`
      : `${unknown} (${key.none}): ${key.recover.replace(/\{(\w+)\}/g, (m, k: string) =>
          inputs[k] === undefined ? m : String(inputs[k]),
        )}`;
  return Object.assign(new Error(`${err.message}${step}`), { status });
}

/** Inputs (or recorded outputs) overlaid by the service's outputs in their form, without a made-up `adopt`. */
function withInputs(def: Pick<AnyDef, "schema" | "normalize">, inputs: Props, outs: Props): Props {
  const { __provider: _p, ...rest } = inputs;
  const { adopt: _adopt, ...made } = outs;
  // An output equal to its input once normalised keeps the input's form; a set (a list equal to itself
  // rotated, once normalised) that differs keeps the input's order: a preview shows what changed, not a shuffle.
  for (const k of Object.keys(def.schema.shape)) {
    const [given, out] = [rest[k], made[k]];
    if (given === undefined || out === undefined) continue;
    if (!differs(def.normalize, k, given, out)) made[k] = given;
    else if (
      Array.isArray(given) &&
      Array.isArray(out) &&
      !differs(def.normalize, k, out, [...out.slice(1), ...out.slice(0, 1)])
    )
      made[k] = inOrderOf(given, out);
  }
  return toPlain({ ...rest, ...made });
}

/**
 * `items` in the order of `given`: for each given item the item with every field it gives, else the one most
 * like it (an equal field counts 1, 2 when it tells items apart; a string, the share of its start it keeps).
 */
function inOrderOf(given: unknown[], items: unknown[]): unknown[] {
  // How much of a string's start another keeps (under 1: never worth an equal field), 0 for equal or non-strings.
  const kept = (x: unknown, y: unknown) => {
    if (typeof x !== "string" || typeof y !== "string" || x === y) return 0;
    let n = 0;
    while (n < x.length && x[n] === y[n]) n++;
    return (0.9 * n) / Math.max(x.length, y.length);
  };
  const fields = (x: unknown) => (x !== null && typeof x === "object" ? (x as Props) : undefined);
  const tells = new Map<string, boolean>();
  const telling = (k: string) => {
    if (!tells.has(k))
      tells.set(k, new Set(items.map((x) => JSON.stringify(fields(x)?.[k]))).size === items.length);
    return tells.get(k);
  };
  const likeness = (x: unknown, g: unknown) => {
    const [a, b] = [fields(x), fields(g)];
    if (!a || !b) return isDeepStrictEqual(x, g) ? Infinity : 0;
    const same = Object.keys(b).filter((k) => isDeepStrictEqual(a[k], b[k]));
    if (same.length === Object.keys(b).length) return Infinity;
    const near = Object.keys(b).reduce((n, k) => n + kept(a[k], b[k]), 0);
    return same.reduce((n, k) => n + (telling(k) ? 2 : 1), near);
  };
  const left = [...items];
  const match = new Map<number, unknown>();
  for (const whole of [true, false])
    given.forEach((g, i) => {
      if (match.has(i)) return;
      const scores = left.map((x) => likeness(x, g));
      const best = Math.max(...scores);
      if (best > 0 && (best === Infinity) === whole) match.set(i, left.splice(scores.indexOf(best), 1)[0]);
    });
  return [...[...match.keys()].sort((a, b) => a - b).map((i) => match.get(i)), ...left];
}
