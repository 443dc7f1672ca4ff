/**
 * Shared test fixture: a simulator on a free loopback port, and the provider configured to talk to it
 * through the same path a stack uses (the `wpengine:*` config that `configure` receives).
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { resetClient } from "../../provider/core/client";
import { clearStackConfig, setStackConfig } from "../../provider/core/config";
import { PACING_CLOCK, resetPacing } from "../../provider/core/pacing";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, startSimulator } from "../../simulator";

export interface SimulatorFixture {
  /** The running simulator (valid inside tests). */
  readonly sim: RunningSimulator;
  /** A new SDK client of the simulator with the demo credentials (for setting up and checking the world). */
  client(): WpEngineClient;
  /** Runs a provider call while the simulator's clock moves on, so its waits end without sleeping. */
  advancing<T>(work: Promise<T>): Promise<T>;
}

/** A CLI stack's `wpengine:*` config for a simulator as the demo user (its password goes in as a secret). */
export const demoConfig = (sim: RunningSimulator): Record<string, string> => ({
  "wpengine:apiUrl": sim.apiUrl,
  "wpengine:appHostingUrl": sim.appHostingUrl,
  "wpengine:username": "demo",
});

/** Points the provider's stack config at a simulator with the demo credentials (and drops cached clients). */
export function useProviderConfig(sim: RunningSimulator): void {
  const config: Record<string, string> = {
    "wpengine:username": "demo",
    "wpengine:password": "demo",
    "wpengine:apiUrl": sim.apiUrl,
    "wpengine:appHostingUrl": sim.appHostingUrl,
  };
  setStackConfig((key) => config[key]);
  resetClient();
}

/**
 * Starts one simulator for the test file, resets its world before each test, and points the provider's
 * stack config at it with the demo credentials.
 */
export function useSimulator(opts: { resetEach?: boolean } = {}): SimulatorFixture {
  const fixture = {
    client: () =>
      new WpEngineClient({
        username: "demo",
        password: "demo",
        apiUrl: fixture.sim.apiUrl,
        appHostingUrl: fixture.sim.appHostingUrl,
      }),
    advancing: async <T>(work: Promise<T>): Promise<T> => {
      const timer = setInterval(() => fixture.sim.advance(5), 20);
      try {
        return await work;
      } finally {
        clearInterval(timer);
      }
    },
  } as SimulatorFixture & { sim: RunningSimulator };
  beforeAll(async () => {
    fixture.sim = await startSimulator({ port: 0, quiet: true });
    useProviderConfig(fixture.sim);
  });
  if (opts.resetEach !== false) {
    beforeEach(async () => {
      await fixture.sim.reset();
    });
  }
  afterAll(async () => {
    clearStackConfig();
    resetClient();
    await fixture.sim?.stop();
  });
  return fixture;
}

/**
 * Runs the provider's rate-limit waits (`provider/pacing.ts`) on the simulator's clock for the file: a wait
 * of N ms moves the simulator's clock N ms forward instead of sleeping, and each test starts with no
 * recorded use. Returns the milliseconds waited so far in the current test.
 */
export function usePacingOnSimulatorClock(fixture: SimulatorFixture): () => number {
  let waited = 0;
  const real = { ...PACING_CLOCK };
  beforeEach(() => {
    resetPacing();
    waited = 0;
    PACING_CLOCK.now = () => Date.parse(fixture.sim.advance(0));
    PACING_CLOCK.sleep = async (ms) => {
      waited += ms;
      fixture.sim.advance(ms / 1000);
    };
  });
  afterEach(() => {
    Object.assign(PACING_CLOCK, real);
    resetPacing();
  });
  return () => waited;
}
