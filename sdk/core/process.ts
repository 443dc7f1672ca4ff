import { basename } from "node:path";

/**
 * One value per process, on `globalThis` under `pulumi-wpengine.<name>`: a checkout and an installed copy of
 * the package in one process must share it. `get` makes it with `init` when there is none.
 */
export function perProcess<T>(name: string, init: () => T) {
  const key = Symbol.for(`pulumi-wpengine.${name}`);
  const holder = globalThis as Record<symbol, T | undefined>;
  return {
    get: (): T => (holder[key] ??= init()),
    set(value: T) {
      holder[key] = value;
    },
    clear: () => void delete holder[key],
  };
}

/** Whether process `pid` runs (one of another user counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether this process is the self-contained plugin (a Node single executable application). */
export function isSea(): boolean {
  try {
    return (require("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}

/**
 * The package's command as its usage lines and messages name it: `pulumi-wpengine`, or from the
 * self-contained plugin (no npm, docs/languages.md) that executable's name.
 */
export const PROGRAM = isSea() ? basename(process.execPath) : "pulumi-wpengine";

/** An error's message for a line that names its command: the provider's own `wpengine: ` prefix dropped. */
export const reasonOf = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).replace(/^wpengine: /, "");
