import { afterAll, beforeAll, beforeEach, vi } from "vitest";
import { type RunningSimulator, SEED, type StartOptions, startSimulator } from "../../simulator";

/** Credentials of a seeded user, by key of SEED.users. */
export type UserKey = keyof typeof SEED.users;

/** One answer over HTTP. */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field.
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends a request to the simulator over loopback as a seeded user (demo by default, `null` for none). */
// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field.
export async function call<T = any>(
  sim: RunningSimulator,
  method: string,
  path: string,
  body?: unknown,
  options: { user?: UserKey | null; headers?: Record<string, string>; raw?: RequestInit["body"] } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const user = options.user === undefined ? "demo" : options.user;
  if (user) {
    const u = SEED.users[user];
    headers["authorization"] = `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`;
  }
  let payload: RequestInit["body"] | undefined = options.raw;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${sim.url}${path}`, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Starts one simulator for the file and resets it to the seeded world before each test. */
export function useSimulator(options: StartOptions = {}): () => RunningSimulator {
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ quiet: true, ...options });
  });
  afterAll(async () => {
    await sim?.stop();
  });
  beforeEach(() => {
    sim?.reset();
    sim?.clearRequests();
  });
  return () => {
    if (!sim) throw new Error("simulator not started");
    return sim;
  };
}

/**
 * Lets `ms` of real time pass for the simulator's clock at once (it measures elapsed real time with
 * `performance.now`), instead of sleeping; returns the undo.
 */
export function realTimePasses(ms: number): () => void {
  const now = performance.now.bind(performance);
  const spy = vi.spyOn(performance, "now").mockImplementation(() => now() + ms);
  return () => spy.mockRestore();
}

export { SEED };
