/**
 * Each resource's page in docs/ carries the tables its definition generates (inputs, outputs, import,
 * delete): a page that differs from what `npm run docs` would write now is stale.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import PKG from "../../package.json";
import { KINDS } from "../../provider/registry";
import {
  pageOf,
  registryPages,
  renderImportIds,
  renderKind,
  typeOf,
  withGenerated,
  withImporterKinds,
  withImportIds,
  withResources,
} from "../../tools/docs";

const ROOT = path.resolve(__dirname, "..", "..");

describe("generated docs", () => {
  it.each(Object.values(KINDS).map((k) => [k.kind, k] as const))("docs/%s.md is current", (_name, kind) => {
    const page = readFileSync(pageOf(ROOT, kind), "utf8");
    expect(page, `docs/${kind.kind}.md is stale: run npm run docs`).toBe(withGenerated(page, kind));
  });

  it("docs/executable-provider.md lists the import id of every kind, or why it has none", () => {
    const page = readFileSync(path.join(ROOT, "docs", "executable-provider.md"), "utf8");
    expect(page, "docs/executable-provider.md is stale: run npm run docs").toBe(
      withImportIds(page, Object.values(KINDS)),
    );
    const table = renderImportIds(Object.values(KINDS));
    for (const kind of Object.keys(KINDS)) expect(table).toContain(`| \`${kind}\` |`);
    expect(table).toContain(
      "| `DomainMappings` | `accounts/<accountId>/apps/<appId>/environments/<environmentId>/domainMappings` |",
    );
  });

  it("README.md's resource table and docs/importer.md's kinds are what the definitions say", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme, "README.md's resource table is stale: run npm run docs").toBe(
      withResources(readme, Object.values(KINDS)),
    );
    expect(readme).toContain(
      "| [`Domain`](docs/Domain.md) | installId, name | primary, redirectTo, secureAllUrls | brought in | Deletes the domain from the install on the service. |",
    );
    // A guarded kind's refusals as its page says them (a site that still holds an install too).
    expect(readme).toMatch(
      /\| \[`Site`\]\(docs\/Site\.md\) .* Refused while `deletionProtection` is on, the default, and while the site still holds an install\. \|/,
    );
    const importer = readFileSync(path.join(ROOT, "docs", "importer.md"), "utf8");
    expect(importer, "docs/importer.md is stale: run npm run docs").toBe(withImporterKinds(importer));
    expect(importer).toContain(`| \`Backup\` | ${KINDS["Backup"]!.notImported} |`);
  });

  it("names every input with its type, default, what a change does and the description", () => {
    const text = renderKind(KINDS["Domain"]!);
    expect(text).toContain(
      "| `installId` | string | required | replaces | watched | The install the domain belongs to. |",
    );
    expect(text).toMatch(/\| `primary` \| boolean \| `false` \| updates in place \| watched \|/);
    expect(text).toMatch(/\| `adopt` \| boolean \| optional \| nothing planned \| provider setting \|/);
    expect(text).toContain("pulumi import wpengine:index:Domain <name> <installId>/<id>");
  });

  it("writes types in words", () => {
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string or null");
    expect(typeOf({ type: "array", items: { enum: ["a", "b"] } })).toBe('list of `"a"`, `"b"`');
  });
});

describe("the Pulumi Registry's pages", () => {
  const pages = registryPages(PKG, Object.values(KINDS));
  it.each(Object.keys(pages))("%s is current", (rel) => {
    expect(readFileSync(path.join(ROOT, rel), "utf8"), `${rel} is stale: run npm run docs`).toBe(pages[rel]);
  });

  it("the overview's example reads outputs a Domain has, in every language", () => {
    const index = pages["docs/_index.md"]!;
    const outputs = Object.keys(KINDS["Domain"]!.outputs.shape);
    const read = [...index.matchAll(/www\.(\w+)/g)].map((m) => m[1]!).filter((n) => n !== "example");
    expect(read.length).toBe(8);
    const camel = (s: string) => s.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
    for (const name of read)
      expect(outputs, name).toContain(camel(name.charAt(0).toLowerCase() + name.slice(1)));
  });

  it("list every resource, every setting with its variable, and install from the repository's release", () => {
    const index = pages["docs/_index.md"]!;
    for (const kind of Object.keys(KINDS)) expect(index).toContain(`\`wpengine:index:${kind}\``);
    expect(index).toMatch(/^---\ntitle: WP Engine\n.*layout: package\n---\n/s);
    const install = pages["docs/installation-configuration.md"]!;
    expect(install).toContain("| `wpengine:password` (secret) | `WPE_API_PASSWORD` |");
    expect(install).toContain(
      `pulumi plugin install resource wpengine ${PKG.version} --server github://api.github.com/pulumi-wpengine/pulumi-wpengine`,
    );
  });
});
