/** `pulumi-wpengine recover [--stack NAME]`: the way back after a `pulumi up` was killed mid-apply (docs/recover.md). */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { append, identityFields, journalDir, type RecoveryPlan, readJournal } from "../provider/core/journal";
import { KINDS } from "../provider/registry";
import { alive } from "../sdk/core/process";
import {
  adoptions,
  emptySidecars,
  fileBackendRoot,
  findLocks,
  type Lock,
  namesIn,
  pendingCreates,
  repairSidecars,
  unsettled,
} from "./plan";

export const USAGE = `usage: pulumi-wpengine recover [--stack NAME] [--force]

After a \`pulumi up\` was killed mid-apply (a cancelled CI job, a crash), in the project's directory:
refuses while a pulumi process still holds the stack; otherwise deletes the empty .attrs sidecar a kill
can leave beside a file backend's state ("failed to load checkpoint: EOF"), cancels the stack's lock,
clears the pending creates, and runs \`pulumi up\` adopting exactly the objects whose creates the killed run began
(the state's pending operations and the create journal .wpengine/journal.jsonl), listing each with its id.
Anything else that already exists is refused, not adopted. See docs/recover.md.

  --stack NAME   the stack (default: the selected stack)
  --force        the lock names a process on another host: you have made sure it no longer runs
`;

type Ran = { code: number; stdout: string; stderr: string };
type RunOptions = { env?: NodeJS.ProcessEnv; show?: boolean };

/** Runs `pulumi`; `show` streams its output to the user as it comes. */
function pulumi(args: string[], opts: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = { stdout: "", stderr: "" };
    for (const stream of ["stdout", "stderr"] as const)
      child[stream].on("data", (b: Buffer) => {
        out[stream] += b;
        if (opts.show) process[stream].write(b);
      });
    child.on("error", (err) => reject(new Error(`cannot run pulumi: ${err.message}`)));
    child.on("close", (code) => resolve({ code: code ?? 1, ...out }));
  });
}

/** Runs `pulumi`, throwing with the end of its output when it fails. */
async function must(args: string[], opts: RunOptions = {}): Promise<Ran> {
  const r = await pulumi(args, opts);
  if (r.code !== 0)
    throw new Error(
      `pulumi ${args.join(" ")} exited ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ")}`,
    );
  return r;
}

/** What a live process is, for a message: `pid 123 (pulumi up --yes)`. */
export function describeProcess(pid: number): string {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return `pid ${pid} (${cmd || "?"})`;
  } catch {
    return `pid ${pid}`;
  }
}

/** The `pulumi` processes on this host working in `dir` (Linux: `/proc`), whatever the backend. */
export function pulumisIn(dir: string): number[] {
  const real = fs.realpathSync(dir);
  const found: number[] = [];
  for (const name of namesIn("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "pulumi") continue;
      if (/^\d+ \(.*\) Z /.test(stat)) continue; // a zombie
      if (fs.realpathSync(`/proc/${name}/cwd`) === real) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Why the stack must not be recovered now (a run still holds it), or `undefined`. */
export function holderOf(
  locks: Lock[],
  local: number[],
  force: boolean,
  host = os.hostname(),
): string | undefined {
  for (const lock of locks) {
    const since = lock.timestamp ? ` since ${lock.timestamp}` : "";
    if (lock.hostname === host && alive(lock.pid))
      return `a pulumi process still holds the stack: ${describeProcess(lock.pid)}${since}, lock ${lock.file}. Let it finish, or end it (kill ${lock.pid}), then run pulumi-wpengine recover again`;
    if (lock.hostname !== host && !force)
      return `the stack's lock names pid ${lock.pid} on host ${lock.hostname}${since}, which this host cannot see. Make sure that run has ended, then run pulumi-wpengine recover --force`;
  }
  if (local.length)
    return `a pulumi process is still running in this project: ${local.map(describeProcess).join(", ")}. Let it finish, or end it, then run pulumi-wpengine recover again`;
  return undefined;
}

function projectName(dir: string): string {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    try {
      const m = /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readFileSync(path.join(dir, file), "utf8"));
      if (m) return m[1]!;
    } catch {
      // try the next
    }
  }
  throw new Error("no Pulumi.yaml here: run pulumi-wpengine recover in the project's directory");
}

/**
 * The selected stack. When pulumi cannot name it because the killed run left its state's sidecar empty
 * ("failed to load checkpoint: EOF"), the one stack of the project with an empty sidecar is it.
 */
async function selectedStack(root: string | undefined, project: string): Promise<string> {
  const shown = await pulumi(["stack", "--show-name"]);
  if (shown.code === 0) return shown.stdout.trim();
  const why = (shown.stderr || shown.stdout).trim().split("\n").pop() ?? "";
  const broken = root && /failed to load checkpoint/.test(why) ? emptySidecars(root, project) : [];
  const stacks = [...new Set(broken.map((s) => s.stack))];
  if (stacks.length === 1) return stacks[0]!;
  throw new Error(
    `pulumi stack --show-name exited ${shown.code}: ${why}. Name the stack: pulumi-wpengine recover --stack NAME`,
  );
}

const say = (line: string) => process.stdout.write(`pulumi-wpengine recover: ${line}\n`);

export async function recover(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      stack: { type: "string", short: "s" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const dir = process.cwd();
  const project = projectName(dir);
  const backend =
    process.env["PULUMI_BACKEND_URL"] ||
    ((JSON.parse((await must(["whoami", "--json"])).stdout) as { url?: string }).url ?? "");
  const root = fileBackendRoot(backend);
  const stack = values.stack ?? (await selectedStack(root, project));
  const on = ["--stack", stack];

  const locks = root ? findLocks(root, project, stack) : [];
  const holder = holderOf(locks, pulumisIn(dir), values.force === true);
  if (holder) {
    process.stderr.write(`pulumi-wpengine recover: ${holder}\n`);
    return 1;
  }
  for (const file of root ? repairSidecars(root, project, stack) : [])
    say(
      `deleted the empty ${file} the killed run left beside the state (the state is whole; pulumi failed on it with "failed to load checkpoint: EOF")`,
    );
  if (!root)
    say(
      `backend ${backend.replace(/\/\/[^@/]*@/, "//")} keeps its lock out of sight: only pulumi processes of this host in this directory were looked for`,
    );

  const pendingNow = async () => pendingCreates(JSON.parse((await must(["stack", "export", ...on])).stdout));
  const pending = await pendingNow();
  const journal = readJournal(journalDir(dir));
  const lines = unsettled(journal, stack);
  const fieldsOf = (kind: string) => (KINDS[kind] ? identityFields(KINDS[kind]) : undefined);
  const { adopt, refused } = adoptions(pending, lines, fieldsOf, journal.length > 0);
  const lock = locks[0];
  const runs = new Set(lines.map((e) => `pid ${e.run} on ${e.host}`));
  say(
    `stack ${stack}: ${lock ? `the killed run was pid ${lock.pid} on ${lock.hostname} (its lock)` : "no lock"}; ` +
      `${pending.length} pending create(s) in the state; the create journal holds ${lines.length} line(s) of ${runs.size} run(s) since the last recovery`,
  );
  if (!pending.length)
    say(
      "no pending operation is recorded (checkpoints skipped, PULUMI_SKIP_CHECKPOINTS, or a run killed before its first create): " +
        "adopting by natural key only what the journal says this stack's runs began",
    );
  for (const r of refused)
    say(`not adopted: ${r} (the killed run's create of it was refused: not its object)`);

  if (lock) await must(["cancel", "--yes", ...on], { show: true });
  if (pending.length)
    await must(["refresh", "--yes", "--skip-preview", "--clear-pending-creates", ...on], { show: true });

  const token = randomUUID();
  const planFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wpe-recover-")), "plan.json");
  const plan: RecoveryPlan = {
    token,
    adopt: adopt.map(({ kind, key, id }) => ({ kind, key, ...(id ? { id } : {}) })),
  };
  fs.writeFileSync(planFile, JSON.stringify(plan), { mode: 0o600 });
  let up: Ran;
  try {
    up = await pulumi(["up", "--yes", "--skip-preview", ...on], {
      env: { WPE_RECOVER_PLAN: planFile },
      show: true,
    });
  } finally {
    fs.rmSync(path.dirname(planFile), { recursive: true, force: true });
  }
  const recovered = readJournal(journalDir(dir)).filter(
    (e) => e.step === "recovered" && e.recovery === token,
  );
  say(`adopted ${recovered.length} object(s) the killed run created${recovered.length ? ":" : ""}`);
  for (const e of recovered)
    process.stdout.write(`  ${e.kind} ${Object.values(e.key).join(" ")}: id ${e.id}\n`);
  if (up.code !== 0) {
    process.stderr.write(
      `pulumi-wpengine recover: the pulumi up exited ${up.code} (above); what it adopted stays in the state. ` +
        'A create refused as "already exists" that the killed run did not make is another\'s object: remove or rename that resource, or take it over with adopt: true\n',
    );
    return 1;
  }
  const left = (await pendingNow()).length;
  const t = new Date().toISOString();
  append(
    { t, run: process.pid, host: os.hostname(), stack, step: "cleared", kind: "", key: {} },
    journalDir(dir),
  );
  say(`stack ${stack}: ${left} pending operation(s) left`);
  return 0;
}

export async function main(argv: string[] = process.argv.slice(3)): Promise<number> {
  try {
    return await recover(argv);
  } catch (err) {
    process.stderr.write(`pulumi-wpengine recover: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof TypeError && /parseArgs|option/i.test(String(err)) ? 2 : 1;
  }
}
