/**
 * Where the project lives is said once, in package.json's `repository`: the schema the provider serves
 * (its `language` section, `pluginDownloadURL`, `repository`) and the committed SDKs (`languages/`) agree
 * with it and with each other, and no doc names another home or leaves a placeholder for it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import PKG from "../../package.json";
import { homeOf } from "../../provider/executable/home";
import { generateSchema } from "../../tools/schema";

const ROOT = path.resolve(__dirname, "..", "..");
const read = (...p: string[]) => fs.readFileSync(path.join(ROOT, ...p), "utf8");
const home = homeOf(PKG);
/** What `npm run build` writes into dist/provider/executable/schema.json and GetSchema serves. */
const served = generateSchema(PKG) as {
  version: string;
  pluginDownloadURL: string;
  repository: string;
  language: { go: { importBasePath: string }; python: { packageName: string } };
};

describe("the project's home, from package.json's repository", () => {
  it("is the GitHub repository the docs name", () => {
    expect(home.url).toBe("https://github.com/pulumi-wpengine/pulumi-wpengine");
    expect(home.goModule).toBe("github.com/pulumi-wpengine/pulumi-wpengine/languages/go");
    expect(home.pluginDownloadURL).toBe("github://api.github.com/pulumi-wpengine/pulumi-wpengine");
    expect(() => homeOf({ ...PKG, repository: "https://example.com/x.git" })).toThrow(
      /repository is not a https:\/\/github.com\/<owner>\/<repo> URL/,
    );
  });

  it("the served schema's language section and plugin URL are the committed SDKs'", () => {
    expect(served.repository).toBe(home.url);
    // Go: the module the SDK declares, and the import path the schema generates it at.
    expect(read("languages", "go", "go.mod")).toMatch(new RegExp(`^module ${home.goModule}$`, "m"));
    expect(served.language.go.importBasePath).toBe(`${home.goModule}/wpengine`);
    // Python: the package name.
    expect(read("languages", "python", "pyproject.toml")).toContain(
      `name = "${served.language.python.packageName}"`,
    );
    // Both: the version and where the engine downloads the plugin from.
    for (const f of ["python/pulumi_wpengine/pulumi-plugin.json", "go/wpengine/pulumi-plugin.json"])
      expect(JSON.parse(read("languages", f)), f).toEqual({
        resource: true,
        name: "wpengine",
        version: PKG.version,
        server: served.pluginDownloadURL,
      });
    expect(read("languages", "go", "wpengine", "internal", "pulumiUtilities.go")).toContain(
      `pulumi.PluginDownloadURL("${served.pluginDownloadURL}")`,
    );
  });

  it("the Go module requires the sdk/v3 examples/go is built with, whose module graph the proxy serves", () => {
    // The generator's own v3.269.0 needs github.com/pulumi/pulumi-cloud-sdk/go v1.20260918.0, which
    // proxy.golang.org refuses (403): a user's `go mod tidy` failed on it.
    const sdk = /^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/m.exec(
      read("examples", "go", "go.mod"),
    )?.[1];
    expect(sdk).toMatch(/^v3\.\d+\.\d+$/);
    expect(read("languages", "go", "go.mod")).toContain(`\nrequire github.com/pulumi/pulumi/sdk/v3 ${sdk}\n`);
  });

  it("every doc names this home and no placeholder for it", () => {
    const docs = [
      ...fs
        .readdirSync(path.join(ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
      "CHANGELOG.md",
      "examples/go/README.md",
      "examples/python/README.md",
    ];
    const problems: string[] = [];
    for (const f of docs) {
      const text = read(f);
      if (/<(repository URL|git URL)[^>]*>/.test(text))
        problems.push(`${f}: a placeholder for the repository`);
      for (const m of text.matchAll(/github\.com\/([\w-]+\/[\w-]+)/g))
        if (m[1] !== `${home.owner}/${home.repo}` && !m[1]!.startsWith("pulumi/"))
          problems.push(`${f}: github.com/${m[1]}`);
    }
    expect(problems).toEqual([]);
  });
});
