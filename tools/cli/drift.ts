/**
 * What a user sees as drift in the text of `pulumi preview --refresh` or `pulumi refresh`: a `[diff: ...]`
 * on a resource's line, or a `~` line of anything but the refresh itself (`~ <type> <name> refreshing` and
 * `refresh` are the progress lines every resource gets, drift or not, a diagnostic sometimes after them; `~ 1 to update` is a summary).
 */
import { stripVTControlCharacters } from "node:util";
import type { JsonPreview, JsonStep } from "./project";

export function driftLines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => stripVTControlCharacters(l))
    .filter((l) => /\[diff:/.test(l) || (/^\s*~ /.test(l) && !/^\s*~\s+\S+\s+\S+\s+refresh(ing)?\b/.test(l)));
}

/** What a `--json` plan does to each resource it changes, by name: `update <the inputs it changes>`, or the op. */
export function plannedChanges(plan: JsonPreview): Record<string, string> {
  const inputsChanged = (s: JsonStep) => {
    const [a, b] = [s.oldState?.inputs ?? {}, s.newState?.inputs ?? {}];
    return (
      [...new Set([...Object.keys(a), ...Object.keys(b)])]
        // The dynamic provider's plumbing: the serialized provider.
        .filter((k) => k !== "__provider" && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
        .sort()
        .join(",")
    );
  };
  return Object.fromEntries(
    plan.steps
      .filter((s) => !["same", "refresh"].includes(s.op))
      .map((s) => [s.urn.split("::").at(-1), s.op === "update" ? `update ${inputsChanged(s)}` : s.op]),
  );
}
