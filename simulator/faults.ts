import { z } from "zod";

/** One injected-failure rule of `PUT /__sim/faults`. */
export const FaultRuleSchema = z
  .strictObject({
    /** HTTP method to match; any when absent. */
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).optional(),
    /** A glob (`*` matches anything, `/` included) or, when it starts with `^`, a regular expression. */
    path: z.string().min(1),
    /** Answer with this status before the handler runs (the operation does not happen), or after it with `after`. */
    status: z
      .union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)])
      .optional(),
    /** Seconds sent in a `Retry-After` header (with `status`). */
    retryAfter: z.number().int().nonnegative().optional(),
    /** Delay before answering (before the handler runs when there is no status; after it with `after`). */
    latencyMs: z.number().int().nonnegative().max(600_000).optional(),
    /** Close the connection without an answer. */
    drop: z.literal(true).optional(),
    /** Fire after the handler: the operation happens, then its answer is delayed, replaced by `status` (5xx) or dropped. */
    after: z.literal(true).optional(),
    /** Let this many matching requests through before firing (e.g. fail a poll, not the read before it). */
    skip: z.number().int().positive().optional(),
    /** Fire this many times, then stop; forever when absent. */
    count: z.number().int().positive().optional(),
    /** Fire with this probability on each matching request. */
    probability: z.number().min(0).max(1).optional(),
  })
  .refine((r) => !r.after || (r.status !== undefined && r.status !== 429) || r.drop || r.latencyMs, {
    path: ["after"],
    message: "after needs drop, a 5xx status (a 429 says the operation did not happen) or latencyMs",
  });

export type FaultRule = z.infer<typeof FaultRuleSchema>;

interface ActiveRule {
  rule: FaultRule;
  matcher: RegExp;
  remaining: number | null;
  toSkip: number;
  fired: number;
}

/** The injected failures, first matching rule wins. */
export class Faults {
  private rules: ActiveRule[] = [];

  /** Replaces every rule. Throws on an invalid regular expression. */
  set(rules: FaultRule[]): void {
    this.rules = rules.map((rule) => ({
      rule,
      matcher: toMatcher(rule.path),
      remaining: rule.count ?? null,
      toSkip: rule.skip ?? 0,
      fired: 0,
    }));
  }

  /** The rules with how many times each may still fire and has fired. */
  list(): (FaultRule & { remaining: number | null; fired: number })[] {
    return this.rules.map((r) => ({ ...r.rule, remaining: r.remaining, fired: r.fired }));
  }

  /** The rule that fires for this request, if any (consumes one of its count). */
  pick(method: string, path: string): FaultRule | null {
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method && rule.method !== method) continue;
      if (!active.matcher.test(path)) continue;
      if (active.remaining === 0) continue;
      if (rule.probability !== undefined && Math.random() >= rule.probability) continue;
      if (active.toSkip > 0) {
        active.toSkip -= 1;
        continue;
      }
      if (active.remaining !== null) active.remaining -= 1;
      active.fired += 1;
      return rule;
    }
    return null;
  }
}

function toMatcher(path: string): RegExp {
  if (path.startsWith("^")) return new RegExp(path);
  const escaped = path
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${escaped}$`);
}
