/**
 * `pulumi-resource-wpengine`: the executable front door, Pulumi's ResourceProvider gRPC service for every
 * language, dispatching to the lifecycle methods the dynamic classes use. Written against
 * `@pulumi/pulumi/proto` rather than the SDK's `provider.main`, which drops the configuration in `Configure`
 * and has no `CheckConfig`/`DiffConfig`: credentials per provider instance need all three.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { isRpcSecret, specialSecretSig, specialSigKey, unwrapRpcSecret } from "@pulumi/pulumi/runtime/rpc";
import { SDK_VERSION } from "../../sdk/core/config";
import {
  CONFIG_KEYS,
  type ConfigName,
  misspelt,
  type ProviderInstance,
  profileOf,
  SECRET_SETTINGS,
  urlProblems,
  withProfile,
  withProviderInstance,
} from "../core/config";
import type { Kind } from "../core/define";
import { CLAIMANT } from "../core/identity";
import { forCommandLine, forEngine, type Props, UNKNOWN } from "../core/inputs";
import { underPulumiDo } from "../core/journal";
import { type CreatedButFailedError, diffOf, tellThrough } from "../core/lifecycle";
import { asLookup } from "../core/programClient";
import { stopWithParent } from "../core/watchdog";
import { LOOKUP_TABLE } from "../lookups";
import { type Lookup, run } from "../lookups/common";
import { KINDS } from "../registry";
import { importIdOf, parseImportId, resourceProvider, resultShape, token, tokenName } from "./registry";

// The gRPC runtime and messages are @pulumi/pulumi's own (its dependencies, resolved from it).
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromPulumi = (id: string) => require(require.resolve(id, { paths: [pulumiDir] }));
// biome-ignore-start lint/suspicious/noExplicitAny: generated protobuf modules without usable typings here.
const grpc: typeof import("@grpc/grpc-js") = fromPulumi("@grpc/grpc-js");
const structproto: any = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const emptyproto: any = fromPulumi("google-protobuf/google/protobuf/empty_pb");
const anyproto: any = fromPulumi("google-protobuf/google/protobuf/any_pb");
const provrpc: any = require("@pulumi/pulumi/proto/provider_grpc_pb");
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const plugproto: any = require("@pulumi/pulumi/proto/plugin_pb");
const statusproto: any = require("@pulumi/pulumi/proto/status_pb");
type Msg = any;
type Callback = (err: unknown, res?: Msg) => void;
// biome-ignore-end lint/suspicious/noExplicitAny: end of the protobuf section.

/** The Pulumi schema, which the build writes beside this file (tools/schema.ts). */
const SCHEMA = path.join(__dirname, "schema.json");

/** A Struct's values without their secret wrappers, each top-level key that held one added to `secretKeys`. */
function propsOf(s: Msg | undefined, secretKeys = new Set<string>()): Props {
  const strip = (v: unknown, key: string): unknown => {
    if (isRpcSecret(v)) {
      secretKeys.add(key);
      return strip(unwrapRpcSecret(v), key);
    }
    if (typeof v !== "object" || v === null) return v;
    if (Array.isArray(v)) return v.map((x) => strip(x, key));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x, key)]));
  };
  const struct: Props = s ? s.toJavaScript() : {};
  return Object.fromEntries(Object.entries(struct).map(([k, v]) => [k, strip(v, k)]));
}

/** A Struct of `props`, the values of `secretKeys` wrapped as secrets. */
function toStruct(props: Props, secretKeys: Iterable<string> = []): Msg {
  const out = { ...props };
  for (const k of secretKeys)
    if (out[k] != null) out[k] = { [specialSigKey]: specialSecretSig, value: out[k] };
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(out)));
}

/** The kind of `urn:pulumi:<stack>::<project>::<parent types$>wpengine:index:<Kind>::<name>`. */
export function kindOfUrn(urn: string): string {
  const type = urn.split("::")[2]?.split("$").pop() ?? "";
  const kind = tokenName(type);
  if (kind) return kind;
  // A Node.js class given `provider: <an explicit wpengine provider>`: the classes run in the dynamic provider.
  if (type.startsWith("pulumi-nodejs:dynamic/wpengine:"))
    throw new Error(
      `wpengine: ${urn.split("::").pop()} is a pulumi-wpengine class, which takes no \`provider\` option: give it \`profile\` for other credentials (docs/accounts.md), or remove the option`,
    );
  throw new Error(`wpengine: not a resource of this provider: ${urn}`);
}

/** A failed call as gRPC reports it; a created-but-failed object keeps its id and properties. */
function grpcError(err: unknown): Msg {
  const e = (err instanceof Error ? err : new Error(String(err))) as Partial<CreatedButFailedError> & Error;
  const metadata = new grpc.Metadata();
  if (e.id) {
    const { __provider: _p, ...props } = e.properties ?? {};
    const detail = new provproto.ErrorResourceInitFailed().setId(e.id).setProperties(toStruct(props));
    const details = new anyproto.Any();
    details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(e.message);
    status.addDetails(details);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, message: e.message, metadata };
}

/** What a lookup's 404 at preview may mean (docs/lookups.md): the object is one this program creates. */
export const previewNotFound = (name: string): string =>
  `; or this program creates it: at preview ${name} runs as soon as its arguments are known (YAML's fn::invoke ` +
  "even with dependsOn), before the program's resources exist. Pass an argument known only once the object " +
  `exists (an App's appId as \`fn::select: [3, {fn::split: ["/", "\${app.id}"]}]\`: the lookup waits, its ` +
  "result unknown at preview), or use the resource's outputs instead";

/** A provider input that is a setting (known or misspelt), not one the engine keeps there (`version`, `__internal`). */
const isSetting = (name: string) =>
  !name.startsWith("__") && name !== "version" && name !== "pluginDownloadURL";

/**
 * The provider's own configuration: `args` (newer engines), else the `wpengine:config:<key>` variables.
 * An explicit provider without `profiles` takes the stack's `wpengine:profiles` (the engine hands every
 * provider process its stack's config as `PULUMI_CONFIG`), so credentials never enter its inputs or state.
 */
export function providerConfigOf(req: Msg, env = process.env): ProviderInstance["config"] {
  const fromArgs = req.hasArgs?.() ? propsOf(req.getArgs()) : undefined;
  const vars: Map<string, string> | undefined = req.getVariablesMap?.();
  const config: ProviderInstance["config"] = {};
  const names = fromArgs ? Object.keys(fromArgs) : [...(vars?.keys() ?? [])].map((k) => k.split(":").pop()!);
  // Every name, a misspelt one too: resolving refuses it (`resolveProviderConfig`).
  for (const name of new Set([...Object.keys(CONFIG_KEYS), ...names.filter(isSetting)]) as Set<ConfigName>) {
    const value = fromArgs ? fromArgs[name] : vars?.get(`wpengine:config:${name}`);
    if (value != null && value !== "" && value !== UNKNOWN) config[name] = String(value);
  }
  let stack: unknown; // none when PULUMI_CONFIG is not JSON
  try {
    stack = (JSON.parse(env["PULUMI_CONFIG"] ?? "{}") as Props | null)?.["profiles"];
  } catch {}
  if (typeof stack === "string" && stack !== "") config.profiles ??= stack;
  return config;
}

const changes = (some: unknown) =>
  some ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE;

/** The resource provider service: one per plugin process, which the engine starts per provider instance. */
export class WpEngineProvider {
  private instance: ProviderInstance = { config: {}, clientSlot: Symbol("pulumi-wpengine.instance-client") };

  constructor(private readonly version: string) {}

  /** Runs `fn` as this provider instance, as the profile `props` name (else the instance's own). */
  private as<T>(fn: () => Promise<T>, props?: Props): Promise<T> {
    return withProviderInstance(this.instance, () => withProfile(profileOf(props), fn));
  }

  service(): Record<string, unknown> {
    const h = (fn: (req: Msg) => Promise<Msg>) => (call: { request: Msg }, callback: Callback) =>
      fn.call(this, call.request).then(
        (res) => callback(null, res),
        (err) => callback(grpcError(err)),
      );
    return {
      getPluginInfo: h(async () => new plugproto.PluginInfo().setVersion(this.version)),
      getSchema: h(async () => new provproto.GetSchemaResponse().setSchema(readFileSync(SCHEMA, "utf8"))),
      checkConfig: h(this.checkConfig),
      diffConfig: h(this.diffConfig),
      configure: h(this.configure),
      invoke: h(this.invoke),
      check: h(this.check),
      diff: h(this.diff),
      create: h(this.create),
      read: h(this.read),
      update: h(this.update),
      delete: h(this.delete),
      cancel: h(async () => new emptyproto.Empty()),
      list: (call: { request: Msg; write(m: Msg): void; end(): void; emit(e: string, err: unknown): void }) =>
        this.list(call.request).then(
          (responses) => {
            for (const r of responses) call.write(r);
            call.end();
          },
          (err) => call.emit("error", grpcError(err)),
        ),
    };
  }

  /**
   * `List` (`pulumi do wpengine:<Kind> list --install-id ...`): the kind's objects under the query as import
   * ids, as many as `pageSize` asks (all when unset), then a continuation token (an offset) when more remain.
   */
  private async list(req: Msg): Promise<Msg[]> {
    const kind = tokenName(String(req.getToken()));
    const listing = Object.hasOwn(KINDS, kind) ? KINDS[kind]!.list : undefined;
    if (!listing) throw new Error(`wpengine: ${req.getToken()} has no listing (see the schema's listInputs)`);
    const query = Object.entries(propsOf(req.getQuery())).filter(([, v]) => v != null && v !== "");
    const parsed = listing.inputs.strict().safeParse(Object.fromEntries(query));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(
        `wpengine: ${token(kind)} list: ${issue.path.join(".") || "(query)"}: ${issue.message} (the list inputs are ${Object.keys(listing.inputs.shape).join(", ")})`,
      );
    }
    // As a lookup: wrong credentials say so, naming the profile; a 403 names the API user.
    const items = await this.as(() =>
      asLookup((client) => listing.items(parsed.data as Record<string, string>, client)),
    );
    const offset = Number(req.getContinuationToken() || 0);
    const limit = Number(req.getLimit() || 0);
    const size = Number(req.getPageSize() || 0);
    const page = items.slice(offset, offset + Math.min(...[limit, size].filter((n) => n > 0)));
    const out = page.map((item) =>
      new provproto.ListResponse().setResult(
        new provproto.ListResponse.Result().setId(importIdOf(kind, item.fields)).setName(item.name),
      ),
    );
    const next = offset + page.length;
    const more = new provproto.ListResponse.Continuation().setContinuationToken(String(next));
    if (next < items.length && !(limit > 0 && page.length >= limit))
      out.push(new provproto.ListResponse().setContinuation(more));
    return out;
  }

  private async checkConfig(req: Msg): Promise<Msg> {
    const given = new Set<string>();
    const news = propsOf(req.getNews(), given);
    const failures = [...misspelt(Object.keys(news).filter(isSetting)), ...urlProblems(news)].map(
      ({ name, reason }) => new provproto.CheckFailure().setProperty(name).setReason(reason),
    );
    // A secret setting is stored as one (as bridged providers do): the engine keeps the checked inputs, in the
    // state, as they come back. It hands CheckConfig every value in clear, so whether the stack config holds
    // it as a secret is not known here (the Node.js classes warn of that at preview).
    const secrets = SECRET_SETTINGS.filter((k) => typeof news[k] === "string" && news[k] !== UNKNOWN);
    const inputs = secrets.length ? toStruct(news, [...given, ...secrets]) : req.getNews();
    return new provproto.CheckResponse().setInputs(inputs).setFailuresList(failures);
  }

  private async diffConfig(req: Msg): Promise<Msg> {
    // Credentials and URLs change in place: the objects stay, the next calls use the new settings.
    const olds = propsOf(req.getOldInputs() ?? req.getOlds());
    const news = propsOf(req.getNews());
    const diffs = Object.keys(CONFIG_KEYS).filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return new provproto.DiffResponse().setChanges(changes(diffs.length)).setDiffsList(diffs);
  }

  private async configure(req: Msg): Promise<Msg> {
    this.instance = { ...this.instance, config: providerConfigOf(req), fromArguments: true };
    return new provproto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true);
  }

  private async invoke(req: Msg): Promise<Msg> {
    const name = tokenName(String(req.getTok()));
    const lookup = (LOOKUP_TABLE as Record<string, Lookup>)[name];
    if (!lookup) throw new Error(`wpengine: unknown function ${req.getTok()}`);
    const args = propsOf(req.getArgs());
    const result = await this.as(() => asLookup((client) => run(name, lookup, args, { client }))).catch(
      (err) => {
        // The engine refuses an unknown result, and YAML's host sends known arguments at once, `dependsOn` or not.
        if (req.getPreview() && err instanceof Error && (err as { status?: unknown }).status === 404)
          err.message += previewNotFound(name);
        throw err;
      },
    );
    const shape = resultShape(lookup);
    return new provproto.InvokeResponse().setReturn(
      toStruct(shape === "record" ? (result as Props) : { [shape]: result }),
    );
  }

  private resource(req: Msg) {
    const kind = kindOfUrn(req.getUrn());
    const provider = resourceProvider(kind);
    const def = provider.definition;
    return { kind, provider, def, secretKeys: new Set<string>(def.secrets ?? []) };
  }

  private async check(req: Msg): Promise<Msg> {
    const { provider, secretKeys } = this.resource(req);
    const olds = propsOf(req.getOlds());
    const news = propsOf(req.getNews(), secretKeys);
    // The resource claims its object by its URN (see core/identity.ts); the claim is not an input.
    const res = await this.as(() => provider.check!(olds, { ...news, [CLAIMANT]: req.getUrn() }), news);
    const { [CLAIMANT]: _claimant, ...checked } = res.inputs ?? news;
    // The engine sends a random seed with every check and prints a named property's value beside the reason;
    // `pulumi do` sends none and prints `- <property>: <reason>`, the property left empty reading `- : ...`.
    const engine = req.getRandomseed_asU8().length > 0;
    const failures = (res.failures ?? [])
      .map(engine ? forEngine : forCommandLine)
      .map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason));
    return new provproto.CheckResponse().setInputs(toStruct(checked, secretKeys)).setFailuresList(failures);
  }

  private async diff(req: Msg): Promise<Msg> {
    const { provider, def } = this.resource(req);
    const olds = propsOf(req.getOlds());
    const news = propsOf(req.getNews());
    const res = await this.as(() => provider.diff!(req.getId(), olds, news));
    const replaces = res.replaces ?? [];
    // The names come from the definition's diff (a dynamic provider's diff result has no field for them).
    const { diffs: named = [], stables = [] } = diffOf(def, olds, news);
    const diffs = [...new Set([...named, ...replaces])];
    const out = new provproto.DiffResponse()
      .setChanges(changes(res.changes))
      .setReplacesList(replaces)
      .setStablesList(replaces.length ? [] : stables)
      .setDiffsList(diffs)
      .setDeletebeforereplace(res.deleteBeforeReplace === true)
      // A change no input names (recorded outputs saying the object is lost: an update) is left to the engine's view.
      .setHasdetaileddiff(diffs.length > 0);
    for (const key of diffs) {
      const change = olds[key] == null ? "ADD" : news[key] == null ? "DELETE" : "UPDATE";
      const kind = provproto.PropertyDiff.Kind[replaces.includes(key) ? `${change}_REPLACE` : change];
      out.getDetaileddiffMap().set(key, new provproto.PropertyDiff().setKind(kind).setInputdiff(true));
    }
    return out;
  }

  private async create(req: Msg): Promise<Msg> {
    const { provider, def, secretKeys } = this.resource(req);
    const inputs = propsOf(req.getProperties(), secretKeys);
    if (req.getPreview()) return new provproto.CreateResponse().setId("").setProperties(req.getProperties());
    const claimed = { ...withTimeout(def, inputs, req), [CLAIMANT]: req.getUrn() };
    const { id, outs } = await this.as(() => provider.create!(claimed), inputs);
    // The claim is this call's, by URN (check keeps it out of the inputs, so out of the outputs too).
    const { [CLAIMANT]: _claimant, ...made } = outs;
    return new provproto.CreateResponse()
      .setId(id)
      .setProperties(toStruct(keepTimeout(made, inputs), secretKeys));
  }

  private async read(req: Msg): Promise<Msg> {
    const { kind, provider, def, secretKeys } = this.resource(req);
    let id: string = req.getId();
    let props = propsOf(req.getProperties(), secretKeys);
    // An import: nothing in state yet, the id addresses the object and carries what read needs.
    const byImportId = Object.keys(props).length === 0;
    if (byImportId) ({ id, olds: props } = parseImportId(kind, id));
    else props = { ...props, ...settingsOf(def, propsOf(req.getInputs())) };
    const res = await this.as(() => provider.read!(id, props), props);
    // `pulumi do ... read` prints the id as its list and patch do (the import id, `{installId}/{id}`), so
    // it can be copied into read, patch or `pulumi import`; an engine's import records the object's own id.
    const shown = byImportId && res.id === id && underPulumiDo() ? String(req.getId()) : res.id;
    const out = new provproto.ReadResponse().setId(shown ?? "");
    if (!res.id) return out;
    return out
      .setProperties(toStruct(res.props ?? {}, secretKeys))
      .setInputs(toStruct(res.inputs ?? {}, secretKeys));
  }

  private async update(req: Msg): Promise<Msg> {
    const { kind, provider, def, secretKeys } = this.resource(req);
    const olds = propsOf(req.getOlds(), secretKeys);
    const news = propsOf(req.getNews(), secretKeys);
    if (req.getPreview()) {
      // The stable outputs (e.g. the object's own id) stay known; the other computed outputs are left out,
      // so they are unknown until the update runs (toStruct drops an undefined one).
      const kept = Object.fromEntries((def.stableOutputs ?? []).map((k) => [k, olds[k]]));
      return new provproto.UpdateResponse().setProperties(toStruct({ ...kept, ...news }, secretKeys));
    }
    const wanted = withTimeout(def, news, req);
    const { outs } = await this.as(() => provider.update!(objectId(kind, req.getId()), olds, wanted), news);
    return new provproto.UpdateResponse().setProperties(toStruct(keepTimeout(outs, news), secretKeys));
  }

  private async delete(req: Msg): Promise<Msg> {
    const { kind, provider, def } = this.resource(req);
    const props = propsOf(req.getProperties());
    // The claimant, as at create: the URN (a resource that took the object over in this run keeps it).
    const claimed = { ...withTimeout(def, props, req), [CLAIMANT]: req.getUrn() };
    await this.as(() => provider.delete!(objectId(kind, req.getId()), claimed), props);
    return new emptyproto.Empty();
  }
}

/**
 * The object's own id in `id`: `pulumi do` passes the import id it was given (`{installId}/{id}`) to update
 * and delete as well as to read. A resource's own id passes unchanged: only a kind whose import id is
 * `{parent}/{id}` changes it, and such a kind's own id (the service's) holds no `/`.
 */
function objectId(kind: string, id: string): string {
  try {
    return parseImportId(kind, id).id;
  } catch {
    return id;
  }
}

/**
 * The settings and write-only inputs, which the service never reports: a read takes them from the program's
 * inputs (the engine records a new value with the old outputs), so a refresh shows no drift for them.
 */
function settingsOf(def: Kind["provider"]["definition"], inputs: Props): Props {
  const read = [...def.replaceOn, ...def.updatable].filter((k) => !def.writeOnly?.includes(k));
  const unread = Object.keys(def.schema.shape).filter((k) => !read.includes(k) && inputs[k] !== undefined);
  return Object.fromEntries(unread.map((k) => [k, inputs[k]]));
}

/** `customTimeouts` of the operation (the request's `timeout`) reach the waits: they replace `timeoutSeconds` for this call. */
function withTimeout(def: Kind["provider"]["definition"], props: Props, req: Msg): Props {
  const seconds = Math.ceil(Number(req.getTimeout()));
  return seconds > 0 && Object.hasOwn(def.schema.shape, "timeoutSeconds")
    ? { ...props, timeoutSeconds: seconds }
    : props;
}

/** State keeps the program's `timeoutSeconds` (a checked input has it wherever the kind takes one), so a customTimeouts value never shows as a diff. */
const keepTimeout = (outs: Props, inputs: Props): Props =>
  inputs["timeoutSeconds"] === undefined ? outs : { ...outs, timeoutSeconds: inputs["timeoutSeconds"] };

/** Starts the gRPC server on a loopback port and prints the port, as the engine expects of a plugin. */
export async function main(): Promise<void> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, new WpEngineProvider(SDK_VERSION).service() as never);
  const bind = promisify(server.bindAsync.bind(server));
  const port = await bind("127.0.0.1:0", grpc.ServerCredentials.createInsecure());
  process.stdout.write(`${port}\n`);
  stopWithParent();
  logToEngine(process.argv.slice(2).find((a) => !a.startsWith("-")));
}

/**
 * The provider's lines for the user go to the engine's log (its first argument's address), which the CLI
 * shows among the update's diagnostics: the engine hides an executable provider's own stderr.
 */
function logToEngine(engineAddress: string | undefined): void {
  if (!engineAddress) return;
  const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb");
  const engproto = require("@pulumi/pulumi/proto/engine_pb");
  const engine = new engrpc.EngineClient(engineAddress, grpc.credentials.createInsecure());
  tellThrough((line) => {
    const req = new engproto.LogRequest().setSeverity(engproto.LogSeverity.INFO).setMessage(line);
    engine.log(req, (err: unknown) => {
      if (err) process.stderr.write(`${line}\n`);
    });
  });
}
