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
   * @param secretOutputs outputs that must be stored encrypted even though no input of that name is secret
   */
  protected constructor(
    kind: string,
    name: string,
    args: object,
    outputs: readonly string[],
    opts?: ResourceOptions,
    secretOutputs: readonly string[] = [],
  ) {
    const props: Record<string, unknown> = {};
    for (const key of outputs) props[key] = undefined;
    Object.assign(props, args);
    const merged: ResourceOptions = secretOutputs.length
      ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretOutputs] }
      : (opts ?? {});
    super(thinProvider(kind), name, props, merged, "wpengine", kind);
  }
}
