/** The one of `names` that `key` likely meant (a typo, a name it starts or ends with, or a name it begins), for "did you mean". */
export function meant(key: string, names: readonly string[]): string | undefined {
  const k = key.toLowerCase();
  // A typo: at most 2 edits (1 for a short name), the nearest; else the name inside a longer key
  // (`domainName`: `name`), or a key that begins a name (`user`: `username`). `excludedPath` is a typo of
  // `excludedPaths`, not a longer `path`.
  const typos = names
    .map((name) => ({ name, d: edits(k, name.toLowerCase()) }))
    .filter(({ name, d }) => d <= (name.length > 4 ? 2 : 1));
  const nearest = typos.filter(({ d }) => d === Math.min(...typos.map((t) => t.d)));
  const inside = names.filter(
    (n) =>
      (n.length >= 4 && (k.startsWith(n.toLowerCase()) || k.endsWith(n.toLowerCase()))) ||
      (k.length >= 4 && n.toLowerCase().startsWith(k)),
  );
  const near = typos.length ? nearest.map((t) => t.name) : inside;
  return near.length === 1 ? near[0] : undefined;
}

/** The edits (Levenshtein distance) between two strings. */
function edits(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
