#!/usr/bin/env node
/**
 * The Python and Go SDKs of the executable provider, generated from the schema it serves
 * (`dist/provider/executable/schema.json`, written by `npm run build`) by Pulumi's own code generators
 * (tools/sdkgen/main.go, built by tools/pulumi/toolchain.js at a pinned pkg/v3), into `languages/`:
 *
 *   node tools/sdkgen/sdks.js write    regenerate languages/python and languages/go (`npm run sdks`)
 *   node tools/sdkgen/sdks.js check    fail, naming the files, when the committed SDKs differ from what
 *                                      `write` would write now
 *
 * The schema is used as the plugin serves it (its `language` section and `pluginDownloadURL` come from
 * package.json's `repository`, tools/schema.ts), so `pulumi package gen-sdk` from the
 * served schema writes these same SDKs, but for two things added here: python/README.md beside the
 * package, and the go.mod's sdk/v3 version (examples/go's, not the generator's, below).
 */

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..", "..");
const SCHEMA = path.join(REPO, "dist", "provider", "executable", "schema.json");
const OUT = path.join(REPO, "languages");
const LANGS = ["python", "go"];

/** The schema the provider serves, as is: its `language` section, `pluginDownloadURL` and `meta` are the SDKs'. */
function sdkSchema(schemaPath = SCHEMA) {
  if (!fs.existsSync(schemaPath)) throw new Error(`${schemaPath} is missing: run npm run build first`);
  return JSON.parse(fs.readFileSync(schemaPath, "utf8"));
}

/** Generates the SDKs into `dir/<lang>` (a new directory); returns the generator's path. */
async function generate(dir, schemaPath = SCHEMA) {
  const toolchain = require(path.join(REPO, "tools", "pulumi", "toolchain.js"));
  const sdkgen = await toolchain.ensureSdkgen();
  fs.mkdirSync(dir, { recursive: true });
  const input = path.join(dir, ".schema.json");
  fs.writeFileSync(input, `${JSON.stringify(sdkSchema(schemaPath), null, 2)}\n`);
  const r = spawnSync(sdkgen, ["-schema", input, "-out", dir, "-lang", LANGS.join(",")], {
    encoding: "utf8",
  });
  fs.rmSync(input);
  if (r.status !== 0) throw new Error(`sdkgen failed (${r.status}):\n${r.stderr}${r.stdout}`);
  // The pyproject.toml names README.md beside it, but the generator writes it into the package only
  // (Pulumi's provider builds copy it the same way): without it pip warns and the package has no readme.
  fs.copyFileSync(
    path.join(dir, "python", "pulumi_wpengine", "README.md"),
    path.join(dir, "python", "README.md"),
  );
  // The Go generator requires the sdk/v3 it was written against (v3.269.0 at pkg/v3 v3.274.0), whose
  // dependency graph the module proxy no longer serves whole (pulumi-cloud-sdk/go v1.20260918.0: 403), so
  // a user's `go mod tidy` would fail: the module asks for the sdk/v3 examples/go is built and tested with.
  const goMod = path.join(dir, "go", "go.mod");
  const sdk = `github.com/pulumi/pulumi/sdk/v3 ${goSdkVersion()}`;
  const mod = fs
    .readFileSync(goMod, "utf8")
    .replace(/^require github\.com\/pulumi\/pulumi\/sdk\/v3 v\S+$/m, `require ${sdk}`);
  if (!mod.includes(`require ${sdk}\n`))
    throw new Error(`the generated go.mod has no one-line require of sdk/v3:\n${mod}`);
  fs.writeFileSync(goMod, mod);
  return sdkgen;
}

/** The version of github.com/pulumi/pulumi/sdk/v3 that examples/go/go.mod requires. */
function goSdkVersion() {
  const mod = fs.readFileSync(path.join(REPO, "examples", "go", "go.mod"), "utf8");
  const v = /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/m.exec(mod)?.[1];
  if (!v) throw new Error("examples/go/go.mod requires no github.com/pulumi/pulumi/sdk/v3");
  return v;
}

/**
 * Every file under `dir`, relative, sorted; without what the generated .gitignore of `dir` names (what
 * pip, setuptools and Python leave beside the sources: build/, *.egg-info, __pycache__, ...).
 */
function listFiles(dir) {
  const ignore = fs.existsSync(path.join(dir, ".gitignore"))
    ? fs
        .readFileSync(path.join(dir, ".gitignore"), "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#"))
        .map((g) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`))
    : [];
  const walk = (rel) =>
    fs
      .readdirSync(path.join(dir, rel), { withFileTypes: true })
      .filter((e) => !ignore.some((re) => re.test(e.name)))
      .flatMap((e) => (e.isDirectory() ? walk(path.join(rel, e.name)) : [path.join(rel, e.name)]));
  return fs.existsSync(dir) ? walk("").sort() : [];
}

/** The files of `languages/<lang>` that differ from a fresh generation: `+` missing, `-` extra, `~` changed. */
function differences(fresh, committed = OUT) {
  const out = [];
  for (const lang of LANGS) {
    const a = new Set(listFiles(path.join(fresh, lang)));
    const b = new Set(listFiles(path.join(committed, lang)));
    for (const f of a) {
      if (!b.has(f)) out.push(`+ ${lang}/${f}`);
      else if (
        !fs.readFileSync(path.join(fresh, lang, f)).equals(fs.readFileSync(path.join(committed, lang, f)))
      )
        out.push(`~ ${lang}/${f}`);
    }
    for (const f of b) if (!a.has(f)) out.push(`- ${lang}/${f}`);
  }
  return out;
}

async function main() {
  const cmd = process.argv[2];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-sdks-"));
  try {
    await generate(tmp);
    if (cmd === "write") {
      for (const lang of LANGS) {
        fs.rmSync(path.join(OUT, lang), { recursive: true, force: true });
        fs.cpSync(path.join(tmp, lang), path.join(OUT, lang), { recursive: true });
        process.stdout.write(`languages/${lang}: ${listFiles(path.join(OUT, lang)).length} files\n`);
      }
    } else if (cmd === "check") {
      const diff = differences(tmp);
      if (diff.length) {
        process.stderr.write(
          `languages/ is not what the schema generates now (npm run sdks regenerates it):\n${diff.join("\n")}\n`,
        );
        process.exitCode = 1;
      } else process.stdout.write("languages/ is current\n");
    } else throw new Error("usage: sdks.js write | check");
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`sdks: ${e.message}\n`);
    process.exit(1);
  });
}

module.exports = { LANGS, sdkSchema, generate, differences, listFiles, goSdkVersion };
