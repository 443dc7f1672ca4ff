import { defineConfig } from "vitest/config";

/**
 * The tests `npm run mutate` runs against each mutant of sdk/core and provider/core/lifecycle.ts: the unit
 * tier only (MockAgent and direct calls, milliseconds a test). The provider tier against the simulator
 * covers every transport mutant with seconds of tests each, which would make a run take hours.
 */
export default defineConfig({
  test: {
    pool: "forks",
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
