/**
 * A provider outliving its engine (a SIGKILLed `pulumi up` leaves its plugins) could still write: each ends
 * soon after its parent or grandparent (the dynamic plugin is a `sh` script running node) is gone.
 */
import { readFileSync } from "node:fs";
import { perProcess } from "./config";

const watching = perProcess("watching-parent", () => false);

/** The parent of a process, from `/proc` (Linux); undefined where it cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** This process's parent and grandparent, as a string to compare. */
const ancestry = (): string => `${process.ppid}/${parentOf(process.ppid) ?? "?"}`;

/** Exits this process (code 1) soon after its parent or grandparent is gone. Idempotent. */
export function stopWithParent(intervalMs = 500): void {
  if (watching.get()) return;
  watching.set(true);
  const start = ancestry();
  setInterval(() => {
    if (ancestry() !== start) {
      process.stderr.write("pulumi-wpengine: the engine that started this provider is gone; exiting\n");
      process.exit(1);
    }
  }, intervalMs).unref();
}
