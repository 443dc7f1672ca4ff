/**
 * Declaring a resource leaves the stack limit empty while Pulumi registers it (its per-property debug
 * stacks were the largest cost of a declaration): the program's own limit is restored, and an error
 * thrown while registering still shows where the program declared the resource. That the recorded
 * source position is the program's line is checked under mocks (test/program/registrations.test.ts) and
 * on the real engine (test/cli/calls.test.ts).
 */
import { describe, expect, it } from "vitest";
import { Domain } from "../../provider/kinds/generated";

describe("registering a resource", () => {
  it("restores the program's stack limit and stack formatting and keeps the declaring frame in an error's stack", () => {
    const before = Error.stackTraceLimit;
    const format = Error.prepareStackTrace;
    const programs: typeof Error.prepareStackTrace = (err, frames) =>
      `${err}${frames.map((f) => `\n    at ${f}`).join("")}`;
    Error.stackTraceLimit = 17;
    Error.prepareStackTrace = programs;
    let thrown: unknown;
    try {
      // Pulumi refuses a missing name synchronously, while the limit is lowered.
      new Domain(undefined as unknown as string, { installId: "i", name: "a.example" });
    } catch (e) {
      thrown = e;
    } finally {
      expect(Error.stackTraceLimit).toBe(17);
      expect(Error.prepareStackTrace).toBe(programs);
      Error.stackTraceLimit = before;
      Error.prepareStackTrace = format;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/name/i);
    expect((thrown as Error).stack).toContain("resource-registration.test.ts");
  });
});
