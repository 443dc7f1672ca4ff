/**
 * `npm run bench`: speed and memory figures for what users of pulumi-wpengine rely on (the SDK's requests,
 * its pace (requests in flight, the back-off after a 429), listings and retries; the dynamic provider's serialized size and its check/diff/create), measured
 * against the bundled simulator. Plain CommonJS over the built `dist/` (the script builds first).
 *
 * Nothing here is a timing assertion: targets are printed next to the figures for information only. The
 * exit code is non-zero only when something crashes or a result is wrong (a count, an id, an attempt
 * count, a diff answer). See bench/README.md.
 */
const { startSimulatorProcess } = require("./simulator-process.js");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const v8 = require("node:v8");
const vm = require("node:vm");

const ROOT = path.resolve(__dirname, "..");
const sdk = require("../dist/sdk");
const { SEED } = require("../dist/simulator/seed");

const USER = SEED.users.demo.username;
const PASSWORD = SEED.users.demo.password;
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;
const ACMEDEV = SEED.installs.acmedev.id;

// ---------------------------------------------------------------------------------------------------------
// Helpers: timing, statistics, memory, correctness checks, the result table.
// ---------------------------------------------------------------------------------------------------------

const now = () => performance.now();

if (typeof global.gc !== "function") {
  v8.setFlagsFromString("--expose-gc");
  global.gc = vm.runInNewContext("gc");
}
const gc = () => {
  global.gc();
  global.gc();
};
const heapUsed = () => process.memoryUsage().heapUsed;
const MB = 1024 * 1024;

/** Nearest-rank percentiles and the mean of a list of samples. */
function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
  return {
    n: s.length,
    min: s[0],
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: s[s.length - 1],
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
}
const median = (samples) => stats(samples).p50;

const ms = (v) => (v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`);
const us = (v) => `${v.toFixed(v >= 100 ? 0 : 1)} µs`;
const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`;
const delta = (bytes) => `${bytes < 0 ? "-" : "+"}${mb(Math.abs(bytes))}`;
const rate = (n, wallMs) => `${Math.round(n / (wallMs / 1000))}/s`;
const pct = (st) => `p50 ${ms(st.p50)} · p95 ${ms(st.p95)} · p99 ${ms(st.p99)}`;

const failures = [];
/** Records a wrong result (the run ends with exit code 1) without stopping the other benchmarks. */
function verify(cond, what) {
  if (!cond) {
    failures.push(what);
    console.log(`  WRONG: ${what}`);
  }
  return cond;
}

const rows = [];
/**
 * One line of the final table. `target` is informational; `ok` is true/false when the target is a
 * comparison the figure meets or misses, undefined when there is none.
 */
function report(section, name, value, target, ok) {
  rows.push({ section, name, value, target: target ?? "", ok: ok === undefined ? "" : ok ? "yes" : "no" });
  console.log(
    `  ${name}: ${value}${target ? `   (target ${target}${ok === undefined ? "" : ok ? ", ok" : ", MISSED"})` : ""}`,
  );
}

function heading(text) {
  console.log(`\n== ${text}`);
}

// ---------------------------------------------------------------------------------------------------------
// The simulator runs in a child process, so the client's CPU and heap figures are its own and the two
// share the machine's cores the way a program and a remote service would not have to.
// ---------------------------------------------------------------------------------------------------------

/** The running simulator (bench/simulator-process.js) and its URL; section 6 swaps in simulators of its own. */
let sim;
let simUrl;
const control = (...args) => sim.control(...args);
const setFaults = (rules) => control("PUT", "/__sim/faults", { rules });
const clearLog = () => control("DELETE", "/__sim/requests");
const logged = async () => (await control("GET", "/__sim/requests")).requests;

/** CPU milliseconds used so far by the simulator process (Linux /proc), or NaN elsewhere. */
const simCpuMs = () => sim.cpuMs();

function newClient(extra = {}) {
  return new sdk.WpEngineClient({
    username: USER,
    password: PASSWORD,
    apiUrl: `${simUrl}/v1`,
    appHostingUrl: simUrl,
    ...extra,
  });
}

/** Runs `fn` `n` times in sequence: per-call latencies, wall time, client and simulator CPU per call. */
async function sequential(n, fn) {
  const lat = new Array(n);
  const cpu0 = process.cpuUsage();
  const sim0 = simCpuMs();
  const t0 = now();
  for (let i = 0; i < n; i++) {
    const s = now();
    await fn(i);
    lat[i] = now() - s;
  }
  const wall = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    lat,
    wall,
    clientCpuUs: (cpu.user + cpu.system) / n,
    simCpuUs: ((simCpuMs() - sim0) * 1000) / n,
  };
}

/** `workers` loops sharing `total` calls of `fn`: latencies and wall time. */
async function closedLoop(total, workers, fn) {
  const lat = [];
  let issued = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (issued < total) {
        issued++;
        const s = now();
        await fn();
        lat.push(now() - s);
      }
    }),
  );
  return { lat, wall: now() - t0 };
}

// ---------------------------------------------------------------------------------------------------------
// 1. Request throughput and latency
// ---------------------------------------------------------------------------------------------------------

async function benchRequests() {
  heading("1. SDK requests against the simulator (GET /installs/{id})");
  const S = "requests";
  const client = newClient({ maxConcurrency: sdk.DEFAULT_MAX_CONCURRENCY });
  const limiter = sdk.processPace();
  const pool = sdk.sharedPool(new URL(simUrl).origin);
  const authorization = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
  const installPath = `/v1/installs/${ACMEPROD}`;
  let wrongIds = 0;
  const sdkGet = async () => {
    const install = await client.installs.get(ACMEPROD);
    if (install.id !== ACMEPROD || install.name !== "acmeprod") wrongIds++;
  };
  // The same request with undici alone (same shared pool, JSON.parse): what the SDK adds on top.
  const rawGet = async () => {
    const res = await pool.request({
      origin: simUrl,
      path: installPath,
      method: "GET",
      headers: { authorization, accept: "application/json" },
    });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode !== 200 || body.id !== ACMEPROD) wrongIds++;
  };

  // Cold: the first requests of a fresh process, what a short-lived Pulumi plugin process mostly sees.
  const COLD = 500;
  const cold = await sequential(COLD, sdkGet);
  const sc = stats(cold.lat);
  report(
    S,
    `cold: first ${COLD} sequential SDK GETs of the process`,
    `mean ${ms(sc.mean)} · ${pct(sc)} · client CPU ${us(cold.clientCpuUs)}/req`,
  );

  // Warm: after a JIT warm-up of both paths, SDK and raw undici measured in alternating rounds.
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 700; i++) await sdkGet();
    for (let i = 0; i < 700; i++) await rawGet();
  }
  const ROUNDS = 4;
  const PER = 500;
  const N = ROUNDS * PER;
  const warm = { sdk: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    warm.sdk.push(await sequential(PER, sdkGet));
    warm.raw.push(await sequential(PER, rawGet));
  }
  const merge = (runs) => ({
    lat: runs.flatMap((r) => r.lat),
    wall: runs.reduce((a, r) => a + r.wall, 0),
    clientCpuUs: runs.reduce((a, r) => a + r.clientCpuUs, 0) / runs.length,
    simCpuUs: runs.reduce((a, r) => a + r.simCpuUs, 0) / runs.length,
  });
  const seqSdk = merge(warm.sdk);
  const seqRaw = merge(warm.raw);
  const st = stats(seqSdk.lat);
  const stRaw = stats(seqRaw.lat);
  report(
    S,
    `warm: sequential SDK GET x${N}`,
    `${rate(N, seqSdk.wall)} · ${pct(st)}`,
    "p50 ≤ 1 ms",
    st.p50 <= 1,
  );
  report(S, `warm: sequential raw undici GET x${N}`, `${rate(N, seqRaw.wall)} · ${pct(stRaw)}`);
  report(
    S,
    "SDK overhead over raw undici (p50)",
    ms(st.p50 - stRaw.p50),
    "≤ 0.2 ms",
    st.p50 - stRaw.p50 <= 0.2,
  );
  const simCpu = (v) => (Number.isNaN(v) ? "n/a" : us(v));
  report(
    S,
    "CPU per warm request, client / simulator",
    `SDK ${us(seqSdk.clientCpuUs)} / ${simCpu(seqSdk.simCpuUs)} · raw ${us(seqRaw.clientCpuUs)} / ${simCpu(seqRaw.simCpuUs)}`,
  );

  // Closed loops with as many workers as the limit: no queueing, the latency is the service time at
  // that concurrency.
  const M = 3000;
  for (const cap of [1, sdk.DEFAULT_MAX_CONCURRENCY, 32]) {
    newClient({ maxConcurrency: cap }); // an explicit maxConcurrency resizes the process-wide limiter
    verify(limiter.max === cap, `limiter resized to ${cap} (is ${limiter.max})`);
    const r = await closedLoop(M, cap, sdkGet);
    const s = stats(r.lat);
    report(
      S,
      `concurrent SDK GET x${M}, maxConcurrency ${cap}${cap === sdk.DEFAULT_MAX_CONCURRENCY ? " (default)" : ""}`,
      `${rate(M, r.wall)} · ${pct(s)}`,
      cap === sdk.DEFAULT_MAX_CONCURRENCY ? "≥ 2000/s" : undefined,
      cap === sdk.DEFAULT_MAX_CONCURRENCY ? M / (r.wall / 1000) >= 2000 : undefined,
    );
  }

  // A burst: every request issued at once (what a large `pulumi up` does); the limiter queues them.
  newClient({ maxConcurrency: sdk.DEFAULT_MAX_CONCURRENCY });
  let maxActive = 0;
  let maxWaiting = 0;
  let sumActive = 0;
  let samples = 0;
  const sampler = setInterval(() => {
    maxActive = Math.max(maxActive, limiter.active);
    maxWaiting = Math.max(maxWaiting, limiter.waiting);
    sumActive += limiter.active;
    samples++;
  }, 1);
  const t0 = now();
  const lat = await Promise.all(
    Array.from({ length: M }, async () => {
      const s = now();
      await sdkGet();
      maxActive = Math.max(maxActive, limiter.active);
      return now() - s;
    }),
  );
  const wall = now() - t0;
  clearInterval(sampler);
  const sb = stats(lat);
  report(
    S,
    `burst of ${M} GETs issued at once (limit 8)`,
    `${rate(M, wall)} · wall ${ms(wall)} · latency incl. queueing ${pct(sb)}`,
  );
  report(
    S,
    "limiter effective concurrency during the burst",
    `max active ${maxActive}, mean active ${(sumActive / Math.max(1, samples)).toFixed(1)}, max waiting ${maxWaiting}`,
    "max active = 8",
    maxActive === sdk.DEFAULT_MAX_CONCURRENCY,
  );
  verify(maxActive === sdk.DEFAULT_MAX_CONCURRENCY, `burst: at most 8 requests in flight (saw ${maxActive})`);
  verify(maxWaiting > 0, "burst: the limiter queued requests");
  verify(limiter.active === 0 && limiter.waiting === 0, "burst: the limiter is idle afterwards");
  verify(wrongIds === 0, `every GET returned acmeprod (${wrongIds} wrong)`);
}

// ---------------------------------------------------------------------------------------------------------
// 2. Paginated listings
// ---------------------------------------------------------------------------------------------------------

/** Adds domains d<from>..d<to-1>.bench.example to an install, 20 per bulk request. */
async function addDomains(client, installId, from, to) {
  const calls = [];
  for (let i = from; i < to; i += 20) {
    const domains = [];
    for (let j = i; j < Math.min(to, i + 20); j++) domains.push({ name: `d${j}.bench.example` });
    calls.push(
      client.domains.createBulk(installId, { domains }).then((created) => {
        verify(created.length === domains.length, `bulk create answered ${created.length}/${domains.length}`);
      }),
    );
  }
  await Promise.all(calls);
}

/** Iterates a listing, sampling the heap; keeps every record when `collect`. */
async function walk(iterable, collect) {
  gc();
  const base = heapUsed();
  let peak = base;
  let count = 0;
  const ids = new Set();
  const kept = [];
  const t0 = now();
  for await (const rec of iterable) {
    count++;
    ids.add(rec.id);
    if (collect) kept.push(rec);
    if (count % 25 === 0) peak = Math.max(peak, heapUsed());
  }
  const wall = now() - t0;
  const unique = ids.size;
  ids.clear(); // the id set is the bench's, not the listing's: keep it out of "retained"
  gc();
  const retained = heapUsed() - base;
  return { count, unique, wall, peak: peak - base, retained, kept };
}

async function benchListings() {
  heading("2. Paginated listings");
  const S = "listing";
  const client = newClient({ maxConcurrency: 32 });

  // Domains: the simulator builds the view of every domain of the install for each page, and each view
  // scans all domains for duplicates, so one page costs O(N^2) there. Sampled while growing the install.
  const N = 1000;
  let have = 0;
  const pageCost = [];
  let createWall = 0;
  for (const size of [250, 500, N]) {
    const tc = now();
    await addDomains(client, ACMEDEV, have, size);
    createWall += now() - tc;
    have = size;
    const first = await client.domains.list(ACMEDEV, { limit: 100 });
    verify(first.count === size, `domains count ${first.count} = ${size}`);
    const t = [];
    for (let i = 0; i < 3; i++) {
      const s = now();
      await client.domains.list(ACMEDEV, { limit: 100, offset: 0 });
      t.push(now() - s);
    }
    pageCost.push(`${size}: ${ms(median(t))}`);
  }
  report(S, `create ${N} domains (bulk, 20 per request, 32 concurrent)`, ms(createWall));
  report(S, "one page of 100 domains, by domains on the install", pageCost.join(" · "));

  await clearLog();
  const dom = await walk(client.domains.iterate(ACMEDEV), false);
  const domPages = (await logged()).filter((r) => r.path === `/v1/installs/${ACMEDEV}/domains`).length;
  verify(dom.count === N && dom.unique === N, `domains listing: ${dom.count} records, ${dom.unique} unique`);
  verify(domPages === N / 100, `domains listing: ${domPages} pages requested, expected ${N / 100}`);
  report(
    S,
    `iterate all ${N} domains (${domPages} pages)`,
    `${ms(dom.wall)} · ${ms(dom.wall / domPages)}/page`,
    "≤ 1 s",
    dom.wall <= 1000,
  );

  // Backups: a listing whose simulator side is linear, to see the SDK's own cost and memory.
  const B = 3000;
  const tb = now();
  const created = await Promise.all(
    Array.from({ length: B }, (_, i) =>
      client.backups.create(ACMESTG, {
        description: `bench ${i}`,
        notification_emails: ["ops@bench.example"],
      }),
    ),
  );
  const backupCreateWall = now() - tb;
  verify(new Set(created.map((b) => b.id)).size === B, "every backup create returned a new id");
  report(
    S,
    `create ${B} backups (one POST each, 32 concurrent)`,
    `${ms(backupCreateWall)} · ${rate(B, backupCreateWall)}`,
  );

  await walk(client.backups.iterate(ACMESTG), false); // warm-up
  const stream = await walk(client.backups.iterate(ACMESTG), false);
  const collect = await walk(client.backups.iterate(ACMESTG), true);
  await clearLog();
  const small = await walk(client.backups.iterate(ACMESTG, { limit: 25 }), false);
  const smallPages = (await logged()).filter((r) => r.path === `/v1/installs/${ACMESTG}/backups`).length;
  for (const [label, r] of [
    ["streaming", stream],
    ["collecting", collect],
    ["limit 25", small],
  ]) {
    verify(
      r.count === B && r.unique === B,
      `backups listing (${label}): ${r.count} records, ${r.unique} unique`,
    );
  }
  verify(collect.kept.length === B, "collecting kept every record");
  verify(smallPages === B / 25, `limit 25: ${smallPages} pages requested, expected ${B / 25}`);
  report(
    S,
    `iterate ${B} backups, limit 100, streaming`,
    `${ms(stream.wall)} (${rate(B, stream.wall)}) · peak heap ${delta(stream.peak)} · retained ${delta(stream.retained)}`,
    "retained < 1 MB",
    stream.retained < MB,
  );
  report(
    S,
    `iterate ${B} backups, limit 100, collecting`,
    `${ms(collect.wall)} · peak heap ${delta(collect.peak)} · retained ${delta(collect.retained)} (${Math.round(collect.retained / B)} B/record)`,
  );
  report(
    S,
    `iterate ${B} backups, limit 25 (${smallPages} pages)`,
    `${ms(small.wall)} (${ms(small.wall / smallPages)}/page)`,
  );
  collect.kept.length = 0;
}

// ---------------------------------------------------------------------------------------------------------
// 3. Retries
// ---------------------------------------------------------------------------------------------------------

async function benchRetries() {
  heading("3. Retries (faults injected by the simulator)");
  const S = "retries";
  const base = 20;
  const client = newClient({ retryBaseMs: base, retryMaxDelayMs: 200 });
  const installPath = `/v1/installs/${ACMEPROD}`;
  const attemptsOn = async (p, method = "GET") =>
    (await logged()).filter((r) => r.path === p && r.method === method).length;

  /** Median time of `op` over `reps` runs, each with `rules` freshly installed; checks the attempts. */
  const scenario = async (label, rules, reps, expectedAttempts, op, target, within) => {
    const times = [];
    for (let i = 0; i < reps; i++) {
      await setFaults(rules);
      await clearLog();
      const s = now();
      await op();
      times.push(now() - s);
      const attempts = await attemptsOn(rules[0]?.path ?? installPath, rules[0]?.method ?? "GET");
      verify(attempts === expectedAttempts, `${label}: ${attempts} attempt(s), expected ${expectedAttempts}`);
    }
    await setFaults([]);
    const m = median(times);
    report(S, label, `${ms(m)} median of ${reps}`, target, within ? within(m) : undefined);
    return m;
  };
  const get = async () => {
    const install = await client.installs.get(ACMEPROD);
    verify(install.id === ACMEPROD, "retried GET returned acmeprod");
  };

  for (let i = 0; i < 50; i++) await get();
  const baseline = await scenario("no fault (baseline GET)", [], 30, 1, get);
  const ra0 = await scenario(
    "429 + Retry-After: 0, once",
    [{ method: "GET", path: installPath, status: 429, retryAfter: 0, count: 1 }],
    30,
    2,
    get,
  );
  report(
    S,
    "cost of one immediate retry (429 RA 0 - baseline)",
    ms(ra0 - baseline),
    "≤ 5 ms",
    ra0 - baseline <= 5,
  );
  const backoff = await scenario(
    `503 without Retry-After, twice (retryBaseMs ${base})`,
    [{ method: "GET", path: installPath, status: 503, count: 2 }],
    10,
    3,
    get,
    `backoff ${base * 0.5 + base}-${base + 2 * base} ms + 3 requests`,
    (m) => m >= base * 1.5 && m <= base * 3 + 25,
  );
  verify(backoff >= base * 1.5, `backoff slept at least ${base * 1.5} ms (${ms(backoff)})`);
  await scenario(
    "dropped connection on GET, once (safe: retried)",
    [{ method: "GET", path: installPath, drop: true, count: 1 }],
    10,
    2,
    get,
    `backoff ${base / 2}-${base} ms + reconnect`,
  );
  const ra1 = await scenario(
    "429 + Retry-After: 1, once",
    [{ method: "GET", path: installPath, status: 429, retryAfter: 1, count: 1 }],
    1,
    2,
    get,
    "≈ 1000 ms",
    (m) => m >= 1000 && m <= 1100,
  );
  verify(ra1 >= 1000, `Retry-After 1 was waited (${ms(ra1)})`);

  // Exhaustion: the error surfaces after 1 + maxRetries attempts.
  const limited = newClient({ retryBaseMs: 5, retryMaxDelayMs: 10, maxRetries: 2 });
  await scenario(
    "503 forever, maxRetries 2 (gives up)",
    [{ method: "GET", path: installPath, status: 503 }],
    3,
    3,
    async () => {
      const err = await limited.installs.get(ACMEPROD).then(
        () => undefined,
        (e) => e,
      );
      verify(err instanceof sdk.WpEngineApiError && err.status === 503, "gave up with WpEngineApiError 503");
    },
  );

  // Policy: a create is retried only when the server certainly did not act.
  const domainsPath = `/v1/installs/${ACMEPROD}/domains`;
  const countDomains = async () => (await client.domains.list(ACMEPROD, { limit: 1 })).count;
  const before = await countDomains();
  let seq = 0;
  await scenario(
    "dropped connection on POST create (unsafe: not retried)",
    [{ method: "POST", path: domainsPath, drop: true, count: 1 }],
    3,
    1,
    async () => {
      const err = await client.domains.create(ACMEPROD, { name: `drop${seq++}.bench.example` }).then(
        () => undefined,
        (e) => e,
      );
      verify(
        err instanceof sdk.WpEngineConnectionError,
        "the dropped create failed with WpEngineConnectionError",
      );
    },
  );
  verify((await countDomains()) === before, "a dropped create added no domain");
  const created = [];
  await scenario(
    "429 + Retry-After: 0 on POST create (retried: not acted)",
    [{ method: "POST", path: domainsPath, status: 429, retryAfter: 0, count: 1 }],
    3,
    2,
    async () => created.push(await client.domains.create(ACMEPROD, { name: `ra${seq++}.bench.example` })),
  );
  verify((await countDomains()) === before + created.length, "each retried create added exactly one domain");
  for (const d of created) await client.domains.delete(ACMEPROD, d.id);

  const exp0 = sdk.DEFAULT_RETRY_BASE_MS;
  report(
    S,
    "with default settings (computed, not run)",
    `503 without Retry-After waits ${exp0 / 2}-${exp0} ms, then ${exp0}-${2 * exp0} ms, ... (max ${sdk.DEFAULT_MAX_RETRIES} retries)`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// 4. Provider lifecycle (check/diff locally, create/delete against the simulator)
// ---------------------------------------------------------------------------------------------------------

async function benchProvider() {
  heading("4. Provider lifecycle (Domain)");
  const S = "provider";
  // The provider reads its credentials and endpoints from the environment, as in a plugin process
  // (`check` refuses to run without them; create builds its client from them).
  process.env.WPE_API_USER_ID = USER;
  process.env.WPE_API_PASSWORD = PASSWORD;
  process.env.WPE_API_URL = `${simUrl}/v1`;
  process.env.WPE_APP_HOSTING_URL = simUrl;
  const t0 = now();
  const direct = require("../dist/provider/kinds/Domain").definition.provider;
  report(S, "require dist/provider/kinds/Domain (loads @pulumi/pulumi), cold", ms(now() - t0));
  const { thinProvider } = require("../dist/provider/dynamic/thin");
  const thin = thinProvider("Domain");

  // check: zod validation and defaults.
  const raw = { installId: ACMEPROD, name: "WWW.Example.COM.", __provider: "serialized" };
  const first = await direct.check({}, raw);
  verify(
    !first.failures &&
      first.inputs.name === "www.example.com" &&
      first.inputs.primary === false &&
      first.inputs.redirectTo === null &&
      first.inputs.__provider === "serialized",
    `check normalises and fills defaults (${JSON.stringify(first)})`,
  );
  const bad = await direct.check({}, { installId: "nope", name: "https://x" });
  verify(bad.failures?.length === 2, `check names both invalid inputs (${JSON.stringify(bad.failures)})`);
  const N = 10_000;
  for (let i = 0; i < 2000; i++) await direct.check({}, raw);
  let t = now();
  for (let i = 0; i < N; i++) await direct.check({}, raw);
  const checkUs = ((now() - t) * 1000) / N;
  report(S, `check x${N} (valid inputs)`, `${us(checkUs)}/call`, "≤ 50 µs", checkUs <= 50);

  // diff: local comparison, no API call.
  const olds = {
    ...first.inputs,
    domainId: "d0000000-0000-4000-8000-0000000000ff",
    duplicate: false,
    ownershipStatus: "TXT_VERIFICATION_PENDING",
  };
  const variants = [
    [{ ...first.inputs }, { changes: false }],
    [{ ...first.inputs, name: "WWW.EXAMPLE.COM" }, { changes: false }],
    [{ ...first.inputs, primary: true }, { changes: true }],
    [
      { ...first.inputs, name: "other.example.com" },
      { changes: true, replaces: ["name"] },
    ],
    [
      { ...first.inputs, installId: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
      { changes: true, replaces: ["installId"] },
    ],
  ];
  for (const [news, want] of variants) {
    const got = await direct.diff("id", olds, news);
    verify(
      JSON.stringify(got) === JSON.stringify(want),
      `diff ${JSON.stringify(news)} = ${JSON.stringify(got)}`,
    );
    const viaThin = await thin.diff("id", olds, news);
    verify(JSON.stringify(viaThin) === JSON.stringify(want), "diff through the thin provider agrees");
  }
  for (let i = 0; i < 2000; i++) await direct.diff("id", olds, variants[i % variants.length][0]);
  t = now();
  for (let i = 0; i < N; i++) await direct.diff("id", olds, variants[i % variants.length][0]);
  const diffUs = ((now() - t) * 1000) / N;
  report(
    S,
    `diff x${N} (5 variants round-robin)`,
    `${us(diffUs)}/call · ${Math.round(1e6 / diffUs)}/s`,
    "≤ 20 µs",
    diffUs <= 20,
  );
  for (let i = 0; i < 2000; i++) await thin.diff("id", olds, variants[i % variants.length][0]);
  t = now();
  for (let i = 0; i < N; i++) await thin.diff("id", olds, variants[i % variants.length][0]);
  const thinUs = ((now() - t) * 1000) / N;
  report(S, `diff x${N} through the thin provider (2 require() + plugin.run)`, `${us(thinUs)}/call`);

  // create/delete against the simulator: the provider builds its own client from the environment.
  const client = newClient();
  const lifecycle = async (installId, name) => {
    const checked = (await thin.check({}, { installId, name })).inputs;
    const s = now();
    const res = await thin.create(checked);
    const createMs = now() - s;
    verify(
      typeof res.id === "string" && res.outs.domainId === res.id && res.outs.name === name,
      `create returned id and outputs for ${name}`,
    );
    const live = await client.domains.get(installId, res.id);
    verify(live.name === name, `${name} exists on the service`);
    const d = now();
    await thin.delete(res.id, res.outs);
    const deleteMs = now() - d;
    const gone = await client.domains.get(installId, res.id).then(
      () => false,
      (e) => sdk.isNotFound(e),
    );
    verify(gone, `${name} was deleted`);
    return { createMs, deleteMs };
  };
  await lifecycle(ACMEPROD, "warmup.bench.example");
  const small = [];
  for (let i = 0; i < 5; i++) small.push(await lifecycle(ACMEPROD, `p${i}.bench.example`));
  const smallCreate = median(small.map((r) => r.createMs));
  report(
    S,
    "create · delete, install with 2 domains (median of 5)",
    `${ms(smallCreate)} · ${ms(median(small.map((r) => r.deleteMs)))}`,
    "create ≤ 50 ms",
    smallCreate <= 50,
  );
  await clearLog();
  const big = await lifecycle(ACMEDEV, "big.bench.example");
  const reqs = await logged();
  const listPages = reqs.filter(
    (r) => r.method === "GET" && r.path === `/v1/installs/${ACMEDEV}/domains`,
  ).length;
  report(
    S,
    `create, install with 1000 domains (lists ${listPages} pages first)`,
    ms(big.createMs),
    "≤ 1 s",
    big.createMs <= 1000,
  );
  verify(listPages === 10, `create looked for an existing domain over every page (${listPages} GETs)`);

  // What one `up` of many new domains sends: concurrent creates on one install, from a new plugin
  // process (a new client), share one listing of the install and send one POST each.
  require("../dist/provider/core/client").resetClient();
  const many = 50;
  const checkedMany = await Promise.all(
    Array.from({ length: many }, (_, i) =>
      thin.check({}, { installId: ACMEDEV, name: `c${i}.bench.example` }),
    ),
  );
  await clearLog();
  const c0 = now();
  const made = await Promise.all(checkedMany.map((c) => thin.create(c.inputs)));
  const concurrentMs = now() - c0;
  const calls = (await logged()).length;
  report(
    S,
    `${many} concurrent creates, install with 1000 domains: API calls · wall`,
    `${calls} · ${ms(concurrentMs)}`,
    `≤ ${many} + 10 pages`,
    calls <= many + 10,
  );
  verify(new Set(made.map((m) => m.id)).size === many, `${many} concurrent creates made ${many} domains`);
  await Promise.all(made.map((m) => thin.delete(m.id, m.outs)));
}

// ---------------------------------------------------------------------------------------------------------
// 5. The serialized dynamic provider
// ---------------------------------------------------------------------------------------------------------

/**
 * The layout users have, without npm: this build's package.json and dist/ copied to
 * `<tmp>/node_modules/pulumi-wpengine` (its dependencies reached through a link to ours). The serializer
 * treats a module under `node_modules` as a package it can `require`.
 */
function installedCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpengine-bench-"));
  const pkg = path.join(dir, "node_modules", "pulumi-wpengine");
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(pkg, "package.json"));
  fs.cpSync(path.join(ROOT, "dist"), path.join(pkg, "dist"), { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(pkg, "node_modules"));
  return { dir, thin: require(path.join(pkg, "dist", "provider", "dynamic", "thin.js")) };
}

async function benchSerialization() {
  heading("5. Serialized dynamic provider (__provider)");
  const S = "serialize";
  const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const requireFromString = require(require.resolve("require-from-string", { paths: [pulumiDir] }));
  const installed = installedCopy();

  const LIMIT = 512; // test/engine/resources.test.ts: PROVIDER_LIMIT_BYTES (installed layout)
  const domainProvider = require("../dist/provider/kinds/Domain").definition.provider;
  const olds = {
    installId: ACMEPROD,
    name: "www.example.com",
    primary: false,
    redirectTo: null,
    secureAllUrls: false,
  };
  const news = { ...olds, name: "other.example.com" };
  const expected = await domainProvider.diff("id", olds, news);

  const layouts = [
    { name: "installed", thin: installed.thin, revivedFrom: path.join(installed.dir, "state.js") },
    { name: "checkout in place", thin: require("../dist/provider/dynamic/thin"), revivedFrom: __filename },
  ];
  for (const layout of layouts) {
    const sizes = [];
    for (const kind of ["Domain", "Backup", "ReportSchedule", "DomainMappings", "AccountUser"]) {
      const provider = layout.thin.thinProvider(kind);
      verify(layout.thin.thinProvider(kind) === provider, `${kind}: one provider object per kind`);
      // Exactly what pulumi.dynamic.Resource does (dynamic/index.js serializeFunctionMaybeSecret).
      const s = now();
      const sf = await serializeFunction(() => provider, { allowSecrets: true });
      const took = now() - s;
      const bytes = Buffer.byteLength(sf.text);
      sizes.push(bytes);
      verify(sf.text.includes("pulumi-wpengine/dist/provider/plugin.js"), `${kind}: loads the stable entry`);
      verify(!sf.containsSecrets, `${kind}: no secret captured`);
      if (kind === "Domain") {
        report(S, `${layout.name}: Domain size · serialize time`, `${bytes} B · ${ms(took)}`);
        // What the plugin does with it: requireFromString(text).handler(), then a lifecycle method.
        const d = now();
        const revived = requireFromString(sf.text, layout.revivedFrom).handler();
        const got = await revived.diff("id", olds, news);
        report(S, `${layout.name}: Domain deserialize + first diff through it`, ms(now() - d));
        verify(
          JSON.stringify(got) === JSON.stringify(expected),
          `${layout.name}: the revived provider's diff matches (${JSON.stringify(got)})`,
        );
      }
    }
    const max = Math.max(...sizes);
    report(
      S,
      `${layout.name}: Backup / ReportSchedule / DomainMappings / AccountUser`,
      `${sizes.slice(1).join(" / ")} B`,
      layout.name === "installed" ? `< ${LIMIT} B` : "",
      layout.name === "installed" ? max < LIMIT : undefined,
    );
  }
  fs.rmSync(installed.dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------

function printTable() {
  const head = { section: "section", name: "measurement", value: "figure", target: "target", ok: "ok?" };
  const all = [head, ...rows];
  const w = {};
  for (const k of Object.keys(head)) w[k] = Math.max(...all.map((r) => String(r[k]).length));
  const line = (r) =>
    Object.keys(head)
      .map((k) => String(r[k]).padEnd(w[k]))
      .join(" | ");
  console.log(`\n${line(head)}`);
  console.log(
    Object.keys(head)
      .map((k) => "-".repeat(w[k]))
      .join("-|-"),
  );
  for (const r of rows) console.log(line(r));
}

// ---------------------------------------------------------------------------------------------------------
// 6. The simulator at scale
// ---------------------------------------------------------------------------------------------------------

/** Runs `fn` against a simulator of its own (`args` added to the CLI's), then stops it. */
async function withSimulator(args, fn) {
  const saved = sim;
  const mine = await startSimulatorProcess(ROOT, args);
  sim = mine;
  simUrl = mine.url;
  try {
    return await fn();
  } finally {
    sim = saved;
    simUrl = saved.url;
    await mine.stop();
  }
}

/** Simulator CPU per call of `fn`, over `n` sequential calls. */
async function simCpuPer(n, fn) {
  const r = await sequential(n, fn);
  return r.simCpuUs / 1000;
}

async function benchScale() {
  heading("6. The simulator at scale");
  const S = "scale";
  const W = 10_000;

  // One page of 100 of an install's domains, by the domains of the install and of the world. Before
  // issue 11 each record's duplicate check scanned every domain of the world.
  await withSimulator([], async () => {
    const client = newClient({ maxConcurrency: 32 });
    await addDomains(client, ACMEDEV, 0, 100);
    const page = () => client.domains.list(ACMEDEV, { limit: 100 });
    await simCpuPer(20, page);
    const small = await simCpuPer(50, page);
    await addDomains(client, ACMEPROD, 100, W);
    const count = (await client.domains.list(ACMEPROD, { limit: 1 })).count;
    verify(count === W - 100 + 2, `acmeprod holds ${count} domains, expected ${W - 100 + 2}`);
    await simCpuPer(20, page);
    const bigWorld = await simCpuPer(50, page);
    const bigInstall = await simCpuPer(50, () => client.domains.list(ACMEPROD, { limit: 100, offset: 5000 }));
    report(S, "simulator CPU per page of 100 domains, 100 in the world", ms(small));
    report(
      S,
      `same page, ${W.toLocaleString("en")} domains in the world`,
      ms(bigWorld),
      "≤ 2× the 100 figure",
      bigWorld <= 2 * small,
    );
    report(S, `a page of an install holding ${(W - 98).toLocaleString("en")} domains`, ms(bigInstall));
  });

  // Writes per second (PATCH of a domain, 8 concurrent), in memory and with --state, in a small world
  // and in one of 10,000 domains: with the journal a write costs what it changed, not the world.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-bench-"));
  try {
    for (const [label, args] of [
      ["in memory", []],
      ["--state", ["--state", path.join(dir, "world.json")]],
    ]) {
      await withSimulator(args, async () => {
        const client = newClient({ maxConcurrency: 8 });
        const writes = async (n) => {
          let i = 0;
          const run = await closedLoop(n, 8, () =>
            client.domains.update(ACMEPROD, SEED.domains.acmeExample.id, { secure_all_urls: i++ % 2 === 0 }),
          );
          return rate(n, run.wall);
        };
        await writes(300);
        const small = await writes(2000);
        await addDomains(client, ACMEDEV, 0, W);
        await writes(300);
        const big = await writes(2000);
        report(
          S,
          `writes per second ${label} (PATCH domain, 8 concurrent), world of ~100 · of ${W.toLocaleString("en")} domains`,
          `${small} · ${big}`,
        );
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// 7. A rate-limited service: the process's one pace
// ---------------------------------------------------------------------------------------------------------

async function benchRateLimited() {
  heading("7. A rate-limited service (simulator --rate): 100 concurrent creates, one pace");
  const S = "rate limit";
  const N = 100;
  for (const perSecond of [20, 10]) {
    await withSimulator(["--rate", `${perSecond}/s`], async () => {
      const client = newClient({ maxConcurrency: sdk.DEFAULT_MAX_CONCURRENCY }); // default retries
      const names = Array.from({ length: N }, (_, i) => `paced${i}.bench.example`);
      const t0 = now();
      const results = await Promise.allSettled(names.map((name) => client.domains.create(ACMEDEV, { name })));
      const wall = now() - t0;
      const failed = results.filter((r) => r.status === "rejected").length;
      const posts = (await logged()).filter((r) => r.method === "POST");
      const limited = posts.filter((r) => r.status === 429).length;
      await control("PUT", "/__sim/settings", { rate: null });
      const listed = [];
      for await (const d of client.domains.iterate(ACMEDEV)) listed.push(d.name);
      const paced = listed.filter((n) => n.startsWith("paced"));
      const duplicates = paced.length - new Set(paced).size;
      // The bucket lets a burst of one second's worth through, then the rate: the service's own bound.
      const bound = ((N - perSecond) / perSecond) * 1000;
      report(
        S,
        `${N} creates at ${perSecond}/s, maxConcurrency ${sdk.DEFAULT_MAX_CONCURRENCY}`,
        `${ms(wall)} (bound ${ms(bound)}) · ${limited} answers 429 · ${failed} failed · ${duplicates} duplicates`,
        "≤ 1.5 × bound",
        wall <= 1.5 * bound,
      );
      verify(failed === 0, `${perSecond}/s: ${failed} creates failed`);
      verify(
        duplicates === 0 && paced.length === N,
        `${perSecond}/s: ${paced.length} created, ${duplicates} twice`,
      );
    });
  }
}

/**
 * `pulumi-wpengine import` of a fleet: the seeded world plus 25 sites of two installs with 20 domains each
 * (50 installs, 1,000 domains), then 16 sites with 125 each (32 installs, 4,000 domains: two pages each), built through the API in a simulator of
 * its own; discovery and reads timed, the calls counted by the importer's dispatcher and by the
 * simulator's log (they must agree), with no latency and with 100 ms added to every call (a remote
 * service). Every call is a GET, no page is read twice (the same path and query), and the domain
 * listings are exactly the pages the installs have (100 a page, one for an install with none). The bound
 * at 100 ms: the calls × the latency / maxConcurrency, or the longest chain of calls that wait on each
 * other (accounts, installs, a first page of domains, the pages after it: 4), whichever is longer.
 */
async function benchImport() {
  const S = "import";
  heading("8. pulumi-wpengine import of 50 installs and 1,000 domains, 32 installs and 4,000 domains");
  for (const [sites, domainsPerInstall] of [
    [25, 20],
    [16, 125],
  ]) {
    const own = await startSimulatorProcess(ROOT, ["--pace", "20"]);
    const env = {
      WPE_API_USER_ID: USER,
      WPE_API_PASSWORD: PASSWORD,
      WPE_API_URL: `${own.url}/v1`,
      WPE_APP_HOSTING_URL: own.url,
    };
    try {
      const { buildFleet } = require("../dist/tools/fleet");
      const { importAccount } = require("../dist/importer");
      const client = new sdk.WpEngineClient({
        username: USER,
        password: PASSWORD,
        apiUrl: env.WPE_API_URL,
        appHostingUrl: own.url,
      });
      const fleet = await buildFleet(client, { sites, domainsPerInstall });
      // The pages of domains the installs have.
      const world = await own.control("GET", "/__sim/state");
      const perInstall = new Map(Object.values(world.installs).map((i) => [i.id, 0]));
      for (const d of Object.values(world.domains))
        perInstall.set(d.install_id, (perInstall.get(d.install_id) ?? 0) + 1);
      const domainPages = [...perInstall.values()].reduce((n, c) => n + Math.max(1, Math.ceil(c / 100)), 0);
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wpe-bench-import-"));
      try {
        const files = [];
        let own0 = 0;
        // maxConcurrency as the provider takes it (WPE_MAX_CONCURRENCY), given each time: the pace is the
        // process's, and the last explicit setting holds.
        for (const [latencyMs, max] of [
          [0, sdk.DEFAULT_MAX_CONCURRENCY],
          [100, sdk.DEFAULT_MAX_CONCURRENCY],
          [100, 32],
        ]) {
          await own.control("PUT", "/__sim/faults", {
            rules: latencyMs ? [{ path: "/v1/*", latencyMs }] : [],
          });
          await own.control("DELETE", "/__sim/requests");
          const r = await importAccount({
            out: path.join(tmp, `fleet-${latencyMs}-${max}`),
            env: { ...env, WPE_MAX_CONCURRENCY: String(max) },
            project: "fleet",
            // The service's reads alone: no backend's stacks (and no login here to read them with).
            includeManaged: true,
          });
          const log = (await own.control("GET", "/__sim/requests")).requests;
          const domains = r.model.resources.filter((x) => x.kind === "Domain").length;
          const installs = r.model.resources.filter((x) => x.kind === "Install").length;
          const domainLists = log.filter((q) => /^\/v1\/installs\/[^/]+\/domains$/.test(q.path)).length;
          const twice = log.length - new Set(log.map((q) => `${q.method} ${q.path}?${q.query}`)).size;
          if (!latencyMs) own0 = r.ms;
          // The service's share if the pace were always full, and with the importer's own time (the run
          // at 0 ms: reading the kinds, writing the program) on top.
          const service = Math.max((log.length * latencyMs) / max, 4 * latencyMs);
          const bound = service + own0;
          report(
            S,
            `import of ${fleet.installs} + seeded installs (${installs}), ${domains} domains, ${latencyMs} ms per call, maxConcurrency ${max}`,
            `${ms(r.ms)}${latencyMs ? ` (service ${ms(service)}, + the 0 ms run ${ms(bound)}: ${(r.ms / bound).toFixed(2)} ×)` : ""} · ${r.calls} calls (${domainLists} domain pages of ${domainPages}, ${twice} read twice, ${log.filter((q) => q.method !== "GET").length} writes) · ${r.model.resources.length} resources`,
            latencyMs ? "≤ 1.2 × bound" : "each page once",
            latencyMs ? r.ms <= 1.2 * bound : twice === 0,
          );
          verify(
            r.calls === log.length,
            `import: the importer counted ${r.calls} calls, the simulator ${log.length}`,
          );
          verify(
            log.every((q) => q.method === "GET"),
            "import: a request that was not a GET",
          );
          verify(twice === 0, `import: ${twice} requests read a page already read`);
          verify(
            domainLists === domainPages,
            `import: ${domainLists} domain listings for the ${domainPages} pages the installs have`,
          );
          files.push(JSON.stringify(r.files));
        }
        await own.control("PUT", "/__sim/faults", { rules: [] });
        verify(
          files.every((f) => f === files[0]),
          "import: runs on an unchanged account wrote different files",
        );
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    } finally {
      await own.stop();
    }
  }
}

async function main() {
  const started = now();
  process.on("unhandledRejection", (err) => {
    console.error("unhandled rejection:", err);
    process.exit(1);
  });
  console.log(
    `pulumi-wpengine bench · node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · ${os.platform()} ${os.arch()}`,
  );
  sim = await startSimulatorProcess(ROOT);
  simUrl = sim.url;
  console.log(`simulator (child process ${sim.pid}) at ${simUrl}`);

  // `--sections 1,8` runs those sections only (all by default).
  const at = process.argv.indexOf("--sections");
  const only = at > 0 ? new Set(process.argv[at + 1].split(",").map(Number)) : undefined;
  const sections = [
    benchRequests,
    benchListings,
    benchRetries,
    benchProvider,
    benchSerialization,
    benchScale,
    benchRateLimited,
    benchImport,
  ];
  for (const [i, section] of sections.entries()) if (!only || only.has(i + 1)) await section();

  printTable();
  const maxRss = process.resourceUsage().maxRSS * 1024;
  console.log(
    `\ntotal ${ms(now() - started)} · peak RSS of this process ${mb(maxRss)} · targets are informational`,
  );
  await sdk.closeSharedPools();
  if (failures.length) {
    console.log(`\n${failures.length} WRONG result(s):`);
    for (const f of failures) console.log(`  - ${f}`);
    process.exit(1);
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
