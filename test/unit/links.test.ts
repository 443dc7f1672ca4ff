/**
 * Every link of every markdown file the package ships works where a user reads it: the package is packed
 * (`npm pack`, what npm publishes) and unpacked, and each link of its markdown must resolve inside it (a
 * file, a folder, a heading of the page), or be an absolute link into the repository that
 * package.json's `repository` names, to a path the repository holds. Links elsewhere on the web are
 * not followed (no network here).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = path.resolve(__dirname, "..", "..");
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));

/** The repository's web address from package.json (`"url"`, `{url}`, `git+https://...git`, `github:o/n`). */
function repositoryUrl(): string {
  const raw: string = typeof pkg.repository === "string" ? pkg.repository : (pkg.repository?.url ?? "");
  const url = raw
    .replace(/^github:/, "https://github.com/")
    .replace(/^git\+/, "")
    .replace(/\.git$/, "")
    .replace(/\/$/, "");
  if (!/^https:\/\/github\.com\/[^/]+\/[^/]+$/.test(url))
    throw new Error(`package.json has no GitHub "repository" to derive absolute links from (got ${raw})`);
  return url;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of a markdown page (repeated headings get -1, -2, as on GitHub). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of stripFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The text without fenced code blocks. */
const stripFences = (text: string) => text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "");

/** The text without fenced code blocks and inline code (links there are not links). */
const stripCode = (text: string) => stripFences(text).replace(/`[^`\n]*`/g, "``");

/** Every link target of a markdown page: inline links and images, reference definitions, HTML hrefs. */
function linksOf(text: string): string[] {
  const body = stripCode(text);
  const out: string[] = [];
  for (const m of body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  for (const m of body.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) out.push(m[1]!);
  for (const m of body.matchAll(/\b(?:href|src)="([^"]+)"/g)) out.push(m[1]!);
  return out;
}

/** What is wrong with one link of `file` (a path inside the unpacked package `root`), or null. */
function packageVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")).version;
}

function brokenReason(root: string, file: string, target: string, repo: string): string | null {
  if (/^mailto:/.test(target)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!target.startsWith(`${repo}/`)) return null; // elsewhere on the web: not followed
    // The release of this version (its files are attached there once it is published).
    if (target === `${repo}/releases/tag/v${packageVersion()}`) return null;
    const m = /^\/(?:blob|tree)\/[^/]+\/([^#?]+)/.exec(target.slice(repo.length));
    if (!m) return `an address in ${repo} that is not /blob/<ref>/<path> or /tree/<ref>/<path>`;
    const inRepo = decodeURIComponent(m[1]!);
    return fs.existsSync(path.join(REPO, inRepo)) ? null : `the repository has no ${inRepo}`;
  }
  const [rawPath, anchor] = target.split("#") as [string, string | undefined];
  const resolved = rawPath === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
  const rel = path.relative(root, resolved);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return "points outside the package";
  if (!fs.existsSync(resolved)) return `the package has no ${rel}`;
  if (anchor && resolved.endsWith(".md") && !anchorsOf(fs.readFileSync(resolved, "utf8")).has(anchor))
    return `${rel} has no heading #${anchor}`;
  return null;
}

describe("the links of the packed package's markdown", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-links-"));
  const root = path.join(work, "package");
  let markdown: string[] = [];

  beforeAll(() => {
    // What npm publishes: the files of package.json's "files" (and README, package.json), nothing else.
    const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], {
      cwd: REPO,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const tarball = path.join(work, JSON.parse(out)[0].filename as string);
    execFileSync("tar", ["xzf", tarball, "-C", work]);
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    markdown = walk(root).filter((f) => f.endsWith(".md"));
  }, 120_000);
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it("ships the README and the docs pages", () => {
    const names = markdown.map((f) => path.relative(root, f));
    expect(names).toContain("README.md");
    expect(names).toContain(path.join("docs", "Domain.md"));
    expect(names).toContain(path.join("docs", "simulator.md"));
  });

  it("has 0 broken links: each resolves inside the package or into the repository package.json names", () => {
    const repo = repositoryUrl();
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdown) {
      for (const target of linksOf(fs.readFileSync(file, "utf8"))) {
        checked++;
        const why = brokenReason(root, file, target, repo);
        if (why) broken.push(`${path.relative(root, file)}: ${target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
    // The README alone links to every docs page: a parser that found nothing would pass vacuously.
    expect(checked).toBeGreaterThan(50);
  });

  it("the checker finds what is broken", () => {
    const page = path.join(root, "docs", "Domain.md");
    const repo = repositoryUrl();
    expect(brokenReason(root, page, "../simulator/README.md", repo)).toMatch(/has no simulator/);
    expect(brokenReason(root, page, "../../outside.md", repo)).toBe("points outside the package");
    expect(brokenReason(root, page, "#no-such-heading", repo)).toMatch(/has no heading/);
    expect(brokenReason(root, page, `${repo}/blob/main/no/such/file.ts`, repo)).toMatch(/repository has no/);
    expect(brokenReason(root, page, `${repo}/tree/main/examples/quickstart`, repo)).toBeNull();
    expect(brokenReason(root, page, "Install.md", repo)).toBeNull();
    expect(linksOf("see `[x](nowhere.md)` and\n```\n[y](nor-here.md)\n```\n[z](here.md)")).toEqual([
      "here.md",
    ]);
  });
});
