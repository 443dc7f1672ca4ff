/**
 * The stack state of the local engine: one JSON file, rewritten (atomically) after every step.
 *
 * Per resource it keeps what `pulumi up` keeps: type, name, id, inputs and outputs (both with the
 * serialized `__provider`), parent and dependencies, and the options that matter after the program is
 * gone (protect, retainOnDelete, deleteBeforeReplace). Resources are in creation order (a valid
 * dependency order), so deleting in reverse is safe.
 *
 * Secret values (top-level keys listed in `secretInputs` / `secretOutputs`) are stored encrypted in
 * Pulumi's own state shape `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
 * "ciphertext": ...}` with AES-256-GCM; the key comes from a passphrase (option or
 * `PULUMI_CONFIG_PASSPHRASE`) or else from a random key file beside the state (`<stateFile>.key`).
 * Stack config is never written here.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { PropertyMap } from "./plugin";

export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export interface ResourceState {
  urn: string;
  type: string;
  name: string;
  /** false for component resources (never sent to a provider). */
  custom: boolean;
  /** The provider's id; absent for components. */
  id?: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  parent?: string;
  dependencies: string[];
  protect?: boolean;
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  /** Top-level input keys holding a secret. */
  secretInputs: string[];
  /** Top-level output keys stored as secrets (secret inputs of the same name, additionalSecretOutputs). */
  secretOutputs: string[];
  /** Set when create/update failed after the object existed: the next `up` updates it. */
  initErrors?: string[];
  created: string;
  modified: string;
}

export interface StackOutput {
  value: unknown;
  secret: boolean;
}

export interface StackState {
  version: 1;
  project: string;
  stack: string;
  resources: ResourceState[];
  /** Replaced resources whose delete has not happened yet (create-before-delete replacements). */
  pendingDeletes: ResourceState[];
  outputs: Record<string, StackOutput>;
  /** Salt of the passphrase key derivation (when a passphrase is used). */
  secretsSalt?: string;
  lastOperation?: { kind: string; ok: boolean; time: string };
}

export function emptyState(project: string, stack: string): StackState {
  return { version: 1, project, stack, resources: [], pendingDeletes: [], outputs: {} };
}

/** Encrypts and decrypts secret values of one state file. */
export class SecretBox {
  private key: Buffer | undefined;
  constructor(
    private readonly stateFile: string,
    private readonly passphrase: string | undefined,
  ) {}

  private keyFor(state: StackState): Buffer {
    if (this.key) return this.key;
    if (this.passphrase !== undefined && this.passphrase !== "") {
      if (!state.secretsSalt) state.secretsSalt = randomBytes(16).toString("base64");
      this.key = scryptSync(this.passphrase, Buffer.from(state.secretsSalt, "base64"), 32);
      return this.key;
    }
    const keyFile = `${this.stateFile}.key`;
    if (fs.existsSync(keyFile)) {
      this.key = Buffer.from(fs.readFileSync(keyFile, "utf8").trim(), "base64");
    } else {
      this.key = randomBytes(32);
      fs.mkdirSync(path.dirname(keyFile), { recursive: true });
      fs.writeFileSync(keyFile, `${this.key.toString("base64")}\n`, { mode: 0o600 });
    }
    return this.key;
  }

  seal(state: StackState, value: unknown): Record<string, string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.keyFor(state), iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value ?? null), "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return {
      [SECRET_SIG_KEY]: SECRET_SIG,
      ciphertext: `v1:${iv.toString("base64")}:${tag.toString("base64")}:${data.toString("base64")}`,
    };
  }

  open(state: StackState, sealed: { ciphertext: string }): unknown {
    const [v, iv, tag, data] = sealed.ciphertext.split(":");
    if (v !== "v1" || !iv || !tag || data === undefined)
      throw new Error("unreadable secret in the state file");
    const decipher = createDecipheriv("aes-256-gcm", this.keyFor(state), Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    const text = Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString(
      "utf8",
    );
    return JSON.parse(text);
  }
}

function isSealed(v: unknown): v is { ciphertext: string } {
  return (
    typeof v === "object" &&
    v !== null &&
    (v as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG &&
    typeof (v as Record<string, unknown>)["ciphertext"] === "string"
  );
}

function sealMap(box: SecretBox, state: StackState, map: PropertyMap, keys: string[]): PropertyMap {
  if (!keys.length) return map;
  const out: PropertyMap = { ...map };
  for (const k of keys) if (k in out) out[k] = box.seal(state, out[k]);
  return out;
}

function openMap(box: SecretBox, state: StackState, map: PropertyMap): PropertyMap {
  const out: PropertyMap = {};
  for (const [k, v] of Object.entries(map)) out[k] = isSealed(v) ? box.open(state, v) : v;
  return out;
}

/** Reads a state file (secrets decrypted); an absent file is an empty stack. */
export function loadState(file: string, box: SecretBox, project: string, stack: string): StackState {
  if (!fs.existsSync(file)) return emptyState(project, stack);
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
  const state: StackState = { ...emptyState(project, stack), ...raw };
  const open = (r: ResourceState): ResourceState => ({
    ...r,
    inputs: openMap(box, state, r.inputs ?? {}),
    outputs: openMap(box, state, r.outputs ?? {}),
    secretInputs: r.secretInputs ?? [],
    secretOutputs: r.secretOutputs ?? [],
    dependencies: r.dependencies ?? [],
  });
  state.resources = (raw.resources ?? []).map(open);
  state.pendingDeletes = (raw.pendingDeletes ?? []).map(open);
  const outputs: Record<string, StackOutput> = {};
  for (const [k, o] of Object.entries(raw.outputs ?? {})) {
    outputs[k] = { secret: o.secret, value: isSealed(o.value) ? box.open(state, o.value) : o.value };
  }
  state.outputs = outputs;
  return state;
}

/** Writes the state file atomically (temp file + rename), secrets encrypted. */
export function saveState(file: string, box: SecretBox, state: StackState): void {
  const seal = (r: ResourceState): ResourceState => ({
    ...r,
    inputs: sealMap(box, state, r.inputs, r.secretInputs),
    outputs: sealMap(box, state, r.outputs, r.secretOutputs),
  });
  const outputs: Record<string, StackOutput> = {};
  for (const [k, o] of Object.entries(state.outputs)) {
    outputs[k] = { secret: o.secret, value: o.secret ? box.seal(state, o.value) : o.value };
  }
  const resources = state.resources.map(seal);
  const pendingDeletes = state.pendingDeletes.map(seal);
  // After sealing: the first secret may have set `secretsSalt`.
  const onDisk: StackState = { ...state, resources, pendingDeletes, outputs };
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(onDisk, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
