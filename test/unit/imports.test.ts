/**
 * The shape of provider/'s imports (issue 32): no import circle, no kind importing another kind (what kinds
 * share lives in provider/core or the sdk), and a plugin side (registry, lifecycle, executable provider)
 * that reaches the definitions without loading the Node.js classes. The graph is read with TypeScript's
 * own parser (`ts.preProcessFile`): every import, `import type` and `export ... from` included, and
 * `require("...")` calls (the thin provider's `require("../plugin")` is an edge too).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname, "..", "..");
const PROVIDER = path.join(ROOT, "provider");

/** Every non-test `.ts` file under `dir`, as paths relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts")
      ? [path.relative(ROOT, full)]
      : [];
  });
}

/** The file a relative specifier names (`./x` -> `x.ts` or `x/index.ts`), or undefined when none is a source. */
function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = path.join(path.dirname(from), specifier.replace(/\.js$/, ""));
  return [`${base}.ts`, path.join(base, "index.ts")].find((f) => known.has(f));
}

/** Each file's imports of other files of the set (relative ones: a package or `node:` import is a leaf). */
function graphOf(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      const { importedFiles } = ts.preProcessFile(text, true, true);
      const targets = importedFiles
        .map((i) => i.fileName)
        .filter((s) => s.startsWith("."))
        .map((s) => resolve(file, s, known))
        .filter((t): t is string => t !== undefined);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Every import circle of the graph, each as its files in import order (one per strongly connected set). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components; a component of more than one file (or a file importing itself)
  // holds a circle, given as one path through it.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)?.includes(v))
      found.push(pathThrough(graph, new Set(component), v));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One circle through `start` inside `component`: the files from `start` back to it. */
function pathThrough(
  graph: ReadonlyMap<string, readonly string[]>,
  component: Set<string>,
  start: string,
): string[] {
  const back = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const cycle = [v];
        for (let p = back.get(v); p !== undefined; p = back.get(p)) cycle.unshift(p);
        return [...cycle, start];
      }
      if (!back.has(w)) {
        back.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

/** The files `entries` load, directly or not. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const next = [...entries];
  while (next.length) {
    const v = next.pop()!;
    if (seen.has(v)) continue;
    seen.add(v);
    next.push(...(graph.get(v) ?? []));
  }
  return seen;
}

const GRAPH = graphOf(sources(PROVIDER));
const KIND_FILE = /^provider\/kinds\/(?!generated\.ts$)[^/]+\.ts$/;

describe("provider/'s imports", () => {
  it("reads the graph: every kind and the registry's edges to them are seen", () => {
    const kinds = [...GRAPH.keys()].filter((f) => KIND_FILE.test(f));
    expect(kinds.length).toBeGreaterThanOrEqual(24);
    expect(GRAPH.get("provider/registry.ts")).toEqual(expect.arrayContaining(kinds));
    // A `require` is an edge: the thin provider loads the plugin's entry.
    expect(GRAPH.get("provider/dynamic/thin.ts")).toContain("provider/plugin.ts");
  });

  it("has no import circle", () => {
    const found = circles(GRAPH);
    expect(found, `import circles in provider/:\n${found.map((c) => c.join(" -> ")).join("\n")}`).toEqual([]);
  });

  it("has no kind that imports another kind (what kinds share is in provider/core or the sdk)", () => {
    const crossings = [...GRAPH]
      .filter(([file]) => KIND_FILE.test(file))
      .flatMap(([file, targets]) => targets.filter((t) => KIND_FILE.test(t)).map((t) => `${file} -> ${t}`));
    expect(crossings, `kinds importing kinds:\n${crossings.join("\n")}`).toEqual([]);
  });

  it("lets the plugin side reach the definitions without loading a class", () => {
    const pluginSide = reachable(GRAPH, [
      "provider/plugin.ts",
      "provider/registry.ts",
      "provider/core/lifecycle.ts",
      "provider/executable/server.ts",
    ]);
    expect(pluginSide).toContain("provider/kinds/Domain.ts");
    const classes = [
      "provider/kinds/generated.ts",
      "provider/dynamic/resource.ts",
      "provider/dynamic/guards.ts",
    ];
    expect(classes.filter((f) => pluginSide.has(f))).toEqual([]);
  });

  it("names a circle when there is one (the finder itself)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts", "d.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(circles(graph)).toEqual([
      ["a.ts", "b.ts", "c.ts", "a.ts"],
      ["e.ts", "e.ts"],
    ]);
    expect(
      circles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });
});
