/**
 * Helpers shared by the engine-level and program-level suites: programs generated from a resource
 * case, run under mocks in plain node to capture exactly what Pulumi would send (the real serialized
 * `__provider` included), and the simulator's stack config.
 */

import { SEED } from "../../simulator";
import { type ProgramOutput, type RegisterMessage, runProgram } from "../../tools/plugin-harness";
import type { ResourceCase } from "./cases";

/** The stack config pointing the provider at a simulator. */
export function simulatorConfig(
  sim: { apiUrl: string; appHostingUrl: string },
  password: string,
  username = "demo",
): Record<string, string> {
  return {
    "wpengine:username": username,
    "wpengine:password": password,
    "wpengine:apiUrl": sim.apiUrl,
    "wpengine:appHostingUrl": sim.appHostingUrl,
  };
}

/** A password nobody else uses, so a grep for it proves it leaked. */
export function distinctivePassword(): string {
  return `engine-pw-${Math.random().toString(36).slice(2, 10)}-${Date.now().toString(36)}`;
}

const PRELUDE = `"use strict";
const pulumi = require("@pulumi/pulumi");
const pkg = require("pulumi-wpengine");
// The package root once it exports the classes; the stable dist path until then.
const load = (kind) => pkg[kind] || require("pulumi-wpengine/dist/provider/kinds/" + kind + ".js")[kind];
const outputKeys = (res) =>
  Object.keys(res).filter((k) => pulumi.Output.isInstance(res[k]) && k !== "urn" && k !== "id").sort();
`;

function argsLiteral(args: Record<string, unknown>, secretArgs: readonly string[] = []): string {
  const parts = Object.entries(args).map(([k, v]) => {
    const value = JSON.stringify(v);
    return `  ${JSON.stringify(k)}: ${secretArgs.includes(k) ? `pulumi.secret(${value})` : value},`;
  });
  return `{\n${parts.join("\n")}\n}`;
}

/**
 * A program registering one resource of the case (named `res`), exporting its id, the Output-valued
 * properties the class declares, and its class name.
 */
export function resourceProgram(
  c: ResourceCase,
  args: Record<string, unknown>,
  opts: { name?: string; options?: string } = {},
): string {
  const name = opts.name ?? "res";
  return `${PRELUDE}
const Res = load(${JSON.stringify(c.kind)});
const res = new Res(${JSON.stringify(name)}, ${argsLiteral(args, c.secretArgs)}, ${opts.options ?? "{}"});
exports.id = res.id;
exports.outputKeys = outputKeys(res);
exports.className = res.constructor.name;
`;
}

/** One resource of a {@link resourcesProgram}. */
export interface ProgramItem {
  c: ResourceCase;
  name: string;
  args: Record<string, unknown>;
  /** Resource options, as a JS expression. */
  options?: string;
}

/**
 * A program registering several resources at once (one child process for a whole table), exporting
 * `resources`: per name, the Output-valued properties and the class name.
 */
export function resourcesProgram(items: readonly ProgramItem[]): string {
  const lines = items.map((it, i) => {
    const ctor = `load(${JSON.stringify(it.c.kind)})`;
    const args = argsLiteral(it.args, it.c.secretArgs);
    return `const r${i} = new (${ctor})(${JSON.stringify(it.name)}, ${args}, ${it.options ?? "{}"});
resources[${JSON.stringify(it.name)}] = { outputKeys: outputKeys(r${i}), className: r${i}.constructor.name };`;
  });
  return `${PRELUDE}
const resources = {};
${lines.join("\n")}
exports.resources = resources;
`;
}

export const seed = SEED;

/** What a program registered, captured under mocks. */
export interface Capture {
  registrations: RegisterMessage[];
  outputs: Record<string, ProgramOutput>;
  errors: string[];
  durationMs: number;
}

/**
 * Runs a program under mocks in a child `node`, recording every registration; each resource gets the
 * id `<name>-id` and its inputs back as outputs (no engine, no plugin).
 */
export async function capture(
  programDir: string,
  program: string,
  opts: { preview?: boolean; config?: Record<string, string> } = {},
): Promise<Capture> {
  const registrations: RegisterMessage[] = [];
  const result = await runProgram({
    programDir,
    program,
    project: "engine-test",
    stack: "test",
    preview: opts.preview ?? false,
    config: opts.config ?? {},
    secretConfigKeys: [],
    timeoutMs: 60_000,
    onRegister: async (msg) => {
      registrations.push(msg);
      return { id: `${msg.name}-id`, state: msg.inputs };
    },
  });
  return {
    registrations,
    outputs: result.outputs,
    errors: result.errors,
    durationMs: result.durationMs,
  };
}

/** Every string inside a value (for "this secret appears nowhere" checks). */
export function allStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) allStrings(v, out);
  else if (value !== null && typeof value === "object")
    for (const v of Object.values(value)) allStrings(v, out);
  return out;
}

/** Keys whose value is undefined or null, among `keys`. */
export function missing(props: Record<string, unknown>, keys: readonly string[]): string[] {
  return keys.filter((k) => props[k] === undefined || props[k] === null);
}
