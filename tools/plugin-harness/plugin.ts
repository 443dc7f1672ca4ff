/**
 * Drives the REAL `@pulumi/pulumi` dynamic-provider plugin (`cmd/dynamic-provider`) over gRPC, the way
 * the Pulumi engine does: spawn it, read its port from the first stdout line, then call the
 * `ResourceProvider` service with typed wrappers.
 *
 * Everything Pulumi is loaded from the PROGRAM's directory (the layout users have: the program's own
 * `node_modules/@pulumi/pulumi`), falling back to the copy next to this file, so the plugin that loads
 * a serialized `__provider` is the one the program serialized it with.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as Grpc from "@grpc/grpc-js";
import type * as ProviderGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import { specialSecretSig as SECRET_SIG, specialSigKey as SECRET_SIG_KEY } from "@pulumi/pulumi/runtime/rpc";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";

/** A property bag as the plugin sends and receives it (plain JSON). */
export type PropertyMap = Record<string, unknown>;

/** The sentinel the engine sends for a value not known until another resource exists (previews). */
export { unknownValue as UNKNOWN } from "@pulumi/pulumi/runtime/rpc";

/** One `check` failure, as the provider reported it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** What `check` returns: the checked inputs, and failures (empty when the inputs are valid). */
export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

/** What `diff` returns: the only three things a dynamic provider can tell the engine. */
export interface DiffResult {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

export interface ReadResult {
  /** Empty when the object is gone. */
  id: string;
  properties: PropertyMap;
  /** The inputs that would produce the live state, when the provider returned them. */
  inputs?: PropertyMap;
}

/** `ErrorResourceInitFailed`: the object exists (it has an id) but the operation failed after that. */
export interface InitFailure {
  id: string;
  properties: PropertyMap;
  reasons: string[];
}

/** A failed plugin call: the method, the gRPC status and, for create/update, the init failure details. */
export class PluginCallError extends Error {
  readonly method: string;
  /** gRPC status code (2 UNKNOWN for a provider error, 4 DEADLINE_EXCEEDED, 14 UNAVAILABLE...). */
  readonly code: number | undefined;
  /** Present when a create or update failed after the object was created. */
  readonly initFailed: InitFailure | undefined;
  constructor(method: string, message: string, code: number | undefined, initFailed?: InitFailure) {
    super(message);
    this.name = "PluginCallError";
    this.method = method;
    this.code = code;
    this.initFailed = initFailed;
  }
}

/** Deadlines, per kind of call. */
export interface PluginTimeouts {
  /** Spawning the plugin until it prints its port. */
  startMs: number;
  /** configure, check, diff. */
  quickMs: number;
  /** create, read, update, delete (these wait for the service). */
  crudMs: number;
}

export const DEFAULT_PLUGIN_TIMEOUTS: PluginTimeouts = {
  startMs: 30_000,
  quickMs: 60_000,
  crudMs: 20 * 60_000,
};

export interface StartPluginOptions {
  /** The program's directory: the plugin's cwd, and where `@pulumi/pulumi` is resolved from. */
  programDir: string;
  /** `PULUMI_NODEJS_PROJECT` (the plugin's `getProject()`). */
  project: string;
  /** `PULUMI_NODEJS_STACK`. */
  stack: string;
  /** Extra environment of the plugin process. */
  env?: Record<string, string | undefined>;
  timeouts?: Partial<PluginTimeouts>;
}

/** The modules of one `@pulumi/pulumi` installation. */
export interface PulumiModules {
  /** Directory of the `@pulumi/pulumi` package. */
  root: string;
  grpc: typeof Grpc;
  providerPb: typeof ProviderPb;
  providerGrpc: typeof ProviderGrpc;
  statusPb: typeof StatusPb;
  structPb: typeof StructPb;
}

/**
 * Resolves `@pulumi/pulumi` from `programDir` (its `node_modules`, as a user's program has), else
 * from this engine's own location.
 */
export function resolvePulumiRoot(programDir: string): string {
  const candidates = [path.join(path.resolve(programDir), "__engine__.js"), __filename];
  for (const from of candidates) {
    try {
      return path.dirname(createRequire(from).resolve("@pulumi/pulumi/package.json"));
    } catch {
      // try the next place
    }
  }
  throw new Error(`@pulumi/pulumi is not installed in ${programDir} (nor next to the engine)`);
}

/** Loads the gRPC and protobuf modules of the `@pulumi/pulumi` that serves `programDir`. */
export function loadPulumiModules(programDir: string): PulumiModules {
  const root = resolvePulumiRoot(programDir);
  const req = createRequire(path.join(root, "package.json"));
  return {
    root,
    grpc: req("@grpc/grpc-js"),
    providerPb: req("./proto/provider_pb"),
    providerGrpc: req("./proto/provider_grpc_pb"),
    statusPb: req("./proto/status_pb"),
    structPb: req("google-protobuf/google/protobuf/struct_pb"),
  };
}

/** Drops `undefined` (a Struct cannot carry it) and turns it into `null` inside arrays. */
export function toStructSafe(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : toStructSafe(v)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toStructSafe(v);
    return out;
  }
  return value;
}

/** A running plugin process and its gRPC client. */
export class PluginClient {
  private readonly mods: PulumiModules;
  private readonly child: ChildProcess;
  private readonly client: ProviderGrpc.ResourceProviderClient;
  private readonly timeouts: PluginTimeouts;
  private stderrTail = "";
  private stderrPartial = "";
  /**
   * Complete lines the plugin wrote to stderr after it started (at most 1,000): what the provider tells
   * the user, e.g. a delete's `wpengine:<Kind> <id>: forgotten only, ...`. The Pulumi CLI shows these
   * among an update's diagnostics.
   */
  readonly stderrLines: string[] = [];
  private exited: { code: number | null; signal: string | null } | undefined;
  private closed = false;
  /** Lines the plugin printed after its port (console.log of provider code). */
  readonly stdoutLines: string[];
  /** The port the plugin listens on. */
  readonly port: number;
  /** Milliseconds from spawn to the port line. */
  readonly startupMs: number;

  private constructor(
    mods: PulumiModules,
    child: ChildProcess,
    port: number,
    timeouts: PluginTimeouts,
    startupMs: number,
    stdoutLines: string[],
  ) {
    this.stdoutLines = stdoutLines;
    this.mods = mods;
    this.child = child;
    this.port = port;
    this.timeouts = timeouts;
    this.startupMs = startupMs;
    this.client = new mods.providerGrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      mods.grpc.credentials.createInsecure(),
      { "grpc.max_receive_message_length": 64 * 1024 * 1024 },
    );
    child.stderr?.on("data", (d: Buffer) => {
      const text = d.toString();
      this.stderrTail = (this.stderrTail + text).slice(-8_000);
      const parts = (this.stderrPartial + text).split("\n");
      this.stderrPartial = parts.pop() ?? "";
      for (const line of parts) if (line && this.stderrLines.length < 1_000) this.stderrLines.push(line);
    });
    child.on("exit", (code, signal) => {
      this.exited = { code, signal };
    });
  }

  /** Spawns `node <@pulumi/pulumi/cmd/dynamic-provider> x` in the program's directory. */
  static async start(opts: StartPluginOptions): Promise<PluginClient> {
    const timeouts = { ...DEFAULT_PLUGIN_TIMEOUTS, ...opts.timeouts };
    const programDir = path.resolve(opts.programDir);
    const mods = loadPulumiModules(programDir);
    const entry = path.join(mods.root, "cmd", "dynamic-provider", "index.js");
    const started = Date.now();
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...opts.env,
      PULUMI_NODEJS_PROJECT: opts.project,
      PULUMI_NODEJS_STACK: opts.stack,
    };
    const child = spawn(process.execPath, [entry, "x"], {
      cwd: programDir,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-8_000);
    });
    const stdoutLines: string[] = [];
    const port = await new Promise<number>((resolve, reject) => {
      let buf = "";
      let done = false;
      const finish = (err?: Error, p?: number) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (err) {
          child.kill("SIGKILL");
          reject(err);
        } else resolve(p!);
      };
      const timer = setTimeout(
        () =>
          finish(
            new Error(`dynamic-provider plugin printed no port within ${timeouts.startMs} ms: ${stderr}`),
          ),
        timeouts.startMs,
      );
      child.on("error", (e) => finish(new Error(`cannot start the dynamic-provider plugin: ${e.message}`)));
      child.on("exit", (code) =>
        finish(
          new Error(`dynamic-provider plugin exited (code ${code}) before printing its port: ${stderr}`),
        ),
      );
      child.stdout?.on("data", (d: Buffer) => {
        buf += d.toString();
        let nl = buf.indexOf("\n");
        while (nl >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (!done) {
            const p = Number(line);
            if (Number.isInteger(p) && p > 0) finish(undefined, p);
            else
              finish(new Error(`dynamic-provider plugin printed ${JSON.stringify(line)} instead of a port`));
          } else if (line && stdoutLines.length < 1_000) stdoutLines.push(line);
          nl = buf.indexOf("\n");
        }
      });
    });
    // The port reader keeps collecting later lines into `stdoutLines`.
    const plugin = new PluginClient(mods, child, port, timeouts, Date.now() - started, stdoutLines);
    plugin.stderrTail = stderr;
    return plugin;
  }

  /** What the plugin wrote to stderr recently (the provider's `console.error`, uncaught errors). */
  get stderr(): string {
    return this.stderrTail;
  }

  private struct(value: PropertyMap): StructPb.Struct {
    return this.mods.structPb.Struct.fromJavaScript(
      toStructSafe(value) as Record<string, StructPb.JavaScriptValue>,
    );
  }

  private plain(s: StructPb.Struct | undefined): PropertyMap {
    return (s?.toJavaScript() ?? {}) as PropertyMap;
  }

  private unary<Req, Res>(method: string, request: Req, timeoutMs: number): Promise<Res> {
    if (this.closed) return Promise.reject(new PluginCallError(method, "the plugin is closed", undefined));
    if (this.exited) {
      return Promise.reject(
        new PluginCallError(
          method,
          `the plugin exited (code ${this.exited.code}): ${this.stderrTail}`,
          undefined,
        ),
      );
    }
    return new Promise<Res>((resolve, reject) => {
      const deadline = new Date(Date.now() + timeoutMs);
      // biome-ignore lint/suspicious/noExplicitAny: one generic path over the generated client methods.
      const fn = (this.client as any)[method] as (...a: unknown[]) => void;
      fn.call(
        this.client,
        request,
        new this.mods.grpc.Metadata(),
        { deadline },
        (err: Grpc.ServiceError | null, res: Res) => {
          if (err) reject(this.toError(method, err, timeoutMs));
          else resolve(res);
        },
      );
    });
  }

  private toError(method: string, err: Grpc.ServiceError, timeoutMs: number): PluginCallError {
    const { status } = this.mods.grpc;
    let message = err.details || err.message;
    if (err.code === status.DEADLINE_EXCEEDED) message = `${method} did not answer within ${timeoutMs} ms`;
    if (err.code === status.UNAVAILABLE)
      message = `the plugin is unavailable (${message}): ${this.stderrTail}`;
    let initFailed: InitFailure | undefined;
    const raw = err.metadata?.get("grpc-status-details-bin")?.[0];
    if (raw !== undefined) {
      try {
        const st = this.mods.statusPb.Status.deserializeBinary(
          typeof raw === "string" ? Buffer.from(raw, "binary") : new Uint8Array(raw),
        );
        for (const any of st.getDetailsList()) {
          if (!any.getTypeUrl().endsWith("pulumirpc.ErrorResourceInitFailed")) continue;
          const d = this.mods.providerPb.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
          initFailed = {
            id: d.getId(),
            properties: this.plain(d.getProperties()),
            reasons: d.getReasonsList(),
          };
        }
      } catch {
        // undecodable details: keep the plain error
      }
    }
    return new PluginCallError(method, message, err.code, initFailed);
  }

  /** Sends the stack config (`wpengine:*` keys and values). Always with `args` set: without it the call hangs. */
  async configure(config: Record<string, string>): Promise<void> {
    const pb = this.mods.providerPb;
    const req = new pb.ConfigureRequest();
    req.setArgs(this.struct(config));
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(config)) vars.set(k, v);
    req.setAcceptsecrets(false);
    req.setAcceptresources(false);
    await this.unary("configure", req, this.timeouts.quickMs);
  }

  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const pb = this.mods.providerPb;
    const req = new pb.CheckRequest();
    req.setUrn(urn);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    const res = await this.unary<ProviderPb.CheckRequest, ProviderPb.CheckResponse>(
      "check",
      req,
      this.timeouts.quickMs,
    );
    return {
      inputs: this.plain(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(urn: string, id: string, olds: PropertyMap, news: PropertyMap, oldInputs?: PropertyMap) {
    const pb = this.mods.providerPb;
    const req = new pb.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    if (oldInputs) req.setOldInputs(this.struct(oldInputs));
    const res = await this.unary<ProviderPb.DiffRequest, ProviderPb.DiffResponse>(
      "diff",
      req,
      this.timeouts.quickMs,
    );
    const C = pb.DiffResponse.DiffChanges;
    const changes = res.getChanges();
    const result: DiffResult = {
      changes: changes === C.DIFF_SOME ? "some" : changes === C.DIFF_NONE ? "none" : "unknown",
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
    return result;
  }

  async create(urn: string, properties: PropertyMap, timeoutSeconds = 0): Promise<CreateResult> {
    const pb = this.mods.providerPb;
    const req = new pb.CreateRequest();
    req.setUrn(urn);
    req.setProperties(this.struct(properties));
    req.setTimeout(timeoutSeconds);
    const res = await this.unary<ProviderPb.CreateRequest, ProviderPb.CreateResponse>(
      "create",
      req,
      this.timeouts.crudMs,
    );
    return { id: res.getId(), properties: this.plain(res.getProperties()) };
  }

  async read(urn: string, id: string, properties: PropertyMap, inputs?: PropertyMap): Promise<ReadResult> {
    const pb = this.mods.providerPb;
    const req = new pb.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(this.struct(properties));
    if (inputs) req.setInputs(this.struct(inputs));
    const res = await this.unary<ProviderPb.ReadRequest, ProviderPb.ReadResponse>(
      "read",
      req,
      this.timeouts.crudMs,
    );
    const out: ReadResult = { id: res.getId(), properties: this.plain(res.getProperties()) };
    if (res.hasInputs()) out.inputs = this.plain(res.getInputs());
    return out;
  }

  async update(
    urn: string,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<PropertyMap> {
    const pb = this.mods.providerPb;
    const req = new pb.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(this.struct(olds));
    req.setNews(this.struct(news));
    if (oldInputs) req.setOldInputs(this.struct(oldInputs));
    const res = await this.unary<ProviderPb.UpdateRequest, ProviderPb.UpdateResponse>(
      "update",
      req,
      this.timeouts.crudMs,
    );
    return this.plain(res.getProperties());
  }

  async delete(urn: string, id: string, properties: PropertyMap, oldInputs?: PropertyMap): Promise<void> {
    const pb = this.mods.providerPb;
    const req = new pb.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(this.struct(properties));
    if (oldInputs) req.setOldInputs(this.struct(oldInputs));
    await this.unary("delete", req, this.timeouts.crudMs);
  }

  /** Closes the channel and ends the plugin process (SIGTERM, then SIGKILL after a grace period). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.client.close();
    if (this.exited) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.child.kill("SIGKILL");
        resolve();
      }, 2_000);
      this.child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.kill("SIGTERM");
    });
  }
}

/** Pulumi's wire signature of a secret value (`{ [SECRET_SIG_KEY]: SECRET_SIG, value }`). */

/** Removes Pulumi's secret wrappers from a wire value; tells whether there was one. */
export function unwrapSecrets(v: unknown): { value: unknown; secret: boolean } {
  if (typeof v === "object" && v !== null && (v as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG) {
    return { value: unwrapSecrets((v as { value: unknown }).value).value, secret: true };
  }
  if (Array.isArray(v)) {
    const items = v.map(unwrapSecrets);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    let secret = false;
    for (const [k, x] of Object.entries(v)) {
      const u = unwrapSecrets(x);
      out[k] = u.value;
      secret ||= u.secret;
    }
    return { value: out, secret };
  }
  return { value: v, secret: false };
}
