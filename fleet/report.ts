/**
 * The fleet picture: one self-contained HTML page of a {@link Fleet} and its audit findings. Inline CSS and
 * hand-written inline SVG, no script, no font, no image, nothing fetched: it opens offline, and a browser
 * lays out 1,000 domains in well under a second (no chart library: the six charts are bars and a
 * timeline, a few dozen SVG elements each, and a library would mean inlining its code and running it).
 *
 * Every section is a `<section id=...>` with `data-count`, every row a `<tr data-id=...>`: what a reader
 * sees is what a test can find (test/browser/report.test.ts).
 */
import { type Finding, type Fleet, RULES, type RuleName } from "./rules";

const esc = (s: unknown) =>
  String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const DAY_MS = 86_400_000;
const COLORS = {
  production: "#0b6e4f",
  staging: "#3d8fd1",
  development: "#c9a227",
  other: "#8a8f98",
  ok: "#2e9d5b",
  warn: "#e0a100",
  bad: "#d2453d",
};

/** A horizontal stacked bar chart: one row per label, one segment per series. */
function stackedBars(
  rows: { label: string; values: Record<string, number> }[],
  series: { key: string; label: string; color: string }[],
  title: string,
): string {
  const max = Math.max(1, ...rows.map((r) => series.reduce((n, s) => n + (r.values[s.key] ?? 0), 0)));
  const rowH = 26;
  const left = 150;
  const width = 520;
  const height = rows.length * rowH + 44;
  const bars = rows
    .map((r, i) => {
      let x = left;
      const y = 8 + i * rowH;
      const segs = series
        .map((s) => {
          const v = r.values[s.key] ?? 0;
          if (!v) return "";
          const w = (v / max) * width;
          const seg = `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="18" fill="${s.color}"><title>${esc(r.label)}: ${v} ${esc(s.label)}</title></rect>${w > 22 ? `<text x="${(x + w / 2).toFixed(1)}" y="${y + 13}" class="in">${v}</text>` : ""}`;
          x += w;
          return seg;
        })
        .join("");
      const total = series.reduce((n, s) => n + (r.values[s.key] ?? 0), 0);
      return `<text x="${left - 8}" y="${y + 13}" class="lbl">${esc(r.label)}</text>${segs}<text x="${(x + 6).toFixed(1)}" y="${y + 13}" class="tot">${total}</text>`;
    })
    .join("");
  const legend = series
    .map(
      (s, i) =>
        `<rect x="${left + i * 130}" y="${height - 22}" width="12" height="12" fill="${s.color}"/><text x="${left + i * 130 + 17}" y="${height - 12}" class="leg">${esc(s.label)}</text>`,
    )
    .join("");
  return `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${left + width + 60} ${height}" width="${left + width + 60}" height="${height}">${bars}${legend}</svg>`;
}

/** A bar of `used` against `limit` with a mark at the threshold. */
function gauge(pct: number | null, threshold: number): string {
  if (pct === null) return `<span class="muted">no limit reported</span>`;
  const w = 220;
  const fill = Math.min(pct, 100);
  const color = pct > 100 ? COLORS.bad : pct > threshold ? COLORS.warn : COLORS.ok;
  return `<svg class="gauge" viewBox="0 0 ${w + 60} 18" width="${w + 60}" height="18"><rect x="0" y="3" width="${w}" height="12" rx="3" fill="#e6e8eb"/><rect x="0" y="3" width="${((fill / 100) * w).toFixed(1)}" height="12" rx="3" fill="${color}"/><line x1="${(threshold / 100) * w}" x2="${(threshold / 100) * w}" y1="0" y2="18" stroke="#333" stroke-dasharray="2 2"/><text x="${w + 6}" y="13" class="tot">${pct.toFixed(0)}%</text></svg>`;
}

/** The certificates on a time axis from 30 days ago to 120 days ahead (later ones at the right edge). */
function timeline(fleet: Fleet, now: number, warnDays: number): string {
  const from = -30;
  const to = 120;
  const left = 20;
  const width = 640;
  const x = (days: number) => left + ((Math.max(from, Math.min(to, days)) - from) / (to - from)) * width;
  const certs = fleet.certificates
    .map((c) => ({ c, days: (Date.parse(c.expiresTime ?? "") - now) / DAY_MS }))
    .filter((e) => Number.isFinite(e.days));
  const rowH = 22;
  const height = 60 + certs.length * rowH;
  const ticks = [-30, 0, 30, 60, 90, 120]
    .map(
      (d) =>
        `<line x1="${x(d)}" x2="${x(d)}" y1="24" y2="${height - 6}" stroke="${d === 0 ? "#333" : "#d5d8dc"}"/><text x="${x(d)}" y="16" class="tick">${d === 0 ? "today" : `${d > 0 ? "+" : ""}${d} d`}</text>`,
    )
    .join("");
  const warnBand = `<rect x="${x(0)}" y="24" width="${(x(warnDays) - x(0)).toFixed(1)}" height="${height - 30}" fill="#fff3cd"/>`;
  const dots = certs
    .map(({ c, days }, i) => {
      const y = 40 + i * rowH;
      const color = days < 0 ? COLORS.bad : days <= warnDays ? COLORS.warn : COLORS.ok;
      const label = `${c.commonName} (${days < 0 ? `expired ${Math.ceil(-days)} d ago` : `${Math.floor(days)} d`})`;
      const tx = x(days) > left + width - 200 ? x(days) - 10 : x(days) + 10;
      const anchor = x(days) > left + width - 200 ? "end" : "start";
      return `<circle cx="${x(days).toFixed(1)}" cy="${y}" r="6" fill="${color}"><title>${esc(c.commonName)} expires ${esc(c.expiresTime)}</title></circle><text x="${tx.toFixed(1)}" y="${y + 4}" text-anchor="${anchor}">${esc(label)}</text>`;
    })
    .join("");
  return `<svg class="chart" role="img" aria-label="certificate expiry timeline" viewBox="0 0 ${left * 2 + width} ${height}" width="${left * 2 + width}" height="${height}">${warnBand}${ticks}${dots}</svg>`;
}

function table(head: string[], rows: string[], cls = ""): string {
  return `<table class="${cls}"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

const badge = (text: string, kind: "ok" | "warn" | "bad" | "muted") =>
  `<span class="b ${kind}">${esc(text)}</span>`;

/** Renders the page. `now` (ms) places certificates on the timeline; it defaults to the fleet's read time. */
export function renderReport(
  fleet: Fleet,
  findings: readonly Finding[],
  opts: { warnDays?: number; thresholdPercent?: number; levels?: Partial<Record<RuleName, string>> } = {},
): string {
  const now = Date.parse(fleet.readAt);
  const warnDays = opts.warnDays ?? 30;
  const threshold = opts.thresholdPercent ?? 80;
  // The audit rules are stack policies: @pulumi/policy reports one set to remediate as mandatory.
  const level = (r: RuleName) => {
    const l = opts.levels?.[r] ?? RULES[r].enforcementLevel;
    return l === "remediate" ? "mandatory" : l;
  };
  const accounts = new Map(fleet.accounts.map((a) => [a.id, a.name]));
  const installs = new Map(fleet.installs.map((i) => [i.id, i]));
  const flagged = new Set(findings.map((f) => f.subject.id));
  const mark = (id: string) => (flagged.has(id) ? ' class="flag"' : "");

  // Installs by PHP version and environment.
  const versions = [...new Set(fleet.installs.map((i) => i.phpVersion ?? "unknown"))].sort((a, b) =>
    b.localeCompare(a, undefined, { numeric: true }),
  );
  const envs = ["production", "staging", "development"];
  const phpChart = stackedBars(
    versions.map((v) => ({
      label: `PHP ${v}`,
      values: Object.fromEntries(
        [...envs, "other"].map((e) => [
          e,
          fleet.installs.filter(
            (i) =>
              (i.phpVersion ?? "unknown") === v &&
              (e === "other" ? !envs.includes(i.environment ?? "") : i.environment === e),
          ).length,
        ]),
      ),
    })),
    [...envs, "other"].map((e) => ({ key: e, label: e, color: COLORS[e as keyof typeof COLORS] })),
    "installs by PHP version and environment",
  );

  // Domains by verification and SSL.
  const verification = (d: Fleet["domains"][number]) =>
    d.ownershipStatus === "TXT_VERIFIED" ? "verified" : d.ownershipStatus ? "pending" : "unknown";
  const ssl = (d: Fleet["domains"][number]) => (d.sslStatus ?? "unknown").toLowerCase();
  const sslStates = [...new Set(fleet.domains.map(ssl))].sort();
  const domainChart = stackedBars(
    ["verified", "pending", "unknown"]
      .map((v) => ({
        label: `TXT ${v}`,
        values: Object.fromEntries(
          sslStates.map((s) => [
            s,
            fleet.domains.filter((d) => verification(d) === v && ssl(d) === s).length,
          ]),
        ),
      }))
      .filter((r) => Object.values(r.values).some((n) => n > 0)),
    sslStates.map((s) => ({
      key: s,
      label: `SSL ${s}`,
      color: s === "active" ? COLORS.ok : s === "unknown" ? COLORS.other : COLORS.warn,
    })),
    "domains by verification and SSL status",
  );

  // Users by role, MFA and invitation.
  const roleOf = (roles: string) => roles.split(",")[0] ?? roles;
  const roles = [...new Set(fleet.users.map((u) => roleOf(u.roles)))].sort();
  const userChart = stackedBars(
    roles.map((r) => {
      const of = fleet.users.filter((u) => roleOf(u.roles) === r);
      return {
        label: r,
        values: {
          mfa: of.filter((u) => u.mfaEnabled && u.inviteAccepted !== false).length,
          nomfa: of.filter((u) => !u.mfaEnabled && u.inviteAccepted !== false).length,
          invited: of.filter((u) => u.inviteAccepted === false).length,
        },
      };
    }),
    [
      { key: "mfa", label: "MFA on", color: COLORS.ok },
      { key: "nomfa", label: "MFA off", color: COLORS.bad },
      { key: "invited", label: "invitation pending", color: COLORS.warn },
    ],
    "users by role, MFA and invitation",
  );

  const byRule = (Object.keys(RULES) as RuleName[]).map((r) => ({
    r,
    n: findings.filter((f) => f.rule === r).length,
  }));
  const mandatory = findings.filter((f) => level(f.rule) === "mandatory").length;

  const cards = [
    ["accounts", fleet.accounts.length],
    ["sites", fleet.sites.length],
    ["installs", fleet.installs.length],
    ["domains", fleet.domains.length],
    ["certificates", fleet.certificates.length],
    ["users", fleet.users.length],
    ["findings", findings.length],
  ]
    .map(([k, v]) => `<div class="card"><div class="n">${v}</div><div class="k">${k}</div></div>`)
    .join("");

  const sections = [
    `<section id="findings" data-count="${findings.length}"><h2>Findings <span class="muted">${findings.length} (${mandatory} mandatory)</span></h2>
<p class="muted">The policy pack's audit rules on this estate (docs/policy.md). ${byRule
      .filter((x) => x.n)
      .map((x) => `${esc(x.r)}: ${x.n}`)
      .join(" · ")}</p>
${table(
  ["rule", "level", "object", "where", "finding"],
  findings.map(
    (f) =>
      `<tr data-id="${esc(f.subject.id)}" data-rule="${esc(f.rule)}"><td><code>${esc(f.rule)}</code></td><td>${badge(level(f.rule), level(f.rule) === "mandatory" ? "bad" : "warn")}</td><td>${esc(f.subject.kind)} <b>${esc(f.subject.name)}</b></td><td>${esc(f.subject.where ?? "")}</td><td>${esc(f.message)}</td></tr>`,
  ),
  "findings",
)}</section>`,
    `<section id="installs" data-count="${fleet.installs.length}"><h2>Installs by PHP version and environment <span class="muted">${fleet.installs.length}</span></h2>${phpChart}
<details><summary>Every install</summary>${table(
      ["install", "account", "environment", "PHP"],
      fleet.installs.map(
        (i) =>
          `<tr data-id="${esc(i.id)}"${mark(i.id)}><td>${esc(i.name)}</td><td>${esc(accounts.get(i.accountId))}</td><td>${esc(i.environment)}</td><td>${esc(i.phpVersion)}</td></tr>`,
      ),
    )}</details></section>`,
    `<section id="domains" data-count="${fleet.domains.length}"><h2>Domains by verification and SSL <span class="muted">${fleet.domains.length}</span></h2>${domainChart}
<details><summary>Every domain</summary>${table(
      ["domain", "install", "ownership", "SSL"],
      fleet.domains.map(
        (d) =>
          `<tr data-id="${esc(d.id)}"${mark(d.id)}><td>${esc(d.name)}</td><td>${esc(installs.get(d.installId)?.name)}</td><td>${badge(verification(d), verification(d) === "verified" ? "ok" : "warn")}</td><td>${badge(ssl(d), ssl(d) === "active" ? "ok" : "warn")}</td></tr>`,
      ),
    )}</details></section>`,
    `<section id="certificates" data-count="${fleet.certificates.length}"><h2>Certificate expiry <span class="muted">${fleet.certificates.length}</span></h2>${
      fleet.certificates.length ? timeline(fleet, now, warnDays) : `<p class="muted">No certificate.</p>`
    }${table(
      ["certificate", "install", "source", "status", "expires"],
      fleet.certificates.map(
        (c) =>
          `<tr data-id="${esc(`${c.installId}/${c.commonName}`)}"${mark(`${c.installId}/${c.commonName}`)}><td>${esc(c.commonName)}</td><td>${esc(installs.get(c.installId)?.name)}</td><td>${esc(c.source)}</td><td>${esc(c.status)}</td><td>${esc(c.expiresTime)}</td></tr>`,
      ),
    )}</section>`,
    `<section id="usage" data-count="${fleet.accounts.length}"><h2>Usage against plan <span class="muted">last 30 days; dashed line: ${threshold}%</span></h2>${table(
      ["account", "visitors", "bandwidth", "storage"],
      fleet.accounts.map((a) => {
        const cell = (m: string) => {
          const p = a.plan.find((x) => x.metric === m);
          if (!p) return `<td class="muted">not reported</td>`;
          const pct = p.limit ? (p.used / p.limit) * 100 : null;
          return `<td>${gauge(pct, threshold)}<div class="muted small">${p.used.toFixed(p.unit === "GB" ? 1 : 0)} of ${p.limit ?? "∞"} ${esc(p.unit)}</div></td>`;
        };
        return `<tr data-id="${esc(a.id)}"${mark(a.id)}><td>${esc(a.name)}</td>${cell("visitors")}${cell("bandwidth")}${cell("storage")}</tr>`;
      }),
    )}
<details><summary>Per install</summary>${table(
      ["install", "account", "visits", "bandwidth (GB)", "storage (GB)"],
      fleet.installUsage.map(
        (u) =>
          `<tr data-install="${esc(u.installName)}"><td>${esc(u.installName)}</td><td>${esc(accounts.get(u.accountId))}</td><td class="num">${u.visits}</td><td class="num">${u.bandwidthGb.toFixed(2)}</td><td class="num">${u.storageGb.toFixed(2)}</td></tr>`,
      ),
    )}</details></section>`,
    `<section id="users" data-count="${fleet.users.length}"><h2>Users by role, MFA and invitation <span class="muted">${fleet.users.length}</span></h2>${userChart}${table(
      ["user", "account", "role", "MFA", "invitation", "installs"],
      fleet.users.map(
        (u) =>
          `<tr data-id="${esc(u.userId)}"${mark(u.userId)}><td>${esc(u.email)}</td><td>${esc(accounts.get(u.accountId))}</td><td>${esc(u.roles)}</td><td>${u.mfaEnabled ? badge("on", "ok") : badge("off", "bad")}</td><td>${u.inviteAccepted === false ? badge("pending", "warn") : badge("accepted", "ok")}</td><td>${u.roles.startsWith("partial") ? u.installIds.map((id) => esc(installs.get(id)?.name ?? id)).join(", ") || badge("none", "warn") : "all"}</td></tr>`,
      ),
    )}</section>`,
  ];

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>WP Engine fleet, ${esc(fleet.readAt.slice(0, 10))}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2327;background:#f4f5f7}
header{background:#0e2a3b;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;opacity:.8}
main{padding:18px 28px;max-width:1200px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:0 0 16px}.card{background:#fff;border-radius:8px;padding:10px 16px;min-width:92px;box-shadow:0 1px 2px #0002}
.card .n{font-size:24px;font-weight:600}.card .k{color:#5f6b76;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
section{background:#fff;border-radius:8px;padding:14px 18px;margin:0 0 16px;box-shadow:0 1px 2px #0002}
h2{font-size:17px;margin:0 0 10px}.muted{color:#6b7680;font-weight:400}.small{font-size:12px}
table{border-collapse:collapse;width:100%;margin-top:8px}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid #eceef0;vertical-align:top}
th{font-size:12px;color:#5f6b76;text-transform:uppercase;letter-spacing:.03em}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.flag td:first-child{border-left:3px solid ${COLORS.bad}}
table.findings td:last-child{max-width:520px}
.b{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;color:#fff}.b.ok{background:${COLORS.ok}}.b.warn{background:${COLORS.warn}}.b.bad{background:${COLORS.bad}}.b.muted{background:#8a8f98}
svg text{font:12px system-ui,sans-serif;fill:#1d2327}svg .lbl{text-anchor:end}svg text.in{fill:#fff;text-anchor:middle;font-size:11px}svg .tot{fill:#5f6b76}svg .leg{fill:#5f6b76}svg .tick{text-anchor:middle;fill:#5f6b76;font-size:11px}
svg.chart{max-width:100%;height:auto;display:block;margin:4px 0}
details summary{cursor:pointer;color:#135e96;margin-top:6px}
code{font-size:12px}
</style></head><body>
<header><h1>WP Engine fleet</h1><p>Read ${esc(fleet.readAt)} · ${fleet.accounts.map((a) => esc(a.name)).join(", ")} · by pulumi-wpengine report (read only)</p></header>
<main><div class="cards">${cards}</div>
${sections.join("\n")}
</main></body></html>
`;
}
