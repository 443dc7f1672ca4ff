import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { strFromU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { buildArchive, buildIdOf, listFiles, looksLikeZip } from "../../provider/kinds/EnvironmentSource";
import { useTempTrees } from "../support/files";

const tree = useTempTrees("wpe-src-");

describe("EnvironmentSource archives", () => {
  it("lists files sorted, skipping .git and node_modules at any depth", () => {
    const dir = tree({
      "b.txt": "b",
      "a/z.js": "z",
      "a/node_modules/x/index.js": "x",
      ".git/HEAD": "ref",
      "node_modules/y/index.js": "y",
      "a/b/.git/config": "c",
      ".env.example": "e",
    });
    expect(listFiles(dir)).toEqual([".env.example", "a/z.js", "b.txt"]);
  });

  it("zips a directory deterministically: file times and creation order do not change the hash", () => {
    const one = tree({ "index.html": "<h1>hi</h1>", "css/site.css": "body{}" });
    const two = tree({ "css/site.css": "body{}", "index.html": "<h1>hi</h1>" });
    utimesSync(join(two, "index.html"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const a = buildArchive(one);
    const b = buildArchive(two);
    expect(a.sha256).toBe(b.sha256);
    expect(a.size).toBe(a.bytes.length);
    const unzipped = unzipSync(a.bytes);
    expect(Object.keys(unzipped)).toEqual(["css/site.css", "index.html"]);
    expect(strFromU8(unzipped["index.html"]!)).toBe("<h1>hi</h1>");
  });

  it("changes the hash when a file's content changes", () => {
    const dir = tree({ "index.html": "v1" });
    const before = buildArchive(dir).sha256;
    writeFileSync(join(dir, "index.html"), "v2");
    expect(buildArchive(dir).sha256).not.toBe(before);
  });

  it("uploads a .zip file as it is", () => {
    const dir = tree({});
    const zip = zipSync({ "index.html": new TextEncoder().encode("hi") });
    writeFileSync(join(dir, "site.zip"), zip);
    const archive = buildArchive(join(dir, "site.zip"));
    expect(Buffer.from(archive.bytes).equals(Buffer.from(zip))).toBe(true);
    expect(looksLikeZip(archive.bytes)).toBe(true);
  });

  it("names path in every refusal: missing, not a zip, nothing to upload", () => {
    const dir = tree({ "notes.txt": "hello", "empty/node_modules/x.js": "x" });
    expect(() => buildArchive(join(dir, "missing"))).toThrow("does not exist");
    expect(() => buildArchive(join(dir, "notes.txt"))).toThrow("is not a zip file");
    expect(() => buildArchive(join(dir, "empty"))).toThrow("has no files to upload");
  });

  it("takes the build id from a build resource name", () => {
    expect(buildIdOf("accounts/a/apps/b/environments/c/builds/d1")).toBe("d1");
  });
});
