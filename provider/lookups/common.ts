/** What every lookup shares: options, the client of the program, paging, and the `...Output` form. */
import * as pulumi from "@pulumi/pulumi";
import type { WpEngineClient } from "../../sdk";
import { programClient } from "../core/programClient";

/** Options of every lookup. */
export interface LookupOptions {
  /** The client to use; default: one built from the program's `wpengine:*` config and the environment. */
  client?: WpEngineClient;
  /** Records per page requested from the service (hosting lists 1 to 100, application hosting any); all pages are read. */
  pageSize?: number;
}

/** Arguments of a lookup, each of which may be a `pulumi.Input`. */
export type LookupInputs<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** The client of a lookup: the one given, or the program's. */
export async function clientOf(options: LookupOptions | undefined): Promise<WpEngineClient> {
  return options?.client ?? programClient();
}

/** Every item of an async list, mapped. */
export async function collect<T, R>(items: AsyncIterable<T>, map: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  for await (const item of items) out.push(map(item));
  return out;
}

/** The hosting list paging parameter (limit), when a page size is asked for. */
export function limitOf(options: LookupOptions | undefined): { limit?: number } {
  return options?.pageSize !== undefined ? { limit: options.pageSize } : {};
}

/** The application-hosting paging parameter (pageSize), when a page size is asked for. */
export function pageSizeOf(options: LookupOptions | undefined): { pageSize?: number } {
  return options?.pageSize !== undefined ? { pageSize: options.pageSize } : {};
}

/** Turns a Promise lookup into its Output variant. */
export function outputOf<A extends object, R>(
  fn: (args: A, options?: LookupOptions) => Promise<R>,
): (args: LookupInputs<A>, options?: LookupOptions) => pulumi.Output<R> {
  return (args, options) =>
    pulumi.output(args as pulumi.Input<object>).apply((a) => fn(a as A, options)) as pulumi.Output<R>;
}
