import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.mts";

/**
 * The tests `npm run mutate` runs against each mutant of sdk/core and provider/lifecycle.ts: the unit
 * tier (MockAgent) and the provider promises table (in-process providers against the simulator). The
 * engine tier (packs the package, starts the plugin) and the example programs are minutes per run.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      include: ["test/unit/**/*.test.ts", "test/provider/promises.test.ts"],
    },
  }),
);
