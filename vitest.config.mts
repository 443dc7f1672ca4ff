import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Forks, not threads: the Pulumi runtime and the dynamic-provider plugin keep process-wide state.
    pool: "forks",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
