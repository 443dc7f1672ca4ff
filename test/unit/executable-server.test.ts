/**
 * The executable front door's translation, in process (the CLI tier runs it under the real engine):
 * import ids, secrets in and out, customTimeouts reaching the definitions' waits, per-instance config.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { urlSource } from "../../provider/core/config";
import { parseImportId } from "../../provider/executable/registry";
import { kindOfUrn, providerConfigOf, WpEngineProvider } from "../../provider/executable/server";
import { definition as backupProviderKind } from "../../provider/kinds/Backup";
import { type RunningSimulator, SEED, startSimulator } from "../../simulator";

// biome-ignore-start lint/suspicious/noExplicitAny: protobuf messages.
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const { Struct }: any = require("google-protobuf/google/protobuf/struct_pb");
type Msg = any;
type Handler = (call: { request: unknown }, cb: (err: unknown, res?: Msg) => void) => void;

// biome-ignore-end lint/suspicious/noExplicitAny: end.

import { specialSigKey as SIG, specialSecretSig } from "@pulumi/pulumi/runtime/rpc";

const backupProvider = backupProviderKind.provider;

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
    // A backup is imported by its install and id: its addresses are write-only (never reported, never a change).
    expect(parseImportId("Backup", "i-1/b-1")).toEqual({ id: "b-1", olds: { installId: "i-1" } });
  });
  it("take the kind from a URN, nested or not", () => {
    expect(kindOfUrn("urn:pulumi:s::p::my:comp$wpengine:index:Domain::www")).toBe("Domain");
    expect(() => kindOfUrn("urn:pulumi:s::p::aws:s3:Bucket::b")).toThrow("not a resource of this provider");
    // A Node.js class handed an explicit wpengine provider: the way out, not the URN.
    expect(() => kindOfUrn("urn:pulumi:s::p::pulumi-nodejs:dynamic/wpengine:Domain::apex")).toThrow(
      "wpengine: apex is a pulumi-wpengine class, which takes no `provider` option: give it `profile`",
    );
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
    // As the resources say it: the API user refused, where to set the credentials (not a bare 401 of the call).
    await expect(invoke(wrong)).rejects.toMatchObject({
      message: expect.stringContaining(
        "wpengine: the API refused the credentials of API user alice (401 Unauthorized on GET /user). Check wpengine:username",
      ),
    });
  });

  it("with the credentials check skipped, a profile's refused password names the profile and where it is set", async () => {
    const provider = new WpEngineProvider("0.0.0");
    const args = {
      profile: "initech",
      skipCredentialsCheck: "true",
      apiUrl: a.apiUrl,
      appHostingUrl: a.appHostingUrl,
    };
    const call = rpc(provider);
    await call("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args)));
    vi.stubEnv("WPE_API_USER_ID_INITECH", "alice");
    vi.stubEnv("WPE_API_PASSWORD_INITECH", "bad");
    try {
      await expect(
        call(
          "invoke",
          new provproto.InvokeRequest()
            .setTok("wpengine:index:getInstall")
            .setArgs(Struct.fromJavaScript({ installId: SEED.installs.acmeprod.id })),
        ),
      ).rejects.toMatchObject({
        message: expect.stringMatching(
          /401 .*\. The API refused the credentials of profile initech \(API user alice\), from WPE_API_USER_ID_INITECH and WPE_API_PASSWORD_INITECH: check them$/,
        ),
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("a function the API user may not call says which API user it ran as and what to do (403)", async () => {
    const partial = await configured(a, SEED.users.partial.username, SEED.users.partial.password);
    const denied = SEED.installs.acmestg.id;
    await expect(
      partial(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getInstall")
          .setArgs(Struct.fromJavaScript({ installId: denied })),
      ),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        "The call ran as the default credentials (API user partial), which has no access to it",
      ),
    });
  });

  it("an explicit provider naming only its profile takes the stack's wpengine:profiles (PULUMI_CONFIG); its own profiles win", () => {
    const stack = JSON.stringify({ acme: { username: "owner", password: "pw" } });
    const env = { PULUMI_CONFIG: JSON.stringify({ profiles: stack, username: "stack-user" }) };
    const req = (args: Record<string, unknown>) =>
      new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args));
    // Only profiles comes from the stack: the explicit provider's other settings stay its own.
    expect(providerConfigOf(req({ profile: "acme" }), env)).toEqual({ profile: "acme", profiles: stack });
    const own = JSON.stringify({ acme: { username: "other", password: "pw2" } });
    expect(providerConfigOf(req({ profile: "acme", profiles: own }), env).profiles).toBe(own);
    expect(providerConfigOf(req({ profile: "acme" }), {})).toEqual({ profile: "acme" });
    expect(providerConfigOf(req({ profile: "acme" }), { PULUMI_CONFIG: "not json" })).toEqual({
      profile: "acme",
    });
  });

  it("names an impossible date of a usage lookup as the program does, before any call (ut-retest51 N1)", async () => {
    const alice = await configured(a, "alice", "pw-a");
    const args = { accountId: SEED.accounts.acme.id, firstDate: "2026-11-31", lastDate: "2026-12-01" };
    await expect(
      alice(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getAccountUsage")
          .setArgs(Struct.fromJavaScript(args)),
      ),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        "getAccountUsage: invalid input: firstDate: 2026-11-31 is not a date (November has 30 days)",
      ),
    });
  });

  it("an unreachable API names where this provider's URL came from and how to point it elsewhere", async () => {
    const dead = "http://127.0.0.1:9/v1";
    const call = await configured({ ...a, apiUrl: dead } as RunningSimulator, "alice", "pw-a");
    await expect(
      call("invoke", new provproto.InvokeRequest().setTok("wpengine:index:getAccounts")),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        `cannot reach the API at ${dead} (GET /v1/user: connection failed: connect ECONNREFUSED 127.0.0.1:9); ` +
          "nothing was sent. That URL is this provider's apiUrl (the stack's wpengine:apiUrl for the default " +
          "provider, the apiUrl argument of an explicit provider). Check it and the network.",
      ),
    });
    // An explicit provider without apiUrl: the stack's wpengine:apiUrl is not its (Pulumi's rule), and it says so.
    const explicit = { config: { profile: "acme" }, clientSlot: Symbol(), fromArguments: true };
    const stack = { PULUMI_CONFIG: JSON.stringify({ apiUrl: dead, profiles: "{}" }) };
    expect(urlSource("apiUrl", explicit, stack)).toBe(
      "That URL is the default: this provider has no apiUrl argument and WPE_API_URL is unset. The stack's " +
        `wpengine:apiUrl (${dead}) configures the default provider only, not an explicit provider: pass ` +
        `apiUrl: "${dead}" to this provider, or set WPE_API_URL`,
    );
    expect(urlSource("apiUrl", explicit, {})).toContain(
      "set wpengine:apiUrl (the default provider), the apiUrl argument of an explicit provider, or WPE_API_URL",
    );
    expect(urlSource("apiUrl", explicit, { WPE_API_URL: dead })).toBe(
      "That URL is WPE_API_URL's (this provider has no apiUrl of its own)",
    );
    // The Node.js classes' provider reads the stack's config: the stack's key it is.
    const program = { config: { apiUrl: dead }, clientSlot: Symbol() };
    expect(urlSource("apiUrl", program, {})).toBe("That URL is the stack's wpengine:apiUrl");
  });

  it("a read (pulumi import, refresh), a delete and a function that cannot reach their API say which URL and where it came from (ut-retest52 F4)", async () => {
    const dead = "http://127.0.0.1:9";
    const provider = async (args: Record<string, string>) => {
      const p = new WpEngineProvider("0.0.0");
      const auth = { username: "alice", password: "pw-a", maxRetries: "0" };
      await rpc(p)(
        "configure",
        new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript({ ...auth, ...args })),
      );
      return rpc(p);
    };
    const own = (name: string) =>
      `That URL is this provider's ${name} (the stack's wpengine:${name} for the default provider, the ${name} ` +
      "argument of an explicit provider). Check it and the network";
    // The API's URL: `pulumi import` of an install's domain.
    const api = await provider({ apiUrl: `${dead}/v1`, appHostingUrl: a.appHostingUrl });
    const install = SEED.installs.acmedev.id;
    await expect(
      api("read", new provproto.ReadRequest().setUrn(urn("Domain")).setId(`${install}/d-1`)),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        `wpengine:Domain read failed: GET /v1/installs/${install}/domains: connection failed: connect ` +
          `ECONNREFUSED 127.0.0.1:9. It was sent to the API at ${dead}/v1. ${own("apiUrl")}`,
      ),
    });
    // App Hosting's URL, the API's fine: that one is named, with its own setting, in a read, a delete and a function.
    const app = await provider({ apiUrl: a.apiUrl, appHostingUrl: dead });
    const { accountId, appId } = SEED.apps.acmeFrontend;
    const appHosting = `It was sent to App Hosting's API at ${dead}. ${own("appHostingUrl")}`;
    const envId = `accounts/${accountId}/apps/${appId}/environments/staging`;
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => "no failure",
        (e: Error) => e.message,
      );
    const read = await failure(
      app("read", new provproto.ReadRequest().setUrn(urn("Environment")).setId(envId)),
    );
    expect(read).toContain(`wpengine:Environment read failed: GET /v1/${envId}: connection failed:`);
    expect(read).toContain(appHosting);
    const props = { accountId, appId, name: "staging", resourceName: envId };
    const deleted = await failure(
      app(
        "delete",
        new provproto.DeleteRequest()
          .setUrn(urn("Environment"))
          .setId(envId)
          .setProperties(Struct.fromJavaScript(props)),
      ),
    );
    expect(deleted).toContain(`wpengine:Environment delete failed: DELETE /v1/${envId}: connection failed:`);
    expect(deleted).toContain(appHosting);
    const invoked = await failure(
      app(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getApps")
          .setArgs(Struct.fromJavaScript({ accountId })),
      ),
    );
    expect(invoked).toContain(`connection failed: connect ECONNREFUSED 127.0.0.1:9. ${appHosting}`);
  });

  it("runs as the profile WPE_PROFILE names when the provider names none", async () => {
    const alice = await configured(a, "alice", "pw-a");
    vi.stubEnv("WPE_PROFILE", "nosuch");
    try {
      await expect(
        alice(
          "invoke",
          new provproto.InvokeRequest()
            .setTok("wpengine:index:getInstall")
            .setArgs(Struct.fromJavaScript({ installId: SEED.installs.acmeprod.id })),
        ),
      ).rejects.toMatchObject({ message: expect.stringContaining("profile nosuch has no API user id") });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("refuses a misspelt setting at CheckConfig and in every call, naming the closest one", async () => {
    const call = await configured(a, "alice", "pw-a");
    const res = await call(
      "checkConfig",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:dev::p::pulumi:providers:wpengine::default")
        .setNews(Struct.fromJavaScript({ simulater: "true", username: "alice", version: "0.2.0" })),
    );
    expect(
      res
        .getFailuresList()
        .map((f: { getProperty(): string; getReason(): string }) => [f.getProperty(), f.getReason()]),
    ).toEqual([
      [
        "simulater",
        "wpengine:simulater is not a setting of this provider: did you mean wpengine:simulator? (remove it with `pulumi config rm wpengine:simulater`)",
      ],
    ]);
    const typo = new WpEngineProvider("0.0.0");
    await rpc(typo)(
      "configure",
      new provproto.ConfigureRequest().setArgs(
        Struct.fromJavaScript({ username: "alice", password: "pw-a", apiUrl: a.apiUrl, userName: "alice" }),
      ),
    );
    await expect(
      rpc(typo)(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getInstall")
          .setArgs(Struct.fromJavaScript({ installId: SEED.installs.acmeprod.id })),
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining("did you mean wpengine:username?") });
  });

  it("refuses a bad apiUrl at CheckConfig and at configure's first call alike, the simulator on (ut-yaml51 #9)", async () => {
    const news = { simulator: "true", apiUrl: "not a url", version: "0.2.0" };
    const line =
      'wpengine:apiUrl is not a valid URL (it is "not a url"): give a base URL such as https://api.wpengineapi.com/v1, the service\'s, or remove it (`pulumi config rm wpengine:apiUrl`) to use that one';
    const res = await rpc(new WpEngineProvider("0.0.0"))(
      "checkConfig",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:dev::p::pulumi:providers:wpengine::default")
        .setNews(Struct.fromJavaScript(news)),
    );
    expect(
      res
        .getFailuresList()
        .map((f: { getProperty(): string; getReason(): string }) => [f.getProperty(), f.getReason()]),
    ).toEqual([["apiUrl", line]]);
    const call = rpc(new WpEngineProvider("0.0.0"));
    await call("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(news)));
    await expect(
      call(
        "invoke",
        new provproto.InvokeRequest()
          .setTok("wpengine:index:getInstall")
          .setArgs(Struct.fromJavaScript({ installId: SEED.installs.acmeprod.id })),
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining(line) });
  });

  it("returns the secret settings (password, profiles) wrapped as secrets at CheckConfig, the others as given", async () => {
    const call = await configured(a, "alice", "pw-a");
    const res = await call(
      "checkConfig",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:dev::p::pulumi:providers:wpengine::default")
        .setNews(
          Struct.fromJavaScript({ username: "alice", password: "pw-a", profiles: "{}", version: "0.2.0" }),
        ),
    );
    expect(res.getInputs().toJavaScript()).toEqual({
      username: "alice",
      password: { [SIG]: specialSecretSig, value: "pw-a" },
      profiles: { [SIG]: specialSecretSig, value: "{}" },
      version: "0.2.0",
    });
  });

  it("keeps a private key secret in checked inputs even when the program passed it plain", async () => {
    const call = await configured(a, "alice", "pw-a");
    const res = await call(
      "check",
      new provproto.CheckRequest()
        .setUrn(urn("ThirdPartyCertificate"))
        .setRandomseed(new Uint8Array(32).fill(7))
        .setNews(
          Struct.fromJavaScript({
            installId: SEED.installs.acmeprod.id,
            certificate: "x",
            privateKey: "not a key",
          }),
        ),
    );
    const inputs = res.getInputs().toJavaScript();
    expect(inputs.privateKey).toEqual({ [SIG]: specialSecretSig, value: "not a key" });
    // Named in the reason, not as the property (the engine would print the property's value beside it).
    const failures = res.getFailuresList().map((f: Msg) => [f.getProperty(), f.getReason()]);
    expect(failures).toContainEqual(["", expect.stringMatching(/^privateKey /)]);
  });

  it("names the property of a failure for `pulumi do` (no random seed), which prints `- <property>: <reason>`", async () => {
    const call = await configured(a, "alice", "pw-a");
    const user = {
      accountId: SEED.accounts.acme.id,
      email: "partial@acme.example",
      firstName: "Pat",
      lastName: "Partial",
      installIds: [SEED.installs.acmeprod.id],
    };
    // `pulumi do ... AccountUser patch <id> --roles full`: the live inputs with the given ones over them.
    const res = await call(
      "check",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:dev::default::wpengine:index:AccountUser::AccountUser")
        .setOlds(Struct.fromJavaScript({ ...user, roles: "partial" }))
        .setNews(Struct.fromJavaScript({ ...user, roles: "full" })),
    );
    expect(res.getFailuresList().map((f: Msg) => [f.getProperty(), f.getReason()])).toEqual([
      ["installIds", 'applies only to partial roles; roles "full" already reach every install'],
    ]);
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

  it("an import and a refresh read settings as the program holds them: an import's defaults, then the recorded inputs", async () => {
    const call = await configured(a, "alice", "pw-a");
    const app = SEED.apps.acmeFrontend;
    const read = async (
      id: string,
      properties: Record<string, unknown>,
      inputs?: Record<string, unknown>,
    ) => {
      const req = new provproto.ReadRequest()
        .setUrn(urn("Environment"))
        .setId(id)
        .setProperties(Struct.fromJavaScript(properties));
      if (inputs) req.setInputs(Struct.fromJavaScript(inputs));
      const res = await call("read", req);
      return { props: res.getProperties().toJavaScript(), inputs: res.getInputs().toJavaScript() };
    };
    // pulumi import: no state; timeoutSeconds takes its default (600), as check gives it to a program.
    const imported = await read(`accounts/${app.accountId}/apps/${app.appId}/environments/staging`, {});
    expect(imported.inputs.timeoutSeconds).toBe(600);
    expect(imported.props.timeoutSeconds).toBe(600);
    // The program then sets 60: a setting alone plans nothing, so the engine records 60 among the inputs
    // with the old outputs (600). A refresh keeps the program's 60: no diff of it.
    const refreshed = await read(imported.props.resourceName, imported.props, {
      ...imported.inputs,
      timeoutSeconds: 60,
    });
    expect(refreshed.inputs.timeoutSeconds).toBe(60);
    expect(refreshed.props.timeoutSeconds).toBe(60);
  });
});

describe("creates through the executable provider", () => {
  it("gathers concurrent Domain creates on one install into one bulk call, each with its own id", async () => {
    const call = await configured(a, "alice", "pw-a");
    const install = SEED.installs.acmedev.id;
    const names = Array.from({ length: 8 }, (_, i) => `x${i}.exec-bulk.example`);
    a.clearRequests();
    const made = await Promise.all(
      names.map((name, i) =>
        call(
          "create",
          new provproto.CreateRequest()
            .setUrn(urn("Domain", `d${i}`))
            .setProperties(
              Struct.fromJavaScript({ installId: install, name, primary: false, secureAllUrls: false }),
            ),
        ),
      ),
    );
    const log = a.requests().map((r) => `${r.method} ${r.path}`);
    expect(log.filter((l) => l === `POST /v1/installs/${install}/domains/bulk`)).toHaveLength(1);
    expect(log.filter((l) => l === `POST /v1/installs/${install}/domains`)).toHaveLength(0);
    const ids = made.map((m: Msg) => m.getId());
    expect(new Set(ids).size).toBe(names.length);
    expect(made.map((m: Msg) => m.getProperties().toJavaScript())).toMatchObject(
      names.map((name, i) => ({ name, domainId: ids[i] })),
    );
  });
});

describe("pulumi do read, patch and delete by import id", () => {
  it("updates and deletes the object an import id names (pulumi do passes the id it was given)", async () => {
    const call = await configured(a, "alice", "pw-a");
    const install = SEED.installs.acmedev.id;
    const inputs = {
      installId: install,
      name: "patched.exec-do.example",
      primary: false,
      secureAllUrls: false,
    };
    const made = await call(
      "create",
      new provproto.CreateRequest().setUrn(urn("Domain", "p")).setProperties(Struct.fromJavaScript(inputs)),
    );
    const importId = `${install}/${made.getId()}`;
    await call(
      "update",
      new provproto.UpdateRequest()
        .setUrn(urn("Domain", "p"))
        .setId(importId)
        .setOlds(made.getProperties())
        .setNews(Struct.fromJavaScript({ ...inputs, secureAllUrls: true })),
    );
    const auth = { authorization: `Basic ${Buffer.from("alice:pw-a").toString("base64")}` };
    const live = async (): Promise<{ id: string; secure_all_urls: boolean }[]> => {
      const res = await fetch(`${a.apiUrl}/installs/${install}/domains?limit=100`, { headers: auth });
      return ((await res.json()) as { results: { id: string; secure_all_urls: boolean }[] }).results;
    };
    expect((await live()).find((d) => d.id === made.getId())).toMatchObject({
      secure_all_urls: true,
    });
    await call(
      "delete",
      new provproto.DeleteRequest()
        .setUrn(urn("Domain", "p"))
        .setId(importId)
        .setProperties(made.getProperties()),
    );
    expect((await live()).map((d) => d.id)).not.toContain(made.getId());
  });
});

describe("List (pulumi do ... list)", () => {
  /** The stream of one List call: its results (id, name) and its continuation token. */
  async function list(
    provider: WpEngineProvider,
    kind: string,
    query: object,
    more: Record<string, number | string> = {},
  ) {
    const svc = provider.service() as Record<string, (call: unknown) => void>;
    const req = new provproto.ListRequest()
      .setToken(`wpengine:index:${kind}`)
      .setQuery(Struct.fromJavaScript(query))
      .setPageSize(Number(more["pageSize"] ?? 0))
      .setLimit(Number(more["limit"] ?? 0))
      .setContinuationToken(String(more["token"] ?? ""));
    return new Promise<{ results: [string, string][]; next: string }>((resolve, reject) => {
      const out = { results: [] as [string, string][], next: "" };
      svc["list"]!({
        request: req,
        write: (m: Msg) => {
          if (m.hasResult()) out.results.push([m.getResult().getId(), m.getResult().getName()]);
          if (m.hasContinuation()) out.next = m.getContinuation().getContinuationToken();
        },
        end: () => resolve(out),
        emit: (_e: string, err: unknown) => reject(err),
      });
    });
  }
  const ACME = SEED.installs.acmeprod.id;

  it("names the API user a 403 ran as, as the resources and functions do", async () => {
    const provider = new WpEngineProvider("0.0.0");
    const { username, password } = SEED.users.partial;
    const args = { username, password, apiUrl: a.apiUrl, appHostingUrl: a.appHostingUrl };
    await rpc(provider)("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args)));
    await expect(list(provider, "Domain", { installId: SEED.installs.acmestg.id })).rejects.toMatchObject({
      message: expect.stringContaining("The call ran as the default credentials (API user partial)"),
    });
  });

  it("an Install or Site list by an account the API user cannot see (or a mistyped id) says so, naming what it sees", async () => {
    const provider = new WpEngineProvider("0.0.0");
    const { username, password } = SEED.users.owner;
    const args = { username, password, apiUrl: a.apiUrl, appHostingUrl: a.appHostingUrl };
    await rpc(provider)("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args)));
    const { acme, globex } = SEED.accounts;
    const typo = "ac000000-0000-4000-8000-0000000000ff";
    for (const kind of ["Install", "Site"])
      for (const accountId of [globex.id, typo])
        await expect(list(provider, kind, { accountId }), `${kind} ${accountId}`).rejects.toMatchObject({
          message: expect.stringContaining(
            `account ${accountId} is not reachable by the default credentials (API user owner): it sees ` +
              `${acme.name} (${acme.id}). Check the id, or run as a profile`,
          ),
        });
    // The account it sees lists as before.
    expect((await list(provider, "Install", { accountId: acme.id })).results.length).toBeGreaterThan(0);
  });

  it("answers every domain of the install as import ids read takes, or pages with a continuation token", async () => {
    const provider = new WpEngineProvider("0.0.0");
    const args = { username: "alice", password: "pw-a", apiUrl: a.apiUrl, appHostingUrl: a.appHostingUrl };
    await rpc(provider)("configure", new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args)));
    const all = await list(provider, "Domain", { installId: ACME });
    expect(all).toEqual({
      results: [
        [`${ACME}/${SEED.domains.acmeExample.id}`, "acme.example"],
        [`${ACME}/${SEED.domains.wwwAcmeExample.id}`, "www.acme.example"],
      ],
      next: "",
    });
    for (const [id] of all.results) expect(parseImportId("Domain", id).olds).toEqual({ installId: ACME });
    const first = await list(provider, "Domain", { installId: ACME }, { pageSize: 1 });
    expect(first).toEqual({ results: [all.results[0]], next: "1" });
    expect(await list(provider, "Domain", { installId: ACME }, { pageSize: 1, token: first.next })).toEqual({
      results: [all.results[1]],
      next: "",
    });
    await expect(list(provider, "Domain", {})).rejects.toMatchObject({
      message: expect.stringContaining("installId"),
    });
    await expect(list(provider, "DomainSharingLink", {})).rejects.toMatchObject({
      message: expect.stringContaining("has no listing"),
    });
  });
});
