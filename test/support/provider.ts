/**
 * Drives a resource provider the way the engine does (check, then create/diff/update/read/delete on
 * the checked inputs), so provider tests read like the lifecycle they assert.
 */
import type * as pulumi from "@pulumi/pulumi";
import { expect, vi } from "vitest";

type Props = Record<string, unknown>;

/** The lines a call writes for the user (`wpengine:<Kind> ...` on stderr), with its result. */
export async function said<T>(work: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk, ...rest) => {
    if (String(chunk).startsWith("wpengine:")) {
      lines.push(String(chunk).trimEnd());
      return true;
    }
    return write(chunk, ...(rest as []));
  });
  try {
    return { result: await work(), lines };
  } finally {
    spy.mockRestore();
  }
}

/**
 * `delete`, returning the lines it wrote for the user (the `wpengine:<Kind> <id>: ...` notices on
 * stderr that say what a delete did when it did not simply delete).
 */
export async function deleteSays(provider: pulumi.dynamic.ResourceProvider, id: string, props: Props) {
  return (await said(() => provider.delete!(id, props))).lines;
}

/** `check` that must pass; returns the checked inputs (defaults filled). */
export async function checkOk(provider: pulumi.dynamic.ResourceProvider, news: Props, olds: Props = {}) {
  const result = await provider.check!(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as Props;
}

/** `check` that must fail; returns the failures as `property: reason` lines. */
export async function checkFails(provider: pulumi.dynamic.ResourceProvider, news: Props, olds: Props = {}) {
  const result = await provider.check!(olds, news);
  expect(result.failures?.length ?? 0).toBeGreaterThan(0);
  return (result.failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

/** check + create; returns id and outputs. */
export async function createOk(provider: pulumi.dynamic.ResourceProvider, news: Props) {
  const inputs = await checkOk(provider, news);
  const result = await provider.create(inputs);
  expect(result.id).toBeTruthy();
  assertPlain(result.outs);
  return { id: result.id, outs: result.outs as Props, inputs };
}

/** diff of the outputs against new (checked) inputs. */
export async function diff(provider: pulumi.dynamic.ResourceProvider, id: string, outs: Props, news: Props) {
  const inputs = await checkOk(provider, news, outs);
  return provider.diff!(id, outs, inputs);
}

/** Outputs the engine can record: JSON-plain, no `undefined` anywhere. */
export function assertPlain(value: unknown, path = "outs"): void {
  if (value === undefined) throw new Error(`${path} is undefined`);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) assertPlain(v, `${path}[${i}]`);
  } else if (value !== null && typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new Error(`${path} is not a plain object`);
    for (const [k, v] of Object.entries(value)) assertPlain(v, `${path}.${k}`);
  }
}

/**
 * `check` of a new resource that must refuse it (its object exists already, or its parent does not), on
 * one input with a reason that matches `said`; returns the checked inputs, for a create sent past it (as
 * when the object was made between the check and the create).
 */
export async function refusedAtCheck(
  provider: pulumi.dynamic.ResourceProvider,
  news: Props,
  said: string | RegExp = /already (exists?|has|added)/,
) {
  const result = await provider.check!({}, news);
  expect(result.failures ?? []).toHaveLength(1);
  expect(result.failures![0]!.reason).toMatch(said);
  return result.inputs as Props;
}
