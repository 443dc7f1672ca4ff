/**
 * One clean line per error in the dynamic-provider plugin. Pulumi's dynamic-provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) answers a failed `check`, `diff`, `read` or `delete` with the
 * error's message, which the CLI shows on the resource, and also writes `${err}: ${err.stack}` to its
 * stderr, which the CLI shows as a message of the stack: the message twice more, then a stack trace whose
 * source-mapped frames point at `.ts` files the package does not ship. The message is the user's; the
 * trace is ours. So that line, and only that line of an error this provider raised, is left out, unless
 * the plugin runs verbose (`pulumi up -v=9 --logflow`) or with `PULUMI_WPENGINE_DEBUG` set.
 */

/** The host's lines still to come for errors this plugin raised (each is printed once, then dropped). */
const pending = new Set<string>();
const INSTALLED = Symbol.for("pulumi-wpengine.quiet-host-traces");

/** Whether the plugin runs verbose: the engine passes `-v=N` to plugins with `--logflow`, or the variable is set. */
export function verbose(
  argv: readonly string[] = process.argv,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const flag = argv.some((a) => /^--?v(=[1-9]\d*)?$/.test(a));
  return flag || (env["PULUMI_WPENGINE_DEBUG"] ?? "") !== "";
}

/** The line the host writes for `err` (what it prints: `${e}: ${e.stack}`). */
export function hostLine(err: unknown): string {
  const e = err as { stack?: unknown };
  return `${err}: ${e?.stack}`;
}

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
