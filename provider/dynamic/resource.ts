/**
 * The base of every resource class: registers `pulumi-nodejs:dynamic/wpengine:<Kind>` with the thin
 * provider of its kind, declares its outputs, and marks the secret ones.
 */
import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "./thin";

/** Options every resource takes: the standard custom-resource options. */
export type ResourceOptions = pulumi.CustomResourceOptions;

export abstract class WpEngineResource extends pulumi.dynamic.Resource {
  /**
   * @param kind the resource kind (type token suffix and module name under `provider/`)
   * @param outputs every output key the class exposes that is not an input, declared so the engine
   *   reports it (a dynamic resource only surfaces keys present at registration)
   * @param secrets keys stored encrypted, as inputs and as outputs, whether or not the program wraps
   *   the value in `pulumi.secret` (a plain string given for a private key is still a secret)
   */
  protected constructor(
    kind: string,
    name: string,
    args: object,
    outputs: readonly string[],
    opts?: ResourceOptions,
    secrets: readonly string[] = [],
  ) {
    const props: Record<string, unknown> = {};
    for (const key of outputs) props[key] = undefined;
    Object.assign(props, args);
    for (const key of secrets) {
      if (props[key] !== undefined) props[key] = pulumi.secret(props[key] as pulumi.Input<unknown>);
    }
    const merged: ResourceOptions = secrets.length
      ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] }
      : (opts ?? {});
    // Pulumi's registration wraps each property in four promises that each capture `new Error().stack`
    // for its leak report; with the source maps a program runs with, formatting those stacks was the
    // largest cost of declaring a resource (12-19 ms of CPU each in `npm run bench`). They are left
    // empty here. The resource's source position is unaffected: Pulumi lifts the limit to read it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(thinProvider(kind), name, props, merged, "wpengine", kind);
    } catch (e) {
      // An error thrown while registering still shows where the program declared the resource.
      Error.stackTraceLimit = limit;
      if (e instanceof Error) e.stack = `${e.stack}\n${new Error().stack?.split("\n").slice(1).join("\n")}`;
      throw e;
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
