/**
 * `pulumi-wpengine import`: everything the credentials can see (or what the selection names), written as
 * a ready Pulumi project. Discovery lists (`discover.ts`), each kind's own `read` gives the inputs
 * (`model.ts`), the files are rendered (`render.ts`) into a temporary directory beside `--out` and moved
 * into place only when complete: a service that fails midway leaves nothing half-written.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { homeOf, type PackageJson } from "../provider/executable/home";
import { isSea, PROGRAM } from "../sdk/core/process";
import { sharedWorldFile } from "../simulator/home";
import { type ReadOnlyClient, readOnlyClient } from "./client";
import { type Connection, connect, connectionConfig, refusedCredentials } from "./connect";
import { discover, holders, type Selection, type Shown, shares, visible, type World } from "./discover";
import { type Held, type HeldCheck, heldByStacks, heldKeys, stacksText } from "./held";
import { COVERED, importIdOf } from "./kinds";
import { addressOf, buildModel, type Model, readAll, slug } from "./model";
import { type Language, PLUGIN_FILE, renderProject, shellWord } from "./render";

export { COVERED, LEFT_OUT } from "./kinds";

export interface ImportOptions extends Selection {
  out: string;
  language?: Language;
  /** Only these kinds (default: every kind the importer covers). */
  kinds?: readonly string[];
  /** Replace a non-empty `out`. */
  force?: boolean;
  /** The Pulumi project name (default: the name of `out`). */
  project?: string;
  env?: NodeJS.ProcessEnv;
  /** Told each phase's count per kind as it grows. */
  progress?: (phase: "discovering" | "reading", kind: string, count: number) => void;
  /** The command as the user typed it, for the generated files. */
  command?: string;
  /**
   * Credential profiles to read, each an API user (`WPE_API_USER_ID_<NAME>`, or `WPE_PROFILES`): their
   * accounts form one program whose resources carry their `profile`. Unset: the default credentials.
   */
  profiles?: readonly string[];
  /**
   * How the generated project names pulumi-wpengine (an npm spec: `^0.2.0`, a tarball, a git URL, a
   * path); default: the way this importer itself was installed ({@link installedAs}). Python: the
   * requirements.txt line of pulumi_wpengine; default: the release's wheel.
   */
  packageSpec?: string;
  /**
   * Bring in the objects that stacks of the current Pulumi backend already hold, without reading those
   * stacks (`--include-managed`). Unset: they are left out and named, so that no object gets two owners.
   */
  includeManaged?: boolean;
}

/** An object left out because a stack of the current backend holds it. */
export interface HeldObject {
  kind: string;
  label: string;
  /** Its id (the stack's resource id). */
  id: string;
  /** What holds it: `account Acme`, `install acmeprod`, `site Shop`; two objects of one name are two. */
  of: string;
  /** The stacks holding it, fully qualified (`org/project/stack`; two or more: `a, b`, which own it twice). */
  stack: string;
}

export interface ImportResult {
  model: Model;
  /** Files written, by relative path. */
  files: Record<string, string>;
  /** Requests sent to the service. */
  calls: number;
  /** Wall time of discovery and reads, in ms. */
  ms: number;
  source: string;
  /** The objects left out because another stack holds them. */
  held: HeldObject[];
  /**
   * What the user should know about the project written: how it names the package, when npm did not say;
   * another language's files left in `out` by `--force`.
   */
  notes: string[];
}

/**
 * The stacks of the current backend could not all be read, so what they hold cannot be left out: the
 * import refuses (unless `--include-managed`), rather than write a program whose adopting `up` may take
 * another stack's objects.
 */
export class UncheckedStacksError extends Error {
  constructor(what: string) {
    super(
      `${what}, so the objects other stacks manage cannot be left out: fix that (a pulumi CLI on PATH, ` +
        "logged in to the backend of the adopting up: pulumi whoami; a broken stack repaired or removed), " +
        "or run again with --include-managed to import without the check (docs/importer.md)",
    );
    this.name = "UncheckedStacksError";
  }
}

/** What the stacks hold, or the refusal when they could not all be read; nothing when not checked. */
function heldOrRefuse(checked: HeldCheck | undefined): Held | undefined {
  if (checked === undefined) return undefined;
  if ("skipped" in checked)
    throw new UncheckedStacksError(
      `the stacks of the current Pulumi backend were not read (${checked.skipped})`,
    );
  if (checked.unread.length)
    throw new UncheckedStacksError(
      `${checked.unread.length === 1 ? "a stack" : `${checked.unread.length} stacks`} of the current Pulumi backend could not be read: ${checked.unread.join("; ")}`,
    );
  return checked.held;
}

/**
 * The name of the Pulumi project `out` already holds (its `Pulumi.yaml`'s `name`): a `--force`
 * regeneration; `undefined` for a new directory.
 */
export function projectIn(out: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
  } catch {
    return undefined;
  }
  const name = /^name:[ \t]*(.*?)[ \t]*(?:#.*)?$/m.exec(text)?.[1]?.replace(/^(["'])(.*)\1$/, "$2");
  return name || undefined;
}

/** A refusal before anything is read or written (a bad argument, an `--out` in the way). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The directory of this package (its package.json), from the checkout or an install. */
function packageDir(): string {
  for (const up of ["..", "../.."]) {
    const dir = path.resolve(__dirname, up);
    const p = path.join(dir, "package.json");
    if (
      fs.existsSync(p) &&
      (JSON.parse(fs.readFileSync(p, "utf8")) as { name?: string }).name === "pulumi-wpengine"
    )
      return dir;
  }
  throw new Error(`pulumi-wpengine: no package.json of pulumi-wpengine above ${__dirname}`);
}

/**
 * The `WPE_SIMULATOR` that names the world in `file` wherever the project runs: `true` for the shared
 * world (`$PULUMI_HOME/wpengine-simulator.json`), else its absolute path.
 */
export function simulatorSetting(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const abs = path.resolve(file);
  return abs === path.resolve(sharedWorldFile(env)) ? "true" : abs;
}

const packageJson = (dir = packageDir()): PackageJson =>
  JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as PackageJson;

const version = (dir = packageDir()): string => packageJson(dir).version;

/**
 * How this importer was installed, as the npm spec that installs the same package into the project at
 * `out`: the registry version (`^<version>`) when npm took it from a registry, the same tarball or
 * directory (`file:<path relative to out>`) or git URL otherwise; a checkout, by its path. Read from the
 * installing project's lockfile (`node_modules/.package-lock.json`, which npm writes on every install);
 * `undefined` when none says (a global install).
 */
export function installedAs(out: string, dir = packageDir()): string | undefined {
  // The self-contained plugin unpacks its own files, no package to install: the registry's release.
  if (isSea()) return `^${version(dir)}`;
  const rel = (abs: string) =>
    `file:${path.relative(path.resolve(out), abs).split(path.sep).join("/") || "."}`;
  if (path.basename(path.dirname(dir)) !== "node_modules") return rel(dir);
  const project = path.dirname(path.dirname(dir));
  const key = `node_modules/${path.basename(dir)}`;
  for (const lock of [
    path.join(project, "node_modules", ".package-lock.json"),
    path.join(project, "package-lock.json"),
  ]) {
    if (!fs.existsSync(lock)) continue;
    const entry = (
      JSON.parse(fs.readFileSync(lock, "utf8")) as { packages?: Record<string, { resolved?: string }> }
    ).packages?.[key];
    const resolved = entry?.resolved;
    if (!resolved) continue;
    if (resolved.startsWith("file:")) return rel(path.resolve(project, resolved.slice("file:".length)));
    if (/^(git\+|git:|github:|ssh:)/.test(resolved)) return resolved;
    return `^${version(dir)}`;
  }
  return undefined;
}

/** `npm install --global` of a spec (a path without `file:`, as npm takes it on the command line). */
const globalSpec = (spec: string) =>
  spec.startsWith("file:")
    ? spec.slice("file:".length)
    : spec.startsWith("^")
      ? `pulumi-wpengine@${spec.slice(1)}`
      : spec;

/** Refuses an `--out` that exists and is not an empty directory, unless forced. */
export function checkOut(out: string, force: boolean): void {
  if (!fs.existsSync(out)) return;
  if (!fs.statSync(out).isDirectory()) throw new UsageError(`--out ${out} exists and is not a directory`);
  if (fs.readdirSync(out).length && !force)
    throw new UsageError(
      `--out ${out} exists and is not empty; choose another directory or pass --force to regenerate the project in it`,
    );
}

/** The files import writes in any language: a regeneration in another language names those it finds. */
const GENERATED = [
  "Pulumi.yaml",
  "import.json",
  "README.md",
  ".gitignore",
  "index.ts",
  "package.json",
  "tsconfig.json",
  "__main__.py",
  "requirements.txt",
  PLUGIN_FILE,
];

/**
 * Writes `files` into `out`, each whole: written beside it first, then renamed in. A new `out` appears all
 * at once, with the mode `mkdir` gives; an existing one is regenerated in place (a shell or editor in it
 * keeps working): the files this language's import writes are replaced, the rest (the stacks' config,
 * recover's journal, node_modules, your own files, another language's) kept. Returns the files another
 * language's import writes that `out` still holds.
 */
export function writeAtomically(out: string, files: Record<string, string>): string[] {
  const abs = path.resolve(out);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  // mkdir, not mkdtemp (0700): a new `out` is this directory renamed.
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.import-${randomBytes(6).toString("hex")}`);
  fs.mkdirSync(tmp);
  try {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), text);
    }
    if (!fs.existsSync(abs)) {
      fs.renameSync(tmp, abs);
      return [];
    }
    for (const rel of Object.keys(files)) fs.renameSync(path.join(tmp, rel), path.join(abs, rel));
    return GENERATED.filter((name) => !Object.hasOwn(files, name) && fs.existsSync(path.join(abs, name)));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The command that regenerates the project, as the files quote it: every flag that shaped it (without
 * `--out` and `--force`: the same bytes anywhere).
 */
export function commandOf(opts: Omit<ImportOptions, "out">, language: Language): string {
  const parts = [`${PROGRAM} import`];
  if (language !== "typescript") parts.push(`--language ${language}`);
  if (opts.project !== undefined) parts.push(`--project ${shellWord(opts.project)}`);
  for (const p of opts.profiles ?? []) parts.push(`--profile ${p}`);
  for (const a of opts.accounts ?? []) parts.push(`--account ${a}`);
  for (const s of opts.sites ?? []) parts.push(`--site ${s}`);
  for (const i of opts.installs ?? []) parts.push(`--install ${i}`);
  if (opts.kinds?.length) parts.push(`--kinds ${opts.kinds.join(",")}`);
  if (opts.includeManaged) parts.push("--include-managed");
  if (opts.packageSpec !== undefined) parts.push(`--package-spec ${shellWord(opts.packageSpec)}`);
  return parts.join(" ");
}

export async function importAccount(opts: ImportOptions): Promise<ImportResult> {
  checkOut(opts.out, opts.force === true);
  const unknown = (opts.kinds ?? []).filter((k) => !(COVERED as readonly string[]).includes(k));
  if (unknown.length)
    throw new UsageError(
      `--kinds: ${unknown.join(", ")} cannot be imported; the kinds are ${COVERED.join(", ")}`,
    );
  const language = opts.language ?? "typescript";
  const started = Date.now();
  const project = opts.project ?? (slug(path.basename(path.resolve(opts.out))) || "wpengine");
  // The stacks of the project `out` already holds (a `--force` regeneration) are not another owner: its
  // own objects come back. Any other project's are, whatever its name (two clients' `website` projects).
  const own = opts.includeManaged ? undefined : projectIn(opts.out) === project ? project : undefined;
  // The stacks are read while the service is: their states and the listings do not wait on each other.
  const check: Promise<HeldCheck | undefined> = opts.includeManaged
    ? Promise.resolve(undefined)
    : heldByStacks({ ...process.env, ...opts.env }, own).catch((err: Error) => ({
        skipped: err.message,
      }));
  // One API user (the default credentials), or each profile's in turn: their objects form one program.
  const sources = opts.profiles?.length ? [...new Set(opts.profiles)] : [undefined];
  // Every API user's credentials are found before anything is read.
  for (const profile of sources) connectionConfig(opts.env ?? process.env, profile);
  const parts: Awaited<ReturnType<typeof readAccount>>[] = [];
  const conns: Connection[] = [];
  let calls = 0;
  // The accounts of the sites and installs given without --account, whose own objects are not brought in.
  let unnamed: Shown[] = [];
  try {
    for (const profile of sources) conns.push(await connect(opts.env, profile));
    const ros = conns.map((conn) => readOnlyClient(conn.client));
    // The ids given are checked against what they all see, before anything else is read.
    const seenBy = await Promise.all(
      conns.map((conn, i) =>
        visible(ros[i]!, opts).catch((err) => Promise.reject(refusedCredentials(err, conn))),
      ),
    );
    const share = shares(opts, seenBy);
    if (!opts.accounts?.length) unnamed = holders(opts, seenBy);
    for (const [i, conn] of conns.entries())
      if (share[i]) parts.push(await readAccount(opts, share[i], conn, ros[i]!, check));
  } finally {
    for (const conn of conns) {
      calls += conn.calls();
      await conn.close();
    }
  }
  const world = mergeWorlds(parts.map((p) => p.world));
  // An object several profiles see (an account two API users share) is one resource, of the first
  // profile given that sees it: two resources of one object would both own it.
  const seen = new Set<string>();
  const read = parts
    .flatMap((p) => p.read)
    .filter((r) => {
      const key = `${r.found.kind}:${r.importId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const model = buildModel(read, world);
  // Before anything is written: the stacks could not be read, nothing is (whatever the accounts hold).
  heldOrRefuse(await check);
  const held = [
    ...new Map(parts.flatMap((p) => p.held).map((h) => [`${h.kind}:${h.of}:${h.id}:${h.stack}`, h])).values(),
  ];
  const ms = Date.now() - started;
  const [first] = parts;
  const v = version();
  const home = homeOf(packageJson());
  const python = language === "python";
  // Python: the release's wheel (docs/languages.md), whatever installed this command.
  const recorded =
    opts.packageSpec ??
    (python
      ? `pulumi_wpengine @ ${home.url}/releases/download/v${v}/pulumi_wpengine-${v}-py3-none-any.whl`
      : installedAs(opts.out));
  const packageSpec = recorded ?? `^${v}`;
  const files = renderProject(model, {
    project,
    language,
    source: first!.source,
    ...(first!.simulator !== undefined ? { simulator: first!.simulator } : {}),
    version: v,
    pluginDownloadURL: home.pluginDownloadURL,
    packageSpec,
    pipGit: home.pipGit,
    // From the self-contained plugin: that plugin, installed by `pulumi plugin install`, not npm.
    globalSpec: isSea() || python ? undefined : globalSpec(packageSpec),
    command: opts.command ?? commandOf(opts, language),
  });
  const others = writeAtomically(opts.out, files);
  const notes: string[] = [];
  if (unnamed.length)
    notes.push(
      `--site and --install bring no account users or apps (an account's own objects): add ${unnamed.map((a) => `--account ${a.id}`).join(" ")} ` +
        `(${unnamed.map((a) => a.label).join(", ")}) to bring them as well (docs/importer.md)`,
    );
  if (own !== undefined) notes.push(`not read: stacks of project ${own}, the project being regenerated`);
  // A simulator's ids are not the account's own: every world (embedded, or served) starts from one seed.
  if (held.length && parts.some((p) => p.simulator !== undefined || p.source.startsWith("http:")))
    notes.push(
      "this is a simulator, whose every world starts from the same seeded ids: a stack that manages " +
        "another simulator world (the README's trial, say) holds them too. If the stacks named above " +
        "manage another world, run again with --include-managed",
    );
  if (!recorded)
    notes.push(
      `npm recorded no source of this pulumi-wpengine (a global install), so the project installs ` +
        `pulumi-wpengine@${packageSpec} from the npm registry; installed from a tarball or git, run the ` +
        "import again with --package-spec <the tarball's path or the git URL>",
    );
  if (others.length)
    notes.push(
      `${opts.out} still holds ${others.join(", ")}, which an import in another language writes and this ` +
        `${language} one does not: left as they are; delete them if an earlier import wrote them`,
    );
  return { model, files, calls, ms, source: parts.map((p) => p.target).join(", "), held, notes };
}

/**
 * One API user's objects in its `share` of the selection, discovered and read on its own connection: the
 * default credentials, or a profile's (each object found then carries `profile`, so the program runs it as
 * that API user).
 */
async function readAccount(
  opts: ImportOptions,
  share: Selection,
  conn: Connection,
  ro: ReadOnlyClient,
  check: Promise<HeldCheck | undefined>,
) {
  const { profile, config } = conn;
  const simulator =
    config.simulatorStateFile === undefined
      ? undefined
      : simulatorSetting(config.simulatorStateFile, opts.env ?? process.env);
  const progress = opts.progress ?? (() => {});
  let world: Awaited<ReturnType<typeof discover>>;
  try {
    world = await discover(ro, share, (k, n) => progress("discovering", k, n));
  } catch (err) {
    throw refusedCredentials(err, conn);
  }
  const wanted = opts.kinds?.length ? new Set(opts.kinds) : undefined;
  const found = world.found.filter((f) => {
    if (wanted && !wanted.has(f.kind)) return false;
    if (importIdOf(f.kind)) return true;
    world.leftOut.push({
      kind: f.kind,
      label: f.label,
      reason: `the ${f.kind} definition gives no import id`,
    });
    return false;
  });
  // What a stack of this backend already holds stays with it: an adopting up would make a second owner.
  // Stacks that could not be read: refused here, before the reads.
  const heldMap = heldOrRefuse(await check);
  const held: HeldObject[] = [];
  const free = found.filter((f) => {
    const { id, importId } = addressOf(importIdOf(f.kind)!, f.fields);
    const stack = heldKeys(f.kind, id, f.fields)
      .map((k) => heldMap?.get(k))
      .find((s) => s !== undefined);
    if (stack === undefined) return true;
    const of = `${f.fields["installId"] ? "install" : f.fields["siteId"] ? "site" : "account"} ${f.qualifier}`;
    held.push({ kind: f.kind, label: f.label, id, of, stack });
    world.leftOut.push({
      kind: f.kind,
      label: `${f.label} (${of})`,
      id: importId,
      reason: `held by ${stacksText(stack)}: another stack manages it (\`--include-managed\` brings it in anyway)`,
    });
    return false;
  });
  const read = await readAll(ro, free, (k, n) => progress("reading", k, n));
  if (profile) for (const r of read) r.values["profile"] = profile;
  return {
    read,
    held,
    world,
    target: profile ? `${conn.target} as profile ${profile}` : conn.target,
    source:
      simulator === undefined ? conn.client.apiUrl : `the bundled simulator (WPE_SIMULATOR=${simulator})`,
    simulator,
  };
}

/** What several API users' discoveries saw, as one world (an object two of them see is read by each). */
function mergeWorlds(worlds: readonly World[]): Pick<World, "names" | "leftOut"> {
  return {
    names: new Map(worlds.flatMap((w) => [...w.names])),
    leftOut: [
      ...new Map(
        worlds.flatMap((w) => w.leftOut).map((l) => [`${l.kind}:${l.id ?? l.label}:${l.reason}`, l]),
      ).values(),
    ],
  };
}
