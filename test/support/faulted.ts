/**
 * What the CLI tier's simulator runs (test/cli/lost.test.ts, ownership.test.ts, calls.test.ts) share: a Node.js
 * project on the simulator, the program's objects as the simulator holds them, and the provider's lines.
 */
import type { RunningSimulator } from "../../simulator";
import { CliProject } from "../../tools/cli/project";

/** How many times the provider said a line matching `re` (each once in the CLI's diagnostics summary). */
export const said = (text: string, re: RegExp) =>
  text.split("\n").filter((l) => /^\s+wpengine:/.test(l) && re.test(l)).length;

/** Where a faulted program puts its objects: domains named `*<suffix>` on `install`, a user `email` of `account`. */
export interface Placement {
  install: string;
  account: string;
  email: string;
  suffix: string;
}

/** What the program's objects are on the service: domain names and ids, users, the exclusion list. */
export async function onService(sim: RunningSimulator, at: Placement) {
  const world = (await (await fetch(`${sim.url}/__sim/state`)).json()) as {
    domains: Record<string, { id: string; name: string; install_id: string }>;
    account_users: { user_id: string; account_id: string; email: string }[];
    cache_exclusions: Record<string, { value: string }[]>;
  };
  const domains = Object.values(world.domains).filter(
    (d) => d.install_id === at.install && d.name.endsWith(at.suffix),
  );
  const users = world.account_users.filter((u) => u.account_id === at.account && u.email === at.email);
  return { domains, users, exclusions: world.cache_exclusions[at.install] ?? [] };
}

/**
 * A Node.js project (`index.js` = `program`) whose provider talks to `sim` as the seeded API user, with
 * `config` beside (a faulted run sets `wpengine:maxRetries` for its fault rate).
 */
export function simulatorProject(
  sim: RunningSimulator,
  name: string,
  program: string,
  config: Record<string, string> = {},
): Promise<CliProject> {
  return CliProject.create({
    files: { "index.js": program, "package.json": `{ "name": "${name}", "main": "index.js" }\n` },
    name,
    config: {
      "wpengine:apiUrl": sim.apiUrl,
      "wpengine:appHostingUrl": sim.appHostingUrl,
      "wpengine:username": "demo",
      ...config,
    },
    secrets: { "wpengine:password": "demo" },
  });
}
