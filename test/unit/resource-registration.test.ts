/**
 * Declaring a resource leaves the stack limit empty while Pulumi registers it (its per-property debug
 * stacks were the largest cost of a declaration): the program's own limit is restored, and an error
 * thrown while registering still shows where the program declared the resource. That the recorded
 * source position is the program's line is checked under mocks (test/program/registrations.test.ts) and
 * on the real engine (test/cli/calls.test.ts).
 */
import { describe, expect, it, vi } from "vitest";
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

describe("a secret setting the stack config holds in clear text", () => {
  const warned = Symbol.for("pulumi-wpengine.clear-secrets-warned");
  const declare = async (secretKeys: string[]) => {
    const pulumi = await import("@pulumi/pulumi");
    pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      "p",
      "dev",
      true,
    );
    pulumi.runtime.setAllConfig({ "wpengine:password": "pw", "wpengine:username": "u" }, secretKeys);
    delete (globalThis as Record<symbol, unknown>)[warned];
    const warn = vi.spyOn(pulumi.log, "warn").mockImplementation(async () => {});
    try {
      new Domain("a", { installId: "i", name: "a.example" });
      new Domain("b", { installId: "i", name: "b.example" });
      return warn.mock.calls.map((c) => c[0]);
    } finally {
      warn.mockRestore();
    }
  };

  it("is said once at preview, with the command that stores it as a secret; a secret one is not", async () => {
    expect(await declare([])).toEqual([
      "wpengine:password is not a secret: the stack's config file and the state hold it in clear text; set it with `pulumi config set --secret wpengine:password <value>`",
    ]);
    expect(await declare(["wpengine:password"])).toEqual([]);
  });
});
