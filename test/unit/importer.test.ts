/**
 * The importer without the CLI: naming, references, the rendering of each kind, and its refusals
 * (credentials, unknown ids, an `--out` in the way, a service failing midway) against the simulator.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commandOf, importAccount, installedAs, simulatorSetting } from "../../importer";
import { main } from "../../importer/cli";
import { readOnlyClient } from "../../importer/client";
import { shares } from "../../importer/discover";
import { allKinds, COVERED, definitionOf, fieldsOf, importIdOf, LEFT_OUT, REFS } from "../../importer/kinds";
import { buildModel, camel, External, Ref, slug } from "../../importer/model";
import { pyName, renderImportFile, renderProgram, renderProject, renderYaml } from "../../importer/render";
import { resetClient } from "../../provider/core/client";
import { parseImportId, resourceProvider } from "../../provider/executable/registry";
import { DEFAULT_MAX_CONCURRENCY, WpEngineClient } from "../../sdk";
import { Pace, processPace } from "../../sdk/core/pace";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";

/** The git route of the Python SDK, as home.ts gives it. */
const PIP_GIT =
  "pulumi_wpengine @ git+https://github.com/pulumi-wpengine/pulumi-wpengine.git#subdirectory=languages/python";

const found = (
  kind: string,
  id: string,
  label: string,
  qualifier = "q",
  fields: Record<string, string> = { id },
) => ({
  found: { kind, fields, label, qualifier },
  id,
  importId: id,
});

describe("naming", () => {
  it("makes a resource name from the object's own name", () => {
    expect(slug("www.example.com")).toBe("www-example-com");
    expect(slug("*.Example.COM.")).toBe("wildcard-example-com");
    expect(slug("Acme Marketing")).toBe("acme-marketing");
    expect(slug("!!!")).toBe("object");
    expect(camel("www-example-com")).toBe("wwwExampleCom");
    expect(camel("3rd.example")).toBe("_3rdExample");
  });

  it("keeps names unique and stable: the holder's name, then a number, in a fixed order", () => {
    const names = new Map();
    const reads = [
      found("AccountUser", "u2", "a@x.example", "Globex", { accountId: "acc2", id: "u2" }),
      found("AccountUser", "u1", "a@x.example", "Acme", { accountId: "acc1", id: "u1" }),
      found("Domain", "d1", "a.x.example", "prod"),
    ].map((r) => ({ ...r, values: {} }));
    const one = buildModel(reads, { names, leftOut: [] }).resources.map((r) => r.name);
    const two = buildModel([...reads].reverse(), { names, leftOut: [] }).resources.map((r) => r.name);
    // Users and domains are declared alike after their installs: by kind name, then by holder.
    expect(one).toEqual(["a-x-example", "a-x-example-globex", "a-x-example-prod"]);
    expect(two).toEqual(one);
  });
});

describe("the ids given (--account, --site, --install)", () => {
  const install = (n: number) => ({ id: `i${n}`, label: `install${n}` });
  it("an unknown one is named with the first ten the credentials see, and how to list the rest", () => {
    const seen = { accounts: [], sites: [], installs: Array.from({ length: 105 }, (_, n) => install(n)) };
    expect(() => shares({ installs: ["nope"] }, [{ ...seen, installs: seen.installs.slice(0, 2) }])).toThrow(
      /^unknown install nope: the credentials see these installs: install0 \(i0\), install1 \(i1\)$/,
    );
    expect(() => shares({ installs: ["nope"] }, [seen])).toThrow(
      `unknown install nope: the credentials see these installs: ${seen.installs
        .slice(0, 10)
        .map((i) => `${i.label} (${i.id})`)
        .join(
          ", ",
        )} and 95 more (\`pulumi do --package "$PWD/node_modules/.bin/pulumi-resource-wpengine" wpengine:Install list\` lists them)`,
    );
  });

  it("a name given where the id goes says the option takes an id, and gives it", () => {
    const seen = { accounts: [], sites: [], installs: [install(0), install(1)] };
    expect(() => shares({ installs: ["install1"] }, [seen])).toThrow(
      /^unknown install install1: --install takes an id, not a name \(install install1 is i1: give --install i1\)$/,
    );
  });

  it("they intersect: a site or install of an account --account leaves out is refused naming that account, not as unknown (u57)", () => {
    const seen = {
      accounts: [
        { id: "A", label: "Acme" },
        { id: "B", label: "Initech" },
      ],
      sites: [
        { id: "s1", label: "Shop", account: "A" },
        { id: "s2", label: "Portal", account: "B" },
      ],
      installs: [{ id: "i1", label: "shopprod", account: "A" }],
    };
    expect(() => shares({ accounts: ["B"], sites: ["s1"] }, [seen])).toThrow(
      /^site s1 \(Shop\) is in account Acme \(A\), which --account leaves out: add --account A or drop --site s1$/,
    );
    expect(() => shares({ accounts: ["b"], installs: ["I1"] }, [seen])).toThrow(
      /^install i1 \(shopprod\) is in account Acme \(A\), which --account leaves out: add --account A or drop --install i1$/,
    );
    // Both accounts: the site, and each account (its own objects come with it: discover).
    expect(shares({ accounts: ["A", "B"], sites: ["s1"] }, [seen])).toEqual([
      { accounts: ["A", "B"], sites: ["s1"], installs: [] },
    ]);
    // A second API user who sees account B only still brings B's own objects.
    const other = { accounts: [{ id: "B", label: "Initech" }], sites: [seen.sites[1]!], installs: [] };
    expect(shares({ accounts: ["A", "B"], sites: ["s1"] }, [seen, other])[1]).toEqual({
      accounts: ["B"],
      sites: [],
      installs: [],
    });
  });
});

describe("references", () => {
  const names = new Map([
    ["acc1", { what: "account", label: "Acme Corp" }],
    ["i-out", { what: "install", label: "elsewhere" }],
  ]);
  const model = buildModel(
    [
      {
        ...found("Domain", "d2", "www.x.example"),
        values: { installId: "i1", name: "www.x.example", redirectTo: "d1" },
      },
      {
        ...found("Domain", "d1", "x.example"),
        values: { installId: "i1", name: "x.example", primary: true },
      },
      {
        ...found("Install", "i1", "xprod"),
        values: { name: "xprod", accountId: "acc1", deletionProtection: true },
      },
      {
        ...found("Domain", "d3", "y.example"),
        values: { installId: "i-out", name: "y.example", redirectTo: null },
      },
    ],
    { names, leftOut: [] },
  );
  const by = (n: string) => model.resources.find((r) => r.name === n)!;

  it("names the other resource when both are in the program, and orders it first", () => {
    expect(model.resources.map((r) => r.name)).toEqual(["xprod", "x-example", "www-x-example", "y-example"]);
    const redirect = by("www-x-example").inputs["redirectTo"] as Ref;
    expect(redirect).toBeInstanceOf(Ref);
    expect([redirect.to.name, redirect.prop]).toEqual(["x-example", "id"]);
    expect((by("x-example").inputs["installId"] as Ref).to.name).toBe("xprod");
  });

  it("gives ids outside the program by config, named after what they are; empty defaults are left out", () => {
    expect(by("xprod").inputs["accountId"]).toEqual(
      new External("acmeCorpAccountId", "acc1", "account", "Acme Corp"),
    );
    expect(by("y-example").inputs["installId"]).toEqual(
      new External("elsewhereInstallId", "i-out", "install", "elsewhere"),
    );
    expect(by("y-example").inputs).not.toHaveProperty("redirectTo");
    expect(model.externals.map((e) => e.key)).toEqual(["acmeCorpAccountId", "elsewhereInstallId"]);
  });

  it("renders references as outputs in TypeScript and interpolations in YAML", () => {
    const opts = {
      project: "p",
      language: "typescript" as const,
      source: "s",
      version: "0.1.0",
      pluginDownloadURL: "github://api.github.com/pulumi-wpengine/pulumi-wpengine",
      packageSpec: "^0.1.0",
      pipGit: PIP_GIT,
      globalSpec: "pulumi-wpengine@0.1.0",
      command: "c",
    };
    const ts = renderProgram(model, opts);
    expect(ts).toContain('const acmeCorpAccountId = config.require("acmeCorpAccountId");');
    expect(ts).toContain(
      'const wwwXExample = new wpengine.Domain("www-x-example", {\n  installId: xprod.id,\n  name: "www.x.example",\n  redirectTo: xExample.id,\n});',
    );
    // A site or an install is protected, as `pulumi import` protects what it imports; a domain is not.
    expect(ts).toContain("  deletionProtection: true,\n}, { protect: true });");
    expect(ts.match(/protect: true/g)).toHaveLength(1);
    const yaml = renderYaml(model, { ...opts, language: "yaml" });
    expect(yaml).toContain("      deletionProtection: true\n    options:\n      protect: true\n");
    expect(yaml.match(/protect: true/g)).toHaveLength(1);
    for (const language of ["typescript", "yaml"] as const)
      expect(renderProject(model, { ...opts, language })["README.md"]).toContain(
        `Sites and installs are protected: the program gives each Pulumi's \`${language === "yaml" ? "options: { protect: true }" : "{ protect: true }"}\`, as \`pulumi import\`\ndoes, so \`pulumi destroy\`, or removing one from the program, is refused by the engine before anything is\ndeleted`,
      );
    // The README names the address the objects were read from when it is not the API's default.
    const elsewhere = renderProject(model, { ...opts, source: "http://127.0.0.1:9/v1" })["README.md"]!;
    expect(elsewhere).toContain("set `WPE_API_URL=http://127.0.0.1:9/v1`");
    expect(renderProject(model, opts)["README.md"]).not.toContain("WPE_API_URL");
    expect(elsewhere).toContain("or `pulumi config set wpengine:apiUrl ...`");
    // YAML with profiles runs explicit providers, which never read the stack's wpengine:apiUrl (user test
    // 52, finding 3): its README gives the environment only, and says why.
    const profiled = buildModel(
      [
        {
          ...found("Domain", "d9", "p.example"),
          values: { installId: "i9", name: "p.example", profile: "acme" },
        },
      ],
      { names: new Map(), leftOut: [] },
    );
    const explicit = renderProject(profiled, { ...opts, language: "yaml", source: "http://127.0.0.1:9/v1" })[
      "README.md"
    ]!;
    expect(explicit).toContain("set `WPE_API_URL=http://127.0.0.1:9/v1`");
    expect(explicit).not.toContain("pulumi config set wpengine:apiUrl ...`, before");
    expect(explicit).toContain(
      "the per-profile providers are explicit providers, which take the API's address from their inputs or\nthe environment, not from the stack's `wpengine:apiUrl`",
    );
    expect(yaml).toContain(
      "  www-x-example:\n    type: wpengine:index:Domain\n    properties:\n      installId: ${xprod.id}\n      name: www.x.example\n      redirectTo: ${x-example.id}\n",
    );
    expect(yaml).toContain("variables:\n  # account Acme Corp\n  acmeCorpAccountId: acc1\n");
    expect(JSON.parse(renderImportFile(model)).resources[0]).toEqual({
      type: "wpengine:index:Install",
      name: "xprod",
      id: "i1",
    });
  });
});

describe("the Python program", () => {
  const names = new Map([["acc1", { what: "account", label: "Acme Corp" }]]);
  const model = buildModel(
    [
      { ...found("App", "shop", "shop"), values: { accountId: "acc1", name: "shop", region: "EU-W" } },
      {
        ...found("Environment", "prod", "shop-production"),
        values: { accountId: "acc1", appId: "shop", name: "production", branch: "main" },
      },
      {
        ...found("DomainMappings", "m", "shop-production"),
        values: {
          accountId: "acc1",
          appId: "shop",
          environmentId: "production",
          mappings: [{ domain: "shop.example", primary: true, destinationDomainMapping: null }],
        },
      },
      {
        ...found("Install", "i1", "xprod"),
        values: { name: "xprod", accountId: "acc1", deletionProtection: true, profile: "acme" },
      },
      { ...found("Domain", "d1", "x.example"), values: { installId: "i1", name: "x.example" } },
      {
        ...found("Domain", "d2", "www.x.example"),
        values: { installId: "i1", name: "www.x.example", redirectTo: "d1", secureAllUrls: false },
      },
      {
        ...found("CacheExclusions", "i1", "xprod cache exclusions"),
        values: { installId: "i1", exclusions: [{ type: "url path", value: "^/cart/" }] },
      },
      {
        ...found("AccountUser", "u1", "pat@x.example"),
        values: { accountId: "acc1", email: "pat@x.example", roles: "partial", installIds: ["i1"] },
      },
    ],
    { names, leftOut: [] },
  );
  const opts = {
    project: "p",
    language: "python" as const,
    source: "s",
    version: "0.1.0",
    pluginDownloadURL: "github://api.github.com/pulumi-wpengine/pulumi-wpengine",
    packageSpec: "pulumi_wpengine==0.1.0",
    pipGit: PIP_GIT,
    globalSpec: undefined,
    command: "pulumi-wpengine import --language python",
  };

  it("writes snake_case keyword arguments, references as outputs, ids outside it as config, enums of the SDK", () => {
    const py = renderProgram(model, opts);
    expect(py).toContain(
      'config = pulumi.Config()\nacme_corp_account_id = config.require("acmeCorpAccountId")  # account Acme Corp\n',
    );
    // By name (an app), with an enum of the SDK.
    expect(py).toContain(
      'shop = wpengine.App(\n    "shop",\n    account_id=acme_corp_account_id,\n    name="shop",\n    region=wpengine.AppRegion("EU-W"),\n)\n',
    );
    expect(py).toContain('    app_id=shop.name,\n    name="production",\n');
    // A list of objects: dicts with the SDK's snake_case keys, None and True as Python writes them.
    expect(py).toContain(
      '    environment_id=shop_production.name,\n    mappings=[\n        {\n            "domain": "shop.example",\n            "primary": True,\n            "destination_domain_mapping": None,\n        },\n    ],\n',
    );
    // By id, the profile the object was read as, deletion protection kept, protected.
    expect(py).toContain(
      'xprod = wpengine.Install(\n    "xprod",\n    name="xprod",\n    account_id=acme_corp_account_id,\n    deletion_protection=True,\n    profile="acme",\n    opts=pulumi.ResourceOptions(protect=True),\n)\n',
    );
    expect(py.match(/protect=True/g)).toHaveLength(1);
    expect(py).toContain(
      'www_x_example = wpengine.Domain(\n    "www-x-example",\n    install_id=xprod.id,\n    name="www.x.example",\n    redirect_to=x_example.id,\n)\n',
    );
    expect(py).toContain('"type": wpengine.CacheExclusionsExclusionsType("url path"),\n');
    // A list of references.
    expect(py).toContain("    install_ids=[\n        xprod.id,\n    ],\n");
  });

  it("names what the generated SDK (languages/python) declares: each input of each kind brought in, the enums", () => {
    const sdk = path.join(__dirname, "..", "..", "languages", "python", "pulumi_wpengine");
    for (const kind of COVERED) {
      const source = fs.readFileSync(path.join(sdk, `${pyName(kind)}.py`), "utf8");
      expect(source, kind).toContain(`class ${kind}(pulumi.CustomResource):`);
      for (const { key } of fieldsOf(kind))
        expect(source, `${kind}.${key}`).toContain(`\n                 ${pyName(key)}: `);
    }
    const enums = fs.readFileSync(path.join(sdk, "_enums.py"), "utf8");
    for (const [, type] of renderProgram(model, opts).matchAll(/wpengine\.(\w+)\("/g))
      expect(enums).toContain(`class ${type}(_builtins.str, Enum):`);
  });

  it("is a project as pulumi new python writes it, installing the SDK by the line given", () => {
    const files = renderProject(model, opts);
    expect(Object.keys(files).sort()).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "__main__.py",
      "requirements.txt",
    ]);
    expect(files["Pulumi.yaml"]).toMatch(
      /^name: p\nruntime:\n {2}name: python\n {2}options:\n {4}toolchain: pip\n {4}virtualenv: venv\n/,
    );
    expect(files["requirements.txt"]!.split("\n").slice(-3)).toEqual([
      "pulumi>=3.0.0,<4.0.0",
      "pulumi_wpengine==0.1.0",
      "",
    ]);
    expect(files["requirements.txt"]).toContain(PIP_GIT);
    expect(files[".gitignore"]).toMatch(/^venv\/$/m);
    const readme = files["README.md"]!;
    expect(readme).toContain("pulumi install ");
    expect(readme).toContain("WPE_ADOPT_EXISTING=true pulumi up --yes");
    expect(readme).toContain("Each resource runs as its credential profile (`acme`)");
    expect(readme).toContain("Pulumi's `opts=pulumi.ResourceOptions(protect=True)`");
    // Inputs in prose as Python spells them.
    expect(readme).toContain("its error says to set `adopt=True`");
    expect(readme).not.toMatch(/adopt: true|deletionProtection/);
    expect(readme).toContain("set `protect=False` and `deletion_protection=False`, run\n`pulumi up`");
    expect(readme).toContain("pulumi plugin install resource wpengine 0.1.0 --file");
    expect(readme).not.toContain("npm");
  });
});

describe("kinds", () => {
  it("brings in each kind with an import id unless its definition says why not, after what it refers to", () => {
    for (const kind of allKinds()) {
      if (COVERED.includes(kind)) expect(importIdOf(kind), kind).toBeDefined();
      else expect(LEFT_OUT[kind], kind).toMatch(/\w{3}/);
    }
    expect(COVERED).toEqual(
      expect.arrayContaining(["App", "Environment", "DomainMappings", "Site", "Install"]),
    );
    expect(LEFT_OUT["Backup"]).toBe(definitionOf("Backup").notImported);
    expect(LEFT_OUT["SshKey"]).toBe((definitionOf("SshKey").importId as { none: string }).none);
    COVERED.forEach((kind, at) => {
      for (const { key } of fieldsOf(kind)) {
        const target = REFS[key]?.target;
        if (target && target !== kind && COVERED.includes(target))
          expect(COVERED.indexOf(target), `${kind}.${key} refers to ${target}`).toBeLessThan(at);
      }
    });
  });
});

// These imports read the simulator's world, not a backend's stacks: `includeManaged` (no stack is read,
// and none could be here, without a login). The stacks' check: test/unit/importer-held.test.ts.
describe("pulumi-wpengine import against the simulator", () => {
  let sim: RunningSimulator;
  let tmp: string;
  const env = () => ({
    WPE_API_USER_ID: "demo",
    WPE_API_PASSWORD: "demo",
    WPE_API_URL: sim.apiUrl,
    WPE_APP_HOSTING_URL: sim.appHostingUrl,
  });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-importer-"));
  });
  afterAll(async () => {
    await sim.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("renders each kind of the seeded world from its definition's read, reads only, and writes nothing else", async () => {
    sim.clearRequests();
    const out = path.join(tmp, "ts");
    const r = await importAccount({ includeManaged: true, out, env: env() });
    expect(sim.requests().filter((q) => q.method !== "GET")).toEqual([]);
    // Read from a service (this simulator served on a port): the README names its address, no simulator world.
    expect(r.files["README.md"]).not.toContain("WPE_SIMULATOR");
    // Each page once: the kinds' reads are answered from discovery's listings (the same calls, one key).
    const reads = sim.requests().map((q) => `${q.method} ${q.path}?${q.query}`);
    expect(r.calls).toBe(reads.length);
    expect(reads.filter((q, i) => reads.indexOf(q) !== i)).toEqual([]);
    expect(fs.readdirSync(out).sort()).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "index.ts",
      "package.json",
      "tsconfig.json",
    ]);
    const ts = r.files["index.ts"]!;
    expect(ts).toContain(
      'new wpengine.Site("acme-marketing", {\n  accountId: acmeCorpAccountId,\n  name: "Acme Marketing",\n  deletionProtection: true,\n}, { protect: true });',
    );
    expect(ts).toContain(
      'new wpengine.Install("acmeprod", {\n  name: "acmeprod",\n  accountId: acmeCorpAccountId,\n  siteId: acmeMarketing.id,\n  environment: "production",\n  deletionProtection: true,\n}, { protect: true });',
    );
    expect(ts).toContain(
      'new wpengine.Domain("www-acme-example", {\n  installId: acmeprod.id,\n  name: "www.acme.example",\n  redirectTo: acmeExample.id,\n});',
    );
    expect(ts).toMatch(
      /new wpengine\.CacheExclusions\("acmeprod-cache-exclusions", \{\n {2}installId: acmeprod\.id,\n {2}exclusions: \[/,
    );
    expect(ts).toMatch(
      /new wpengine\.AccountUser\("partial-acme-example", \{[^}]*installIds: \[\n {4}acmeprod\.id,\n {2}\],/,
    );
    expect(ts).toMatch(
      /new wpengine\.ReportSchedule\("acme-monthly-report", \{\n {2}siteId: acmeMarketing\.id,[\s\S]*templateUuid: siteReportTemplateUuid,/,
    );
    expect(ts).toContain(
      'new wpengine.Environment("acme-frontend-production", {\n  accountId: acmeCorpAccountId,\n  appId: acmeFrontend.name,',
    );
    expect(ts).toContain(
      'new wpengine.DomainMappings("acme-frontend-production-domain-mappings", {\n  accountId: acmeCorpAccountId,\n  appId: acmeFrontend.name,\n  environmentId: acmeFrontendProduction.name,\n  mappings: [',
    );
    // A default inside a list (a mapping's destinationDomainMapping: null) is left out, as at the top level.
    expect(ts).toContain('    {\n      domain: "www.acme-frontend.example",\n      primary: true,\n    },\n');
    expect(ts).not.toContain("null");
    // Globex is not eligible for cache exclusions: said in the README, the rest goes on.
    expect(r.files["README.md"]).toMatch(
      /\| CacheExclusions \| (install \w+, )*install globexprod(, install \w+)* \| the service refused/,
    );
    // Every object is one resource, in the counts the seed documents.
    const count = (k: string) => r.model.resources.filter((x) => x.kind === k).length;
    expect([count("Site"), count("Install"), count("AccountUser")]).toEqual([5, 8, 10]);
    // An install's empty cache exclusions list is nothing to keep: only the lists holding exclusions come.
    const lists = r.model.resources.filter((x) => x.kind === "CacheExclusions").map((x) => x.name);
    expect(lists).toContain("acmeprod-cache-exclusions");
    expect(lists).not.toContain("acmestg-cache-exclusions");
    expect(r.model.leftOut.filter((l) => l.label === "install acmestg")).toEqual([]);
    expect(r.model.resources.find((x) => x.label === SEED.domains.wwwAcmeExample.name)?.id).toBe(
      SEED.domains.wwwAcmeExample.id,
    );
  });

  it("sends as many requests at once as WPE_MAX_CONCURRENCY allows, as the provider does", async () => {
    // Every call answered 100 ms late, so the reads of the installs overlap; the pace counts those in flight.
    sim.setFaults([{ path: "*", latencyMs: 100 }]);
    const acquire = Pace.prototype.acquire;
    let most = 0;
    const spy = vi.spyOn(Pace.prototype, "acquire").mockImplementation(async function (this: Pace, ...args) {
      const release = await acquire.apply(this, args);
      most = Math.max(most, this.active);
      return release;
    });
    try {
      for (const max of [2, 12]) {
        most = 0;
        await importAccount({
          includeManaged: true,
          out: path.join(tmp, `c${max}`),
          env: { ...env(), WPE_MAX_CONCURRENCY: String(max) },
        });
        expect(most).toBe(max);
      }
    } finally {
      spy.mockRestore();
      sim.setFaults([]);
      processPace(DEFAULT_MAX_CONCURRENCY);
    }
  });

  it("gives the same bytes on a second run, and the YAML route its import file", async () => {
    const a = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "a"),
      env: env(),
      project: "fleet",
    });
    const b = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "b"),
      env: env(),
      project: "fleet",
    });
    expect(b.files).toEqual(a.files);
    // What is on disk, byte for byte.
    const disk = (dir: string) =>
      Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f))]));
    expect(disk(path.join(tmp, "b"))).toEqual(disk(path.join(tmp, "a")));
    expect(Object.keys(disk(path.join(tmp, "a"))).sort()).toEqual(Object.keys(a.files).sort());
    // A new --out has the mode mkdir gives (the umask's), not a temporary directory's 0700.
    fs.mkdirSync(path.join(tmp, "mkdir"));
    const mode = (dir: string) => (fs.statSync(path.join(tmp, dir)).mode & 0o777).toString(8);
    expect(mode("a")).toBe(mode("mkdir"));
    const y = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "y"),
      env: env(),
      language: "yaml",
    });
    expect(Object.keys(y.files).sort()).toEqual([
      ".gitignore",
      "Pulumi.yaml",
      "README.md",
      "import.json",
      "wpengine-plugin.yaml",
    ]);
    const imports = JSON.parse(y.files["import.json"]!).resources as {
      type: string;
      name: string;
      id: string;
    }[];
    expect(imports).toContainEqual({
      type: "wpengine:index:Domain",
      name: "www-acme-example",
      id: `${SEED.installs.acmeprod.id}/${SEED.domains.wwwAcmeExample.id}`,
    });
    expect(imports.length).toBe(y.model.resources.length);
  });

  it("--profile: an object two profiles see is one resource, of the first; YAML runs each through its profile's explicit provider", async () => {
    const { owner } = SEED.users;
    // acme sees Acme Corp only; all (demo) sees every account, Acme Corp's too.
    const profiled = {
      ...env(),
      WPE_API_USER_ID: "",
      WPE_API_PASSWORD: "",
      WPE_API_USER_ID_ACME: owner.username,
      WPE_API_PASSWORD_ACME: owner.password,
      WPE_API_USER_ID_ALL: "demo",
      WPE_API_PASSWORD_ALL: "demo",
    };
    const one = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "profiles-none"),
      env: env(),
      language: "yaml",
    });
    const y = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "profiles"),
      env: profiled,
      language: "yaml",
      profiles: ["acme", "all", "acme"],
    });
    const ids = y.model.resources.map((r) => `${r.kind} ${r.importId}`);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(y.model.resources.map((r) => r.name).sort()).toEqual(
      one.model.resources.map((r) => r.name).sort(),
    );
    const profileOf = (label: string) => y.model.resources.find((r) => r.label === label)?.inputs["profile"];
    expect([profileOf("acmeprod"), profileOf("globexprod"), profileOf("initechprod")]).toEqual([
      "acme",
      "all",
      "all",
    ]);
    const program = y.files["Pulumi.yaml"]!;
    expect(program).toContain(
      "  wpengine_acme:\n    type: pulumi:providers:wpengine\n    properties:\n      profile: acme\n",
    );
    expect(program).toContain(
      `  www-acme-example:\n    type: wpengine:index:Domain\n    properties:\n      installId: \${acmeprod.id}\n      name: www.acme.example\n      redirectTo: \${acme-example.id}\n    options:\n      provider: \${wpengine_acme}\n`,
    );
    const imports = JSON.parse(y.files["import.json"]!).resources as Record<string, unknown>[];
    expect(imports.slice(0, 2)).toEqual([
      { type: "pulumi:providers:wpengine", name: "wpengine_acme", inputs: { profile: "acme" } },
      { type: "pulumi:providers:wpengine", name: "wpengine_all", inputs: { profile: "all" } },
    ]);
    expect(imports).toContainEqual({
      type: "wpengine:index:Install",
      name: "globexprod",
      id: SEED.installs.globexprod.id,
      provider: "wpengine_all",
    });
    // Each left-out object once, though both profiles were refused it.
    expect(y.model.leftOut.length).toBe(one.model.leftOut.length);
  });

  it("narrows to an install, and refuses an unknown one naming those it sees", async () => {
    const r = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "one"),
      env: env(),
      installs: [SEED.installs.acmeprod.id],
    });
    expect([...new Set(r.model.resources.map((x) => x.kind))]).toEqual([
      "Install",
      "CacheExclusions",
      "Domain",
    ]);
    expect(r.files["index.ts"]).toContain(
      'const acmeMarketingSiteId = config.require("acmeMarketingSiteId"); // site Acme Marketing',
    );
    await expect(
      importAccount({
        includeManaged: true,
        out: path.join(tmp, "bad"),
        env: env(),
        installs: ["1e000000-0000-4000-8000-0000000000ff"],
      }),
    ).rejects.toThrow(
      /unknown install 1e000000-0000-4000-8000-0000000000ff: the credentials see these installs: .*acmeprod \(1e000000-0000-4000-8000-000000000001\)/,
    );
    await expect(
      importAccount({
        includeManaged: true,
        out: path.join(tmp, "bad"),
        env: env(),
        accounts: ["ac000000-0000-4000-8000-0000000000ff"],
      }),
    ).rejects.toThrow(/unknown account/);
    expect(fs.existsSync(path.join(tmp, "bad"))).toBe(false);
  });

  it("--site with --account: an account the selection leaves out is named in one line, the accounts' own objects come with them; --site alone says it brings none (u57)", async () => {
    const { acme, initech } = SEED.accounts;
    const site = SEED.sites.acmeMarketing;
    sim.clearRequests();
    await expect(
      importAccount({
        includeManaged: true,
        out: path.join(tmp, "bad"),
        env: env(),
        sites: [site.id],
        accounts: [initech.id],
      }),
    ).rejects.toThrow(
      new RegExp(
        `^site ${site.id} \\(${site.name}\\) is in account ${acme.name} \\(${acme.id}\\), which --account leaves out: add --account ${acme.id} or drop --site ${site.id}$`,
      ),
    );
    // Refused on the listings alone.
    expect(sim.requests().every((r) => /^\/v1\/(accounts|sites|installs)$/.test(r.path))).toBe(true);
    expect(fs.existsSync(path.join(tmp, "bad"))).toBe(false);

    const kinds = (r: Awaited<ReturnType<typeof importAccount>>) => [
      ...new Set(
        r.model.resources.map((x) =>
          // An account's own objects with their account (the first part of the import id).
          x.kind === "AccountUser" || x.kind === "App" ? `${x.kind} ${x.importId.split("/")[0]}` : x.kind,
        ),
      ),
    ];
    const both = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "site-both"),
      env: env(),
      sites: [site.id],
      accounts: [acme.id, initech.id],
    });
    expect(both.model.resources.filter((x) => x.kind === "Site").map((x) => x.label)).toEqual([site.name]);
    expect(kinds(both)).toEqual(
      expect.arrayContaining([`AccountUser ${acme.id}`, `AccountUser ${initech.id}`]),
    );
    expect(
      both.model.resources
        .filter((x) => x.kind === "Install")
        .map((x) => x.label)
        .sort(),
    ).toEqual(["acmedev", "acmeprod", "acmestg"]);
    expect(both.notes).toEqual([]);

    const alone = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "site-alone"),
      env: env(),
      sites: [site.id],
    });
    expect(kinds(alone).filter((k) => k.startsWith("AccountUser") || k.startsWith("App "))).toEqual([]);
    expect(alone.notes).toEqual([
      `--site and --install bring no account users or apps (an account's own objects): add --account ${acme.id} (${acme.name}) to bring them as well (docs/importer.md)`,
    ]);
  });

  it("--profile twice: an id is checked against what they see together, each profile reads those it sees", async () => {
    const { owner, full } = SEED.users;
    // acme sees Acme Corp only; initech sees Acme Corp and Initech.
    const profiled = {
      ...env(),
      WPE_API_USER_ID_ACME: owner.username,
      WPE_API_PASSWORD_ACME: owner.password,
      WPE_API_USER_ID_INITECH: full.username,
      WPE_API_PASSWORD_INITECH: full.password,
    };
    const profiles = ["acme", "initech"];
    const labels = (r: Awaited<ReturnType<typeof importAccount>>) =>
      r.model.resources.filter((x) => x.kind === "Install").map((x) => `${x.label} ${x.inputs["profile"]}`);
    const one = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "union-install"),
      env: profiled,
      profiles,
      installs: [SEED.installs.initechprod.id],
    });
    expect(labels(one)).toEqual(["initechprod initech"]);
    const both = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "union-accounts"),
      env: profiled,
      profiles,
      accounts: [SEED.accounts.initech.id, SEED.accounts.acme.id.toUpperCase()],
      kinds: ["Install"],
    });
    expect(labels(both).sort()).toEqual([
      "acmeblog acme",
      "acmedev acme",
      "acmeprod acme",
      "acmesandbox acme",
      "acmestg acme",
      "initechprod initech",
    ]);
    sim.clearRequests();
    await expect(
      importAccount({
        includeManaged: true,
        out: path.join(tmp, "bad"),
        env: profiled,
        profiles,
        accounts: [SEED.accounts.globex.id],
      }),
    ).rejects.toThrow(
      `unknown account ${SEED.accounts.globex.id}: the credentials see these accounts: Acme Corp (${SEED.accounts.acme.id}), Initech (${SEED.accounts.initech.id})`,
    );
    // Refused before anything but the accounts was read.
    expect(new Set(sim.requests().map((r) => r.path))).toEqual(new Set(["/v1/accounts"]));
    expect(fs.existsSync(path.join(tmp, "bad"))).toBe(false);
  });

  it("the command prints a refusal as one line naming itself, without the provider's `wpengine:` prefix", async () => {
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => errors.push(s) > 0) as typeof process.stderr.write;
    for (const [k, v] of Object.entries({ ...env(), WPE_PROFILES: "[]" })) vi.stubEnv(k, v);
    try {
      const out = path.join(tmp, "prefix");
      expect(await main(["import", "--out", out, "--profile", "acme"])).toBe(1);
      expect(errors.join("")).toMatch(
        /^pulumi-wpengine import: WPE_PROFILES must be a JSON object of profiles, e\.g\. .*\nnothing was written to .*prefix\n$/,
      );
    } finally {
      process.stderr.write = write;
      vi.unstubAllEnvs();
    }
  });

  it("an App Hosting URL it cannot reach is named, with where it came from and the variable to set (ut-retest52 F6)", async () => {
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => errors.push(s) > 0) as typeof process.stderr.write;
    const dead = "http://127.0.0.1:9";
    for (const [k, v] of Object.entries({ ...env(), WPE_APP_HOSTING_URL: dead })) vi.stubEnv(k, v);
    try {
      const out = path.join(tmp, "unreached");
      expect(await main(["import", "--out", out, "--account", SEED.accounts.initech.id])).toBe(1);
      expect(errors.join("")).toMatch(
        /^pulumi-wpengine import: GET \/v1\/accounts\/[^/]+\/apps: connection failed: connect ECONNREFUSED 127\.0\.0\.1:9; the App Hosting URL was http:\/\/127\.0\.0\.1:9, from WPE_APP_HOSTING_URL: check it and the network\nnothing was written to .*unreached\n$/,
      );
    } finally {
      process.stderr.write = write;
      vi.unstubAllEnvs();
    }
  });

  it("refuses wrong credentials, a non-empty --out (unless --force), unknown kinds; a failure midway writes nothing", async () => {
    await expect(
      importAccount({
        includeManaged: true,
        out: path.join(tmp, "creds"),
        env: { ...env(), WPE_API_PASSWORD: "wrong" },
      }),
    ).rejects.toThrow(/refused the credentials \(401\).*WPE_API_USER_ID and WPE_API_PASSWORD/);
    // The import reads no stack: its advice names the variables it reads, never `pulumi config`.
    const missing = importAccount({
      includeManaged: true,
      out: path.join(tmp, "creds"),
      env: { WPE_API_URL: sim.apiUrl },
    });
    await expect(missing).rejects.toThrow(/^no credentials: set WPE_API_USER_ID and WPE_API_PASSWORD /);
    await expect(missing).rejects.not.toThrow(/config/);
    const noProfile = importAccount({
      includeManaged: true,
      out: path.join(tmp, "creds"),
      env: { ...env(), WPE_PROFILES: JSON.stringify({ other: { username: "demo", password: "demo" } }) },
      profiles: ["other", "acme"],
    });
    await expect(noProfile).rejects.toThrow(
      `profile acme has no API user id: set it in WPE_PROFILES='{"acme":{"username":"<api user id>","password":"<api password>"}}' or WPE_API_USER_ID_ACME and WPE_API_PASSWORD_ACME in the environment.`,
    );
    await expect(noProfile).rejects.not.toThrow(/config/);
    await expect(
      importAccount({
        includeManaged: true,
        out: path.join(tmp, "creds"),
        env: { ...env(), WPE_PROFILES: "[]" },
        profiles: ["acme"],
      }),
    ).rejects.toThrow(/^wpengine: WPE_PROFILES must be a JSON object of profiles/);
    const refused = importAccount({
      includeManaged: true,
      out: path.join(tmp, "creds"),
      env: { ...env(), WPE_API_USER_ID_ACME: SEED.users.owner.username, WPE_API_PASSWORD_ACME: "wrong" },
      profiles: ["acme"],
    });
    await expect(refused).rejects.toThrow(
      `the service refused the credentials of profile acme (401) at ${sim.apiUrl}: check WPE_PROFILES=`,
    );
    await expect(refused).rejects.toThrow(
      /or WPE_API_USER_ID_ACME and WPE_API_PASSWORD_ACME in the environment$/,
    );
    expect(fs.existsSync(path.join(tmp, "creds"))).toBe(false);
    const full = path.join(tmp, "full");
    fs.mkdirSync(full);
    fs.writeFileSync(path.join(full, "keep.txt"), "mine");
    await expect(importAccount({ includeManaged: true, out: full, env: env() })).rejects.toThrow(
      /exists and is not empty.*--force/,
    );
    await expect(
      importAccount({ includeManaged: true, out: path.join(tmp, "k"), env: env(), kinds: ["Backup"] }),
    ).rejects.toThrow(/Backup cannot be imported/);

    sim.setFaults([{ path: "/v1/installs/*/domains", status: 503, count: 1000 }]);
    try {
      await expect(
        importAccount({ includeManaged: true, out: full, env: env(), force: true }),
      ).rejects.toThrow();
    } finally {
      sim.setFaults([]);
    }
    expect(fs.readdirSync(full)).toEqual(["keep.txt"]);
    expect(fs.readdirSync(tmp).filter((f) => f.includes(".import-"))).toEqual([]);
    // A regeneration replaces what import writes and keeps the rest: the stack's config, recover's journal.
    fs.writeFileSync(path.join(full, "Pulumi.dev.yaml"), "config:\n  wpengine:simulator: true\n");
    fs.mkdirSync(path.join(full, ".wpengine"));
    fs.writeFileSync(path.join(full, "index.ts"), "// stale\n");
    fs.writeFileSync(path.join(full, "import.json"), "{}"); // a YAML import's, stale beside a TypeScript one
    const dir = fs.statSync(full).ino;
    const ts = await importAccount({ out: full, env: env(), force: true, includeManaged: true });
    // Regenerated in place: a shell whose working directory it is (`--out .`) still stands in it.
    expect(fs.statSync(full).ino).toBe(dir);
    expect(fs.readFileSync(path.join(full, "keep.txt"), "utf8")).toBe("mine");
    expect(fs.readFileSync(path.join(full, "Pulumi.dev.yaml"), "utf8")).toContain("wpengine:simulator");
    expect(fs.existsSync(path.join(full, ".wpengine"))).toBe(true);
    expect(fs.readFileSync(path.join(full, "index.ts"), "utf8")).not.toContain("stale");
    // A file this language's import does not write stays (it may be yours), named in one note.
    expect(fs.readFileSync(path.join(full, "import.json"), "utf8")).toBe("{}");
    expect(ts.notes).toEqual([
      `${full} still holds import.json, which an import in another language writes and this typescript one does not: left as they are; delete them if an earlier import wrote them`,
    ]);
    // Python over it: the TypeScript project's files stay, named; Python's own are written.
    const py = await importAccount({
      out: full,
      env: env(),
      force: true,
      language: "python",
      includeManaged: true,
    });
    for (const f of ["index.ts", "package.json", "tsconfig.json", "import.json", "keep.txt"])
      expect(fs.existsSync(path.join(full, f)), f).toBe(true);
    expect(fs.readFileSync(path.join(full, "__main__.py"), "utf8")).toBe(py.files["__main__.py"]);
    expect(py.notes).toEqual([
      expect.stringContaining(
        "still holds import.json, index.ts, package.json, tsconfig.json, which an import in another language writes and this python one does not",
      ),
    ]);
  });

  it("an imported site or install records deletionProtection on, so a destroy still refuses", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env());
    try {
      for (const [kind, importId] of [
        ["Site", SEED.sites.acmeMarketing.id],
        ["Install", SEED.installs.acmeprod.id],
      ] as const) {
        const { id, olds } = parseImportId(kind, importId);
        const read = (await resourceProvider(kind).read!(id, olds)) as { props: Record<string, unknown> };
        expect(read.props["deletionProtection"]).toBe(true);
        await expect(resourceProvider(kind).delete!(id, read.props)).rejects.toThrow(
          /deletionProtection is on/,
        );
      }
    } finally {
      process.env = saved;
      await resetClient();
    }
  });

  it("the read-only client refuses every write before a request", async () => {
    const real = new WpEngineClient({
      username: "demo",
      password: "demo",
      apiUrl: sim.apiUrl,
      appHostingUrl: sim.appHostingUrl,
    });
    const ro = readOnlyClient(real);
    sim.clearRequests();
    expect(() => ro.client.domains.delete(SEED.installs.acmeprod.id, SEED.domains.wwwAcmeExample.id)).toThrow(
      /never writes/,
    );
    await ro.client.installs.get(SEED.installs.acmeprod.id);
    await ro.client.installs.get(SEED.installs.acmeprod.id);
    expect(sim.requests().map((q) => q.method)).toEqual(["GET"]);
  });
});

describe("what the project says it was made from (u57)", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-importer-world-"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  /** The first line of the README's steps. */
  const firstStep = (readme: string) => /```sh\n(.*)\n/.exec(readme)?.[1];

  it("names the simulator world it read: a file of its own by its absolute path, the shared world as true", async () => {
    const home = path.join(tmp, "home");
    const world = path.join(tmp, "u57", "world.json");
    fs.mkdirSync(path.dirname(world));
    const acme = SEED.accounts.acme.id;
    const own = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "own"),
      env: { PULUMI_HOME: home, WPE_SIMULATOR: world },
      accounts: [acme],
    });
    const readme = own.files["README.md"]!;
    expect(firstStep(readme)).toBe(
      `export WPE_SIMULATOR=${world}   # the simulator world the objects were read from`,
    );
    expect(readme).toContain(`The objects were read from the bundled simulator's world \`${world}\`:`);
    expect(readme).not.toMatch(/WPE_SIMULATOR=true` or/);
    // The header records the world and every flag that shaped the import.
    const made = `--account ${acme} --include-managed\` from the bundled simulator (WPE_SIMULATOR=${world}):`;
    expect(readme).toContain(made);
    expect(own.files["index.ts"]!.split("\n")[0]).toContain(made);
    // The Python and YAML projects' READMEs: the same first step.
    const yaml = await importAccount({
      includeManaged: true,
      out: path.join(tmp, "own-yaml"),
      env: { PULUMI_HOME: home, WPE_SIMULATOR: world },
      accounts: [acme],
      language: "yaml",
      kinds: ["Site"],
    });
    expect(firstStep(yaml.files["README.md"]!)).toBe(firstStep(readme));

    for (const shared of ["true", path.join(home, "wpengine-simulator.json")]) {
      const r = await importAccount({
        includeManaged: true,
        out: path.join(tmp, `shared-${shared.length}`),
        env: { PULUMI_HOME: home, WPE_SIMULATOR: shared },
        kinds: ["Site"],
      });
      expect(firstStep(r.files["README.md"]!)).toBe(
        "export WPE_SIMULATOR=true   # the simulator world the objects were read from",
      );
      expect(r.files["README.md"]).toContain("shared world (`$PULUMI_HOME/wpengine-simulator.json`)");
    }
    // A relative world file, as the importer's working directory resolves it.
    expect(simulatorSetting("u57/world.json", { PULUMI_HOME: home })).toBe(path.resolve("u57/world.json"));
  });

  it("the command it records holds every flag that shaped the project, quoted for a shell where needed", () => {
    expect(
      commandOf(
        {
          project: "web site",
          profiles: ["acme"],
          accounts: ["A"],
          sites: ["S"],
          installs: ["I"],
          kinds: ["Site", "Install"],
          includeManaged: true,
          packageSpec: "pulumi_wpengine @ git+https://x.example/p.git#subdirectory=languages/python",
        },
        "python",
      ),
    ).toBe(
      "pulumi-wpengine import --language python --project 'web site' --profile acme --account A --site S --install I --kinds Site,Install --include-managed --package-spec 'pulumi_wpengine @ git+https://x.example/p.git#subdirectory=languages/python'",
    );
  });
});

describe("how the generated project installs pulumi-wpengine", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-installed-as-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  /** A project that npm installed pulumi-wpengine into, its lockfile saying from where. */
  const installed = (name: string, resolved: string | undefined) => {
    const project = path.join(root, name);
    const dir = path.join(project, "node_modules", "pulumi-wpengine");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), '{ "name": "pulumi-wpengine", "version": "0.7.1" }\n');
    const entry = resolved ? { version: "0.7.1", resolved } : { version: "0.7.1" };
    fs.writeFileSync(
      path.join(project, "node_modules", ".package-lock.json"),
      JSON.stringify({ packages: { "node_modules/pulumi-wpengine": entry } }),
    );
    return { project, dir };
  };

  it("from the registry: the registry version", () => {
    const { project, dir } = installed(
      "registry",
      "https://registry.npmjs.org/pulumi-wpengine/-/pulumi-wpengine-0.7.1.tgz",
    );
    expect(installedAs(path.join(project, "fleet"), dir)).toBe("^0.7.1");
  });

  it("from a tarball: the same tarball, relative to the project", () => {
    const { project, dir } = installed("tarball", "file:pulumi-wpengine-0.7.1.tgz");
    expect(installedAs(path.join(project, "fleet"), dir)).toBe("file:../pulumi-wpengine-0.7.1.tgz");
  });

  it("from git: the same git URL", () => {
    const url = "git+ssh://git@github.com/pulumi-wpengine/pulumi-wpengine.git#0123abc";
    const { project, dir } = installed("git", url);
    expect(installedAs(path.join(project, "fleet"), dir)).toBe(url);
  });

  it("from a global install (no lockfile says): unknown, which the import notes on stderr", () => {
    const dir = path.join(root, "global", "lib", "node_modules", "pulumi-wpengine");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), '{ "name": "pulumi-wpengine", "version": "0.7.1" }\n');
    expect(installedAs(path.join(root, "global-fleet"), dir)).toBeUndefined();
  });

  it("from a checkout (not under node_modules): its path", () => {
    const checkout = path.join(root, "checkout");
    fs.mkdirSync(checkout, { recursive: true });
    expect(installedAs(path.join(root, "elsewhere", "fleet"), checkout)).toBe("file:../../checkout");
  });

  it("the project's package.json and .gitignore, and the YAML README installing the plugin", () => {
    const opts = {
      project: "fleet",
      source: "s",
      version: "0.7.1",
      pluginDownloadURL: "github://api.github.com/pulumi-wpengine/pulumi-wpengine",
      packageSpec: "file:../pulumi-wpengine-0.7.1.tgz",
      pipGit: PIP_GIT,
      globalSpec: "../pulumi-wpengine-0.7.1.tgz",
      command: "c",
    };
    const model = buildModel([], { names: new Map(), leftOut: [] });
    const ts = renderProject(model, { ...opts, language: "typescript" });
    expect(JSON.parse(ts["package.json"]!).dependencies["pulumi-wpengine"]).toBe(
      "file:../pulumi-wpengine-0.7.1.tgz",
    );
    expect(ts[".gitignore"]).toMatch(/^node_modules\/$/m);
    expect(ts[".gitignore"]).toMatch(/^\.wpengine-simulator\.json$/m);
    expect(ts[".gitignore"]).toMatch(/^\.wpengine\/$/m);
    const yaml = renderProject(model, { ...opts, language: "yaml" });
    expect(yaml["README.md"]).toContain("npm install --global ../pulumi-wpengine-0.7.1.tgz");
    expect(yaml["README.md"]).toContain("pulumi plugin install resource wpengine 0.7.1 --file");
    expect(yaml[".gitignore"]).toMatch(/^\.wpengine-simulator\.json$/m);
    // The plugin's version and server, where Pulumi YAML reads them (no SDK names them for it): without
    // them, a missing plugin is looked for in github.com/pulumi/pulumi-wpengine.
    expect(yaml["wpengine-plugin.yaml"]).toContain(
      "packageDeclarationVersion: 1\nname: wpengine\nversion: 0.7.1\ndownloadUrl: github://api.github.com/pulumi-wpengine/pulumi-wpengine\n",
    );
    expect(ts).not.toHaveProperty("wpengine-plugin.yaml");
  });

  it("the YAML README from the self-contained plugin says the plugin's install line once", () => {
    const model = buildModel([], { names: new Map(), leftOut: [] });
    const readme = renderProject(model, {
      project: "fleet",
      language: "yaml",
      source: "s",
      version: "0.7.1",
      pluginDownloadURL: "github://api.github.com/pulumi-wpengine/pulumi-wpengine",
      packageSpec: "^0.7.1",
      pipGit: PIP_GIT,
      globalSpec: undefined,
      command: "c",
    })["README.md"]!;
    expect(readme.match(/pulumi plugin install/g)).toHaveLength(1);
    expect(readme).toContain(
      "Offline, install the release's\ntarball first: `pulumi plugin install resource wpengine 0.7.1 --file pulumi-resource-wpengine-v0.7.1-<os>-<arch>.tar.gz`.",
    );
    expect(readme).not.toMatch(/first line|as where this was generated|npm install/);
    expect(readme).toMatch(/```sh\npulumi stack init prod\n/);
  });

  it("the README says the objects left out for one reason in one row", () => {
    const refused = "the service refused to read its cache exclusions (403)";
    const leftOut = [
      ...["a1", "a2", "a3"].map((i) => ({ kind: "CacheExclusions", label: `install ${i}`, reason: refused })),
      {
        kind: "ThirdPartyCertificate",
        label: "x.example on install a1",
        reason: "its private key cannot be read",
      },
    ];
    const model = buildModel([], { names: new Map(), leftOut });
    const readme = renderProject(model, {
      project: "p",
      source: "s",
      version: "1.0.0",
      pluginDownloadURL: "github://api.github.com/o/r",
      packageSpec: "x",
      pipGit: PIP_GIT,
      globalSpec: "x",
      command: "c",
      language: "typescript",
    })["README.md"]!;
    expect(readme.split("\n").filter((l) => l.startsWith("| CacheExclusions |"))).toEqual([
      `| CacheExclusions | install a1, install a2, install a3 | ${refused} |`,
    ]);
    expect(readme).toContain(
      "| ThirdPartyCertificate | x.example on install a1 | its private key cannot be read |",
    );
  });
});
