/**
 * `LocalEngine`: runs a Pulumi program the way `pulumi up` would, without the Pulumi CLI.
 *
 * - The program (compiled JS) runs in a child `node` process under `pulumi.runtime.setMocks`; the
 *   mock's `newResource` is this engine: it takes the registered inputs (with the serialized
 *   `__provider`) to the REAL dynamic-provider plugin over gRPC — Check, then Create, or Diff and
 *   Update / replace — and hands the REAL id and outputs back, so dependent resources see real values.
 * - Stack state is a JSON file (see `state.ts`), written after every step. Stack config goes to the
 *   plugin's Configure and to the program (`PULUMI_CONFIG`), never to the state file.
 *
 * Previews check and diff only. New (and replaced) resources return their checked inputs, so their
 * computed outputs and their id are unknown in the program, and resources depending on them see
 * Pulumi's unknown sentinel in Check and Diff, as with the real engine. Limits: no invokes, no
 * `.get()`/import, no component providers, no non-dynamic providers, and `ignoreChanges` /
 * `replaceOnChanges` act on top-level keys only.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  type DiffResult,
  type PluginCallError,
  PluginClient,
  type PluginTimeouts,
  type PropertyMap,
} from "./plugin";
import { runProgram } from "./program";
import type { RegisterMessage } from "./runner";
import {
  loadState,
  type ResourceState,
  SECRET_SIG,
  SECRET_SIG_KEY,
  SecretBox,
  type StackOutput,
  type StackState,
  saveState,
} from "./state";

export interface LocalEngineOptions {
  /** The program's directory (its `node_modules` must hold `@pulumi/pulumi` and the providers' package). */
  programDir: string;
  /** The compiled program module, relative to `programDir` (default `index.js`). */
  program?: string;
  /** The stack state file (created when absent). */
  stateFile: string;
  /** Stack config, e.g. `{ "wpengine:username": "demo", "wpengine:password": "..." }`. Never written to state. */
  config?: Record<string, string | number | boolean>;
  /** Config keys that are secret (default: keys whose name contains password, secret, token or passphrase). */
  secretConfigKeys?: string[];
  /** Extra environment of the program and the plugin. */
  env?: Record<string, string | undefined>;
  /** Project name (default: `name:` of `Pulumi.yaml` in `programDir`, else the directory's name). */
  project?: string;
  /** Stack name (default `dev`). */
  stack?: string;
  /** Passphrase of the state's secrets (default `PULUMI_CONFIG_PASSPHRASE`, else a key file beside the state). */
  passphrase?: string;
  /** Deadlines of plugin calls. */
  pluginTimeouts?: Partial<PluginTimeouts>;
  /** Deadline of one program run (default 30 minutes). */
  programTimeoutMs?: number;
  /** Called as each step finishes (live progress). */
  onStep?: (step: StepSummary) => void;
  /** Called with each line the program prints. */
  onOutput?: (line: string, stream: "stdout" | "stderr") => void;
}

export type OperationKind = "up" | "preview" | "refresh" | "destroy";

/** What happened (or, in a preview, would happen) to one resource. */
export type StepOp = "create" | "update" | "replace" | "delete" | "same";

export interface StepSummary {
  urn: string;
  /** The full type token, e.g. `pulumi-nodejs:dynamic/wpengine:Domain`. */
  type: string;
  name: string;
  op: StepOp;
  /** false for component resources. */
  custom: boolean;
  /** The id after the step (the old one for delete; absent for a planned create). */
  id?: string;
  /** The id before a replacement. */
  oldId?: string;
  /** Top-level keys whose value changed (inputs for up/preview, outputs for refresh). */
  changedKeys: string[];
  /** Keys that forced a replacement. */
  replaceKeys?: string[];
  durationMs: number;
  /** Set when the step failed. */
  error?: string;
}

/** One stack output. `known` is false in a preview when the value depends on an unknown. */
export interface OutputValue {
  value: unknown;
  secret: boolean;
  known?: boolean;
}

export interface EngineSummary {
  kind: OperationKind;
  ok: boolean;
  project: string;
  stack: string;
  steps: StepSummary[];
  /** Every failure, one message each (failed steps, program errors). */
  errors: string[];
  /** Stack outputs (up: recorded; preview: as far as known; refresh/destroy: as recorded). */
  outputs: Record<string, OutputValue>;
  /** Steps per op. */
  changes: Record<StepOp, number>;
  durationMs: number;
  timings: { programMs?: number; pluginStartMs?: number };
  /** What the program printed, then what the provider said (its `wpengine:` stderr lines). */
  diagnostics: string[];
}

/** A new step for a resource (a registration or a recorded resource), before anything is done. */
function newStep(
  r: { urn: string; type: string; name: string; custom: boolean; id?: string },
  op: StepOp,
): StepSummary {
  return {
    urn: r.urn,
    type: r.type,
    name: r.name,
    op,
    custom: r.custom,
    changedKeys: [],
    durationMs: 0,
    ...(r.id ? { id: r.id } : {}),
  };
}

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/";

/** `pulumi-nodejs:dynamic/wpengine:Domain` → `wpengine:Domain`. */
export function displayType(type: string): string {
  return type.startsWith(DYNAMIC_PREFIX) ? type.slice(DYNAMIC_PREFIX.length) : type;
}

class StepError extends Error {}

interface WireUnwrapped {
  value: unknown;
  secret: boolean;
}

function isSecretWire(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG;
}

/** Removes Pulumi's secret wrappers; tells whether there was one. */
export function unwrapSecrets(v: unknown): WireUnwrapped {
  if (isSecretWire(v)) return { value: unwrapSecrets(v.value).value, secret: true };
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

function wrapSecrets(map: PropertyMap, keys: readonly string[]): PropertyMap {
  if (!keys.length) return map;
  const out: PropertyMap = { ...map };
  for (const k of keys) if (k in out) out[k] = { [SECRET_SIG_KEY]: SECRET_SIG, value: out[k] };
  return out;
}

/** Top-level keys whose values differ between two property maps (`__provider` excluded unless asked). */
export function changedKeys(a: PropertyMap, b: PropertyMap, includeProvider = false): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  if (!includeProvider) keys.delete("__provider");
  return [...keys].filter((k) => !isDeepStrictEqual(a[k] ?? null, b[k] ?? null)).sort();
}

/** The order to delete resources in: nothing is deleted before what depends on it (parent or dependency). */
export function deletionOrder(resources: readonly ResourceState[]): ResourceState[] {
  const remaining = [...resources];
  const order: ResourceState[] = [];
  while (remaining.length) {
    const urns = new Set(remaining.map((r) => r.urn));
    // The last resource (creation order) that nothing remaining depends on.
    let pick = -1;
    for (let i = remaining.length - 1; i >= 0 && pick < 0; i--) {
      const r = remaining[i]!;
      const needed = remaining.some(
        (o) => o !== r && (o.parent === r.urn || o.dependencies.includes(r.urn)) && urns.has(o.urn),
      );
      if (!needed) pick = i;
    }
    if (pick < 0) pick = remaining.length - 1; // a cycle cannot come from a program; stay total anyway
    order.push(remaining.splice(pick, 1)[0]!);
  }
  return order;
}

function projectNameOf(programDir: string): string {
  try {
    const yaml = fs.readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8");
    const m = /^name:\s*["']?([^"'\s#]+)/m.exec(yaml);
    if (m?.[1]) return m[1];
  } catch {
    // no Pulumi.yaml
  }
  return path.basename(path.resolve(programDir));
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

const now = () => new Date().toISOString();

export class LocalEngine {
  readonly programDir: string;
  readonly program: string;
  readonly stateFile: string;
  readonly project: string;
  readonly stack: string;
  private readonly config: Record<string, string>;
  private readonly secretConfigKeys: string[];
  private readonly opts: LocalEngineOptions;
  private readonly box: SecretBox;

  constructor(opts: LocalEngineOptions) {
    this.opts = opts;
    this.programDir = path.resolve(opts.programDir);
    this.program = opts.program ?? "index.js";
    this.stateFile = path.resolve(opts.stateFile);
    this.project = opts.project ?? projectNameOf(this.programDir);
    this.stack = opts.stack ?? "dev";
    this.config = Object.fromEntries(Object.entries(opts.config ?? {}).map(([k, v]) => [k, String(v)]));
    this.secretConfigKeys =
      opts.secretConfigKeys ??
      Object.keys(this.config).filter((k) => /password|secret|token|passphrase/i.test(k));
    this.box = new SecretBox(this.stateFile, opts.passphrase ?? process.env["PULUMI_CONFIG_PASSPHRASE"]);
  }

  /** The recorded stack state (secrets decrypted). */
  state(): StackState {
    return loadState(this.stateFile, this.box, this.project, this.stack);
  }

  /** The recorded stack outputs (the program's exports at the last `up`). */
  async outputs(): Promise<Record<string, StackOutput>> {
    return this.state().outputs;
  }

  /** Runs the program and brings the stack to it: create, update, replace, delete what is gone. */
  up(): Promise<EngineSummary> {
    return this.runDeployment(false);
  }

  /** Runs the program without changing anything: the steps `up` would take (check and diff only). */
  preview(): Promise<EngineSummary> {
    return this.runDeployment(true);
  }

  private newSummary(kind: OperationKind): EngineSummary {
    return {
      kind,
      ok: true,
      project: this.project,
      stack: this.stack,
      steps: [],
      errors: [],
      outputs: {},
      changes: { create: 0, update: 0, replace: 0, delete: 0, same: 0 },
      durationMs: 0,
      timings: {},
      diagnostics: [],
    };
  }

  private finishSummary(summary: EngineSummary, started: number): EngineSummary {
    // Failed steps are reported in `errors`, not counted as done.
    for (const s of summary.steps) if (!s.error) summary.changes[s.op]++;
    summary.ok = summary.errors.length === 0;
    summary.durationMs = Date.now() - started;
    return summary;
  }

  private pluginStarter(summary: EngineSummary): {
    get: () => Promise<PluginClient>;
    close: () => Promise<void>;
  } {
    let plugin: Promise<PluginClient> | undefined;
    return {
      get: () => {
        plugin ??= (async () => {
          const p = await PluginClient.start({
            programDir: this.programDir,
            project: this.project,
            stack: this.stack,
            ...(this.opts.env ? { env: this.opts.env } : {}),
            ...(this.opts.pluginTimeouts ? { timeouts: this.opts.pluginTimeouts } : {}),
          });
          summary.timings.pluginStartMs = p.startupMs;
          try {
            await p.configure(this.config);
          } catch (e) {
            await p.close();
            throw e;
          }
          return p;
        })();
        return plugin;
      },
      close: async () => {
        if (!plugin) return;
        const p = await plugin.catch(() => undefined);
        await p?.close();
        // What the provider told the user (the CLI shows the plugin's stderr among the diagnostics).
        for (const line of p?.stderrLines ?? [])
          if (line.startsWith("wpengine:")) summary.diagnostics.push(line);
      },
    };
  }

  private record(summary: EngineSummary, step: StepSummary): void {
    summary.steps.push(step);
    if (step.error) summary.errors.push(step.error);
    this.opts.onStep?.(step);
  }

  private async runDeployment(preview: boolean): Promise<EngineSummary> {
    const started = Date.now();
    const summary = this.newSummary(preview ? "preview" : "up");
    const state = this.state();
    const old = new Map(state.resources.map((r) => [r.urn, r]));
    const registered = new Set<string>();
    const completion: string[] = [];
    const plugin = this.pluginStarter(summary);
    const save = () => {
      if (!preview) saveState(this.stateFile, this.box, state);
    };
    const put = (r: ResourceState) => {
      const i = state.resources.findIndex((x) => x.urn === r.urn);
      if (i >= 0) state.resources[i] = r;
      else state.resources.push(r);
      save();
    };
    const drop = (urn: string) => {
      state.resources = state.resources.filter((x) => x.urn !== urn);
      save();
    };

    const onRegister = async (msg: RegisterMessage): Promise<{ id?: string; state: PropertyMap }> => {
      const t0 = Date.now();
      const step = newStep(msg, "same");
      try {
        const result = await this.register(msg, step, {
          preview,
          prior: old.get(msg.urn),
          registered,
          plugin: plugin.get,
          put,
          drop,
          pendingDelete: (r) => {
            state.pendingDeletes.push(r);
            save();
          },
        });
        completion.push(msg.urn);
        return result;
      } catch (e) {
        step.error =
          e instanceof StepError ? e.message : `${displayType(msg.type)} ${msg.name}: ${message(e)}`;
        throw new Error(step.error);
      } finally {
        step.durationMs = Date.now() - t0;
        this.record(summary, step);
      }
    };

    // The plugin loads @pulumi/pulumi as slowly as the program does: start both at once.
    plugin.get().catch(() => undefined);
    try {
      let result: Awaited<ReturnType<typeof runProgram>> | undefined;
      try {
        result = await runProgram({
          programDir: this.programDir,
          program: this.program,
          project: this.project,
          stack: this.stack,
          preview,
          config: this.config,
          secretConfigKeys: this.secretConfigKeys,
          ...(this.opts.env ? { env: this.opts.env } : {}),
          timeoutMs: this.opts.programTimeoutMs ?? 30 * 60_000,
          onRegister,
          ...(this.opts.onOutput ? { onOutput: this.opts.onOutput } : {}),
        });
      } catch (e) {
        summary.errors.push(`program: ${message(e)}`);
      }
      if (result) {
        summary.timings.programMs = result.durationMs;
        summary.diagnostics = result.output;
        const stepErrors = summary.errors.slice();
        for (const e of result.errors) {
          // A failed registration surfaces in the program too; report it once.
          if (!stepErrors.some((s) => e.includes(s))) summary.errors.push(`program: ${e}`);
        }
        for (const [k, o] of Object.entries(result.outputs)) {
          summary.outputs[k] = { value: o.value, secret: o.secret, known: o.known };
        }
      }

      const programOk = result !== undefined && summary.errors.length === 0;
      // Replaced resources (create-before-delete), then resources no longer in the program.
      if (programOk) {
        const doomed = state.pendingDeletes.slice();
        const orphans = deletionOrder(state.resources.filter((r) => !registered.has(r.urn)));
        for (const r of [...doomed, ...orphans]) {
          const isPending = doomed.includes(r);
          const step = newStep(r, "delete");
          const t0 = Date.now();
          try {
            if (!preview) {
              await this.deleteOne(r, plugin.get);
              if (isPending) {
                state.pendingDeletes = state.pendingDeletes.filter((p) => p !== r);
                save();
              } else drop(r.urn);
            } else if (r.protect) {
              throw new Error("it is protected");
            }
          } catch (e) {
            step.error = `${displayType(r.type)} ${r.name}: delete failed: ${message(e)}`;
          }
          step.durationMs = Date.now() - t0;
          // A pending delete of a replacement is part of that replace step, not a step of its own.
          if (isPending && !step.error) continue;
          this.record(summary, step);
        }
      }
      if (!preview) {
        if (programOk) {
          // Creation order of this run: every resource after what it depends on.
          const pos = new Map(completion.map((u, i) => [u, i]));
          state.resources.sort((a, b) => (pos.get(a.urn) ?? -1) - (pos.get(b.urn) ?? -1));
          const outputs: Record<string, StackOutput> = {};
          for (const [k, o] of Object.entries(summary.outputs))
            outputs[k] = { value: o.value, secret: o.secret };
          state.outputs = outputs;
        }
        state.lastOperation = { kind: "up", ok: summary.errors.length === 0, time: now() };
        saveState(this.stateFile, this.box, state);
      }
    } finally {
      await plugin.close();
    }
    return this.finishSummary(summary, started);
  }

  /** One registration: the heart of `up` and `preview`. */
  private async register(
    msg: RegisterMessage,
    step: StepSummary,
    ctx: {
      preview: boolean;
      prior: ResourceState | undefined;
      registered: Set<string>;
      plugin: () => Promise<PluginClient>;
      put: (r: ResourceState) => void;
      drop: (urn: string) => void;
      pendingDelete: (r: ResourceState) => void;
    },
  ): Promise<{ id?: string; state: PropertyMap }> {
    const label = `${displayType(msg.type)} ${msg.name}`;
    if (ctx.registered.has(msg.urn)) throw new StepError(`${label}: duplicate resource URN ${msg.urn}`);
    ctx.registered.add(msg.urn);
    const { prior, preview } = ctx;
    const unwrapped = unwrapSecrets(msg.inputs).value as PropertyMap;
    const secretInputs = Object.keys(msg.inputs).filter((k) => unwrapSecrets(msg.inputs[k]).secret);
    const secretOutputs = [...new Set([...secretInputs, ...msg.options.additionalSecretOutputs])];
    const base = {
      urn: msg.urn,
      type: msg.type,
      name: msg.name,
      custom: msg.custom,
      ...(msg.parent ? { parent: msg.parent } : {}),
      dependencies: msg.dependencies,
      ...(msg.options.protect ? { protect: true } : {}),
      ...(msg.options.retainOnDelete ? { retainOnDelete: true } : {}),
      ...(msg.options.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      secretInputs,
      secretOutputs,
    };

    if (!msg.custom) {
      // A component: recorded, never sent to a provider.
      step.op = prior ? "same" : "create";
      if (!preview) {
        ctx.put({
          ...base,
          inputs: unwrapped,
          outputs: {},
          created: prior?.created ?? now(),
          modified: now(),
        });
      }
      return { state: msg.inputs };
    }
    if (!msg.type.startsWith(DYNAMIC_PREFIX)) {
      throw new StepError(`${label}: the local engine runs dynamic resources only (type ${msg.type})`);
    }

    // What the step intends, until the diff says more (a failed check is reported with it).
    step.op = prior?.id ? "update" : "create";
    let news = unwrapped;
    if (prior) {
      for (const key of msg.options.ignoreChanges) {
        if (key in prior.inputs) news[key] = prior.inputs[key];
        else delete news[key];
      }
    }
    const plugin = await ctx.plugin();
    const checked = await plugin.check(msg.urn, prior?.inputs ?? {}, news);
    if (checked.failures.length) {
      const detail = checked.failures.map((f) => `property "${f.property}": ${f.reason}`).join("; ");
      throw new StepError(`${label}: invalid inputs: ${detail}`);
    }
    news = checked.inputs;
    const toProgram = (outs: PropertyMap) => wrapSecrets(outs, secretOutputs);

    const create = async (): Promise<{ id: string; state: PropertyMap }> => {
      try {
        const res = await plugin.create(msg.urn, news);
        if (!res.id) throw new Error("the provider returned an empty id");
        step.id = res.id;
        ctx.put({
          ...base,
          id: res.id,
          inputs: news,
          outputs: res.properties,
          created: now(),
          modified: now(),
        });
        return { id: res.id, state: toProgram(res.properties) };
      } catch (e) {
        const init = (e as PluginCallError).initFailed;
        if (init?.id) {
          step.id = init.id;
          // Created but failed: recorded, so it is not lost; the next `up` updates it.
          ctx.put({
            ...base,
            id: init.id,
            inputs: news,
            outputs: { ...init.properties, __provider: init.properties["__provider"] ?? news["__provider"] },
            initErrors: [message(e), ...init.reasons],
            created: now(),
            modified: now(),
          });
          throw new StepError(`${label}: created (id ${init.id}) but failed: ${message(e)}`);
        }
        throw new StepError(`${label}: create failed: ${message(e)}`);
      }
    };

    if (!prior?.id) {
      step.op = "create";
      step.changedKeys = Object.keys(news)
        .filter((k) => k !== "__provider")
        .sort();
      if (preview) return { state: toProgram(news) };
      return create();
    }

    step.id = prior.id;
    const diff: DiffResult = await plugin.diff(msg.urn, prior.id, prior.outputs, news, prior.inputs);
    const keys = changedKeys(prior.inputs, news);
    const replaceKeys = [
      ...new Set([...diff.replaces, ...msg.options.replaceOnChanges.filter((k) => keys.includes(k))]),
    ];
    const changed =
      diff.changes === "some" ||
      (diff.changes === "unknown" && changedKeys(prior.inputs, news, true).length > 0) ||
      replaceKeys.length > 0 ||
      (prior.initErrors?.length ?? 0) > 0;

    if (!changed) {
      step.op = "same";
      if (!preview)
        ctx.put({ ...prior, ...base, inputs: news, outputs: prior.outputs, modified: prior.modified });
      return { id: prior.id, state: toProgram(prior.outputs) };
    }
    step.changedKeys = keys;

    if (replaceKeys.length) {
      step.op = "replace";
      step.replaceKeys = replaceKeys;
      step.oldId = prior.id;
      if (preview) {
        delete step.id;
        return { state: toProgram(news) };
      }
      if (diff.deleteBeforeReplace || msg.options.deleteBeforeReplace) {
        await this.deleteOne(prior, ctx.plugin).catch((e) => {
          throw new StepError(`${label}: delete before replace failed: ${message(e)}`);
        });
        ctx.drop(prior.urn);
        return create();
      }
      const created = await create();
      ctx.pendingDelete(prior);
      return created;
    }

    step.op = "update";
    if (preview) return { id: prior.id, state: toProgram({ ...prior.outputs, ...news }) };
    try {
      const outs = await plugin.update(msg.urn, prior.id, prior.outputs, news, prior.inputs);
      const { initErrors: _cleared, ...rest } = prior;
      ctx.put({ ...rest, ...base, inputs: news, outputs: outs, modified: now() });
      return { id: prior.id, state: toProgram(outs) };
    } catch (e) {
      const init = (e as PluginCallError).initFailed;
      if (init) {
        ctx.put({
          ...prior,
          ...base,
          inputs: news,
          outputs: { ...init.properties, __provider: init.properties["__provider"] ?? news["__provider"] },
          initErrors: [message(e), ...init.reasons],
          modified: now(),
        });
      }
      throw new StepError(`${label}: update failed: ${message(e)}`);
    }
  }

  /** Deletes one resource through the plugin (components and retained resources only leave the state). */
  private async deleteOne(r: ResourceState, plugin: () => Promise<PluginClient>): Promise<void> {
    if (r.protect) throw new Error("it is protected (unset `protect` first)");
    if (!r.custom || !r.id || r.retainOnDelete) return;
    await (await plugin()).delete(r.urn, r.id, r.outputs, r.inputs);
  }

  /** Reads every resource from the service: drops the gone ones, records live inputs and outputs. */
  async refresh(): Promise<EngineSummary> {
    const started = Date.now();
    const summary = this.newSummary("refresh");
    const state = this.state();
    const plugin = this.pluginStarter(summary);
    try {
      for (const r of state.resources.slice()) {
        if (!r.custom || !r.id) continue;
        const t0 = Date.now();
        const step = newStep(r, "same");
        try {
          const res = await (await plugin.get()).read(r.urn, r.id, r.outputs, r.inputs);
          if (!res.id) {
            step.op = "delete";
            state.resources = state.resources.filter((x) => x !== r);
          } else {
            step.changedKeys = changedKeys(r.outputs, res.properties);
            if (step.changedKeys.length || res.id !== r.id) step.op = "update";
            step.id = res.id;
            const updated: ResourceState = {
              ...r,
              id: res.id,
              outputs: res.properties,
              inputs: res.inputs ?? r.inputs,
              modified: step.op === "update" ? now() : r.modified,
            };
            state.resources = state.resources.map((x) => (x === r ? updated : x));
          }
          saveState(this.stateFile, this.box, state);
        } catch (e) {
          step.error = `${displayType(r.type)} ${r.name}: refresh failed: ${message(e)}`;
        }
        step.durationMs = Date.now() - t0;
        this.record(summary, step);
      }
      state.lastOperation = { kind: "refresh", ok: summary.errors.length === 0, time: now() };
      saveState(this.stateFile, this.box, state);
    } finally {
      await plugin.close();
    }
    summary.outputs = { ...state.outputs };
    return this.finishSummary(summary, started);
  }

  /**
   * Deletes every resource, dependents first. A resource leaves the state only when its delete
   * succeeded; what a failed resource depends on is kept (and reported) too.
   */
  async destroy(): Promise<EngineSummary> {
    const started = Date.now();
    const summary = this.newSummary("destroy");
    const state = this.state();
    const plugin = this.pluginStarter(summary);
    const failed = new Set<string>();
    try {
      for (const r of [...state.pendingDeletes.slice(), ...deletionOrder(state.resources)]) {
        const isPending = state.pendingDeletes.includes(r);
        const t0 = Date.now();
        const step = newStep(r, "delete");
        const blocker = state.resources.find(
          (o) => failed.has(o.urn) && (o.parent === r.urn || o.dependencies.includes(r.urn)),
        );
        try {
          if (blocker) throw new Error(`${blocker.name} depends on it and could not be deleted`);
          await this.deleteOne(r, plugin.get);
          if (isPending) state.pendingDeletes = state.pendingDeletes.filter((p) => p !== r);
          else state.resources = state.resources.filter((x) => x !== r);
          saveState(this.stateFile, this.box, state);
        } catch (e) {
          failed.add(r.urn);
          step.error = `${displayType(r.type)} ${r.name}: delete failed: ${message(e)}`;
        }
        step.durationMs = Date.now() - t0;
        this.record(summary, step);
      }
      if (state.resources.length === 0) state.outputs = {};
      state.lastOperation = { kind: "destroy", ok: summary.errors.length === 0, time: now() };
      saveState(this.stateFile, this.box, state);
    } finally {
      await plugin.close();
    }
    return this.finishSummary(summary, started);
  }
}
