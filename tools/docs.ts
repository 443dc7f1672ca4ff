/**
 * Writes the generated part of each resource's page in docs/ (its inputs, outputs, import id and what
 * delete does) from the kind's definition, between two marker lines; the prose and examples around it
 * are hand-written. `npm run docs` writes the pages; `test/unit/docs.test.ts` fails when one is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { COVERED, LEFT_OUT } from "../importer/kinds";
import { CONFIG_KEYS } from "../provider/core/config";
import { fieldMeta, type Kind } from "../provider/core/define";
import { LOST_SENDS } from "../provider/core/lifecycle";
import { homeOf, type PackageJson } from "../provider/executable/home";

export const BEGIN =
  "<!-- generated from the definition by `npm run docs`: edit provider/kinds/, not this part -->";
export const END = "<!-- end of the generated part -->";

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  default?: unknown;
  description?: string;
};

/** A JSON Schema type in words, as a table cell shows it. */
export function typeOf(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(" or ");
  if (Array.isArray(s.type)) return s.type.map((type) => typeOf({ ...s, type })).join(" or ");
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(", ");
  switch (s.type) {
    case "array":
      return `list of ${s.items ? typeOf(s.items) : "any"}`;
    case "object":
      return s.properties
        ? `{ ${Object.entries(s.properties)
            .map(([k, v]) => `${k}: ${typeOf(v)}`)
            .join("; ")} }`
        : "map";
    case "null":
      return "null";
    case undefined:
      return "any";
    default:
      return s.type;
  }
}

const cell = (text: string | undefined) => (text ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The generated part of a kind's page. */
export function renderKind(kind: Kind): string {
  const given = z.toJSONSchema(kind.inputs, { io: "input", unrepresentable: "any" }) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
  const computed = z.toJSONSchema(kind.outputs, { io: "output", unrepresentable: "any" }) as {
    properties: Record<string, JsonSchema>;
  };
  const meta = fieldMeta(kind.inputs);
  const outMeta = fieldMeta(kind.outputs);
  const lines = [
    BEGIN,
    "",
    "## Inputs",
    "",
    "| input | type | required / default | on change | drift | description |",
    "|---|---|---|---|---|---|",
  ];
  for (const [key, prop] of Object.entries(given.properties)) {
    const m = meta[key] ?? {};
    const required = given.required?.includes(key)
      ? "required"
      : prop.default !== undefined
        ? `\`${JSON.stringify(prop.default)}\``
        : "optional";
    const change = m.replaces
      ? "replaces"
      : m.kept
        ? "updates in place (read once as it, then recorded; nothing written)"
        : m.setting
          ? "nothing planned"
          : "updates in place";
    const drift = m.setting ? "provider setting" : m.writeOnly ? "write-only: not read back" : "watched";
    const type = `${typeOf({ ...prop, default: undefined })}${m.secret ? " (secret)" : ""}`;
    lines.push(
      `| \`${key}\` | ${cell(type)} | ${required} | ${change} | ${drift} | ${cell(prop.description)} |`,
    );
  }
  lines.push(
    "",
    "## Outputs",
    "",
    "Every input, plus:",
    "",
    "| output | type | description |",
    "|---|---|---|",
  );
  for (const [key, prop] of Object.entries(computed.properties)) {
    const type = `${typeOf(prop)}${outMeta[key]?.secret ? " (secret)" : ""}`;
    lines.push(`| \`${key}\` | ${cell(type)} | ${cell(prop.description)} |`);
  }
  lines.push("", "## Import", "");
  if (typeof kind.importId === "string") {
    const id = kind.importId.replace(/\{(\w+)\}/g, "<$1>");
    lines.push(
      "With the [executable provider](executable-provider.md):",
      "",
      "```sh",
      `pulumi import wpengine:index:${kind.kind} <name> ${id}`,
      "```",
    );
    if (kind.list)
      lines.push(
        "",
        "The existing objects and their import ids, without a program ([`pulumi do`](executable-provider.md#look-at-or-fix-one-object-pulumi-do)):",
        "",
        "```sh",
        `pulumi do --package <plugin> wpengine:${kind.kind} list ${listFlags(kind)}`.trimEnd(),
        "```",
      );
  } else {
    lines.push(`Cannot be imported: ${kind.importId.none}`);
  }
  lines.push("", "## Lost responses", "", lostResponses(kind));
  lines.push("", "## One owner", "", ownership(kind));
  lines.push("", "## Delete", "", kind.deletes, "", END);
  lines.splice(lines.length - 1, 0, ...renderDrift(kind), "");
  return lines.join("\n");
}

/** A kind's list inputs as `pulumi do ... list` takes them: `--install-id <installId>` (optional ones in brackets). */
export function listFlags(kind: Kind): string {
  const shape = kind.list?.inputs.shape ?? {};
  return Object.entries(shape)
    .map(([name, field]) => {
      const flag = `--${name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()} <${name}>`;
      return (field as { isOptional(): boolean }).isOptional() ? `[${flag}]` : flag;
    })
    .join(" ");
}

/** The page's drift section: what a refresh watches, what it cannot see, and what it does when the object is gone. */
export function renderDrift(kind: Kind): string[] {
  const meta = fieldMeta(kind.inputs);
  const updatable = kind.updatable as readonly string[];
  const replacing = kind.replaceOn as readonly string[];
  const names = (keys: readonly string[]) => (keys.length ? keys.map((k) => `\`${k}\``).join(", ") : "none");
  const read = (keys: readonly string[]) => keys.filter((k) => !meta[k]?.writeOnly);
  const settings = Object.keys(meta).filter((k) => meta[k]!.setting);
  return [
    "## Drift",
    "",
    "A refresh reads the object back from the service.",
    "",
    `- **Watched** (a change made outside the program shows in \`pulumi preview --refresh\`, and \`pulumi up --refresh\` sets it back): ${names(read(updatable))}.`,
    `- **Watched, replacing** (a change made outside the program shows in \`pulumi preview --refresh\`, and \`pulumi up --refresh\` replaces the object to undo it): ${names(read(replacing))}.`,
    `- **Write-only** (the service never returns it: carried over from the state, so it cannot show drift): ${names([...replacing, ...updatable].filter((k) => meta[k]?.writeOnly))}.`,
    `- **Provider settings** (never sent to the service): ${names(settings)}.`,
    `- **Gone**: ${kind.gone}`,
  ];
}

/** What happens when the answer to a create (or another write) is lost: the connection dropped, a timeout, a 5xx. */
export function lostResponses(kind: Kind): string {
  const key = kind.naturalKey;
  const lost =
    "When a write may have acted without the provider knowing (the connection drops mid-flight, no answer in time, any 5xx, a 503 included: only a 429 or another 4xx proves nothing happened)";
  if ("what" in key)
    return (
      `${lost}, create looks the object up by its natural key, ${key.what}: found, it is taken as created (nothing ` +
      "held that key when create looked before sending, so the lost request made it, unless another run created " +
      `the same one in that moment); not found, the request is sent again (at most ${LOST_SENDS} sends). ` +
      "No second object is made and the run goes on, saying so in one line."
    );
  if ("resend" in key) return `${lost}, it is sent again (at most ${LOST_SENDS} sends): ${key.resend}`;
  const step = key.recover.replace(/\{(\w+)\}/g, "<$1>");
  return `No natural key: ${key.none}. ${lost}, the step fails and its message says how to recover: ${step}.`;
}

/** Who may own the object: the identity two resources of one stack cannot share ([ownership](ownership.md)). */
export function ownership(kind: Kind): string {
  const id = kind.identity;
  if (!id) return "An action: it owns no object, so any number of resources may run it.";
  return (
    `Its identity is ${id.what} (${id.fields.map((f) => `\`${f}\``).join(", ")}): a second resource of the ` +
    "stack with the same identity fails `pulumi preview`, naming both resources and the key, before any write. " +
    (id.find
      ? "So does a new resource (or a replacement moved to another parent or name) whose object the service " +
        "already holds (in the words create would refuse it " +
        "with: set `adopt: true` to take it over, or hand it over from the stack that manages it), or whose " +
        "parent id names nothing on the service ([ownership](ownership.md)). "
      : kind.takeover
        ? "So does a new resource (or a replacement moved to another parent) whose create would take over what " +
          "the service holds without `adopt: true` " +
          "(in the words create would refuse it with), or whose parent id names nothing on the service " +
          "([ownership](ownership.md)). "
        : "") +
    ("adopt" in kind.schema.shape
      ? "An adoption (`adopt: true`, `WPE_ADOPT_EXISTING`, or a lost answer resolved by the natural key) says " +
        "what it took and its id, and never takes an object another resource of the stack holds."
      : "It has no `adopt` input: it never takes over what the service holds.")
  );
}

/** A page with its generated part rendered anew (appended when the page has none yet). */
export function withGenerated(page: string, kind: Kind): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < 0) return `${page.trimEnd()}\n\n${renderKind(kind)}\n`;
  return page.slice(0, start) + renderKind(kind) + page.slice(end + END.length);
}

export const IMPORT_BEGIN =
  "<!-- import ids, generated from the definitions by `npm run docs`: edit provider/kinds/, not this part -->";
export const IMPORT_END = "<!-- end of the import ids -->";

/** The import-id table of docs/executable-provider.md: every kind, by its definition's `importId`. */
export function renderImportIds(kinds: readonly Kind[]): string {
  const sorted = [...kinds].sort((a, b) => (a.kind < b.kind ? -1 : 1));
  const lines = [IMPORT_BEGIN, "", "| resource | import id | `pulumi do ... list` takes |", "|---|---|---|"];
  for (const k of sorted)
    if (typeof k.importId === "string")
      lines.push(
        `| \`${k.kind}\` | \`${k.importId.replace(/\{(\w+)\}/g, "<$1>")}\` | ${k.list ? `\`${listFlags(k) || "(nothing)"}\`` : "no listing"} |`,
      );
  lines.push("", "| not importable | why |", "|---|---|");
  for (const k of sorted)
    if (typeof k.importId !== "string") lines.push(`| \`${k.kind}\` | ${cell(k.importId.none)} |`);
  lines.push("", IMPORT_END);
  return lines.join("\n");
}

/** docs/executable-provider.md with its import-id table rendered anew. */
export function withImportIds(page: string, kinds: readonly Kind[]): string {
  return between(page, IMPORT_BEGIN, IMPORT_END, renderImportIds(kinds), "docs/executable-provider.md");
}

/** Rewrites the part of `page` between `begin` and `end` (each on its own line) as `part`. */
function between(page: string, begin: string, end: string, part: string, file: string): string {
  const start = page.indexOf(begin);
  const stop = page.indexOf(end);
  if (start < 0 || stop < 0) throw new Error(`${file} has no markers ${begin} ... ${end}`);
  return page.slice(0, start) + part + page.slice(stop + end.length);
}

export const RESOURCES_BEGIN =
  "<!-- the resources, generated from the definitions by `npm run docs`: edit provider/kinds/, not this part -->";
export const RESOURCES_END = "<!-- end of the resources -->";

/** The README's resource table: what replaces, what updates in place, what delete does, by definition. */
export function renderResources(kinds: readonly Kind[]): string {
  const sorted = [...kinds].sort((a, b) => (a.kind < b.kind ? -1 : 1));
  const names = (keys: readonly string[]) => keys.join(", ") || "-";
  const lines = [
    RESOURCES_BEGIN,
    "",
    "| resource | a change replaces | updated in place | `pulumi-wpengine import` | what delete does on the service |",
    "|---|---|---|---|---|",
  ];
  for (const k of sorted) {
    const imported = LEFT_OUT[k.kind] === undefined ? "brought in" : "left out";
    // What the delete does, and (a guarded kind) when it refuses, as its page says it.
    const refused = k.protects && /(Refused [^.:]*)[.:]/.exec(k.deletes.replace(/\s+/g, " "))?.[1];
    const deletes = `${firstSentence(k.deletes)}${refused ? ` ${refused}.` : ""}`;
    lines.push(
      `| [\`${k.kind}\`](docs/${k.kind}.md) | ${names(k.replaceOn)} | ${names(k.updatable)} | ${imported} | ${cell(deletes)} |`,
    );
  }
  lines.push("", RESOURCES_END);
  return lines.join("\n");
}

/** README.md with its resource table rendered anew. */
export const withResources = (page: string, kinds: readonly Kind[]) =>
  between(page, RESOURCES_BEGIN, RESOURCES_END, renderResources(kinds), "README.md");

export const IMPORTER_BEGIN =
  "<!-- the importer's kinds, generated from the definitions by `npm run docs`: edit provider/kinds/, not this part -->";
export const IMPORTER_END = "<!-- end of the importer's kinds -->";

/** docs/importer.md's kinds: those brought in, in program order, and why each other one is left out. */
export function renderImporterKinds(): string {
  return [
    IMPORTER_BEGIN,
    "",
    `Brought in, one resource per object, in this order: ${COVERED.map((k) => `\`${k}\``).join(", ")}.`,
    "",
    "| left out | why |",
    "|---|---|",
    ...Object.entries(LEFT_OUT).map(([k, why]) => `| \`${k}\` | ${cell(why)} |`),
    "",
    IMPORTER_END,
  ].join("\n");
}

/** docs/importer.md with its kinds rendered anew. */
export const withImporterKinds = (page: string) =>
  between(page, IMPORTER_BEGIN, IMPORTER_END, renderImporterKinds(), "docs/importer.md");

const REGISTRY_NOTE =
  "<!-- generated by `npm run docs` from package.json and provider/ (the Pulumi Registry's package pages): edit those, not this page -->";

/** The first sentence of a description, for a list. */
const firstSentence = (text: string) => (/^(.*?\.)(\s|$)/s.exec(text)?.[1] ?? text).replace(/\s+/g, " ");

/** The same small program in each language, as the registry's language chooser shows it. */
function example(home: ReturnType<typeof homeOf>): string[] {
  const programs: [string, string, string][] = [
    [
      "typescript",
      "typescript",
      'import * as wpengine from "pulumi-wpengine";\n\nconst www = new wpengine.Domain("www", { installId: "<install id>", name: "www.example.com" });\nexport const txtRecordName = www.txtVerificationKey;\nexport const txtRecordValue = www.txtVerificationValue;',
    ],
    [
      "python",
      "python",
      'import pulumi\nimport pulumi_wpengine as wpengine\n\nwww = wpengine.Domain("www", install_id="<install id>", name="www.example.com")\npulumi.export("txtRecordName", www.txt_verification_key)\npulumi.export("txtRecordValue", www.txt_verification_value)',
    ],
    [
      "go",
      "go",
      `package main\n\nimport (\n\t"${home.goImport}"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\twww, err := wpengine.NewDomain(ctx, "www", &wpengine.DomainArgs{\n\t\t\tInstallId: pulumi.String("<install id>"),\n\t\t\tName:      pulumi.String("www.example.com"),\n\t\t})\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\tctx.Export("txtRecordName", www.TxtVerificationKey)\n\t\tctx.Export("txtRecordValue", www.TxtVerificationValue)\n\t\treturn nil\n\t})\n}`,
    ],
    [
      "yaml",
      "yaml",
      `resources:\n  www:\n    type: wpengine:index:Domain\n    properties:\n      installId: <install id>\n      name: www.example.com\noutputs:\n  txtRecordName: \${www.txtVerificationKey}\n  txtRecordValue: \${www.txtVerificationValue}`,
    ],
  ];
  return [
    '{{< chooser language "typescript,python,go,yaml" >}}',
    ...programs.flatMap(([lang, fence, code]) => [
      `{{% choosable language ${lang} %}}`,
      "",
      `\`\`\`${fence}`,
      code,
      "```",
      "",
      "{{% /choosable %}}",
    ]),
    "{{< /chooser >}}",
  ];
}

/** docs/_index.md: the package's overview page in the Pulumi Registry. */
export function renderRegistryIndex(pkg: PackageJson, kinds: readonly Kind[]): string {
  const home = homeOf(pkg);
  const sorted = [...kinds].sort((a, b) => (a.kind < b.kind ? -1 : 1));
  return [
    "---",
    "title: WP Engine",
    "meta_desc: Provides an overview of the WP Engine provider for Pulumi.",
    "layout: package",
    "---",
    "",
    REGISTRY_NOTE,
    "",
    `The WP Engine provider manages the objects of the [WP Engine](https://wpengine.com) Hosting Platform API and its application-hosting API: sites, installs, domains, certificates, cache settings, backups, users, SSH keys, apps and their environments. It runs in every Pulumi language: the npm package \`pulumi-wpengine\` for TypeScript and JavaScript, the Python package \`pulumi_wpengine\`, the Go module \`${home.goModule}\`, and YAML. Before credentials, it can run against the simulator it bundles.`,
    "",
    "## Example",
    "",
    ...example(home),
    "",
    "## Resources",
    "",
    ...sorted.map((k) => `- \`wpengine:index:${k.kind}\`: ${cell(firstSentence(k.description))}`),
    "",
    `Installation and the provider's settings: [Installation & Configuration](installation-configuration.md). The source, the issues and every release's files: [${home.url}](${home.url}).`,
    "",
  ].join("\n");
}

/** docs/installation-configuration.md: how to install the package in each language, and its settings. */
export function renderInstallation(pkg: PackageJson): string {
  const home = homeOf(pkg);
  const v = pkg.version;
  const keys = Object.values(CONFIG_KEYS) as readonly {
    key: string;
    env: string;
    doc: string;
    secret?: boolean;
  }[];
  return [
    "---",
    "title: WP Engine Installation & Configuration",
    "meta_desc: Information on how to install the WP Engine provider for Pulumi and set its credentials.",
    "layout: package",
    "---",
    "",
    REGISTRY_NOTE,
    "",
    "## Installation",
    "",
    `Every file named here is attached to the release [v${v}](${home.releaseUrl(v)}); [languages.md](languages.md) runs the same steps from a directory holding only those files.`,
    "",
    `- **TypeScript / JavaScript**: \`npm install pulumi-wpengine @pulumi/pulumi\` (before it is on npm: \`npm install ./pulumi-wpengine-${v}.tgz @pulumi/pulumi\`, or \`npm install ${home.npmGit}\`). No plugin: the resources run inside the program.`,
    `- **Python**: \`pip install ./pulumi_wpengine-${v}-py3-none-any.whl\` (or \`pip install "${home.pipGit}"\`), and the plugin below.`,
    `- **Go**: \`go get ${home.goModule}@v${v}\` with the release's \`goproxy/\` directory first in \`GOPROXY\` (\`GOPROXY=file://$PWD/goproxy,https://proxy.golang.org GONOSUMDB=github.com/${home.owner}/*\`), and the plugin below.`,
    `- **YAML**: no SDK; the plugin below. No SDK names its server for a YAML program either: without one of these the engine looks for a missing plugin in \`github.com/pulumi/pulumi-wpengine\` and fails. Declare the package in a file of the project (any name ending in \`.yaml\`, say \`wpengine-plugin.yaml\`; \`pulumi-wpengine import --language yaml\` writes it): \`packageDeclarationVersion: 1\`, \`name: wpengine\`, \`version: ${v}\`, \`downloadUrl: ${home.pluginDownloadURL}\` (one per line), or give each resource \`options: { version: ${v}, pluginDownloadURL: ${home.pluginDownloadURL} }\`, or install the plugin first (below).`,
    "",
    "### The plugin",
    "",
    "Python, Go and YAML programs run the provider plugin `pulumi-resource-wpengine`, one self-contained executable per platform (no Node.js needed):",
    "",
    "```sh",
    `pulumi plugin install resource wpengine ${v} --file pulumi-resource-wpengine-v${v}-linux-amd64.tar.gz`,
    "```",
    "",
    `(\`linux-amd64\`, \`linux-arm64\`, \`darwin-amd64\` or \`windows-amd64\`.) Once the release is published on GitHub, the engine downloads it by itself from \`${home.pluginDownloadURL}\` (the Python and Go SDKs name that server; a YAML project, its package declaration above), or \`pulumi plugin install resource wpengine ${v} --server ${home.pluginDownloadURL}\`. With Node.js >= 22, \`npm install --global pulumi-wpengine\` puts the same plugin on \`PATH\` instead.`,
    "",
    "## Configuration",
    "",
    "The provider's settings, as stack config (`pulumi config set wpengine:<key> <value>`, a secret with `--secret`) or the environment variable beside it:",
    "",
    "| config | environment | description |",
    "|---|---|---|",
    ...keys.map((c) => `| \`${c.key}\`${c.secret ? " (secret)" : ""} | \`${c.env}\` | ${cell(c.doc)} |`),
    "",
    "The credentials are an API user's of the WP Engine User Portal (API Access page). Without them the provider refuses to run, unless `wpengine:simulator` (or `WPE_SIMULATOR=true`) asks for the bundled simulator.",
    "",
    "Set the secret settings with `--secret`. Set in clear text, `wpengine:password` (or `wpengine:profiles`) stays in clear text in the stack's config file and in each update's history; the provider (YAML, Python, Go, .NET) still stores it in the state as a secret. The Node.js classes cannot: the engine keeps their stack config in the state as it is set, so `pulumi preview` warns once, in one line naming `pulumi config set --secret wpengine:password <value>`.",
    "",
    'A value the provider cannot read fails `pulumi preview` in one line naming where it was set (the config key, or the environment variable) and the value (never a password): a boolean setting takes `true` or `false` (or `1`/`0`, `yes`/`no`), a number a whole number, a URL an `https://` one (`http://` to a loopback address), checked with `wpengine:simulator` on too (the simulator does not use it, but a bad one is refused alike in YAML and TypeScript, not found only when the simulator is turned off), its line naming a base URL to give. So does a `wpengine:` key that is no setting (`wpengine:simulater`: "did you mean wpengine:simulator?"); a project named `wpengine`, whose own keys share the namespace, is not checked. Preview also fails when `GET /user` shows that `apiUrl` is not the API (a 404, or a web page): its base URL ends in `/v1`.',
    "",
  ].join("\n");
}

/** The registry's pages, by path under the repository, as `npm run docs` writes them. */
export function registryPages(pkg: PackageJson, kinds: readonly Kind[]): Record<string, string> {
  return {
    "docs/_index.md": renderRegistryIndex(pkg, kinds),
    "docs/installation-configuration.md": renderInstallation(pkg),
  };
}

/** The page of a kind. */
export const pageOf = (root: string, kind: Kind) => path.join(root, "docs", `${kind.kind}.md`);

if (require.main === module) {
  // Run from dist/tools/ by `npm run docs`: the repository is two levels up.
  const root = path.resolve(__dirname, "..", "..");
  const { KINDS } = require("../provider/registry") as { KINDS: Record<string, Kind> };
  for (const kind of Object.values(KINDS)) {
    const file = pageOf(root, kind);
    const page = readFileSync(file, "utf8");
    const next = withGenerated(page, kind);
    if (next !== page) {
      writeFileSync(file, next);
      console.log(`docs: wrote ${path.relative(root, file)}`);
    }
  }
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageJson;
  for (const [rel, text] of Object.entries(registryPages(pkg, Object.values(KINDS)))) {
    const file = path.join(root, rel);
    let old = "";
    try {
      old = readFileSync(file, "utf8");
    } catch {}
    if (old !== text) {
      writeFileSync(file, text);
      console.log(`docs: wrote ${rel}`);
    }
  }
  const rewrites: [string, (page: string) => string][] = [
    ["docs/executable-provider.md", (page) => withImportIds(page, Object.values(KINDS))],
    ["README.md", (page) => withResources(page, Object.values(KINDS))],
    ["docs/importer.md", withImporterKinds],
  ];
  for (const [rel, rewrite] of rewrites) {
    const file = path.join(root, rel);
    const page = readFileSync(file, "utf8");
    const next = rewrite(page);
    if (next !== page) {
      writeFileSync(file, next);
      console.log(`docs: wrote ${rel}`);
    }
  }
}
