import type { z } from "zod";
import { type ValidationIssue, WpEngineValidationError } from "./errors";

/** Formats a zod issue path as `domains[0].name`. */
export function formatIssuePath(segments: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const seg of segments) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

/** Converts zod issues to {@link ValidationIssue}s (unrecognized keys are reported one per key). */
export function toIssues(error: z.ZodError): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ path: formatIssuePath([...issue.path, key]), message: "unknown field" });
      }
    } else {
      issues.push({ path: formatIssuePath(issue.path), message: issue.message });
    }
  }
  return issues;
}

/**
 * Validates a request input against its strict schema before anything is sent; throws a
 * {@link WpEngineValidationError} naming the operation, each offending field and the reason.
 */
export function validateInput<S extends z.ZodType>(
  operation: string,
  schema: S,
  input: unknown,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new WpEngineValidationError(operation, toIssues(result.error));
  return result.data;
}
