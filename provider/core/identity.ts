/**
 * One owner per object, per provider process (one deployment): a second resource claiming an identity fails
 * its `check` before any write, and an id one resource created or adopted is never taken by another (an id
 * is unique within the identity's parent). The claimant is the resource's name ({@link CLAIMANT}) or URN.
 */
import { type CheckFailure, containsUnknown, type Props } from "./inputs";
import type { Normalize } from "./wire";

/** The hidden input that names the claimant: never sent; kept in the outputs, so a refresh keeps it. */
export const CLAIMANT = "__claimant";

/** What addresses one object of a kind on the service. */
export interface Identity<I> {
  /** In words, e.g. "the domain's name on its install" or "the install (an install has one list)". */
  what: string;
  /** The inputs whose values, together, are the key: the object's parent first, its own name last. */
  fields: readonly (keyof I & string)[];
  /** The input or output that names the object in the provider's lines; the key's last field unless given. */
  name?: string;
  /** Why two resources cannot share it, when not the default (removing either would delete it under the other). */
  clash?: string;
}

/** How one object reads in the provider's lines: its identity's name, or `""` (an action). */
export function nameOf<I>(identity: Identity<I> | undefined, values: Props): string {
  const field = identity?.name ?? identity?.fields.at(-1);
  return field === undefined ? "" : String(values[field] ?? "");
}

const claims = new Map<string, string>();
/** Who took over each object in this deployment, and whether by adoption (a replacement's is). */
const owners = new Map<string, { claimant: string; adopted: boolean }>();

/** How a claimant reads in a message: a URN as `<type> "<name>"`, a bare name quoted. */
export function describeClaimant(kind: string, claimant: string): string {
  const parts = claimant.split("::");
  if (parts.length >= 4) return `${parts[2]?.split("$").pop()} "${parts.slice(3).join("::")}"`;
  return `wpengine:${kind} "${claimant}"`;
}

/** The key `fields` of `inputs` make, in words, or `undefined` while a part of it is unknown or missing. */
function keyOf(fields: readonly string[], inputs: Props, normalize?: Normalize): string | undefined {
  const parts: string[] = [];
  for (const field of fields) {
    const value = inputs[field];
    if (value === undefined || value === null || containsUnknown(value)) return undefined;
    parts.push(`${field} ${JSON.stringify(normalize ? normalize(field, value) : value)}`);
  }
  return parts.join(", ");
}

/**
 * Claims the identity of `inputs` for its claimant; a failure naming both (and `clash`) if another did, or if
 * `holder` does (a resource of the stack's state holding the object: named as the first, nothing recorded).
 */
export function claim<I>(
  kind: string,
  identity: Identity<I> | undefined,
  inputs: Props,
  normalize?: Normalize,
  clash = identity?.clash ??
    "two resources would own one object, and removing either from the program would delete it under the other. Declare it once (share that resource's outputs where both are needed).",
  holder?: string,
): CheckFailure | undefined {
  const claimant = inputs[CLAIMANT];
  if (!identity || typeof claimant !== "string" || claimant === "") return undefined;
  const key = keyOf(identity.fields, inputs, normalize);
  if (!key) return undefined;
  const slot = `${kind} ${key}`;
  const first = holder ?? claims.get(slot) ?? claimant;
  if (holder === undefined) claims.set(slot, first);
  if (first === claimant) return undefined;
  return {
    property: identity.fields[identity.fields.length - 1] ?? "",
    reason: `${describeClaimant(kind, claimant)} and ${describeClaimant(kind, first)} both claim ${identity.what} (${key}): ${clash}`,
  };
}

/** The claimant of `props`, the key of object `id` among the owners (its id within its parent), its holder. */
function holding<I>(kind: string, identity: Identity<I>, id: string, props: Props, normalize?: Normalize) {
  const claimant = props[CLAIMANT];
  if (typeof claimant !== "string" || claimant === "") return undefined;
  const parent = keyOf(identity.fields.slice(0, -1), props, normalize);
  const slot = parent ? `${kind} ${id} in ${parent}` : `${kind} ${id}`;
  const owner = owners.get(slot);
  return { claimant, slot, holder: owner?.claimant, adopted: owner?.adopted };
}

/** Records that the claimant holds object `id` (made, or `adopted`); an Error when another resource already holds it. */
export function own<I>(
  kind: string,
  identity: Identity<I>,
  id: string,
  inputs: Props,
  normalize?: Normalize,
  adopted = false,
): Error | undefined {
  const h = holding(kind, identity, id, inputs, normalize);
  if (!h) return undefined;
  if (h.holder !== undefined && h.holder !== h.claimant)
    return new Error(
      `${describeClaimant(kind, h.claimant)} would take over ${kind} ${id}, which ${describeClaimant(kind, h.holder)} ` +
        "already holds in this stack: two resources would own one object, so it is not recorded for this one. " +
        "Declare it once.",
    );
  owners.set(h.slot, { claimant: h.claimant, adopted });
  return undefined;
}

/**
 * Why object `id` is another resource's in this deployment (its replacement's or another's, made, adopted or
 * declared), in words: a delete by its previous resource would destroy what the stack still declares.
 */
export function holderOf<I>(
  kind: string,
  identity: Identity<I>,
  id: string,
  props: Props,
  normalize?: Normalize,
): string | undefined {
  const h = holding(kind, identity, id, props, normalize);
  if (!h) return undefined;
  // Adopted by the same claimant: this resource's replacement (the engine creates before it deletes).
  if (h.holder === h.claimant)
    return h.adopted ? "its replacement took it over in this run and holds it now" : undefined;
  if (h.holder !== undefined)
    return `${describeClaimant(kind, h.holder)} took it over in this run and holds it now`;
  const key = keyOf(identity.fields, props, normalize);
  const declarer = key === undefined ? undefined : claims.get(`${kind} ${key}`);
  return declarer === undefined || declarer === h.claimant
    ? undefined
    : `${describeClaimant(kind, declarer)} declares it in this run`;
}

/** The claimants (by kind) this process checked as existing resources (with olds), and those olds. */
const standing = new Map<string, Props>();
/**
 * Notes the `olds` `claimant` was checked with (an update or a replacement); the olds it ever was checked
 * with. The engine checks a replacement again without olds (for fresh defaults): no new object's check.
 */
export function standingClaimant(kind: string, claimant: unknown, olds?: Props): Props | undefined {
  if (claimant === undefined) return undefined;
  const key = `${kind} ${String(claimant)}`;
  if (olds) standing.set(key, olds);
  return standing.get(key);
}

/** Forgets every claim (tests start each case afresh, as a new plugin process would). */
export function forgetClaims(): void {
  claims.clear();
  owners.clear();
  standing.clear();
}
