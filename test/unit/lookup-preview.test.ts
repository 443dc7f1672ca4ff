/**
 * A lookup of an object the same program creates, at preview (ut-yaml51 finding 8): the Output form gives an
 * unknown result when its argument comes from a resource this preview creates (its id unknown), as Go's
 * output-form invoke does; the executable provider, whose engine refuses unknown results, says why in its
 * 404 at preview. A lookup of a missing object that no new resource names still fails.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewNotFound, WpEngineProvider } from "../../provider/executable/server";
import { getEnvironmentsOutput } from "../../provider/lookups";
import { WpEngineClient } from "../../sdk";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";

// biome-ignore lint/suspicious/noExplicitAny: protobuf messages.
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
// biome-ignore lint/suspicious/noExplicitAny: protobuf messages.
const { Struct }: any = require("google-protobuf/google/protobuf/struct_pb");

const accountId = SEED.accounts.acme.id;
let sim: RunningSimulator;
let client: WpEngineClient;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true, username: "u", password: "p" });
  client = new WpEngineClient({
    username: "u",
    password: "p",
    apiUrl: sim.apiUrl,
    appHostingUrl: sim.appHostingUrl,
  });
});
afterAll(() => sim.stop());

/** What an Output settles to: known or not, and its value; or its error (each of its promises awaited). */
async function settle(o: pulumi.Output<unknown>) {
  const inner = o as unknown as {
    isKnown: Promise<boolean>;
    isSecret: Promise<boolean>;
    promise(withUnknowns?: boolean): Promise<unknown>;
  };
  const [known, value] = await Promise.allSettled([inner.isKnown, inner.promise(), inner.isSecret]);
  if (known.status === "rejected") throw known.reason;
  if (value.status === "rejected") throw value.reason;
  return { known: known.value, value: known.value ? value.value : undefined };
}

class App extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  constructor(name: string, props: { name: string }) {
    super("test:index:App", name, props);
  }
}

/** A program's resource whose `name` is an input (known at preview) and whose id the service assigns. */
function newApp(preview: boolean, name: string) {
  pulumi.runtime.setMocks(
    // At preview a created resource has no id yet (the engine's unknown); at up it has one.
    {
      newResource: (a) => ({ id: preview ? undefined : `${a.name}-id`, state: a.inputs }),
      call: (a) => a.inputs,
    },
    "p",
    "dev",
    preview,
  );
  return new App("app", { name }).name;
}

describe("a lookup of an object this program creates, at preview", () => {
  it("Output form: unknown when its argument comes from a resource this preview creates", async () => {
    const appId = newApp(true, "not-made-yet");
    expect(await settle(getEnvironmentsOutput({ accountId, appId }, { client }))).toEqual({
      known: false,
      value: undefined,
    });
  });

  it("Output form: a missing object named by no new resource still fails, at preview and at up", async () => {
    newApp(true, "x");
    await expect(
      settle(getEnvironmentsOutput({ accountId, appId: "no-such-app" }, { client })),
    ).rejects.toThrow(/404 Not found/);
    const appId = newApp(false, "no-such-app");
    await expect(settle(getEnvironmentsOutput({ accountId, appId }, { client }))).rejects.toThrow(
      /404 Not found/,
    );
    // An object that exists is read at preview as before.
    const seeded = newApp(true, SEED.apps.acmeFrontend.appId);
    const found = await settle(getEnvironmentsOutput({ accountId, appId: seeded }, { client }));
    expect(found.known).toBe(true);
    expect((found.value as { name: string }[]).map((e) => e.name.split("/").at(-1)).sort()).toEqual([
      "production",
      "staging",
    ]);
  });

  it("executable provider: a 404 at preview says the object may be one this program creates, and the way round", async () => {
    const provider = new WpEngineProvider("0.0.0");
    const svc = provider.service() as Record<
      string,
      (call: unknown, cb: (err: unknown, res?: unknown) => void) => void
    >;
    const call = (method: string, request: unknown) =>
      new Promise<unknown>((resolve, reject) =>
        svc[method]!({ request }, (err, res) => (err ? reject(err) : resolve(res))),
      );
    const args = { username: "u", password: "p", apiUrl: sim.apiUrl, appHostingUrl: sim.appHostingUrl };
    await call("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args)));
    const invoke = (preview: boolean) =>
      call(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getEnvironments")
          .setPreview(preview)
          .setArgs(Struct.fromJavaScript({ accountId, appId: "yapp" })),
      );
    const atPreview = (await invoke(true).catch((e) => e)) as Error;
    expect(atPreview.message).toContain('404 Not found: App not found (input "appId")');
    expect(atPreview.message).toContain(previewNotFound("getEnvironments"));
    expect(atPreview.message).toContain(`fn::select: [3, {fn::split: ["/", "\${app.id}"]}]`);
    const atUp = (await invoke(false).catch((e) => e)) as Error;
    expect(atUp.message).toContain("404 Not found");
    expect(atUp.message).not.toContain("this program creates it");
  });
});
