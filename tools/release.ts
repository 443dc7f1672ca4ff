/**
 * `npm run release`: everything a user installs, written into `release/` from the checkout, so that no
 * user needs a clone:
 *
 * - `pulumi-wpengine-<v>.tgz`: the npm package (`packPackage`: `npm pack`, without the scripts);
 * - `pulumi-resource-wpengine-v<v>-<os>-<arch>.tar.gz`: the self-contained plugin (tools/plugin/build.js)
 *   for every platform whose Node binary the npm registry serves, in the layout `pulumi plugin install
 *   resource wpengine <v> --file <tarball>` takes and the engine downloads from `pluginDownloadURL`;
 * - `pulumi_wpengine-<v>-py3-none-any.whl` and `pulumi_wpengine-<v>.tar.gz`: the Python SDK;
 * - `goproxy/`: the Go SDK as the Go module proxy serves a module (`<module>/@v/list`, `.info`, `.mod`,
 *   `.zip`), for `GOPROXY=file://<abs>/goproxy,https://proxy.golang.org`;
 * - `RELEASE_NOTES.md`: the version's section of CHANGELOG.md (no section, no release);
 * - `SHA256SUMS`: every other file's digest, as `sha256sum -c` reads it.
 *
 * The version is package.json's, and only there: the schema, hence the SDKs, take it from there
 * (`npm run sdks`), and a release whose SDKs carry another version is refused.
 *
 *   npm run release                              every platform
 *   npm run release -- --targets linux-amd64     only these plugin platforms (comma-separated)
 *   npm run release -- --out DIR                 somewhere else than release/
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { zipSync } from "fflate";
import { homeOf, type PackageJson } from "../provider/executable/home";
import { mustRun, pythonVenv } from "./cli/languages";
import { packPackage, REPO, tempDir } from "./cli/pack";

const plugin: {
  ensurePlugin(target?: string): Promise<{ tarball: string; version: string }>;
  TARGETS: Record<string, unknown>;
} = require(path.join(REPO, "tools", "plugin", "build.js"));

export interface Artifact {
  file: string;
  bytes: number;
}

const readJson = <T>(...p: string[]): T => JSON.parse(fs.readFileSync(path.join(REPO, ...p), "utf8")) as T;

/** The section of CHANGELOG.md for `version` (its `## <version>` heading up to the next `## `). */
export function releaseNotes(changelog: string, version: string): string {
  const lines = changelog.split("\n");
  const start = lines.findIndex((l) =>
    new RegExp(`^## \\[?${version.replace(/\./g, "\\.")}\\]?( |$)`).test(l),
  );
  if (start < 0)
    throw new Error(
      `CHANGELOG.md has no "## ${version}" section: add what this version changes, then release`,
    );
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return `${lines
    .slice(start, end < 0 ? undefined : end)
    .join("\n")
    .trim()}\n`;
}

/** The date of the version's heading (`## 0.2.0 - 2026-11-25`), for the Go module's `.info`. */
function releaseDate(notes: string): string {
  const d = /^## \S+ - (\d{4}-\d{2}-\d{2})/.exec(notes)?.[1];
  return d ? `${d}T00:00:00Z` : "1970-01-01T00:00:00Z";
}

/** Fails when a file generated from the schema carries another version than package.json. */
export function checkVersions(version: string): void {
  const found: [string, string][] = [
    [
      "languages/python/pyproject.toml",
      /^\s*version = "([^"]+)"/m.exec(
        fs.readFileSync(path.join(REPO, "languages/python/pyproject.toml"), "utf8"),
      )?.[1] ?? "none",
    ],
    [
      "languages/python/pulumi_wpengine/pulumi-plugin.json",
      readJson<{ version: string }>("languages/python/pulumi_wpengine/pulumi-plugin.json").version,
    ],
    [
      "languages/go/wpengine/pulumi-plugin.json",
      readJson<{ version: string }>("languages/go/wpengine/pulumi-plugin.json").version,
    ],
    [
      "dist/provider/executable/schema.json",
      readJson<{ version: string }>("dist/provider/executable/schema.json").version,
    ],
  ];
  const wrong = found.filter(([, v]) => v !== version);
  if (wrong.length)
    throw new Error(
      `package.json says ${version}, but ${wrong.map(([f, v]) => `${f} says ${v}`).join(", ")}: run npm run sdks (it builds first) and commit languages/`,
    );
}

/** Every file under `dir`, relative, sorted, with `/` separators. */
function files(dir: string, rel = ""): string[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(dir, path.posix.join(rel, e.name)) : [path.posix.join(rel, e.name)],
    )
    .sort();
}

/**
 * The Go SDK (`languages/go`) as the module proxy serves `module@vVERSION`: the zip holds every file under
 * `<module>@<v>/` (the layout `go mod download` verifies), `.mod` its go.mod, `.info` the version and time.
 */
export function writeGoProxy(out: string, module: string, version: string, time: string): string[] {
  const v = `v${version}`;
  const src = path.join(REPO, "languages", "go");
  const dir = path.join(out, "goproxy", ...module.split("/"), "@v");
  fs.mkdirSync(dir, { recursive: true });
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const f of files(src))
    entries[`${module}@${v}/${f}`] = [fs.readFileSync(path.join(src, f)), { mtime: new Date(time) }];
  fs.writeFileSync(path.join(dir, `${v}.zip`), zipSync(entries, { level: 9 }));
  fs.copyFileSync(path.join(src, "go.mod"), path.join(dir, `${v}.mod`));
  fs.writeFileSync(path.join(dir, `${v}.info`), `${JSON.stringify({ Version: v, Time: time })}\n`);
  fs.writeFileSync(path.join(dir, "list"), `${v}\n`);
  return ["list", `${v}.info`, `${v}.mod`, `${v}.zip`].map((f) => path.relative(out, path.join(dir, f)));
}

/** The Python SDK's wheel and sdist, built from a copy of languages/python with setuptools (no network). */
async function writePython(out: string): Promise<void> {
  const { python } = await pythonVenv();
  const copy = tempDir("wpe-pybuild-");
  try {
    fs.cpSync(path.join(REPO, "languages", "python"), copy, { recursive: true });
    const env = { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", SOURCE_DATE_EPOCH: "315532800" };
    await mustRun(
      python,
      ["-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", out, "."],
      {
        cwd: copy,
        env,
        timeoutMs: 4 * 60_000,
      },
    );
    await mustRun(
      python,
      ["-c", `import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])`, out],
      { cwd: copy, env, timeoutMs: 4 * 60_000 },
    );
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

/** Writes the release into `out` (emptied first); returns its files with their sizes. */
export async function release(opts: { out?: string; targets?: string[] } = {}): Promise<Artifact[]> {
  const pkg = readJson<PackageJson>("package.json");
  const home = homeOf(pkg);
  const out = path.resolve(opts.out ?? path.join(REPO, "release"));
  const targets = opts.targets ?? Object.keys(plugin.TARGETS);
  for (const t of targets)
    if (!(t in plugin.TARGETS))
      throw new Error(
        `--targets: no plugin build for ${t} (the targets are ${Object.keys(plugin.TARGETS).join(", ")})`,
      );
  checkVersions(pkg.version);
  const notes = releaseNotes(fs.readFileSync(path.join(REPO, "CHANGELOG.md"), "utf8"), pkg.version);

  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "RELEASE_NOTES.md"), notes);
  await packPackage(out);
  for (const t of targets) {
    const built = await plugin.ensurePlugin(t);
    fs.copyFileSync(built.tarball, path.join(out, path.basename(built.tarball)));
  }
  await writePython(out);
  writeGoProxy(out, home.goModule, pkg.version, releaseDate(notes));

  const all = files(out);
  const sums = all.map(
    (f) =>
      `${createHash("sha256")
        .update(fs.readFileSync(path.join(out, f)))
        .digest("hex")}  ${f}`,
  );
  fs.writeFileSync(path.join(out, "SHA256SUMS"), `${sums.join("\n")}\n`);
  return [...all, "SHA256SUMS"].map((file) => ({ file, bytes: fs.statSync(path.join(out, file)).size }));
}

const size = (n: number) =>
  n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

if (require.main === module) {
  const { values } = parseArgs({ options: { out: { type: "string" }, targets: { type: "string" } } });
  const t0 = Date.now();
  release({
    ...(values.out ? { out: values.out } : {}),
    ...(values.targets ? { targets: values.targets.split(",").map((t) => t.trim()) } : {}),
  }).then(
    (artifacts) => {
      for (const a of artifacts) process.stdout.write(`${size(a.bytes).padStart(10)}  ${a.file}\n`);
      process.stdout.write(
        `release: ${artifacts.length} files in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
      );
    },
    (e: Error) => {
      process.stderr.write(`release: ${e.message}\n`);
      process.exit(1);
    },
  );
}
