/**
 * The layout users have, for tests: the repository built, `npm pack`ed, and installed with
 * `@pulumi/pulumi` into a throwaway program directory, where compiled JS programs are written.
 *
 * Everything is cached under the OS temp dir, keyed by a hash of `dist/` (and package.json): the
 * tarball and the installed program directory are made once and shared by every test file of a run
 * (and by later runs while `dist/` is unchanged). A lock directory serialises test files that start
 * at the same time. Each test file writes its own program files and keeps its own state files, so
 * sharing the directory is safe.
 *
 * `ENGINE_TESTS_CACHE` moves the cache elsewhere.
 *
 * The build itself is `npm run build`'s job (`npm test` runs it first). When `dist/` is missing or older
 * than the sources, this runs the build once; set `ENGINE_TESTS_NO_BUILD=1` to use `dist/` as it is.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository: the nearest directory up from here whose package.json is this package's (this file runs from the checkout and from `dist/tools/cli`). */
export const REPO = findRepo(__dirname);

function findRepo(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-wpengine") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-wpengine checkout above ${from}`);
  }
}
/** Where tarballs and installs are cached (`ENGINE_TESTS_CACHE` overrides). */
const CACHE_ROOT =
  process.env["ENGINE_TESTS_CACHE"] ?? path.join(os.tmpdir(), "pulumi-wpengine-engine-tests");
const SOURCE_DIRS = ["index.ts", "sdk", "provider", "simulator", "tools", "importer", "fleet"];

export interface PackTimings {
  buildMs: number;
  packMs: number;
  installMs: number;
  /** How the install was obtained: made by this process, or reused from the cache. */
  install: "fresh" | "cached";
  /** "offline-first" (`--prefer-offline`) or "plain" (the fallback). */
  installMode?: "offline-first" | "plain";
}

export interface PackedProgram {
  /** The program directory: `node_modules` holds `pulumi-wpengine` (from the tarball) and `@pulumi/pulumi`. */
  dir: string;
  tarball: string;
  /** The hash of dist/ the tarball was made from. */
  key: string;
  timings: PackTimings;
  /** Writes a compiled JS program as `<name>.js` in the program directory; returns the file name. */
  writeProgram(name: string, source: string): string;
}

function npm(): string {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") walk(p, out);
    } else out.push(p);
  }
  return out;
}

function newestMtime(paths: string[]): number {
  let newest = 0;
  for (const p of paths) {
    const files = fs.existsSync(p) && fs.statSync(p).isDirectory() ? walk(p) : [p];
    for (const f of files) {
      if (!f.endsWith(".ts") || f.endsWith(".test.ts") || !fs.existsSync(f)) continue;
      newest = Math.max(newest, fs.statSync(f).mtimeMs);
    }
  }
  return newest;
}

/** Builds `dist/` when it is missing or older than the sources. Returns the time spent. */
export async function ensureBuilt(): Promise<number> {
  if (process.env["ENGINE_TESTS_NO_BUILD"] === "1") return 0;
  const marker = path.join(REPO, "dist", "provider", "plugin.js");
  const sources = newestMtime(SOURCE_DIRS.map((d) => path.join(REPO, d)));
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= sources) return 0;
  return withLock("build", async () => {
    // Another test file may have built while this one waited.
    if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= sources) return 0;
    const t0 = Date.now();
    try {
      await run(npm(), ["run", "build", "--silent"], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(`npm run build failed:\n${err.stdout ?? ""}${err.stderr ?? err.message}`);
    }
    return Date.now() - t0;
  });
}

/** A hash of everything the tarball is made of. */
export function distHash(): string {
  const h = createHash("sha256");
  h.update(fs.readFileSync(path.join(REPO, "package.json")));
  const dist = path.join(REPO, "dist");
  for (const f of walk(dist).sort()) {
    if (/\.test\./.test(f)) continue;
    h.update(path.relative(dist, f));
    h.update(fs.readFileSync(f));
  }
  // The shipped policy pack's entry files are packed as they are, not built.
  for (const f of walk(path.join(REPO, "policy-pack")).sort()) {
    h.update(path.relative(REPO, f));
    h.update(fs.readFileSync(f));
  }
  return h.digest("hex").slice(0, 16);
}

/** True when a compiled file is empty: a build is writing `dist/` right now. */
function distIsPartial(): boolean {
  return walk(path.join(REPO, "dist")).some((f) => f.endsWith(".js") && fs.statSync(f).size === 0);
}

/**
 * The hash of a `dist/` that is not being written: the same twice in a row, with no empty file
 * (another build of the same checkout may be running; CI has none).
 */
async function settledDistHash(): Promise<string> {
  const deadline = Date.now() + 120_000;
  let last = distHash();
  for (;;) {
    await new Promise((r) => setTimeout(r, 300));
    const next = distHash();
    if (next === last && !distIsPartial()) return next;
    if (Date.now() > deadline) throw new Error("dist/ keeps changing: is a build running?");
    last = next;
  }
}

function holderAlive(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(lock, "pid"), "utf8").trim());
    if (!pid) return false;
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Runs `fn` holding a lock shared by every process of this machine (a directory, created atomically). */
async function withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(CACHE_ROOT, { recursive: true });
  const lock = path.join(CACHE_ROOT, `${name}.lock`);
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch {
      // A lock left by a killed run: its process is gone, or (no pid written yet) it is old.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5 * 60_000 || (age > 2_000 && !holderAlive(lock)))
        fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The version of a package installed in the repository (the program gets the same). */
function installedVersion(name: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "node_modules", name, "package.json"), "utf8"));
  return pkg.version as string;
}

async function npmInstall(dir: string): Promise<"offline-first" | "plain"> {
  const common = ["install", "--no-audit", "--no-fund", "--loglevel=error"];
  try {
    await run(npm(), [...common, "--prefer-offline"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    return "offline-first";
  } catch {
    await run(npm(), common, { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    return "plain";
  }
}

let memo: Promise<PackedProgram> | undefined;

/**
 * The packed and installed program directory (built, packed and installed at most once per dist/).
 * Call it in `beforeAll` with a hook timeout of a few minutes.
 */
export function packedProgram(): Promise<PackedProgram> {
  memo ??= makePackedProgram();
  return memo;
}

async function makePackedProgram(): Promise<PackedProgram> {
  const timings: PackTimings = { buildMs: await ensureBuilt(), packMs: 0, installMs: 0, install: "cached" };
  for (let attempt = 1; ; attempt++) {
    const packed = await packAndInstall(timings);
    // dist/ changed while it was packed (a concurrent build): the tarball may be a mix; do it again.
    if (distHash() === packed.key) return packed;
    fs.rmSync(path.dirname(packed.dir), { recursive: true, force: true });
    if (attempt === 3) throw new Error("dist/ changed during every attempt to pack it");
  }
}

/**
 * `npm pack` of the package as users install it, into `dest`; returns the tarball's path. Packed from a copy
 * of the files npm packs whose package.json has no `scripts`: they are this repository's (its `prepare`
 * builds a git install), none runs in an installed package, and npm 11 asks every user to approve a
 * dependency's `prepare`.
 */
export async function packPackage(dest: string): Promise<string> {
  const stage = tempDir("wpe-pack-");
  try {
    const opts = { maxBuffer: 64 * 1024 * 1024 };
    const listed = await run(npm(), ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: REPO,
      ...opts,
    });
    type Listed = [{ files: { path: string }[]; filename: string }];
    const [{ files, filename }] = JSON.parse(listed.stdout) as Listed;
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(stage, f.path)), { recursive: true });
      fs.copyFileSync(path.join(REPO, f.path), path.join(stage, f.path));
    }
    const { scripts: _scripts, ...pkg } = JSON.parse(
      fs.readFileSync(path.join(REPO, "package.json"), "utf8"),
    );
    fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    await run(npm(), ["pack", "--ignore-scripts", "--silent", "--pack-destination", dest], {
      cwd: stage,
      ...opts,
    });
    const made = path.join(dest, filename);
    if (!fs.existsSync(made)) throw new Error(`npm pack did not write ${made}`);
    return made;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

async function packAndInstall(timings: PackTimings): Promise<PackedProgram> {
  const key = await settledDistHash();
  const base = path.join(CACHE_ROOT, key);
  const dir = path.join(base, "program");
  const version = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).version as string;
  const tarball = path.join(base, `pulumi-wpengine-${version}.tgz`);
  const installed = path.join(dir, ".installed");
  await withLock(key, async () => {
    fs.mkdirSync(base, { recursive: true });
    if (!fs.existsSync(tarball)) {
      const t0 = Date.now();
      // Packed aside and renamed: a tarball in the cache is always whole.
      const tmp = fs.mkdtempSync(path.join(base, "pack-"));
      const made = await packPackage(tmp);
      fs.renameSync(made, tarball);
      fs.rmSync(tmp, { recursive: true, force: true });
      timings.packMs = Date.now() - t0;
    }
    if (!fs.existsSync(installed)) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const pkg = {
        name: "engine-test-program",
        version: "0.0.0",
        private: true,
        dependencies: {
          "pulumi-wpengine": `file:${tarball}`,
          "@pulumi/pulumi": installedVersion("@pulumi/pulumi"),
          // What a TypeScript program run by the CLI needs (ts-node comes with @pulumi/pulumi).
          typescript: installedVersion("typescript"),
          "@types/node": installedVersion("@types/node"),
        },
      };
      fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: engine-test\nruntime: nodejs\n");
      const t0 = Date.now();
      timings.installMode = await npmInstall(dir);
      timings.installMs = Date.now() - t0;
      timings.install = "fresh";
      fs.writeFileSync(installed, new Date().toISOString());
    }
  });
  // Keep only the newest few keys: old installs are 100+ MB each.
  pruneCache(key);
  console.log(
    `[engine tests] packed program ${dir} (dist ${key}): build ${timings.buildMs} ms, pack ${timings.packMs} ms, ` +
      `install ${timings.installMs} ms (${timings.install}${timings.installMode ? `, ${timings.installMode}` : ""})`,
  );
  return {
    dir,
    tarball,
    key,
    timings,
    writeProgram(name, source) {
      const file = `${name}.js`;
      fs.writeFileSync(path.join(dir, file), source);
      return file;
    },
  };
}

function pruneCache(current: string): void {
  try {
    const keys = fs
      .readdirSync(CACHE_ROOT, { withFileTypes: true })
      .filter((e) => e.isDirectory() && /^[0-9a-f]{16}$/.test(e.name) && e.name !== current)
      .map((e) => ({ name: e.name, mtime: fs.statSync(path.join(CACHE_ROOT, e.name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    // Only installs unused for hours: other checkouts and longer test files (the CLI tier links its
    // projects to an install) may still be using a newer one.
    for (const old of keys.slice(2).filter((k) => Date.now() - k.mtime > 3 * 3_600_000)) {
      // Never prune a key whose lock is held (another run is using it).
      if (fs.existsSync(path.join(CACHE_ROOT, `${old.name}.lock`))) continue;
      fs.rmSync(path.join(CACHE_ROOT, old.name), { recursive: true, force: true });
    }
  } catch {
    // best effort
  }
}

/** A fresh temp dir for one test file's state files. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
