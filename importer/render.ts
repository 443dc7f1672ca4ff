/**
 * The files of the generated project, from the model: a TypeScript program of the dynamic classes (the
 * default), a Python program of the generated SDK (`pulumi_wpengine`), or a YAML program of
 * `wpengine:index:*` resources with an import file for `pulumi import --file`; `Pulumi.yaml`, and a README
 * that says how to take the objects in and what was left out.
 * Nothing here depends on the time or the order of the service's answers: the same account gives the
 * same bytes.
 */
import type { z } from "zod";
import { profileEnv } from "../provider/core/config";
import { DEFAULT_API_URL } from "../sdk";
import { inputSchemaOf } from "./kinds";
import { camel, External, type Model, Ref, type Resource, type Value } from "./model";

export type Language = "typescript" | "python" | "yaml";

type JsonSchema = z.core.JSONSchema.JSONSchema;

export interface RenderOptions {
  /** The Pulumi project name. */
  project: string;
  language: Language;
  /** Where the objects were read from, for the README. */
  source: string;
  /**
   * The `WPE_SIMULATOR` of the world the objects were read from (`true`: the shared one; else its absolute
   * path), which the README's steps set; unset when they were read from a service.
   */
  simulator?: string;
  /** The version of pulumi-wpengine (of its plugin, for a YAML project). */
  version: string;
  /** Where the engine downloads the plugin from (the schema's `pluginDownloadURL`), for a YAML project. */
  pluginDownloadURL: string;
  /**
   * How the project's package.json names pulumi-wpengine (`^0.2.0`, `file:../pulumi-wpengine-0.2.0.tgz`, a git
   * URL); a Python project's requirements.txt line for pulumi_wpengine (the release's wheel, a path, a git URL).
   */
  packageSpec: string;
  /** `pip install "<this>"` installs the Python SDK from the repository (named in a Python project's requirements.txt). */
  pipGit: string;
  /** The same package as `npm install --global` takes it (a YAML project's plugin). */
  globalSpec: string | undefined;
  /** The command that made the project, for the README. */
  command: string;
}

/** The names a program's variable must not take: its language's keywords, the imports, `config`. */
const RESERVED = {
  typescript: new Set(
    (
      "break case catch class const continue debugger default delete do else enum export extends false finally " +
      "for function if import in instanceof new null return super switch this throw true try typeof var void " +
      "while with as implements interface let package private protected public static yield any boolean " +
      "constructor declare get module require number set string symbol type from of await async pulumi " +
      "wpengine config undefined"
    ).split(" "),
  ),
  // Python's keywords and the builtins a name like a site's could shadow.
  python: new Set(
    (
      "False None True and as assert async await break class continue def del elif else except finally for " +
      "from global if import in is lambda nonlocal not or pass raise return try while with yield id type " +
      "list dict str int float bool object input print range set map filter format hash len open vars dir " +
      "all any min max sum next iter pulumi wpengine config"
    ).split(" "),
  ),
};

/** A camelCase name as Pulumi's Python generator writes it: `installId` is `install_id`. */
export const pyName = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();

/** The languages whose program is code (YAML's is the project file itself). */
type Code = Exclude<Language, "yaml">;

/** An id outside the program as a variable of the program (config key `acmeAccountId`: `acme_account_id` in Python). */
const externalName = (e: External, language: Code): string => (language === "python" ? pyName(e.key) : e.key);

/** The variable of each resource: its name in the language's case (camelCase, snake_case), unique, never reserved. */
export function variableNames(model: Model, language: Code = "typescript"): Map<Resource, string> {
  const name = language === "python" ? (text: string) => pyName(camel(text)) : camel;
  const taken = new Set<string>([
    ...RESERVED[language],
    ...model.externals.map((e) => externalName(e, language)),
  ]);
  const out = new Map<Resource, string>();
  for (const r of model.resources) {
    const base = name(r.name);
    let v = taken.has(base) ? name(`${r.name} ${r.kind}`) : base;
    for (let n = 2; taken.has(v); n++) v = `${base}${n}`;
    taken.add(v);
    out.set(r, v);
  }
  return out;
}

/** An expression written as it is (a Python enum of the SDK: `wpengine.AppRegion("US-C")`). */
class Expression {
  constructor(readonly text: string) {}
}

/** How TypeScript and Python write a value: the same lists and maps, their own keys and constants. */
interface Syntax {
  vars: Map<Resource, string>;
  language: Code;
  /** One level of indentation. */
  tab: string;
}

function literal(v: Value, s: Syntax, indent: string): string {
  if (v instanceof Ref) return `${s.vars.get(v.to)}.${s.language === "python" ? pyName(v.prop) : v.prop}`;
  if (v instanceof External) return externalName(v, s.language);
  if (v instanceof Expression) return v.text;
  const inner = `${indent}${s.tab}`;
  if (Array.isArray(v)) {
    if (!v.length) return "[]";
    return `[\n${v.map((x) => `${inner}${literal(x, s, inner)},`).join("\n")}\n${indent}]`;
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v);
    if (!entries.length) return "{}";
    const key = (k: string) =>
      s.language === "typescript" && /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
    return `{\n${entries.map(([k, x]) => `${inner}${key(k)}: ${literal(x, s, inner)},`).join("\n")}\n${indent}}`;
  }
  if (s.language === "python" && v === null) return "None";
  if (s.language === "python" && typeof v === "boolean") return v ? "True" : "False";
  return JSON.stringify(v);
}

function describe(r: Resource): string {
  return `${r.kind} ${r.label} (import id ${r.importId})`;
}

/**
 * A resource the program gives Pulumi's `protect` (as `pulumi import` does what it imports): a kind with
 * `deletionProtection` (a site, an install), so `pulumi destroy` is refused by the engine before anything
 * is deleted, not by the provider once the install's domains and users are gone.
 */
export const isProtected = (r: Resource): boolean =>
  inputSchemaOf(r.kind).properties?.["deletionProtection"] !== undefined;

/**
 * A value as the Python SDK takes it, by the kind's input schema: an object's keys in snake_case (a map's
 * as they are), an enum's value as the SDK's enum class, named as the provider's schema names it
 * (`<Kind><Field>...`: `wpengine.CacheExclusionsExclusionsType("url path")`, which mypy checks).
 */
function pythonValue(v: Value, schema: JsonSchema | boolean | undefined, type: string): Value {
  if (v instanceof Ref || v instanceof External || typeof schema !== "object") return v;
  const s = schema.anyOf?.find((b) => typeof b === "object" && b.type !== "null") ?? schema;
  if (typeof s !== "object") return v;
  if (typeof v === "string" && s.enum) return new Expression(`wpengine.${type}(${JSON.stringify(v)})`);
  if (Array.isArray(v))
    return v.map((x) => pythonValue(x, Array.isArray(s.items) ? undefined : s.items, type));
  if (v === null || typeof v !== "object" || !s.properties) return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      pyName(k),
      pythonValue(x, s.properties?.[k], `${type}${k.charAt(0).toUpperCase()}${k.slice(1)}`),
    ]),
  );
}

/** `index.ts` or `__main__.py`: one resource of the SDK per object, its references as the other's outputs. */
export function renderProgram(model: Model, opts: RenderOptions & { language: Code }): string {
  const python = opts.language === "python";
  const s: Syntax = {
    vars: variableNames(model, opts.language),
    language: opts.language,
    tab: python ? "    " : "  ",
  };
  const c = python ? "#" : "//";
  const lines = [
    `${c} Generated by \`${opts.command}\` from ${opts.source}: ${model.resources.length} resources.`,
    `${c} Regenerate it with the same command plus \`--out <this directory> --force\` (your other files stay); the same account gives the same file.`,
    `${c} Take the objects into a new stack without changing them: WPE_ADOPT_EXISTING=true pulumi up (README.md).`,
    ...(python
      ? ["import pulumi", "import pulumi_wpengine as wpengine"]
      : ['import * as pulumi from "@pulumi/pulumi";', 'import * as wpengine from "pulumi-wpengine";']),
    "",
  ];
  if (model.externals.length) {
    lines.push(
      `${c} Ids of objects that are not resources of this program; Pulumi.yaml gives their values`,
      `${c} (\`pulumi config set <key> <id>\` overrides one for a stack).`,
      python ? "config = pulumi.Config()" : "const config = new pulumi.Config();",
    );
    for (const e of model.externals) {
      const get = `config.require(${JSON.stringify(e.key)})`;
      lines.push(
        python
          ? `${externalName(e, "python")} = ${get}  # ${e.what} ${e.label}`
          : `const ${e.key} = ${get}; // ${e.what} ${e.label}`,
      );
    }
    lines.push("");
  }
  for (const r of model.resources) {
    lines.push(`${c} ${describe(r)}`);
    const name = JSON.stringify(r.name);
    if (!python) {
      const opts = isProtected(r) ? ", { protect: true }" : "";
      lines.push(
        `const ${s.vars.get(r)} = new wpengine.${r.kind}(${name}, ${literal(r.inputs, s, "")}${opts});`,
      );
      continue;
    }
    // Keyword arguments: the dict's entries, one level in.
    const args = Object.entries(
      pythonValue(r.inputs, inputSchemaOf(r.kind), r.kind) as Record<string, Value>,
    );
    lines.push(
      `${s.vars.get(r)} = wpengine.${r.kind}(`,
      `    ${name},`,
      ...args.map(([k, x]) => `    ${k}=${literal(x, s, "    ")},`),
      ...(isProtected(r) ? ["    opts=pulumi.ResourceOptions(protect=True),"] : []),
      ")",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A YAML scalar: JSON's double-quoted strings are YAML too. */
function yamlScalar(v: unknown): string {
  if (typeof v === "string")
    return /^[A-Za-z0-9_./@-]+$/.test(v) && !/^(true|false|null|yes|no|on|off|~|[-.0-9].*)$/i.test(v)
      ? v
      : JSON.stringify(v);
  return JSON.stringify(v);
}

function yamlValue(v: Value, indent: string): string {
  if (v instanceof Ref) return ` \${${v.to.name}.${v.prop}}`;
  if (v instanceof External) return ` \${${v.key}}`;
  if (Array.isArray(v)) {
    if (!v.length) return " []";
    return v
      .map((x) => {
        if (
          x !== null &&
          typeof x === "object" &&
          !(x instanceof Ref) &&
          !(x instanceof External) &&
          !Array.isArray(x)
        ) {
          const entries = Object.entries(x);
          if (!entries.length) return `\n${indent}- {}`;
          return `\n${indent}- ${entries.map(([k, y], i) => `${i ? `${indent}  ` : ""}${k}:${yamlValue(y, `${indent}    `)}`).join("\n")}`;
        }
        return `\n${indent}-${yamlValue(x, `${indent}  `)}`;
      })
      .join("");
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v);
    if (!entries.length) return " {}";
    return entries.map(([k, x]) => `\n${indent}${k}:${yamlValue(x, `${indent}  `)}`).join("");
  }
  return ` ${yamlScalar(v)}`;
}

/** The credential profile a resource runs as, when the import read it as one (`--profile`). */
const profileOf = (r: Resource): string | undefined =>
  typeof r.inputs["profile"] === "string" ? r.inputs["profile"] : undefined;

/** Every profile the resources run as, in the order they first appear. */
const profilesOf = (model: Model): string[] => [
  ...new Set(model.resources.map(profileOf).filter((p) => p !== undefined)),
];

/**
 * The YAML program's explicit provider of a profile. No resource or variable can take the name: resource
 * names are slugs (no `_`), variables camelCase (an `_` only before a leading digit).
 */
export const providerName = (profile: string): string => `wpengine_${profile}`;

/**
 * `Pulumi.yaml` of a YAML project: the program itself. A resource read as a profile runs through that
 * profile's explicit provider (`properties: {profile}`: its name only, never its credentials) rather
 * than a `profile` input, so `pulumi import` (whose read gives no `profile`) and the program agree.
 */
export function renderYaml(model: Model, opts: RenderOptions): string {
  const lines = [
    `# Generated by \`${opts.command}\` from ${opts.source}: ${model.resources.length} resources.`,
    "# Regenerate it with the same command plus `--out <this directory> --force` (your other files stay); the same account gives the same file.",
    "# Take the objects into a new stack: pulumi import --file import.json (README.md).",
    `name: ${opts.project}`,
    "runtime: yaml",
    `description: WP Engine objects brought under Pulumi by pulumi-wpengine import`,
  ];
  if (model.externals.length) {
    lines.push("# Ids of objects that are not resources of this program.", "variables:");
    for (const e of model.externals)
      lines.push(`  # ${e.what} ${e.label}`, `  ${e.key}: ${yamlScalar(e.value)}`);
  }
  lines.push("resources:");
  for (const p of profilesOf(model))
    lines.push(
      `  # Credential profile ${p}: the resources that name this provider run as its API user (credentials`,
      `  # from the stack's wpengine:profiles, or ${profileEnv(p).username} and ${profileEnv(p).password}; never here).`,
      `  ${providerName(p)}:`,
      "    type: pulumi:providers:wpengine",
      `    properties:\n      profile: ${yamlScalar(p)}`,
    );
  for (const r of model.resources) {
    const { profile: _profile, ...inputs } = r.inputs;
    const profile = profileOf(r);
    lines.push(`  # ${describe(r)}`, `  ${r.name}:`, `    type: wpengine:index:${r.kind}`);
    if (Object.keys(inputs).length) lines.push(`    properties:${yamlValue(inputs, "      ")}`);
    if (profile || isProtected(r)) lines.push("    options:");
    if (isProtected(r)) lines.push("      protect: true");
    if (profile) lines.push(`      provider: \${${providerName(profile)}}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The file `pulumi import --file` takes: every resource by type, name and import id, and through the
 * explicit provider of its profile, declared first with the same name and inputs as in the program.
 */
export function renderImportFile(model: Model): string {
  const providers = profilesOf(model).map((p) => ({
    type: "pulumi:providers:wpengine",
    name: providerName(p),
    inputs: { profile: p },
  }));
  const resources = model.resources.map((r) => {
    const profile = profileOf(r);
    return {
      type: `wpengine:index:${r.kind}`,
      name: r.name,
      id: r.importId,
      ...(profile ? { provider: providerName(profile) } : {}),
    };
  });
  return `${JSON.stringify({ resources: [...providers, ...resources] }, null, 2)}\n`;
}

/** The program's file: `index.ts`, `__main__.py`. */
const MAIN = { typescript: "index.ts", python: "__main__.py" } as const;

/** `Pulumi.yaml` of a TypeScript or Python project, as `pulumi new typescript` and `pulumi new python` write it. */
function projectYaml(model: Model, opts: RenderOptions & { language: Code }): string {
  const lines = [
    `name: ${opts.project}`,
    "runtime:",
    ...(opts.language === "python"
      ? ["  name: python", "  options:", "    toolchain: pip", "    virtualenv: venv"]
      : ["  name: nodejs", "  options:", "    typescript: true"]),
    "description: WP Engine objects brought under Pulumi by pulumi-wpengine import",
  ];
  if (model.externals.length) {
    lines.push(
      `# Ids of objects that are not resources of the program (${MAIN[opts.language]} reads them as config).`,
      "config:",
    );
    for (const e of model.externals) {
      lines.push(
        `  # ${e.what} ${e.label}`,
        `  ${e.key}:`,
        "    type: string",
        `    default: ${yamlScalar(e.value)}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

function packageJson(opts: RenderOptions): string {
  return `${JSON.stringify(
    {
      name: opts.project,
      private: true,
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": "^3.150.0", "pulumi-wpengine": opts.packageSpec },
      devDependencies: { "@types/node": "^22.0.0", typescript: "^5.9.0" },
    },
    null,
    2,
  )}\n`;
}

/**
 * `requirements.txt` (`pulumi install` reads it): the SDK as docs/languages.md installs it, the release's
 * wheel unless `--package-spec` said otherwise, the other routes in a comment.
 */
function requirements(opts: RenderOptions): string {
  const v = opts.version;
  return [
    `# pulumi_wpengine, the Python SDK of pulumi-wpengine ${v} (pulumi up downloads its plugin): the last line.`,
    `# Other routes for it: the release's wheel beside this file, ./pulumi_wpengine-${v}-py3-none-any.whl;`,
    `# the repository, ${opts.pipGit}; PyPI's, pulumi_wpengine==${v}.`,
    "pulumi>=3.0.0,<4.0.0",
    opts.packageSpec,
    "",
  ].join("\n");
}

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      module: "CommonJS",
      moduleResolution: "node",
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      outDir: "bin",
    },
    files: ["index.ts"],
  },
  null,
  2,
)}\n`;

/** A word as a POSIX shell takes it: as it is when it is plain, else in single quotes. */
export const shellWord = (word: string): string =>
  /^[\w@%+=:,./^~-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;

/**
 * Where the program's credentials come from: the provider's own, or each profile's its resources name; for
 * objects read from a simulator world, that world (another holds other objects: an `up` there creates them).
 */
function credentialsLines(model: Model, opts: RenderOptions): string[] {
  const { language, simulator } = opts;
  if (simulator !== undefined)
    return [
      `The objects were read from the bundled simulator's ${simulator === "true" ? "shared world (`$PULUMI_HOME/wpengine-simulator.json`)" : `world \`${simulator}\``}:`,
      `the steps below run on it, \`WPE_SIMULATOR=${shellWord(simulator)}\` (their first line) in place of credentials. Any other`,
      `world${simulator === "true" ? "" : " (`WPE_SIMULATOR=true` is the shared one)"} holds other objects, which the steps would create anew.`,
    ];
  const profiles = profilesOf(model);
  if (!profiles.length)
    return [
      "The credentials are the provider's: `WPE_API_USER_ID` and `WPE_API_PASSWORD` in the environment, or",
      "`pulumi config set wpengine:username <id>` and `pulumi config set --secret wpengine:password <password>`.",
    ];
  return [
    language === "yaml"
      ? `Each resource runs through the explicit provider of its credential profile\n(${profiles.map((p) => `\`${providerName(p)}\` for \`${p}\``).join(", ")}; its inputs hold the name only): set each profile's`
      : `Each resource runs as its credential profile (${profiles.map((p) => `\`${p}\``).join(", ")}): set each profile's`,
    'API user in `pulumi config set --secret wpengine:profiles \'{"<name>": {"username": ..., "password": ...}}\'`',
    "or in `WPE_API_USER_ID_<NAME>` and `WPE_API_PASSWORD_<NAME>` (see the provider's docs/accounts.md).",
  ];
}

/** A YAML project's package declaration: Pulumi YAML reads it to name the plugin's version and server. */
export const PLUGIN_FILE = "wpengine-plugin.yaml";

/**
 * The plugin a YAML program runs, as Pulumi YAML declares a package (`pulumi package add` writes the
 * same fields): without it, a missing plugin is looked for in pulumi/pulumi-wpengine's releases.
 */
function pluginDeclaration(opts: RenderOptions): string {
  return [
    "# The plugin this program runs and where the engine downloads it when it is missing (Pulumi YAML reads",
    "# every .yaml file of the project that has packageDeclarationVersion: 1).",
    "packageDeclarationVersion: 1",
    "name: wpengine",
    `version: ${opts.version}`,
    `downloadUrl: ${opts.pluginDownloadURL}`,
    "",
  ].join("\n");
}

/** How a YAML or Python project gets the plugin, in one place of its README. */
function pluginLines(opts: RenderOptions): string[] {
  const v = opts.version;
  const [names, who, get] =
    opts.language === "yaml"
      ? [`\`${PLUGIN_FILE}\``, "`pulumi import`", "and `pulumi up` download it themselves"]
      : ["the SDK `pulumi_wpengine`", "`pulumi up`", "downloads it itself"];
  return [
    `The plugin: ${names} names release ${v} of \`pulumi-resource-wpengine\` and its server, so ${who}`,
    `${get} when it is not installed${opts.globalSpec ? " or on `PATH`" : ""}. Offline, install the release's`,
    `tarball first: \`pulumi plugin install resource wpengine ${v} --file pulumi-resource-wpengine-v${v}-<os>-<arch>.tar.gz\`${opts.globalSpec ? " (instead of `npm install --global`, without Node.js)" : ""}.`,
  ];
}

/** What keeps the sites and installs, and how to lift it, in the language's own spelling. */
function protectLines(language: Language): string[] {
  const python = language === "python";
  const dp = python ? "deletion_protection" : "deletionProtection";
  const protect = {
    typescript: "{ protect: true }",
    python: "opts=pulumi.ResourceOptions(protect=True)",
    yaml: "options: { protect: true }",
  }[language];
  const off = python ? "=False" : ": false";
  return [
    `Sites and installs are protected: the program gives each Pulumi's \`${protect}\`, as \`pulumi import\``,
    "does, so `pulumi destroy`, or removing one from the program, is refused by the engine before anything is",
    `deleted (its domains, users and cache exclusions included); they also keep \`${dp}\` on, so`,
    `the provider refuses to delete the website. To delete one, set \`protect${off}\` and \`${dp}${off}\`, run`,
    "`pulumi up`, then remove it (or `pulumi destroy`).",
  ];
}

function readme(model: Model, opts: RenderOptions): string {
  const counts = new Map<string, number>();
  for (const r of model.resources) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const { language } = opts;
  const yaml = language === "yaml";
  const adopt = [
    "WPE_ADOPT_EXISTING=true pulumi up --yes   # once: each create finds its object and only reads it",
    "pulumi preview --refresh                  # no changes",
  ];
  const steps = {
    yaml: [
      ...(opts.globalSpec
        ? [
            `npm install --global ${opts.globalSpec}   # the plugin: puts pulumi-resource-wpengine on PATH (Node.js >= 22)`,
          ]
        : []),
      "pulumi stack init prod",
      "pulumi import --file import.json --generate-code=false --protect=false --yes   # reads only",
      "pulumi up --yes            # no change on the service: records the program's protect on sites and installs",
      "pulumi preview --refresh   # no changes: the state is the account",
    ],
    typescript: ["pulumi stack init prod", "npm install", ...adopt],
    python: [
      "pulumi stack init prod",
      "pulumi install                            # venv/ with requirements.txt (pulumi_wpengine)",
      ...adopt,
    ],
  };
  const out = [
    `# ${opts.project}`,
    "",
    `Generated by \`${opts.command}\` from ${opts.source}: ${model.resources.length} resources,`,
    `one per object (${[...counts].map(([k, n]) => `${n} ${k}`).join(", ") || "none"}).`,
    "",
    "## Take them in",
    "",
    ...credentialsLines(model, opts),
    ...(/^https?:/.test(opts.source) && opts.source !== DEFAULT_API_URL
      ? [
          `The objects were read from ${opts.source}, not the API's default address: set \`WPE_API_URL=${opts.source}\``,
          ...(yaml && profilesOf(model).length
            ? [
                "(and `WPE_APP_HOSTING_URL` for apps) in the environment before the steps below. Only the environment:",
                "the per-profile providers are explicit providers, which take the API's address from their inputs or",
                "the environment, not from the stack's `wpengine:apiUrl` (`pulumi config set wpengine:apiUrl` would leave",
                `their calls going to ${DEFAULT_API_URL}, with the profiles' credentials).`,
              ]
            : [
                "(and `WPE_APP_HOSTING_URL` for apps), or `pulumi config set wpengine:apiUrl ...`, before the steps below.",
              ]),
        ]
      : []),
    "",
    "```sh",
    ...(opts.simulator === undefined
      ? []
      : [
          `export WPE_SIMULATOR=${shellWord(opts.simulator)}   # the simulator world the objects were read from`,
        ]),
    ...steps[language],
    "```",
    "",
    ...(language === "typescript" ? [] : [...pluginLines(opts), ""]),
    yaml
      ? "`pulumi import --file` reads each object by its import id (the comment above each resource in `Pulumi.yaml`) and records it in the stack; nothing is written to the service. `WPE_ADOPT_EXISTING=true pulumi up` takes the objects in as well."
      : `\`WPE_ADOPT_EXISTING=true\` is needed once: without it, each create refuses an object that already exists (its error says to set \`${language === "python" ? "adopt=True" : "adopt: true"}\`), so a program run by mistake against a populated account never takes it over silently. With it, each object whose inputs match what the service holds is only read; afterwards the program is the same as one written by hand, with no \`adopt\` flags left in it. With hundreds of resources, \`PULUMI_SKIP_CHECKPOINTS=true\` on that \`up\` makes it several times faster (the state is written once, at the end); if that run is killed, run it again: it takes every object back.`,
    "",
    ...protectLines(language),
    "",
  ];
  if (model.externals.length) {
    out.push(
      "## Ids outside the program",
      "",
      yaml
        ? "The `variables:` of `Pulumi.yaml` hold the ids of what the program refers to but does not manage:"
        : "The `config:` of `Pulumi.yaml` holds the ids of what the program refers to but does not manage (`pulumi config set <key> <id>` overrides one per stack):",
      "",
      "| key | what | id |",
      "|---|---|---|",
      ...model.externals.map((e) => `| \`${e.key}\` | ${e.what} ${e.label} | \`${e.value}\` |`),
      "",
    );
  }
  out.push("## Not brought in", "", "| kind | object | why |", "|---|---|---|");
  // Objects left out of one kind for one reason (an account's installs all refused) share a row.
  const rows = new Map<string, { kind: string; reason: string; labels: string[] }>();
  for (const l of model.leftOut) {
    const key = `${l.kind}\n${l.reason}`;
    if (!rows.has(key)) rows.set(key, { kind: l.kind, reason: l.reason, labels: [] });
    rows.get(key)!.labels.push(l.label);
  }
  for (const r of rows.values()) out.push(`| ${r.kind} | ${r.labels.join(", ")} | ${r.reason} |`);
  if (!model.leftOut.length) out.push("| - | nothing | - |");
  out.push(
    "",
    "Not listed: one-off actions (backups, restores, install copies, cache purges and clears, site transfers, verifications) are history, not state to manage.",
    "",
  );
  return out.join("\n");
}

/**
 * What git leaves out: the dependencies, the compiled program, the embedded simulator's world, and the
 * provider's create journal (one machine's runs, read by `pulumi-wpengine recover`: docs/recover.md).
 */
function gitignore(language: Language): string {
  const lines = [
    "# The provider's create journal, read by pulumi-wpengine recover on this machine.",
    ".wpengine/",
    "# A bundled simulator's world kept in the project (WPE_SIMULATOR=.wpengine-simulator.json).",
    ".wpengine-simulator.json",
    ".wpengine-simulator.json.*",
  ];
  if (language === "typescript") lines.unshift("node_modules/", "bin/");
  if (language === "python") lines.unshift("venv/", "__pycache__/");
  return `${lines.join("\n")}\n`;
}

/** Every file of the project, by relative path. */
export function renderProject(model: Model, opts: RenderOptions): Record<string, string> {
  if (opts.language === "yaml") {
    return {
      "Pulumi.yaml": renderYaml(model, opts),
      "import.json": renderImportFile(model),
      "README.md": readme(model, opts),
      ".gitignore": gitignore("yaml"),
      [PLUGIN_FILE]: pluginDeclaration(opts),
    };
  }
  const code = { ...opts, language: opts.language };
  return {
    ".gitignore": gitignore(code.language),
    "Pulumi.yaml": projectYaml(model, code),
    [MAIN[code.language]]: renderProgram(model, code),
    ...(code.language === "python"
      ? { "requirements.txt": requirements(opts) }
      : { "package.json": packageJson(opts), "tsconfig.json": TSCONFIG }),
    "README.md": readme(model, opts),
  };
}
