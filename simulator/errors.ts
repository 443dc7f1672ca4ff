import type { ZodError } from "zod";

/** One entry of the `errors[]` array of spec section 7. */
export interface ResourceError {
  resource: string;
  field?: string;
  type?: "invalid_value" | "access_error" | "value_unavailable";
  code?: string;
  message?: string;
}

/** An error answered with the body of spec section 7: `{message, errors?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ResourceError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  /** The JSON body sent to the client. */
  body(): { message: string; errors?: ResourceError[] } {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

/** 400 Bad Request naming the resource and field. */
export function badRequest(
  resource: string,
  field: string | undefined,
  message: string,
  code?: string,
  type: ResourceError["type"] = "invalid_value",
): ApiError {
  return new ApiError(400, message, [errorEntry(resource, field, message, code, type)]);
}

/** 409 Conflict naming the resource and field. */
export function conflict(
  resource: string,
  field: string | undefined,
  message: string,
  code: string,
): ApiError {
  return new ApiError(409, message, [errorEntry(resource, field, message, code, "value_unavailable")]);
}

/** 422 Unprocessable Entity naming the resource and field. */
export function unprocessable(
  resource: string,
  field: string | undefined,
  message: string,
  code: string,
): ApiError {
  return new ApiError(422, message, [errorEntry(resource, field, message, code, "invalid_value")]);
}

/** 404 for an unknown id. */
export function notFound(what = "Resource"): ApiError {
  return new ApiError(404, `${what} not found`);
}

/** 403 when the caller lacks the role the operation needs. */
export function forbidden(message = "You don't have permission to perform that action"): ApiError {
  return new ApiError(403, message);
}

function errorEntry(
  resource: string,
  field: string | undefined,
  message: string,
  code: string | undefined,
  type: ResourceError["type"],
): ResourceError {
  const e: ResourceError = { resource };
  if (field !== undefined) e.field = field;
  e.type = type;
  if (code !== undefined) e.code = code;
  e.message = message;
  return e;
}

/**
 * Turns a zod failure into a 400 whose `errors[]` names every offending field. `invalidStatus` is the
 * status of a body whose fields are all present and known but hold values that fail validation (site
 * transfers answer those 422); a missing or unknown field stays a malformed request, 400.
 */
export function fromZod(resource: string, error: ZodError, invalidStatus = 400): ApiError {
  const errors: ResourceError[] = error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => {
        const field = [...issue.path.map(String), key].join(".");
        return errorEntry(resource, field, `${field} is not a known field`, "unknown_field", "invalid_value");
      });
    }
    const field = issue.path.map(String).join(".");
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    const message = missing ? `${field} is required` : `${field || "body"}: ${issue.message}`;
    return errorEntry(
      resource,
      field || undefined,
      message,
      missing ? "required" : issue.code,
      "invalid_value",
    );
  });
  const first = errors[0]?.message ?? "Invalid request";
  const malformed = errors.some((e) => e.code === "required" || e.code === "unknown_field");
  return new ApiError(malformed ? 400 : invalidStatus, `Invalid ${resource}: ${first}`, errors);
}
