/**
 * One clean line per error in the dynamic-provider plugin. Pulumi's dynamic-provider host answers a failed
 * `check`, `diff`, `read` or `delete` with the error's message (shown on the resource) and also writes
 * `${err}: ${err.stack}` to stderr (shown for the stack: the message twice more and a trace into `.ts` files
 * the package does not ship). That line of an error this provider raised is left out, unless the plugin
 * runs verbose (`pulumi up -v=9 --logflow`) or with `PULUMI_WPENGINE_DEBUG` set.
 */

/** The host's lines still to come for errors this plugin raised (each is printed once, then dropped). */
const pending = new Set<string>();
const INSTALLED = Symbol.for("pulumi-wpengine.quiet-host-traces");

/** Whether the plugin runs verbose: the engine passes `-v=N` to plugins with `--logflow`, or the variable is set. */
export function verbose(argv: readonly string[] = process.argv, env = process.env): boolean {
  return argv.some((a) => /^--?v(=[1-9]\d*)?$/.test(a)) || (env["PULUMI_WPENGINE_DEBUG"] ?? "") !== "";
}

/** The line the host writes for `err` (what it prints: `${e}: ${e.stack}`). */
export const hostLine = (err: unknown): string => `${err}: ${(err as { stack?: unknown })?.stack}`;

/**
 * Marks `err`, about to be thrown to the host, so the host's own trace of it is not printed. Installs,
 * once per process, a `console.error` that drops exactly the marked lines and passes everything else on.
 */
export function quietHostTrace(err: unknown): void {
  if (verbose()) return;
  const holder = globalThis as { [INSTALLED]?: boolean };
  if (!holder[INSTALLED]) {
    holder[INSTALLED] = true;
    const original = console.error.bind(console);
    console.error = (...args: unknown[]) => {
      if (args.length === 1 && typeof args[0] === "string" && pending.delete(args[0])) return;
      original(...args);
    };
  }
  pending.add(hostLine(err));
}
