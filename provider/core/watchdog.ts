/**
 * A provider outliving its engine (a SIGKILLed `pulumi up` leaves its plugins) could still write: each ends
 * soon after its parent or grandparent (the dynamic plugin is a `sh` script running node) is gone.
 */
import { readFileSync } from "node:fs";
import { perProcess } from "../../sdk/core/process";

const watching = perProcess("watching-parent", () => false);

/** A process's command name and parent, from `/proc` (Linux); undefined where it cannot be read. */
export function procStat(pid: number): { name: string; parent: number; startedAt: number } | undefined {
  try {
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const end = stat.lastIndexOf(")");
    const fields = stat.slice(end + 2).split(" ");
    // Its start (field 22, in clock ticks of 10 ms after boot) as epoch milliseconds, to about 20 ms.
    const boot = Date.now() - Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
    const name = stat.slice(stat.indexOf("(") + 1, end);
    return { name, parent: Number(fields[1]), startedAt: boot + Number(fields[19]) * 10 };
  } catch {
    return undefined;
  }
}

/** This process's parent and grandparent, as a string to compare. */
const ancestry = (): string => `${process.ppid}/${procStat(process.ppid)?.parent ?? "?"}`;

/** Exits this process (code 1) soon after its parent or grandparent is gone. Idempotent. */
export function stopWithParent(): void {
  if (watching.get()) return;
  watching.set(true);
  const start = ancestry();
  setInterval(() => {
    if (ancestry() !== start) {
      process.stderr.write("pulumi-wpengine: the engine that started this provider is gone; exiting\n");
      process.exit(1);
    }
  }, 500).unref();
}
