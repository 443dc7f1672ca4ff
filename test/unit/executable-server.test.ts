/**
 * The executable front door's translation, in process (the CLI tier runs it under the real engine):
 * import ids, secrets in and out, customTimeouts reaching the definitions' waits, per-instance config.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseImportId } from "../../provider/executable/registry";
import { kindOfUrn, WpEngineProvider } from "../../provider/executable/server";
import { provider as backupProvider } from "../../provider/kinds/Backup";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";

// biome-ignore-start lint/suspicious/noExplicitAny: protobuf messages.
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const { Struct }: any = require("google-protobuf/google/protobuf/struct_pb");
type Msg = any;
type Handler = (call: { request: unknown }, cb: (err: unknown, res?: Msg) => void) => void;

// biome-ignore-end lint/suspicious/noExplicitAny: end.

import { specialSigKey as SIG, specialSecretSig } from "@pulumi/pulumi/runtime/rpc";

const urn = (kind: string, name = "r") => `urn:pulumi:dev::p::wpengine:index:${kind}::${name}`;

function rpc(provider: WpEngineProvider) {
  const svc = provider.service() as Record<string, Handler>;
  return (method: string, request: unknown) =>
    new Promise<Msg>((resolve, reject) =>
      svc[method]!({ request }, (err, res) => (err ? reject(err) : resolve(res))),
    );
}

async function configured(sim: RunningSimulator, username: string, password: string) {
  const provider = new WpEngineProvider("0.0.0");
  const args = {
    username,
    password: { [SIG]: specialSecretSig, value: password },
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  };
  await rpc(provider)("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args)));
  return rpc(provider);
}

let a: RunningSimulator;
let b: RunningSimulator;
beforeAll(async () => {
  a = await startSimulator({ port: 0, quiet: true, username: "alice", password: "pw-a" });
  b = await startSimulator({ port: 0, quiet: true, username: "bob", password: "pw-b" });
});
afterAll(async () => {
  await a.stop();
  await b.stop();
});

describe("import ids", () => {
  it("split into the resource id and the inputs read needs", () => {
    expect(parseImportId("Domain", "i-1/d-2")).toEqual({ id: "d-2", olds: { installId: "i-1" } });
    expect(parseImportId("CacheExclusions", "i-1")).toEqual({ id: "i-1", olds: { installId: "i-1" } });
    expect(parseImportId("App", "accounts/a-1/apps/x")).toEqual({
      id: "accounts/a-1/apps/x",
      olds: { accountId: "a-1", name: "x" },
    });
  });
  it("refuse another shape, saying the right one, and kinds with nothing to import", () => {
    expect(() => parseImportId("Domain", "d-2")).toThrow(
      "the import id of wpengine:index:Domain is {installId}/{id}",
    );
    expect(() => parseImportId("ThirdPartyCertificate", "i-1")).toThrow("cannot be imported");
    // A backup could be read but never kept (its addresses are not reported, and declaring them replaces).
    expect(() => parseImportId("Backup", "i-1/b-1")).toThrow(/cannot be imported: .*getBackup/);
  });
  it("take the kind from a URN, nested or not", () => {
    expect(kindOfUrn("urn:pulumi:s::p::my:comp$wpengine:index:Domain::www")).toBe("Domain");
    expect(() => kindOfUrn("urn:pulumi:s::p::aws:s3:Bucket::b")).toThrow("not a resource of this provider");
  });
});

describe("the gRPC service", () => {
  it("gives each provider instance its own credentials", async () => {
    const invoke = (call: ReturnType<typeof rpc>) =>
      call(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getInstall")
          .setArgs(Struct.fromJavaScript({ installId: SEED.installs.acmeprod.id })),
      );
    const alice = await configured(a, "alice", "pw-a");
    const bob = await configured(b, "bob", "pw-b");
    const wrong = await configured(b, "alice", "pw-a");
    expect((await invoke(alice)).getReturn().toJavaScript().name).toBe("acmeprod");
    expect((await invoke(bob)).getReturn().toJavaScript().name).toBe("acmeprod");
    await expect(invoke(wrong)).rejects.toMatchObject({
      message: expect.stringMatching(/401|credential|unauthori/i),
    });
  });

  it("keeps a private key secret in checked inputs even when the program passed it plain", async () => {
    const call = await configured(a, "alice", "pw-a");
    const res = await call(
      "check",
      new provproto.CheckRequest().setUrn(urn("ThirdPartyCertificate")).setNews(
        Struct.fromJavaScript({
          installId: SEED.installs.acmeprod.id,
          certificate: "x",
          privateKey: "not a key",
        }),
      ),
    );
    const inputs = res.getInputs().toJavaScript();
    expect(inputs.privateKey).toEqual({ [SIG]: specialSecretSig, value: "not a key" });
    expect(res.getFailuresList().map((f: { getProperty(): string }) => f.getProperty())).toContain(
      "privateKey",
    );
  });

  it("hands customTimeouts to the definition's wait as timeoutSeconds, and keeps the program's value in state", async () => {
    const call = await configured(a, "alice", "pw-a");
    const spy = vi
      .spyOn(backupProvider, "create")
      .mockResolvedValue({ id: "b-1", outs: { timeoutSeconds: 42, wait: true } });
    try {
      const res = await call(
        "create",
        new provproto.CreateRequest()
          .setUrn(urn("Backup"))
          .setTimeout(90)
          .setProperties(
            Struct.fromJavaScript({ installId: SEED.installs.acmeprod.id, wait: true, timeoutSeconds: 3600 }),
          ),
      );
      expect(spy.mock.calls[0]![0]).toMatchObject({ timeoutSeconds: 90 });
      expect(res.getProperties().toJavaScript().timeoutSeconds).toBe(3600);
    } finally {
      spy.mockRestore();
    }
  });

  it("names each changed property in a detailed diff, with whether it replaces", async () => {
    const call = await configured(a, "alice", "pw-a");
    const olds = {
      installId: SEED.installs.acmeprod.id,
      name: "a.example.com",
      primary: false,
      redirectTo: null,
      secureAllUrls: false,
    };
    const res = await call(
      "diff",
      new provproto.DiffRequest()
        .setUrn(urn("Domain"))
        .setId("d-1")
        .setOlds(Struct.fromJavaScript(olds))
        .setNews(Struct.fromJavaScript({ ...olds, name: "b.example.com", secureAllUrls: true })),
    );
    const K = provproto.PropertyDiff.Kind;
    const map = res.getDetaileddiffMap();
    const detailed = Object.fromEntries(
      ["name", "secureAllUrls", "primary"].filter((k) => map.has(k)).map((k) => [k, map.get(k).getKind()]),
    );
    expect(res.getReplacesList()).toEqual(["name"]);
    expect(detailed).toEqual({ name: K.UPDATE_REPLACE, secureAllUrls: K.UPDATE });
  });
});
