import { describe, expect, it } from "vitest";
import { path, pollUntil, WpEngineValidationError, WpEngineWaitTimeoutError } from "../../sdk";

function fakeClock() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

describe("pollUntil", () => {
  it("returns the value once the check reports done", async () => {
    const clock = fakeClock();
    let n = 0;
    const value = await pollUntil({
      deadlineMs: 60_000,
      intervalMs: 1_000,
      describe: "the build to finish",
      check: () => (++n === 3 ? { done: true, value: "SUCCEEDED" } : { done: false, state: "BUILDING" }),
      ...clock,
    });
    expect(value).toBe("SUCCEEDED");
    expect(clock.sleeps).toEqual([1_000, 1_500]);
  });

  it("grows the interval up to the cap and never sleeps past the deadline", async () => {
    const clock = fakeClock();
    const err = await pollUntil({
      deadlineMs: 10_000,
      intervalMs: 1_000,
      maxIntervalMs: 2_000,
      describe: "environment prod to stop reconciling",
      check: () => ({ done: false, state: "reconciling" }),
      ...clock,
    }).catch((e: unknown) => e);
    expect(clock.sleeps.every((ms) => ms <= 2_000)).toBe(true);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(err).toBeInstanceOf(WpEngineWaitTimeoutError);
    expect((err as Error).message).toBe(
      "timed out after 10000 ms waiting for environment prod to stop reconciling (last state: reconciling)",
    );
  });

  it("lets an error of the check end the wait", async () => {
    await expect(
      pollUntil({
        deadlineMs: 1_000,
        intervalMs: 10,
        describe: "x",
        check: () => {
          throw new Error("gone");
        },
      }),
    ).rejects.toThrow("gone");
  });
});

describe("path", () => {
  it("encodes every parameter", () => {
    expect(path`/installs/${"a b/c"}/domains/${"x?y#z"}`).toBe("/installs/a%20b%2Fc/domains/x%3Fy%23z");
  });

  it("refuses empty, non-string and dot-segment parameters", () => {
    expect(() => path`/installs/${""}`).toThrow(WpEngineValidationError);
    expect(() => path`/installs/${undefined}`).toThrow(WpEngineValidationError);
    expect(() => path`/installs/${"."}`).toThrow(/not a valid identifier/);
  });
});
