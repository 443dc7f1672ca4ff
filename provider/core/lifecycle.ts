/**
 * The lifecycle rules every resource shares, in one place: check (zod, tolerant of unknowns), diff
 * (local, normalised, identity fields replace), create (all or nothing, adoption), read (gone means an
 * empty id), update (full outputs), delete (404 is success). A resource supplies only what differs.
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  isLostWrite,
  isNotFound,
  isRateLimited,
  mayHaveActed,
  type WpEngineClient,
  WpEngineTimeoutError,
  wasTurnedAway,
} from "../../sdk";
import { assertUsableConfig, getClient, proveCredentials } from "./client";
import { resolveProviderConfig } from "./config";
import { explainError, noteSends, nothingDone } from "./errors";
import { CLAIMANT, claim, type Identity, nameOf, own } from "./identity";
import { type CheckFailure, checkInputs, containsUnknown, named, type Rule } from "./inputs";
import { journalCreate, journalDeleted } from "./journal";

/** What a lifecycle method gets besides its arguments. */
export interface Context {
  client: WpEngineClient;
  /** The resource kind, for messages. */
  kind: string;
}

/**
 * What `read` reports: the live outputs, and the inputs that would produce them when they are not
 * simply the outputs of the same names.
 */
export interface ReadResult<I, O> {
  outs: O;
  inputs?: Partial<I>;
}

/** What a create returns: the id and outputs, and what it adopted when it took over an existing object. */
export interface Created<O> {
  id: string;
  outs: O;
  /** What was taken over, in words (e.g. `domain www.example.com`); absent when the create made it. */
  adopted?: string;
}

/** Thrown from `create` when the object exists but a later step failed: the engine records it. */
export class CreatedButFailedError extends Error {
  /** The id of the object that exists on the service. */
  readonly id: string;
  /** The outputs known so far, recorded in the state with the failure. */
  properties: Record<string, unknown>;
  constructor(id: string, properties: Record<string, unknown>, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "CreatedButFailedError";
    this.id = id;
    this.properties = properties;
  }
}

/**
 * How a create (or another unsafe call) whose response is lost is resolved: the connection dropped
 * mid-flight, no answer came in time, or any 5xx came back (a 503 included: see the sdk's `mayHaveActed`),
 * and the transport does not send an unsafe call again. One of:
 * - `what` and `find`: the object's natural key. The lifecycle looks the object up (`find`, a lookup started
 *   after the failure): found, the lost request had taken effect and the object is this resource's (it was
 *   not there before the create), so it is adopted; not found, the create runs again. At most
 *   {@link LOST_SENDS} sends.
 * - `resend`: every call of the kind may simply be sent again (a PUT, a purge, a verification): why.
 * - `none` and `recover`: no natural key (why), and the exact step that recovers, in the failure's message
 *   (`{field}` parts are the inputs).
 */
export type NaturalKey<I> =
  | {
      /** The natural key in words, e.g. "the domain's name on its install". */
      what: string;
      /** The id of the live object that holds the key, or `undefined`; looked up afresh. */
      find(inputs: I, ctx: Context): Promise<string | undefined>;
    }
  | { resend: string }
  | { none: string; recover: string };

/** How many times a create whose responses are lost is sent, at most. */
export const LOST_SENDS = 3;

/**
 * Whether a failure may pass if the step runs again: a lost response, or a 429 the transport's retries
 * did not get past (nothing was done). A create that looks its object up first (a natural key) or whose
 * writes are harmless to repeat runs again on it; no other.
 */
function isTransient(err: unknown): boolean {
  return isRateLimited(err) || mayHaveActed(err);
}

/**
 * The message's words for a write that may have acted and that the kind cannot resolve: what the answer
 * was (a 5xx, by its status, which the message has already given in full, or none at all), and the step
 * that recovers.
 */
function unresolved(
  key: NaturalKey<unknown> | undefined,
  inputs: Record<string, unknown>,
  err: unknown,
): string {
  const status = (err as { status?: unknown } | null)?.status;
  const unknown =
    typeof status === "number"
      ? `. A ${status} answer does not prove the service did nothing, so whether the request took effect is unknown`
      : err instanceof WpEngineTimeoutError
        ? ". No answer came in time, so whether the request took effect is unknown"
        : ". The connection was cut before an answer came, so whether the request took effect is unknown";
  if (key && "what" in key)
    // Still unsettled after every send, or in an update (a Let's Encrypt order placed again).
    return `${unknown}: the next \`pulumi up\` runs this step again (a create first looks the object up by ${key.what})`;
  if (!key || !("none" in key)) return "";
  const step = key.recover.replace(/\{(\w+)\}/g, (m, k: string) =>
    inputs[k] === undefined ? m : String(inputs[k]),
  );
  return `${unknown} (${key.none}): ${step}`;
}

/** Everything a resource defines; the generic methods do the rest. */
export interface ResourceDefinition<I extends Record<string, unknown>, O extends Record<string, unknown>> {
  /** The resource kind (the `<Name>` of `pulumi-nodejs:dynamic/wpengine:<Name>`). */
  kind: string;
  /** Strict schema of the inputs (camelCase), with defaults. */
  schema: z.ZodObject<z.ZodRawShape>;
  /** Cross-field rules of the spec. */
  rules?: readonly Rule<I>[];
  /** Inputs whose change replaces the object (its identity). */
  replaceOn: readonly (keyof I & string)[];
  /** Inputs updated in place. */
  updatable: readonly (keyof I & string)[];
  /** Computed outputs that no in-place update changes (see the `stable` marker). */
  stableOutputs?: readonly string[];
  /**
   * Inputs the service never returns (see the `writeOnly` marker). One the program must give that the
   * state does not hold was never known to the provider (an import): it is not a change.
   */
  writeOnly?: readonly (keyof I & string)[];
  /** Inputs and outputs that are secret whatever the program passes. */
  secrets?: readonly string[];
  /**
   * Delete the old object before creating its replacement (when both cannot exist at once); a function
   * decides from the replaced inputs (e.g. only when the replacement keeps the same name).
   */
  deleteBeforeReplace?: boolean | ((replaces: readonly string[]) => boolean);
  /**
   * What the resource promises but the old outputs (as a refresh recorded them) say is lost, and how
   * the next `up` restores it: `"update"` runs the update with the same inputs; `{ replace }` replaces
   * the object, naming the output that forces it. `undefined` when nothing is lost. No API call.
   */
  lost?: (olds: Record<string, unknown>) => "update" | { replace: string } | undefined;
  /**
   * Canonical form of a value for comparison: old outputs and new inputs both go through it, so
   * order, defaults and casing never show as a change.
   */
  normalize?: (key: keyof I & string, value: unknown) => unknown;
  /**
   * A deletion guard (the `deletionProtection` input, on by default): what deleting the object would
   * destroy, in words (e.g. `site "Blog" (5e…) and its installs blogprod, blogstg`). While the recorded
   * outputs have `deletionProtection` on, delete refuses, and so does a diff that would replace (delete)
   * the object, so the preview stops before anything is made. No API call.
   */
  protects?: (olds: O) => string;
  /** How a lost response to a create or another unsafe call is resolved (see {@link NaturalKey}). */
  naturalKey?: NaturalKey<I>;
  /**
   * A rule that needs the service (e.g. a domain's network type), run by check once the inputs pass the
   * schema and every one is known: what it finds fails the preview. A fault reaching the service is no
   * failure (the create meets it).
   */
  preflight?(inputs: I, ctx: Context): Promise<CheckFailure[]>;
  /**
   * The inputs that address one object on the service (see identity.ts): two resources of one deployment
   * with the same key fail `check`. Absent for actions, which own no object.
   */
  identity?: Identity<I>;
  /**
   * Creates the object, or takes over the one found (`adopt`): then `adopted` says what was taken over, in
   * words (e.g. `domain www.example.com`), and the user is told with the id.
   */
  create(inputs: I, ctx: Context): Promise<Created<O>>;
  /** Live state, or `undefined` when the object is gone. */
  read(id: string, olds: O, ctx: Context): Promise<ReadResult<I, O> | undefined>;
  /** In-place update; must return the full outputs. Absent when every input replaces. */
  update?(id: string, olds: O, news: I, ctx: Context): Promise<O>;
  /**
   * What delete does on the service (a 404 is already success). A delete that does not simply delete
   * returns what it did instead, in words (e.g. "forgotten only: ..."): the user is told with
   * {@link sayDeleted}.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a delete that simply deletes returns nothing.
  delete(id: string, olds: O, ctx: Context): Promise<void | string>;
}

/** How a delete that sends nothing starts its message. */
export const FORGOTTEN = "forgotten only, nothing sent to the service: ";

/**
 * Tells the user what a delete did when it did not simply delete the object: one line on the provider
 * process's stderr, which the Pulumi CLI shows among the update's diagnostics (the engine streams a
 * dynamic-provider plugin's stdout and stderr to its diagnostics; it hides only other resource plugins'
 * unstructured output). Built from ids and service facts only (never credentials).
 */
export function sayDeleted(kind: string, id: string, what: string): void {
  tell(`wpengine:${kind} ${id}: ${what}`);
}

/**
 * Where the provider's lines for the user go: the process's stderr, which the engine shows for the
 * dynamic-provider plugin; the executable provider, whose stderr the engine hides, sends them to the
 * engine's log instead ({@link tellThrough}).
 */
let tell = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Sends the provider's lines for the user through `sink` (the executable provider's engine log). */
export function tellThrough(sink: (line: string) => void): void {
  tell = sink;
}

/** Removes `undefined` (the engine cannot record it) and turns Dates into ISO strings. */
export function toPlain<T>(value: T): T {
  if (value instanceof Date) return value.toISOString() as T;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : toPlain(v))) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toPlain(v);
    return out as T;
  }
  return value;
}

/** Whether two values differ once normalised. */
function differs(norm: (v: unknown) => unknown, a: unknown, b: unknown): boolean {
  return !isDeepStrictEqual(toPlain(norm(a)), toPlain(norm(b)));
}

/**
 * The diff of a definition: whether anything changed, what replaces, and every changed property by name
 * (the executable front door reports them as a detailed diff; a dynamic provider has no field for them).
 */
export function diffOf<I extends Record<string, unknown>, O extends Record<string, unknown>>(
  def: ResourceDefinition<I, O>,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): {
  changes: boolean;
  replaces?: string[];
  diffs?: string[];
  stables?: string[];
  deleteBeforeReplace?: boolean;
} {
  const replaces: string[] = [];
  const diffs: string[] = [];
  let changes = false;
  for (const key of [...def.replaceOn, ...def.updatable]) {
    if (olds[key] === undefined && isRequired(def.schema, key) && def.writeOnly?.includes(key)) continue;
    const norm = (v: unknown) => (def.normalize ? def.normalize(key, v) : v);
    const changed = containsUnknown(news[key]) || differs(norm, olds[key], news[key]);
    if (!changed) continue;
    changes = true;
    diffs.push(key);
    if (def.replaceOn.includes(key)) replaces.push(key);
  }
  // Only a certain replacement fails the preview: a value still unknown may turn out unchanged (and if
  // it does change, the guarded delete still refuses after the replacement is made).
  const certain = replaces.filter((k) => !containsUnknown(news[k]));
  if (certain.length && def.protects && isProtected(olds)) {
    throw new Error(
      `wpengine:${def.kind} cannot be replaced: changing ${certain.join(", ")} replaces it, which deletes ` +
        `${def.protects(olds as O)} for good, and deletionProtection is on. ${UNPROTECT} first, ` +
        `then make this change; or keep ${certain.join(", ")} as ${certain.length > 1 ? "they are" : "it is"}.`,
    );
  }
  const lost = def.lost?.(olds);
  if (lost) {
    changes = true;
    if (lost !== "update" && !replaces.includes(lost.replace)) replaces.push(lost.replace);
    if (lost !== "update" && !diffs.includes(lost.replace)) diffs.push(lost.replace);
  }
  // An update in place keeps the object: every input it does not change, and the stable outputs, stay as
  // they are (the engine keeps them known in the preview, so drift stays on the object that drifted).
  const stables =
    changes && !replaces.length
      ? [
          ...Object.keys(def.schema.shape).filter((k) => !diffs.includes(k) && !containsUnknown(news[k])),
          ...(def.stableOutputs ?? []),
        ]
      : [];
  const dbr = def.deleteBeforeReplace;
  const deleteFirst = replaces.length > 0 && (typeof dbr === "function" ? dbr(replaces) : dbr === true);
  return {
    changes,
    ...(replaces.length ? { replaces } : {}),
    ...(diffs.length ? { diffs } : {}),
    ...(stables.length ? { stables } : {}),
    ...(deleteFirst ? { deleteBeforeReplace: true } : {}),
  };
}

/** Builds the provider object of a resource from its definition. */
export function defineProvider<I extends Record<string, unknown>, O extends Record<string, unknown>>(
  def: ResourceDefinition<I, O>,
): pulumi.dynamic.ResourceProvider & { definition: ResourceDefinition<I, O> } {
  const ctx = async (): Promise<Context> => ({ client: await getClient(), kind: def.kind });
  const anyDef = def as unknown as ResourceDefinition<Record<string, unknown>, Record<string, unknown>>;
  const fail = (action: string, err: unknown, then?: string): never => {
    throw explainError(def.kind, action, err, then, def.schema);
  };
  return {
    definition: def,

    async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
      const config = resolveProviderConfig();
      assertUsableConfig(config);
      await proveCredentials(config);
      const { [CLAIMANT]: claimant, ...given } = news;
      const { inputs, failures } = checkInputs<z.ZodRawShape, I>(def.schema, given, def.rules ?? []);
      if (!failures.length && def.preflight && !containsUnknown(inputs))
        failures.push(...(await def.preflight(inputs as I, await ctx())).map(named));
      // The resource that claims the object travels with its inputs to create (see identity.ts).
      if (claimant !== undefined) inputs[CLAIMANT] = claimant;
      const taken = failures.length
        ? undefined
        : claim(def.kind, def.identity, inputs, def.normalize as never);
      if (taken) failures.push(taken);
      return failures.length ? { inputs, failures } : { inputs };
    },

    async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
      // Pulumi's dynamic-provider plugin passes on neither the names nor the stables (see the executable door).
      const { diffs: _named, stables: _stables, ...result } = diffOf(def, olds, news);
      if (result.deleteBeforeReplace)
        sayDeletesFirst(def.kind, nameOf(def.identity, olds) || _id, result.replaces ?? []);
      return result;
    },

    async create(inputs: Record<string, unknown>) {
      // What this create sets out to make and makes, for `pulumi-wpengine recover` (journal.ts).
      const journal = journalCreate(def.kind, def.replaceOn, inputs);
      try {
        // The provider-wide switch, or the recovery of this stack's interrupted run: adopt what it created.
        const adopting =
          inputs["adopt"] === undefined && (journal.adopt || resolveProviderConfig().adoptExisting === true);
        const given = (adopting ? { ...inputs, adopt: true } : inputs) as I;
        const { [CLAIMANT]: _claimant, ...sent } = given;
        const context = await ctx();
        // A recovery adopts only the id the killed run recorded: another one under the key is not its.
        const key = def.naturalKey;
        if (journal.adopt && key && "what" in key) {
          const foreign = journal.foreign(await key.find(sent as I, context));
          if (foreign) throw foreign;
        }
        const { id, outs, adopted } = await journal.run(() => createResolvingLost(def, sent as I, context));
        if (!id) throw new Error(`${def.kind}: the service returned no id`);
        // Never a second owner in this stack (an adoption of what another resource holds), see identity.ts.
        if (def.identity) {
          const second = own(def.kind, def.identity, id, given, def.normalize as never);
          if (second) throw second;
        }
        journal.made(id);
        if (adopted) {
          const whose = journal.adopt ? ", which the interrupted run created (pulumi-wpengine recover)" : "";
          say(def.kind, nameOf(def.identity, inputs), `adopted the existing ${adopted} (id ${id})${whose}`);
        }
        return { id, outs: withInputs(anyDef, inputs, outs) };
      } catch (err) {
        if (err instanceof CreatedButFailedError) {
          journal.made(err.id);
          // Recorded as created-but-failed: keep the provider so a later destroy or refresh can run.
          err.properties = {
            ...withInputs(anyDef, inputs, err.properties),
            __provider: inputs["__provider"],
          };
          err.message = explainError(def.kind, "create", err.cause ?? err, undefined, def.schema).message;
          throw err;
        }
        return fail("create", withStep(def, inputs, journal.failed(err)), next("create", err));
      }
    },

    async read(id: string, props: Record<string, unknown>) {
      try {
        const live = await def.read(id, props as O, await ctx());
        if (!live) return { id: "" };
        const inputs: Record<string, unknown> = {};
        const outs = keepForm(anyDef, props, live.outs);
        // Inputs the service cannot report (write-only values, adopt, timeouts) carry over from state; a value
        // a read reports as undefined is gone.
        const merged: Record<string, unknown> = {
          ...props,
          ...keepForm(anyDef, props, live.inputs ?? live.outs),
        };
        // An input neither the service nor the state holds (an import has no state) takes its default, as
        // check gives it to the program: the first preview after an import plans nothing for it.
        const defaults = defaultsOf(def.schema, merged);
        Object.assign(merged, defaults);
        // The schema's inputs, and any input check computes (a source's hash) that the diff compares.
        // And the resource's claim of its object (identity.ts), which the outputs keep: a refresh keeps it.
        for (const key of new Set([...Object.keys(def.schema.shape), ...def.updatable, CLAIMANT]))
          if (merged[key] !== undefined) inputs[key] = merged[key];
        const { __provider: _p, ...oldOuts } = props;
        const read = { ...oldOuts, ...outs };
        for (const [key, value] of Object.entries(defaults)) read[key] ??= value;
        return { id, props: toPlain(read), inputs: toPlain(inputs) };
      } catch (err) {
        if (isNotFound(err)) return { id: "" };
        return fail("read", err);
      }
    },

    async update(id: string, olds: Record<string, unknown>, given: Record<string, unknown>) {
      if (!def.update) return fail("update", new Error("every input of this resource replaces it"));
      const { [CLAIMANT]: _claimant, ...news } = given;
      try {
        const context = await ctx();
        const key = def.naturalKey;
        const earlier: string[] = [];
        // An update that only repeats is sent again when its answer is lost (bounded, like a create).
        for (let sent = 1; ; sent++) {
          try {
            const outs = await def.update(id, olds as O, news as I, context);
            if (earlier.length) say(def.kind, id, `updated on send ${sent} (${earlier.join("; ")})`);
            return { outs: withInputs(anyDef, given, outs) };
          } catch (err) {
            if (!(key && "resend" in key && isTransient(err) && sent < LOST_SENDS)) {
              noteSends(err, sent);
              throw err;
            }
            earlier.push(`send ${sent} was answered ${answer(err)}`);
          }
        }
      } catch (err) {
        return fail("update", withStep(def, news, err), next("update", err));
      }
    },

    async delete(id: string, props: Record<string, unknown>) {
      if (def.protects && isProtected(props)) {
        fail(
          "delete",
          new Error(
            `deletionProtection is on: deleting would destroy ${def.protects(props as O)} for good. ` +
              `To delete it, ${UNPROTECT.charAt(0).toLowerCase()}${UNPROTECT.slice(1)}, then destroy or remove it.`,
          ),
        );
      }
      try {
        const said = await def.delete(id, props as O, await ctx());
        if (said) sayDeleted(def.kind, id, said);
      } catch (err) {
        if (!isNotFound(err)) fail("delete", err, next("delete", err));
      }
      journalDeleted(def.kind, def.replaceOn, props, id);
    },
  } as pulumi.dynamic.ResourceProvider & { definition: ResourceDefinition<I, O> };
}

/** Whether the program must give the input (it has no default and is not optional). */
function isRequired(schema: z.ZodObject<z.ZodRawShape>, key: string): boolean {
  return !(schema.shape[key] as z.ZodType | undefined)?.safeParse(undefined).success;
}

/** The default of each input of `schema` that `given` lacks (none for an input without a default). */
function defaultsOf(
  schema: z.ZodObject<z.ZodRawShape>,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (given[key] !== undefined) continue;
    const parsed = (field as z.ZodType).safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out;
}

/**
 * Runs a create, resolving a lost response by the kind's natural key: the object found means the lost
 * request made it (it was not there before, or the create would not have sent it), so it is adopted;
 * not found, the create runs again. A kind that may simply resend runs again, and so does either kind
 * after a busy refusal the transport's retries did not get past. At most {@link LOST_SENDS} runs.
 */
async function createResolvingLost<I extends Record<string, unknown>, O extends Record<string, unknown>>(
  def: ResourceDefinition<I, O>,
  inputs: I,
  ctx: Context,
): Promise<Created<O>> {
  const key = def.naturalKey;
  let given = inputs;
  const what = nameOf(def.identity, inputs);
  // What happened to the earlier sends, said once with the outcome (never one line per send).
  const earlier: string[] = [];
  for (let sent = 1; ; sent++) {
    try {
      const made = await def.create(given, ctx);
      if (earlier.length) say(def.kind, what, `created on send ${sent} (${earlier.join("; ")})`);
      return made;
    } catch (err) {
      if (!key || "none" in key || !isTransient(err) || sent >= LOST_SENDS) {
        noteSends(err, sent);
        throw err;
      }
      const lost = isLostWrite(err);
      if ("resend" in key || !lost) {
        // Harmless to repeat, or refused before the service acted (the transport's retries ran out).
        earlier.push(`send ${sent} was answered ${answer(err)}`);
        continue;
      }
      const found = await key.find(given, ctx);
      if (found) {
        // Said now: the outcome is this object, whatever the next step does.
        say(
          def.kind,
          what,
          `send ${sent} was answered ${answer(err)}, but it had taken effect (found by ${key.what}: ${found}): taken as created`,
        );
      } else
        earlier.push(
          `send ${sent} was answered ${answer(err)} and had not taken effect (nothing found by ${key.what})`,
        );
      // Whatever holds the key from now on was made by this create (a lost request may still land): adopt it.
      given = { ...inputs, adopt: true };
    }
  }
}

/**
 * How a failed send was answered, in words: the status for an answer (a 5xx may have acted, a 503 too),
 * "with no answer" for a connection cut or a timeout.
 */
export function answer(err: unknown): string {
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status === "number") {
    const m = /: (\d{3} [^:]+)/.exec(message(err));
    return m ? m[1]! : String(status);
  }
  return `with no answer (${message(err)})`;
}

/**
 * The next step after a failed write that certainly did nothing (a 429 to the end, a connection never
 * made: see the sdk's `mayHaveActed`); one that may have acted is said by {@link withStep}.
 */
function next(action: string, err: unknown): string | undefined {
  return wasTurnedAway(err) ? nothingDone(action, err) : undefined;
}

/** The error with the step that recovers from a lost response the kind cannot resolve on its own. */
export function withStep<I extends Record<string, unknown>, O extends Record<string, unknown>>(
  def: ResourceDefinition<I, O>,
  inputs: Record<string, unknown>,
  err: unknown,
): unknown {
  if (!isLostWrite(err)) return err;
  const step = unresolved(def.naturalKey as NaturalKey<unknown> | undefined, inputs, err);
  if (!step || !(err instanceof Error)) return err;
  return Object.assign(new Error(`${err.message}${step}`), { status: (err as { status?: unknown }).status });
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One line among the update's diagnostics (the provider's stderr), like {@link sayDeleted}. */
export function say(kind: string, subject: string, what: string): void {
  tell(`wpengine:${kind}${subject ? ` ${subject}` : ""}: ${what}`);
}

/**
 * Says, at preview, that a replacement deletes the object before it creates the new one (the engine's
 * preview shows a replace either way): between the two, neither exists.
 */
export function sayDeletesFirst(kind: string, subject: string, replaces: string[]): void {
  say(
    kind,
    subject,
    `changing ${replaces.join(", ")} replaces it by deleting it first, then creating the new one: ` +
      "between the two, neither exists on the service",
  );
}

/** How a user turns a deletion guard off: an update that sends nothing to the service. */
const UNPROTECT =
  "Set deletionProtection: false on the resource and run `pulumi up` (that update changes nothing on the service)";

/** Whether recorded outputs have the deletion guard on (absent counts as on: never delete by default). */
function isProtected(olds: Record<string, unknown>): boolean {
  return olds["deletionProtection"] !== false;
}

/**
 * Outputs are the checked inputs (so read and diff always have them) overlaid by what the service said,
 * except that an input the service holds in another but equal form (order, casing, a trailing dot) keeps
 * the program's form: a refresh then finds exactly what was stored, and shows no phantom diff. The
 * resource's claim ({@link CLAIMANT}) is among them: read carries it into the refreshed inputs.
 */
function withInputs(
  def: ResourceDefinition<Record<string, unknown>, Record<string, unknown>>,
  inputs: Record<string, unknown>,
  outs: Record<string, unknown>,
): Record<string, unknown> {
  const { __provider: _p, ...rest } = inputs;
  // `adopt` is the program's to record: the adopting create of the provider-wide switch, a recovery or a
  // lost answer's resend (a kind whose outputs carry its inputs) leaves no `adopt` the program never set.
  const { adopt: _adopt, ...made } = outs;
  return toPlain({ ...rest, ...keepForm(def, rest, made) });
}

/** `live` with each input-named value that equals `stored` once normalised replaced by `stored`'s form. */
function keepForm(
  def: ResourceDefinition<Record<string, unknown>, Record<string, unknown>>,
  stored: Record<string, unknown>,
  live: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...live };
  for (const key of Object.keys(def.schema.shape)) {
    if (stored[key] === undefined || live[key] === undefined) continue;
    const norm = (v: unknown) => (def.normalize ? def.normalize(key, v) : v);
    if (!differs(norm, stored[key], live[key])) out[key] = stored[key];
  }
  return out;
}

export type { CheckFailure };
