/** What the action resources share (`BackupRestore`, `InstallCopy`: an action, not an object). */
import { z } from "zod";
import { containsUnknown, normalizeEmails, type Props } from "./inputs";
import { type Checked, type Context, differs } from "./lifecycle";

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

/** The read of what the service keeps no record of (an action): the outputs stand until `parent` is gone. */
export const goneWithParent =
  (parent: (ctx: Context) => Promise<unknown>) =>
  async <O>(_id: string, olds: O, ctx: Context) =>
    parent(ctx).then(() => ({ outs: olds }));

/** The `summary` input {@link withSummary} computes: what `what` (`the copy`) does. */
export function summaryInput(what: string) {
  const description = `Computed by \`check\`: what ${what} does, in words (also shown by \`pulumi preview\`); any given value is replaced.`;
  return z.string().optional().meta({ description, setting: true });
}

/** An action's end of check: adds the `summary`, in words, replacing any value given. */
export function withSummary(summarize: (inputs: Props) => string) {
  return (checked: Checked): Checked =>
    checked.failures?.length
      ? checked
      : { inputs: { ...checked.inputs, summary: summarize(checked.inputs) } };
}
