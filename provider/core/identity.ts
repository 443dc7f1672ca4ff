/**
 * One owner per object: two resources of one deployment never claim one identity.
 *
 * A kind's definition names its identity (`identity` of `defineKind`: the inputs that address one object
 * on the service, its parent first and its own name last, e.g. a domain's install and name, or an install
 * alone for a singleton such as its cache exclusions). Every `check` of a resource claims its identity for the resource (the claimant); a second
 * claimant of the same identity fails its `check` naming both resources and the key, so `pulumi preview`
 * stops before any write. A key still unknown at preview (an output of another resource) is claimed when
 * the engine checks the resource again with it known, before its create.
 *
 * And at create: an id this process already created or adopted for one resource is never taken by another
 * (an adoption of an object that another resource of the stack just made or took over fails). An id is
 * unique within the identity's parent (its fields but the last): an account user's id is the person's,
 * whom several accounts may hold (one AccountUser resource in each).
 *
 * The claims live in the provider process, which serves one deployment: in the dynamic front door one
 * plugin process serves every dynamic resource of the program, and the claimant is the resource's name,
 * which the resource class passes as the hidden input {@link CLAIMANT}; in the executable front door one
 * process serves each provider instance, and the claimant is the resource's URN.
 */
import type { CheckFailure } from "./inputs";
import { containsUnknown } from "./inputs";

/**
 * The hidden input that names the resource (the claimant): never sent to the service; the dynamic front
 * door keeps it in the outputs, so that a refresh (read) carries it over and no diff ever shows it.
 */
export const CLAIMANT = "__claimant";

/** What addresses one object of a kind on the service. */
export interface Identity<I> {
  /** In words, e.g. "the domain's name on its install" or "the install (an install has one list)". */
  what: string;
  /** The inputs whose values, together, are the key: the object's parent first, its own name last. */
  fields: readonly (keyof I & string)[];
  /**
   * The input or output that names the object in the provider's lines (a domain's name, a user's email);
   * the key's last field unless given.
   */
  name?: string;
}

/** How one object reads in the provider's lines: its identity's name, or `""` (an action). */
export function nameOf<I>(identity: Identity<I> | undefined, values: Record<string, unknown>): string {
  const field = identity?.name ?? identity?.fields[identity.fields.length - 1];
  const value = field === undefined ? undefined : values[field];
  return value === undefined || value === null ? "" : String(value);
}

const claims = new Map<string, string>();
const owners = new Map<string, string>();

/** How a claimant reads in a message: a URN as `<type> "<name>"`, a bare name quoted. */
export function describeClaimant(kind: string, claimant: string): string {
  const parts = claimant.split("::");
  if (parts.length >= 4) return `${parts[2]?.split("$").pop()} "${parts.slice(3).join("::")}"`;
  return `wpengine:${kind} "${claimant}"`;
}

/** The key of `inputs` under `identity`, or `undefined` while a part of it is unknown or missing. */
function keyOf<I>(
  identity: Identity<I>,
  inputs: Record<string, unknown>,
  normalize?: (field: string, value: unknown) => unknown,
): { key: string; shown: string } | undefined {
  const values: unknown[] = [];
  for (const field of identity.fields) {
    const value = inputs[field];
    if (value === undefined || value === null || containsUnknown(value)) return undefined;
    values.push(normalize ? normalize(field, value) : value);
  }
  return {
    key: JSON.stringify(values),
    shown: identity.fields.map((f, i) => `${f} ${JSON.stringify(values[i])}`).join(", "),
  };
}

/**
 * Claims the identity of `inputs` for `claimant`; a failure naming both resources and the key when
 * another resource of this deployment claimed it first. No claimant (an old program), no key yet
 * (unknown at preview) or no identity (an action): nothing to claim.
 */
export function claim<I>(
  kind: string,
  identity: Identity<I> | undefined,
  inputs: Record<string, unknown>,
  normalize?: (field: string, value: unknown) => unknown,
): CheckFailure | undefined {
  const claimant = inputs[CLAIMANT];
  if (!identity || typeof claimant !== "string" || claimant === "") return undefined;
  const key = keyOf(identity, inputs, normalize);
  if (!key) return undefined;
  const slot = `${kind} ${key.key}`;
  const first = claims.get(slot);
  if (first === undefined) {
    claims.set(slot, claimant);
    return undefined;
  }
  if (first === claimant) return undefined;
  return {
    property: identity.fields[identity.fields.length - 1] ?? "",
    reason:
      `${describeClaimant(kind, claimant)} and ${describeClaimant(kind, first)} both claim ${identity.what} ` +
      `(${key.shown}): two resources would own one object, and removing either from the program would delete ` +
      "it under the other. Declare it once (share that resource's outputs where both are needed).",
  };
}

/**
 * Records that `claimant` holds the object `id` of `kind` (it created or adopted it); an Error when another
 * resource of this deployment already holds it, so an adoption never makes a second owner.
 */
export function own<I>(
  kind: string,
  identity: Identity<I>,
  id: string,
  inputs: Record<string, unknown>,
  normalize?: (field: string, value: unknown) => unknown,
): Error | undefined {
  const claimant = inputs[CLAIMANT];
  if (typeof claimant !== "string" || claimant === "") return undefined;
  // An id names one object within the identity's parent (see above).
  const parent = keyOf({ ...identity, fields: identity.fields.slice(0, -1) }, inputs, normalize);
  const slot = parent?.shown ? `${kind} ${id} in ${parent.shown}` : `${kind} ${id}`;
  const first = owners.get(slot);
  if (first === undefined || first === claimant) {
    owners.set(slot, claimant);
    return undefined;
  }
  return new Error(
    `${describeClaimant(kind, claimant)} would take over ${kind} ${id}, which ${describeClaimant(kind, first)} ` +
      "already holds in this stack: two resources would own one object, so it is not recorded for this one. " +
      "Declare it once.",
  );
}

/** Forgets every claim (tests start each case afresh, as a new plugin process would). */
export function forgetClaims(): void {
  claims.clear();
  owners.clear();
}
