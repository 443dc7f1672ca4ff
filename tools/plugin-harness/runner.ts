/**
 * The program side of the local engine: a small CommonJS script run by plain `node` (never inside a
 * test runner, whose module transform would leak into the serialized `__provider`). It installs
 * `pulumi.runtime.setMocks` from the PROGRAM's own `@pulumi/pulumi` before the program is required, and
 * its mock `newResource` asks the parent (the engine, over the IPC channel) for each resource's id and
 * outputs. At the end it reports the program's exports.
 *
 * It is a string so that it runs unchanged from the TypeScript sources (tests) and from `dist/`.
 */

/** Parent → child: the environment variable carrying the run's spec (JSON). */
export const RUNNER_SPEC_ENV = "PULUMI_WPENGINE_ENGINE_SPEC";

export interface RunnerSpec {
  programDir: string;
  /** The program module, relative to `programDir`. */
  program: string;
  project: string;
  stack: string;
  preview: boolean;
  /** Where `@pulumi/pulumi` is when the program's directory has none. */
  fallbackPulumiRoot: string;
}

/** Resource options the engine acts on, as the program registered them. */
export interface RegisteredOptions {
  protect: boolean;
  retainOnDelete: boolean;
  deleteBeforeReplace: boolean;
  additionalSecretOutputs: string[];
  ignoreChanges: string[];
  replaceOnChanges: string[];
}

/** Child → parent: a resource registration (what the mock's `newResource` received). */
export interface RegisterMessage {
  t: "register";
  seq: number;
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent?: string;
  dependencies: string[];
  /** Inputs with secrets in Pulumi's wire form (`{"4dabf18193072939515e22adb298388d": ..., value}`) and unknowns as the sentinel. */
  inputs: Record<string, unknown>;
  options: RegisteredOptions;
  /** Where the program declared it, as Pulumi recorded it (the state's `sourcePosition`): a `file:` URI and line. */
  sourcePosition?: { uri: string; line: number };
}

/** One stack output as the program left it. */
export interface ProgramOutput {
  value: unknown;
  secret: boolean;
  known: boolean;
}

/** Child → parent: the program finished (or failed). */
export interface DoneMessage {
  t: "done";
  outputs: Record<string, ProgramOutput>;
  errors: string[];
}

export type ChildMessage = RegisterMessage | DoneMessage;

/** Parent → child: the answer to a registration. */
export interface RegisteredReply {
  t: "registered";
  seq: number;
  id?: string;
  state?: Record<string, unknown>;
  error?: string;
}

export const RUNNER_SOURCE = `"use strict";
const path = require("path");
const { createRequire } = require("module");
const spec = JSON.parse(process.env.${RUNNER_SPEC_ENV});
const programDir = path.resolve(spec.programDir);
let pulumiRoot = spec.fallbackPulumiRoot;
try {
  pulumiRoot = path.dirname(createRequire(path.join(programDir, "__engine__.js")).resolve("@pulumi/pulumi/package.json"));
} catch (e) {}
const rq = createRequire(path.join(pulumiRoot, "package.json"));
const pulumi = rq("./index.js");
const mocks = rq("./runtime/mocks.js");
const settings = rq("./runtime/settings.js");
const outputs = rq("./output.js");
const UNKNOWN = rq("./runtime/rpc.js").unknownValue;
const errors = [];
const fmt = (e) => (e && e.stack ? String(e.stack) : String(e));
process.on("unhandledRejection", (e) => { errors.push(fmt(e)); });
process.on("uncaughtException", (e) => { errors.push(fmt(e)); });

function encode(v, seen) {
  if (outputs.isUnknown(v)) return UNKNOWN;
  if (Array.isArray(v)) return v.map((x) => encode(x, seen));
  if (v !== null && typeof v === "object") {
    seen = seen || new Set();
    if (seen.has(v)) return "[circular]";
    seen.add(v);
    const out = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = encode(x, seen);
    seen.delete(v);
    return out;
  }
  if (typeof v === "bigint") return String(v);
  if (typeof v === "function") return undefined;
  return v;
}

const pending = new Map();
let seq = 0;
process.on("message", (m) => {
  if (!m || m.t !== "registered") return;
  const p = pending.get(m.seq);
  if (!p) return;
  pending.delete(m.seq);
  if (m.error) p.reject(new Error(m.error));
  else p.resolve({ id: m.id === null ? undefined : m.id, state: m.state || {} });
});

let current;
const register = mocks.MockMonitor.prototype.registerResource;
mocks.MockMonitor.prototype.registerResource = function (req, cb) {
  current = req;
  return register.call(this, req, cb);
};
mocks.MockMonitor.prototype.readResource = function (req, cb) {
  cb(new Error("the local engine cannot read existing resources (" + req.getType() + " " + req.getName() + "): .get() and import are not supported for dynamic resources"));
};

function urnOf(parent, type, name) {
  if (parent) {
    const parentType = parent.split("::")[2].split("$").pop();
    type = parentType + "$" + type;
  }
  return "urn:pulumi:" + [spec.stack, spec.project, type, name].join("::");
}

pulumi.runtime.setMocks(
  {
    newResource(args) {
      const req = current;
      current = undefined;
      const opt = (get) => (req && typeof req[get] === "function" ? req[get]() : undefined);
      const position = opt("getSourceposition");
      const msg = {
        t: "register",
        seq: ++seq,
        urn: urnOf(opt("getParent"), args.type, args.name),
        type: args.type,
        name: args.name,
        custom: args.custom !== false,
        parent: opt("getParent") || undefined,
        dependencies: opt("getDependenciesList") || [],
        inputs: encode(args.inputs || {}),
        options: {
          protect: !!opt("getProtect"),
          retainOnDelete: !!opt("getRetainondelete"),
          deleteBeforeReplace: !!opt("getDeletebeforereplace"),
          additionalSecretOutputs: opt("getAdditionalsecretoutputsList") || [],
          ignoreChanges: opt("getIgnorechangesList") || [],
          replaceOnChanges: opt("getReplaceonchangesList") || [],
        },
        sourcePosition: position ? { uri: position.getUri(), line: position.getLine() } : undefined,
      };
      return new Promise((resolve, reject) => {
        pending.set(msg.seq, { resolve, reject });
        process.send(msg);
      });
    },
    call(args) {
      throw new Error("the local engine does not support invokes (" + args.token + ")");
    },
  },
  spec.project,
  spec.stack,
  spec.preview,
);

async function resolveOutput(v) {
  const o = pulumi.output(v);
  const known = await o.isKnown;
  const secret = await o.isSecret;
  const value = await o.promise(true);
  return { value: encode(value), secret, known };
}

async function main() {
  let result;
  try {
    let mod = require(path.resolve(programDir, spec.program));
    if (typeof mod === "function") mod = mod();
    else if (mod && mod.__esModule && typeof mod.default === "function") mod = mod.default();
    result = await mod;
  } catch (e) {
    errors.push(fmt(e));
  }
  await settings.waitForRPCs();
  const outs = {};
  if (result && typeof result === "object") {
    for (const [k, v] of Object.entries(result)) {
      if (k === "__esModule" || typeof v === "function") continue;
      try {
        outs[k] = await resolveOutput(v);
      } catch (e) {
        errors.push("stack output " + k + ": " + fmt(e));
      }
    }
  }
  await settings.waitForRPCs();
  process.send({ t: "done", outputs: outs, errors }, () => process.exit(0));
}
main().catch((e) => {
  errors.push(fmt(e));
  process.send({ t: "done", outputs: {}, errors }, () => process.exit(1));
});
`;
