/**
 * What a user sees as drift in the text of `pulumi preview --refresh` or `pulumi refresh`: a `[diff: ...]`
 * on a resource's line, or a `~` line of anything but the refresh itself (`~ <type> <name> refreshing` and
 * `refresh` are the progress lines every resource gets, drift or not, a diagnostic sometimes after them; `~ 1 to update` is a summary).
 */
import { stripVTControlCharacters } from "node:util";

export function driftLines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => stripVTControlCharacters(l))
    .filter((l) => /\[diff:/.test(l) || (/^\s*~ /.test(l) && !/^\s*~\s+\S+\s+\S+\s+refresh(ing)?\b/.test(l)));
}
