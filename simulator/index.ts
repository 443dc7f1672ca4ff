import type { AddressInfo } from "node:net";
import { setFaults, setSettings } from "./control";
import type { FaultRule } from "./faults";
import { buildServer } from "./server";
import { type LoggedRequest, Sim, type SimOptions, type SimSettings } from "./sim";

export type { FaultRule } from "./faults";
export { SEED } from "./seed";
export type { BulkShape, LoggedRequest, SimOptions, SimSettings } from "./sim";

/** Options of `startSimulator`. */
export interface StartOptions extends SimOptions {
  /** TCP port; 0 (the default) takes a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Do not print unexpected server errors. */
  quiet?: boolean;
  /** Milliseconds a request has to arrive whole before it is answered 408 (default 30 s). */
  requestTimeoutMs?: number;
  /** Let the process end while it listens (an embedded simulator: a program ends when its own work does). */
  unref?: boolean;
}

/** A simulator listening on loopback. The helpers run the same logic as the control API. */
export interface RunningSimulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Base URL of the hosting API: `url + "/v1"`. */
  apiUrl: string;
  /** Base URL of the application-hosting API (same origin; paths start with /v1 and /fu/v1). */
  appHostingUrl: string;
  port: number;
  /** Closes the server (and every open connection). */
  stop(): Promise<void>;
  /** Returns to the seeded world and clears the faults. */
  reset(): void;
  /** Moves the clock forward; returns the new simulated time (ISO 8601). */
  advance(seconds: number): string;
  /** Publishes a TXT record to the simulator's DNS. */
  publishTxt(name: string, value: string): void;
  /** Replaces the injected faults. */
  setFaults(rules: FaultRule[]): void;
  /** Changes the rate limit (`"20/s"`, null for none) or the bulk answer's shape; answers the settings. */
  configure(settings: Partial<SimSettings>): SimSettings;
  /** The log of requests served on /v1 and /fu/v1, oldest first. */
  requests(): LoggedRequest[];
  /** Empties the request log. */
  clearRequests(): void;
  /** Resolves with the first logged request matching (already logged or to come). */
  served(match: (r: LoggedRequest) => boolean): Promise<LoggedRequest>;
}

/** Starts a simulator of both APIs; resolves once it listens. */
export async function startSimulator(options: StartOptions = {}): Promise<RunningSimulator> {
  const sim = new Sim(options);
  const app = await buildServer(sim, {
    quiet: options.quiet ?? false,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port ?? 0, host });
  if (options.unref) {
    app.server.unref();
    // Idle keep-alive connections too: a request in flight holds the process through its client's socket.
    app.server.on("connection", (socket) => socket.unref());
  }
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    apiUrl: `${url}/v1`,
    appHostingUrl: url,
    port,
    stop: async () => {
      await app.close();
      sim.store.close();
    },
    reset: () => sim.reset(),
    advance: (seconds) => sim.advance(seconds),
    publishTxt: (name, value) => sim.publishTxt(name, value),
    setFaults: (rules) => setFaults(sim, { rules }),
    configure: (settings) => setSettings(sim, settings),
    requests: () => sim.requests(),
    clearRequests: () => sim.clearRequests(),
    served: (match) => sim.served(match),
  };
}
