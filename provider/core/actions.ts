/** What the action resources share (`BackupRestore`, `InstallCopy`: an action, not an object). */
import { getClient } from "./client";
import type { KindProvider } from "./define";
import { explainError } from "./errors";
import { containsUnknown, normalizeEmails, type Props } from "./inputs";
import { type Context, contextOf, differs, toPlain, withStep } from "./lifecycle";

/** A value as a summary shows it: unknown values during preview read "(known after apply)". */
export function shown(value: unknown): string {
  if (containsUnknown(value)) return "(known after apply)";
  if (Array.isArray(value)) return value.length ? value.map(shown).join(", ") : "(none)";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === undefined || value === null) return "(none)";
  return String(value);
}

/** Canonical form of an action input for comparison (emails and triggers as given, `undefined` as null). */
export function normalizeActionInput(key: string, value: unknown): unknown {
  if (key === "notificationEmails") return normalizeEmails(value);
  if (key === "dbTables" && Array.isArray(value)) return [...value].sort();
  return value === undefined ? null : value;
}

/** The inputs among `keys` whose value differs between old outputs and new inputs (normalised). */
export function changedActionInputs(olds: Props, news: Props, keys: readonly string[]): string[] {
  return keys.filter((k) => containsUnknown(news[k]) || differs(normalizeActionInput, k, olds[k], news[k]));
}

/**
 * The read of what the service keeps no record of (an action, a sharing link): the recorded outputs stand
 * until `parent`, the object it acted on, is gone (its 404 reads as gone).
 */
export const goneWithParent =
  (parent: (ctx: Context) => Promise<unknown>) =>
  async <O>(_id: string, olds: O, ctx: Context) => {
    await parent(ctx);
    return { outs: olds };
  };

/** The action ran (the service accepted it) but a later step failed: the state must still record the run. */
export class ActionRanButFailedError extends Error {
  constructor(
    readonly outs: Props,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = "ActionRanButFailedError";
  }
}

/** An action's provider: `check` adds the `summary`; `update` records a run whose wait failed (no rerun). */
export function actionProvider<P extends KindProvider>(
  base: P,
  summarize: (inputs: Props) => string,
  update: (id: string, olds: Props, news: Props, ctx: Context) => Promise<Props>,
): P {
  const kind = base.definition.kind;
  return {
    ...base,
    async check(olds: Props, news: Props) {
      const { summary: _ignored, ...given } = news;
      const result = await base.check!(olds, given);
      if (result.failures?.length) return result;
      return { inputs: { ...result.inputs, summary: summarize(result.inputs) } };
    },
    async update(id: string, olds: Props, news: Props) {
      const { __provider, ...inputs } = news;
      try {
        const outs = await update(id, olds, inputs, contextOf(base.definition, await getClient(), inputs));
        return { outs: toPlain({ ...inputs, ...outs }) };
      } catch (err) {
        if (!(err instanceof ActionRanButFailedError))
          throw explainError(kind, "update", withStep(base.definition, inputs, err));
        // The engine records `properties` with the failure (a partial update), exactly as for create.
        const failure = explainError(kind, "update", err.reason);
        Object.assign(failure, { id, properties: { ...toPlain({ ...inputs, ...err.outs }), __provider } });
        throw failure;
      }
    },
  };
}
