/**
 * `npm run bench` (after bench/engine.js): where the program's memory per `Domain` goes, beside Pulumi's
 * floor. The engine bench measures the program's peak resident memory on the real CLI; this finds what
 * makes the difference, with the engine out of the way: each variant declares N resources in a child
 * `node --expose-gc` under Pulumi's mocks (`pulumi.runtime.setMocks`), whose answers are held back until
 * every resource has registered (as on the real engine, where the program declares its resources long
 * before the service has created them), and reports the heap per resource after a full GC, while the
 * registrations are pending and once answered.
 *
 *   node bench/memory.js [--n 1000]
 *
 * The variants:
 * - **floor**: `pulumi.dynamic.Resource` with the bench's inputs (installId, name): what bench/engine.js
 *   runs as the floor;
 * - **floor, Domain's properties**: the same, given every property a `Domain` declares (its inputs and
 *   outputs, `undefined` until the engine answers, as every Pulumi class declares them);
 * - **ours**: `wpengine.Domain` with the same inputs.
 *
 * Verified, else exit 1: each variant registers N resources, and registers the properties it declares
 * (the floor 3 with `__provider`, the others as many as a `Domain`). Figures are not asserted.
 */
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const VARIANTS = ["floor", "floor, Domain's properties", "ours"];

if (process.argv[2] === "--child") {
  child(process.argv[3], Number(process.argv[4])).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main();
}

function main() {
  const i = process.argv.indexOf("--n");
  const n = i < 0 ? 1000 : Number(process.argv[i + 1]);
  const wrong = [];
  const rows = VARIANTS.map((variant) => {
    const r = spawnSync(process.execPath, ["--expose-gc", __filename, "--child", variant, String(n)], {
      encoding: "utf8",
      timeout: 10 * 60_000,
    });
    if (r.status !== 0) {
      wrong.push(`${variant}: exited ${r.status}: ${r.stderr.slice(-2000)}`);
      return undefined;
    }
    return { variant, ...JSON.parse(r.stdout.trim().split("\n").at(-1)) };
  });
  const ours = rows[2];
  for (const r of rows.filter(Boolean)) {
    if (r.registered !== n) wrong.push(`${r.variant}: ${r.registered} registrations, not ${n}`);
    const want = r.variant === "floor" ? 3 : ours?.properties;
    if (r.properties !== want) wrong.push(`${r.variant}: ${r.properties} properties registered, not ${want}`);
  }
  console.log(
    `Heap per resource (KB, after a full GC), N = ${n}, node ${process.version}, under Pulumi's mocks with every registration held until all are declared:\n`,
  );
  console.log("| variant | properties registered | pending | answered | pending − floor's |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const r of rows.filter(Boolean))
    console.log(
      `| ${r.variant} | ${r.properties} | ${r.pending.toFixed(1)} | ${r.answered.toFixed(1)} | ${(r.pending - rows[0].pending).toFixed(1)} |`,
    );
  for (const w of wrong) console.log(`WRONG: ${w}`);
  process.exit(wrong.length ? 1 : 0);
}

async function child(variant, n) {
  const pulumi = require("@pulumi/pulumi");
  let release;
  const gate = new Promise((r) => {
    release = r;
  });
  let registered = 0;
  pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registered++;
        await gate;
        return { id: `${args.name}_id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "bench",
    "memory",
    false,
  );
  const wpengine = require(path.join(__dirname, "..", "dist"));
  const noIo = { create: async (inputs) => ({ id: "x", outs: inputs }) };
  class Floor extends pulumi.dynamic.Resource {
    constructor(name, props) {
      super(noIo, name, props);
    }
  }
  // Every property a Domain declares: its inputs and outputs (as resourceClass declares them).
  const def = wpengine.Domain.definition;
  const declared = [...Object.keys(def.inputs.shape), ...Object.keys(def.outputs.shape)];
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 200));
      global.gc();
    }
    return process.memoryUsage().heapUsed;
  };
  const keep = [];
  const start = await settle();
  for (let i = 0; i < n; i++) {
    const args = { installId: "install", name: `d${i}.bench.example` };
    if (variant === "floor") keep.push(new Floor(`d${i}`, args));
    else if (variant === "ours") keep.push(new wpengine.Domain(`d${i}`, args));
    else {
      const props = Object.fromEntries(declared.map((k) => [k, undefined]));
      keep.push(new Floor(`d${i}`, Object.assign(props, args, { __claimant: `d${i}` })));
    }
  }
  // Every registration reaches the mocks (serialising a resource's inputs takes a few turns).
  while (registered < n) await new Promise((r) => setTimeout(r, 50));
  const pending = await settle();
  release();
  await Promise.all(keep.map((r) => new Promise((done) => r.urn.apply(done))));
  const answered = await settle();
  // The properties registered: each became an Output on the resource (besides its urn and id).
  const properties = Object.keys(keep[0]).filter(
    (k) => k !== "urn" && k !== "id" && pulumi.Output.isInstance(keep[0][k]),
  ).length;
  const kb = (bytes) => bytes / n / 1024;
  console.log(
    JSON.stringify({
      registered,
      properties,
      pending: kb(pending - start),
      answered: kb(answered - start),
    }),
  );
  process.exit(0);
}
