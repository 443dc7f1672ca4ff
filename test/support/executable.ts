/**
 * The executable provider (`wpengine:index:*`) in process, as the engine calls it over gRPC: configured as
 * the demo user of a test's simulator, its `read` driven with the request an import or a refresh sends.
 */
import { WpEngineProvider } from "../../provider/executable/server";
import type { SimulatorFixture } from "./simulator";

// biome-ignore-start lint/suspicious/noExplicitAny: protobuf messages.
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const { Struct }: any = require("google-protobuf/google/protobuf/struct_pb");
// biome-ignore-end lint/suspicious/noExplicitAny: end.

type Props = Record<string, unknown>;
type Handler = (call: { request: unknown }, cb: (err: unknown, res?: unknown) => void) => void;
interface ReadResponse {
  getId(): string;
  getProperties(): { toJavaScript(): Props } | undefined;
  getInputs(): { toJavaScript(): Props } | undefined;
}

/**
 * `read` of the executable provider: with no properties it is an import (the id is the import id), with
 * them a refresh (`inputs` the recorded inputs). Returns what the engine records, as the dynamic door's
 * read does (`{ id: "" }` when the object is gone).
 */
export async function executableRead(
  fixture: SimulatorFixture,
  kind: string,
  id: string,
  properties: Props = {},
  inputs?: Props,
): Promise<{ id: string; props?: Props; inputs?: Props }> {
  const svc = new WpEngineProvider("0.0.0").service() as Record<string, Handler>;
  const call = <T>(method: string, request: unknown) =>
    new Promise<T>((resolve, reject) =>
      svc[method]!({ request }, (err, res) => (err ? reject(err) : resolve(res as T))),
    );
  const config = {
    username: "demo",
    password: "demo",
    apiUrl: fixture.sim.apiUrl,
    appHostingUrl: fixture.sim.appHostingUrl,
  };
  await call("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(config)));
  const req = new provproto.ReadRequest()
    .setUrn(`urn:pulumi:dev::p::wpengine:index:${kind}::r`)
    .setId(id)
    .setProperties(Struct.fromJavaScript(properties));
  if (inputs) req.setInputs(Struct.fromJavaScript(inputs));
  const res = await fixture.advancing(call<ReadResponse>("read", req));
  if (!res.getId()) return { id: "" };
  return {
    id: res.getId(),
    props: res.getProperties()?.toJavaScript(),
    inputs: res.getInputs()?.toJavaScript(),
  };
}
