import { readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  clearStackConfig,
  profileInstance,
  type RawProviderConfig,
  rawConfigOf,
  resolveProviderConfig,
  setStackConfig,
  urlProblems,
  withProviderInstance,
} from "../../provider/core/config";
import { AFTER_A_CRASH, explainError } from "../../provider/core/errors";
import {
  checkInputs,
  containsUnknown,
  forEngine,
  named,
  notificationEmails,
  ruled,
  stringInput,
  timeoutSecondsInput,
  UNKNOWN,
  whole,
} from "../../provider/core/inputs";
import {
  afterCreate,
  answer,
  CreatedButFailedError,
  contextOf,
  defineProvider,
  diffOf,
  toPlain,
} from "../../provider/core/lifecycle";
import { inputOfField } from "../../provider/core/wire";
import { thinProvider } from "../../provider/dynamic/thin";
import { KINDS } from "../../provider/registry";
import { WpEngineApiError, WpEngineConnectionError } from "../../sdk";

const schema = z
  .object({
    installId: z.string().uuid("must be a UUID"),
    frequency: z.object({ unit: z.enum(["DAYS", "MONTHLY"]), value: z.number().int() }),
    primary: z.boolean().default(false),
  })
  .strict();

type In = z.output<typeof schema>;
const rules = [
  {
    uses: ["frequency"] as const,
    test: (i: In) =>
      i.frequency.unit === "DAYS" && ![7, 14].includes(i.frequency.value)
        ? { property: "frequency.value", reason: whole("with unit DAYS the value must be 7 or 14") }
        : undefined,
  },
];
const ID = "6f1c2a52-3b1e-4a5e-9d0f-2c7b8e9a1d34";

describe("checkInputs", () => {
  it("fills defaults and keeps __provider untouched", () => {
    const r = checkInputs(schema, { installId: ID, frequency: { unit: "DAYS", value: 7 }, __provider: "x" });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({
      installId: ID,
      frequency: { unit: "DAYS", value: 7 },
      primary: false,
      __provider: "x",
    });
  });

  it("names the property and the reason of each failure", () => {
    const r = checkInputs(schema, { installId: "nope", frequency: { unit: "DAYS", value: 7 } });
    expect(r.failures).toEqual([{ property: "installId", reason: "installId must be a UUID" }]);
  });

  it("checks an input's own rule with its schema: its failures on their paths, none while the value is unknown", () => {
    const ruledSchema = z
      .object({
        installId: z.string(),
        paths: ruled(z.array(z.object({ path: z.string() })).default([]), (ps) =>
          ps.flatMap((p, i) =>
            ps.findIndex((q) => q.path === p.path) < i
              ? [{ property: `paths[${i}].path`, reason: whole(`duplicate path "${p.path}"`) }]
              : [],
          ),
        ),
      })
      .strict();
    const twice = { installId: "i", paths: [{ path: "/a" }, { path: "/b" }, { path: "/a" }] };
    expect(checkInputs(ruledSchema, twice).failures).toEqual([
      { property: "paths[2].path", reason: 'duplicate path "/a"' },
    ]);
    // Reported with the other inputs' failures, not after them.
    expect(checkInputs(ruledSchema, { ...twice, installId: 5 }).failures.map((f) => f.property)).toEqual([
      "installId",
      "paths[2].path",
    ]);
    expect(checkInputs(ruledSchema, { installId: "i", paths: UNKNOWN }).failures).toEqual([]);
    expect(checkInputs(ruledSchema, { installId: "i" }).inputs["paths"]).toEqual([]);
  });

  it("puts the field's name in front of a reason written without it, and leaves a whole reason as it is", () => {
    expect(named({ property: "title", reason: "must not be empty" }).reason).toBe("title must not be empty");
    expect(named({ property: "exclusions[2].value", reason: "must not be empty" }).reason).toBe(
      "value must not be empty",
    );
    expect(named({ property: "installIds[1]", reason: "must be a UUID" }).reason).toBe(
      "installIds[] must be a UUID",
    );
    expect(named({ property: "publicKey", reason: "'s key part is not base64" }).reason).toBe(
      "publicKey's key part is not base64",
    );
    expect(named({ property: "mappings", reason: whole("at most one mapping may be primary") })).toEqual({
      property: "mappings",
      reason: "at most one mapping may be primary",
    });
  });

  it("names each property once in every kind's messages: none is written with its name, none is left unnamed", () => {
    const wrong = [12345, "", " ", "not-a-valid-value", [], [12345], [{}], {}, true, null];
    let seen = 0;
    for (const [kind, def] of Object.entries(KINDS))
      for (const name of Object.keys(def.schema.shape))
        for (const value of wrong)
          for (const f of checkInputs(def.schema, { [name]: value }, def.rules ?? []).failures) {
            seen++;
            const line = `${kind} ${f.property}: ${f.reason}`;
            expect(line).not.toMatch(/: (\S+) \1\b/); // "title title must not be empty"
            expect(line).not.toMatch(/: (must|is|does|needs|applies|contains)\b/); // a name left out
            expect(line).not.toContain("\u0000");
          }
    expect(seen).toBeGreaterThan(500);
  });

  it("rejects unknown input names (typos do not pass silently)", () => {
    const r = checkInputs(schema, { installId: ID, frequency: { unit: "DAYS", value: 7 }, primray: true });
    expect(r.failures.map((f) => f.reason).join()).toMatch(/primray/);
  });

  it("runs cross-field rules on known values", () => {
    const r = checkInputs(schema, { installId: ID, frequency: { unit: "DAYS", value: 3 } }, rules);
    expect(r.failures).toEqual([
      { property: "frequency.value", reason: "with unit DAYS the value must be 7 or 14" },
    ]);
  });

  it("passes values unknown during preview through untouched, skipping rules that read them", () => {
    const news = { installId: UNKNOWN, frequency: { unit: "DAYS", value: UNKNOWN } };
    const r = checkInputs(schema, news, rules);
    expect(r.failures).toEqual([]);
    expect(r.inputs["installId"]).toBe(UNKNOWN);
    expect(r.inputs["frequency"]).toEqual({ unit: "DAYS", value: UNKNOWN });
  });

  it("detects unknowns nested in arrays and objects", () => {
    expect(containsUnknown([{ a: [1, UNKNOWN] }])).toBe(true);
    expect(containsUnknown([{ a: [1, "x"] }])).toBe(false);
  });
});

describe("diff", () => {
  const provider = defineProvider<In & Record<string, unknown>, Record<string, unknown>>({
    kind: "Test",
    schema,
    replaceOn: ["installId"],
    updatable: ["frequency", "primary"],
    create: async () => ({ id: "1", outs: {} }),
    read: async () => undefined,
    delete: async () => {},
  });
  const olds = { installId: ID, frequency: { unit: "DAYS", value: 7 }, primary: false, computed: "x" };

  it("reports no change for equal inputs, ignoring computed outputs", async () => {
    expect(
      await provider.diff!("1", olds, {
        installId: ID,
        frequency: { value: 7, unit: "DAYS" },
        primary: false,
      }),
    ).toEqual({ changes: false });
  });

  it("puts identity fields in replaces and in-place fields in changes", async () => {
    expect(await provider.diff!("1", olds, { ...olds, primary: true })).toEqual({ changes: true });
    expect(
      await provider.diff!("1", olds, { ...olds, installId: "7f1c2a52-3b1e-4a5e-9d0f-2c7b8e9a1d34" }),
    ).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });

  it("treats an unknown new value as a change", async () => {
    expect(await provider.diff!("1", olds, { ...olds, installId: UNKNOWN })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });
});

describe("outputs and errors", () => {
  it("afterCreate records the object whether its step rejects or throws before it returns a promise", async () => {
    const outs = { status: "pending" };
    for (const step of [
      () => Promise.reject(new Error("wait failed")),
      (): Promise<never> => {
        throw new Error("wait failed");
      },
    ]) {
      const err = await afterCreate("obj-1", outs, step).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CreatedButFailedError);
      expect(err).toMatchObject({ id: "obj-1", properties: outs, message: "wait failed" });
    }
    expect(await afterCreate("obj-1", outs, async () => 7)).toBe(7);
  });

  it("toPlain drops undefined and turns dates into strings", () => {
    expect(toPlain({ a: undefined, b: [undefined, 1], c: new Date(0) })).toEqual({
      b: [null, 1],
      c: "1970-01-01T00:00:00.000Z",
    });
  });

  it("explainError names the resource, the step and the input property", () => {
    const err = Object.assign(
      new Error(
        "PATCH /v1/installs/x/domains/y: 400 Bad Request: redirect_to: invalid_value - no such domain",
      ),
      {
        status: 400,
        errors: [{ resource: "domain", field: "redirect_to" }],
      },
    );
    const e = explainError("Domain", "update", err);
    expect(e.message).toBe(
      'wpengine:Domain update failed: PATCH /v1/installs/x/domains/y: 400 Bad Request: redirect_to: invalid_value - no such domain (input "redirectTo")',
    );
    expect((e as Error & { status?: number }).status).toBe(400);
    expect(inputOfField(undefined, "user.first_name")).toBe("firstName");
  });

  it("the recovery after a crash the messages print is docs/recover.md's, line by line", () => {
    const doc = readFileSync(path.join(__dirname, "..", "..", "docs", "recover.md"), "utf8");
    const block = /## After a crash[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1] ?? "";
    const commands = block
      .split("\n")
      .map((line) => line.replace(/#.*$/, "").trim())
      .filter(Boolean);
    expect(commands.join(" && ")).toBe(AFTER_A_CRASH);
  });

  it("says what became of a lost send in plain words: answered with a status, or no answer at all", () => {
    const unavailable = new WpEngineApiError({
      status: 503,
      method: "POST",
      path: "/v1/x",
      serverMessage: "",
    });
    expect(answer(unavailable)).toMatch(/^was answered 503/);
    const cut = new WpEngineConnectionError({ method: "POST", path: "/v1/x", detail: "other side closed" });
    expect(answer(cut)).toBe("got no answer (POST /v1/x: connection failed: other side closed)");
  });

  it("explainError of a 404 names the input whose id the service did not find, and the next step", () => {
    const notFound = (method: string, path: string, serverMessage: string) =>
      new WpEngineApiError({ status: 404, method, path, serverMessage });
    const next =
      ". Check the id: the service has no such object, or the API user the call ran as (the resource's or " +
      "lookup's profile, else the default credentials) has no access to it";
    // In the path.
    expect(
      explainError(
        "Domain",
        "create",
        notFound("GET", "/v1/installs/i-9/domains", "Install not found"),
        undefined,
        KINDS["Domain"]!.inputs,
      ).message,
    ).toBe(
      `wpengine:Domain create failed: GET /v1/installs/i-9/domains: 404 Not found: Install not found (input "installId")${next}`,
    );
    // In a POST's body: the message names it.
    expect(
      explainError(
        "Site",
        "create",
        notFound("POST", "/v1/sites", "Account not found"),
        undefined,
        KINDS["Site"]!.inputs,
      ).message,
    ).toBe(
      `wpengine:Site create failed: POST /v1/sites: 404 Not found: Account not found (input "accountId")${next}`,
    );
    // Two ids in the path: the one the message names.
    const backup = notFound("POST", "/installs/i-9/backups/b-9/restore", "Backup not found");
    expect(
      explainError("BackupRestore", "create", backup, undefined, KINDS["BackupRestore"]!.inputs).message,
    ).toContain(`Backup not found (input "backupId")${next}`);
    // A message that names none: every input the path holds.
    const bare = notFound("GET", "/installs/i-9/backups/b-9", "");
    expect(
      explainError("BackupRestore", "create", bare, undefined, KINDS["BackupRestore"]!.inputs).message,
    ).toContain('404 Not found (input "installId" or "backupId"). Check the ids:');
  });

  it("explainError of a 401 says how a refresh or destroy runs with rotated credentials", () => {
    const err = Object.assign(
      new Error("GET /v1/installs/x/domains/y: 401 Authentication Error: Bad Credentials"),
      {
        status: 401,
      },
    );
    const e = explainError("Domain", "read", err);
    expect(e.message).toMatch(
      /^wpengine:Domain read failed: GET .*Bad Credentials\. The API refused the credentials\./,
    );
    expect(e.message).toContain("run them with --run-program");
    expect(e.message).toContain("WPE_API_USER_ID and WPE_API_PASSWORD");
    // Credentials from the environment are read afresh by every command: no stored configuration to blame.
    process.env["WPE_API_USER_ID"] = "demo";
    process.env["WPE_API_PASSWORD"] = "nope";
    try {
      expect(explainError("Domain", "read", err).message).toBe(
        "wpengine:Domain read failed: GET /v1/installs/x/domains/y: 401 Authentication Error: Bad Credentials. " +
          "The API refused the credentials from WPE_API_USER_ID and WPE_API_PASSWORD: check them",
      );
    } finally {
      delete process.env["WPE_API_USER_ID"];
      delete process.env["WPE_API_PASSWORD"];
    }
  });

  it("explainError of a 401 as a profile names it and where its credentials come from", () => {
    const err = Object.assign(
      new Error("GET /v1/installs/x/domains: 401 Authentication Error: Bad Credentials"),
      {
        status: 401,
      },
    );
    const as = (config: RawProviderConfig, env: NodeJS.ProcessEnv) =>
      withProviderInstance(profileInstance("initech", { config, clientSlot: Symbol() }, env), () =>
        explainError("Domain", "read", err),
      ).message;
    const fromVars = as({}, { WPE_API_USER_ID_INITECH: "initech-api", WPE_API_PASSWORD_INITECH: "bad" });
    expect(fromVars).toBe(
      "wpengine:Domain read failed: GET /v1/installs/x/domains: 401 Authentication Error: Bad Credentials. The API refused the credentials of profile initech (API user initech-api), from WPE_API_USER_ID_INITECH and WPE_API_PASSWORD_INITECH: check them",
    );
    // In stack config, refresh reads the profiles the last deployment stored: the way to the new ones.
    const profiles = JSON.stringify({ initech: { username: "initech-api", password: "bad" } });
    expect(as({ profiles }, {})).toBe(
      "wpengine:Domain read failed: GET /v1/installs/x/domains: 401 Authentication Error: Bad Credentials. The API refused the credentials of profile initech (API user initech-api), from wpengine:profiles: check it. After a change of wpengine:profiles, `pulumi refresh`, `pulumi preview --refresh` and `pulumi destroy` use the configuration stored by the last deployment: run them with --run-program (or one `pulumi up` first)",
    );
    expect(as({}, { WPE_PROFILES: profiles })).toContain(
      "(API user initech-api), from WPE_PROFILES: check it",
    );
  });
});

describe("configuration", () => {
  it("prefers stack config over the environment and never needs resource inputs", () => {
    setStackConfig((k) => ({ "wpengine:username": "from-config" })[k]);
    const c = resolveProviderConfig({ WPE_API_USER_ID: "from-env", WPE_API_PASSWORD: "pw" });
    expect(c.username).toBe("from-config");
    expect(c.password).toBe("pw");
    clearStackConfig();
    // One world for every folder: under PULUMI_HOME (else ~/.pulumi), whatever the working directory.
    expect(resolveProviderConfig({ WPE_SIMULATOR: "true", PULUMI_HOME: "/p/home" }).simulatorStateFile).toBe(
      path.join("/p/home", "wpengine-simulator.json"),
    );
    expect(resolveProviderConfig({ WPE_SIMULATOR: "true" }).simulatorStateFile).toBe(
      path.join(os.homedir(), ".pulumi", "wpengine-simulator.json"),
    );
    expect(resolveProviderConfig({ WPE_SIMULATOR: "world.json" }).simulatorStateFile).toBe("world.json");
    expect(resolveProviderConfig({ WPE_SIMULATOR: "false" }).simulatorStateFile).toBeUndefined();
  });

  it("takes a world file named as one; a typo of true is refused, never a new world", () => {
    for (const file of ["world.json", "./world", "worlds/a.state", "C:\\w\\world"])
      expect(resolveProviderConfig({ WPE_SIMULATOR: file }).simulatorStateFile).toBe(file);
    expect(resolveProviderConfig({ WPE_SIMULATOR: "TRUE" }).simulatorStateFile).toMatch(
      /wpengine-simulator\.json$/,
    );
    expect(() => resolveProviderConfig({ WPE_SIMULATOR: "ture" })).toThrow(
      'WPE_SIMULATOR must be true, false or a world file (a name ending in .json, or a path with /) (it is "ture")',
    );
    expect(() => resolveProviderConfig({}, { simulator: "ture" })).toThrow(
      /^wpengine:simulator must be true/,
    );
  });

  it("refuses a boolean setting that is neither true nor false, naming where it was set", () => {
    expect(() => resolveProviderConfig({}, { adoptExisting: "maybe" })).toThrow(
      'wpengine:adoptExisting must be true or false (it is "maybe")',
    );
    expect(() => resolveProviderConfig({ WPE_SKIP_CREDENTIALS_CHECK: "perhaps" })).toThrow(
      'WPE_SKIP_CREDENTIALS_CHECK must be true or false (it is "perhaps")',
    );
    const off = resolveProviderConfig({ WPE_ADOPT_EXISTING: "No", WPE_SKIP_CREDENTIALS_CHECK: "false" });
    expect([off.adoptExisting, off.skipCredentialsCheck]).toEqual([undefined, undefined]);
    expect(resolveProviderConfig({ WPE_ADOPT_EXISTING: "yes" }).adoptExisting).toBe(true);
  });

  it("names the environment variable of a bad value from the environment, and the value", () => {
    expect(() => resolveProviderConfig({ WPE_MAX_CONCURRENCY: "abc" })).toThrow(
      'WPE_MAX_CONCURRENCY must be a whole number of at least 1 (it is "abc")',
    );
    expect(() => resolveProviderConfig({ WPE_MAX_CONCURRENCY: "abc" }, { maxConcurrency: "0" })).toThrow(
      'wpengine:maxConcurrency must be a whole number of at least 1 (it is "0")',
    );
    expect(() => resolveProviderConfig({ WPE_MAX_RETRIES: "-1" })).toThrow(
      'WPE_MAX_RETRIES must be a whole number of at least 0 (it is "-1")',
    );
    expect(() => resolveProviderConfig({ WPE_API_URL: "api.wpengineapi.com/v1" })).toThrow(
      'WPE_API_URL is not a valid URL (it is "api.wpengineapi.com/v1"): give a base URL such as https://api.wpengineapi.com/v1, the service\'s, or remove it (`unset WPE_API_URL`) to use that one',
    );
    expect(() => resolveProviderConfig({}, { appHostingUrl: "http://js.example.com" })).toThrow(
      /^wpengine:appHostingUrl uses plain http:\/\/ to js\.example\.com.* \(it is "http:\/\/js\.example\.com"\): give a base URL such as https:\/\/js\.wpengineapi\.com, .*`pulumi config rm wpengine:appHostingUrl`/,
    );
    // A URL holding a password is named, never shown.
    const err = (() => {
      try {
        resolveProviderConfig({ WPE_API_URL: "https://user:s3cret-x@api.example.com/v1" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toBe(
      "WPE_API_URL must not contain credentials; use username and password: give a base URL such as https://api.wpengineapi.com/v1, the service's, or remove it (`unset WPE_API_URL`) to use that one",
    );
  });

  it("refuses a bad URL with the simulator on too, in the line CheckConfig gives (ut-yaml51 #9)", () => {
    const line =
      'wpengine:apiUrl uses plain http:// to api.example.com; only https:// is allowed except to a loopback address (it is "http://api.example.com/v1"): give a base URL such as https://api.wpengineapi.com/v1, the service\'s, or remove it (`pulumi config rm wpengine:apiUrl`) to use that one';
    for (const simulator of ["true", "world.json", "false", undefined]) {
      const raw = { apiUrl: "http://api.example.com/v1", ...(simulator && { simulator }) };
      expect(() => resolveProviderConfig({}, raw)).toThrow(line);
    }
    expect(urlProblems({ apiUrl: "http://api.example.com/v1", simulator: "true" } as never)).toEqual([
      { name: "apiUrl", reason: line },
    ]);
    expect(() => resolveProviderConfig({ WPE_SIMULATOR: "true", WPE_API_URL: "not a url" })).toThrow(
      /^WPE_API_URL is not a valid URL \(it is "not a url"\): give a base URL such as https:\/\/api\.wpengineapi\.com\/v1, .*`unset WPE_API_URL`/,
    );
    // A loopback URL (a served simulator) passes with the simulator on or off.
    expect(resolveProviderConfig({}, { apiUrl: "http://127.0.0.1:8791/v1", simulator: "true" }).apiUrl).toBe(
      "http://127.0.0.1:8791/v1",
    );
  });

  it("refuses a misspelt wpengine:* key naming the closest setting; the project's own keys are not looked at", () => {
    const stack: Record<string, string> = {
      "wpengine:simulater": "true",
      "wpengine:username": "u",
      "myproject:simulater": "x",
    };
    const raw = rawConfigOf((k) => stack[k], Object.keys(stack));
    expect(() => resolveProviderConfig({}, raw)).toThrow(
      "wpengine:simulater is not a setting of this provider: did you mean wpengine:simulator? (remove it with `pulumi config rm wpengine:simulater`)",
    );
    expect(() => resolveProviderConfig({}, { userName: "u" } as RawProviderConfig)).toThrow(
      "did you mean wpengine:username?",
    );
    expect(() => resolveProviderConfig({}, { region: "us" } as RawProviderConfig)).toThrow(
      "wpengine:region is not a setting of this provider: the settings are username, password,",
    );
    // A project named wpengine keeps its own keys in that namespace.
    expect(resolveProviderConfig({ PULUMI_PROJECT: "wpengine" }, raw).username).toBe("u");
    expect(
      resolveProviderConfig(
        {},
        rawConfigOf((k) => stack[k], ["myproject:simulater"]),
      ).username,
    ).toBe("u");
  });

  it("refuses a credential profile with a misspelt key, naming it and the key meant", () => {
    // Its credentials would otherwise come from elsewhere, or be missing.
    const misspelt = { WPE_PROFILES: JSON.stringify({ initech: { user: "initech-api", pass: "pw" } }) };
    expect(() => profileInstance("initech", { config: {}, clientSlot: Symbol() }, misspelt)).toThrow(
      'wpengine: profile initech in WPE_PROFILES has user (did you mean username?), pass (did you mean password?), which a profile does not hold: a profile is {"username":"<api user id>","password":"<api password>"}.',
    );
    const stacked = { profiles: JSON.stringify({ initech: { username: "u", pasword: "pw" }, other: "x" }) };
    expect(() => profileInstance("initech", { config: stacked, clientSlot: Symbol() }, {})).toThrow(
      /^wpengine: profile initech in wpengine:profiles has pasword \(did you mean password\?\), which/,
    );
    expect(() => profileInstance("other", { config: stacked, clientSlot: Symbol() }, {})).toThrow(
      /^wpengine: profile other in wpengine:profiles is not an object: a profile is/,
    );
  });
});

describe("thin provider", () => {
  it("is one object per kind whose methods capture no schema, client or secret", () => {
    const p = thinProvider("Domain");
    expect(thinProvider("Domain")).toBe(p);
    const text = Object.values(p)
      .map((f) => String(f))
      .join("\n");
    expect(text).not.toMatch(/zod|WpEngineClient|password/i);
    expect(Object.keys(p).sort()).toEqual([
      "check",
      "configure",
      "create",
      "delete",
      "diff",
      "read",
      "update",
    ]);
  });
});

describe("check failures as the engine prints them", () => {
  it("names no property (the engine would print its value beside the reason), the path leading the reason", () => {
    expect(forEngine({ property: "exclusions[0].type", reason: "bad" })).toEqual({
      property: "",
      reason: "exclusions[0].type: bad",
    });
    expect(forEngine({ property: "name", reason: "name must be a domain" })).toEqual({
      property: "",
      reason: "name must be a domain",
    });
    expect(forEngine({ property: "name", reason: "bad" })).toEqual({ property: "", reason: "name: bad" });
  });

  it("says the field once: the name a reason starts with becomes the path", () => {
    const engine = (property: string, reason: string) => forEngine({ property, reason }).reason;
    // As `named` leads a reason (the last field), and as the kinds' whole messages do (the path, `[]`).
    expect(engine("frequency.value", "value must be a number")).toBe("frequency.value must be a number");
    expect(engine("frequency.value", "frequency.value must be a number")).toBe(
      "frequency.value must be a number",
    );
    expect(engine("recipients[0].email", "recipients[].email must be an email address")).toBe(
      "recipients[0].email must be an email address",
    );
    expect(engine("ids[2]", "ids[] must be a UUID")).toBe("ids[2] must be a UUID");
    // A name that only starts like the field's is not it.
    expect(engine("frequency.value", "values must be 7 or 14")).toBe(
      "frequency.value: values must be 7 or 14",
    );
  });

  it("words numeric bounds and types like the rest, naming the field", () => {
    const schema = z
      .object({ timeoutSeconds: timeoutSecondsInput(60), tags: z.array(z.string()).max(1).optional() })
      .strict();
    expect(checkInputs(schema, { timeoutSeconds: 0 }).failures).toEqual([
      { property: "timeoutSeconds", reason: "timeoutSeconds must be more than 0" },
    ]);
    expect(checkInputs(schema, { timeoutSeconds: 90_000 }).failures).toEqual([
      { property: "timeoutSeconds", reason: "timeoutSeconds must be at most 86400" },
    ]);
    expect(checkInputs(schema, { timeoutSeconds: "soon" }).failures).toEqual([
      { property: "timeoutSeconds", reason: "timeoutSeconds must be a number" },
    ]);
    expect(checkInputs(schema, { tags: ["a", "b"] }).failures).toEqual([
      { property: "tags", reason: "tags must be at most 1 items" },
    ]);
  });

  it("says 'is required' of an absent input only: a value of the wrong type is told what it must be", () => {
    const tags = z.array(z.string(), { error: "must be a list of strings" });
    const schema = z.strictObject({ name: stringInput, notificationEmails, tags });
    expect(checkInputs(schema, {}).failures).toEqual([
      { property: "name", reason: "name is required and must be a string" },
      {
        property: "notificationEmails",
        reason: "notificationEmails is required: a list of at least one email address",
      },
      { property: "tags", reason: "tags is required and must be a list of strings" },
    ]);
    expect(checkInputs(schema, { name: 42, notificationEmails: "o@example.com", tags: [] }).failures).toEqual(
      [
        { property: "name", reason: "name must be a string" },
        {
          property: "notificationEmails",
          reason: "notificationEmails must be a list of at least one email address",
        },
      ],
    );
  });

  it("suggests the input an unknown name likely meant, and only a close one", () => {
    const reasons = (kind: string, given: Record<string, unknown>) =>
      checkInputs(KINDS[kind]!.inputs, given).failures.map((f) => f.reason);
    const domain = { installId: "1e000000-0000-4000-8000-000000000001", name: "a.example.com" };
    expect(
      reasons("Domain", { ...domain, domainName: "b.example.com", primray: true, colour: "red" }),
    ).toEqual([
      "domainName is not an input of this resource (did you mean name?)",
      "primray is not an input of this resource (did you mean primary?)",
      "colour is not an input of this resource",
    ]);
    const user = { accountId: domain.installId, email: "a@example.com", firstName: "A", lastName: "B" };
    expect(reasons("AccountUser", { ...user, roles: "full", role: "full" })).toEqual([
      "role is not an input of this resource (did you mean roles?)",
    ]);
    // A nested field: among that object's fields.
    const exclusion = { type: "url path", value: "^/x", valu: "^/y" };
    expect(reasons("CacheExclusions", { installId: domain.installId, exclusions: [exclusion] })).toEqual([
      "valu is not a field of exclusions[0] (did you mean value?)",
    ]);
    // A typo of a name wins over a shorter name the key ends with (`excludedPath`: not `path`).
    const offload = { installId: domain.installId, bucket: "abc", bucketRegion: "us-east-1" };
    expect(
      reasons("OffloadSettings", {
        ...offload,
        pathSettings: [{ path: "a/", excludedPath: [], redirectType: "break" }],
      }),
    ).toEqual(["excludedPath is not a field of pathSettings[0] (did you mean excludedPaths?)"]);
    // A misspelt required field is said once, as itself, not also as the field it meant being missing.
    expect(
      reasons("CacheExclusions", {
        installId: domain.installId,
        exclusions: [{ typ: "url path", value: "^/x" }],
      }),
    ).toEqual(["typ is not a field of exclusions[0] (did you mean type?)"]);
    expect(reasons("Domain", { installId: domain.installId, nam: "a.example.com" })).toEqual([
      "nam is not an input of this resource (did you mean name?)",
    ]);
  });

  it("names an unknown input or nested field on itself, and words the bounds of a nested field", () => {
    const schema = z.strictObject({
      exclusions: z.array(z.strictObject({ type: z.enum(["url path"]), ttl: z.number().positive() })),
    });
    expect(checkInputs(schema, { exclusions: [], bogus: 1, other: 2 }).failures).toEqual([
      { property: "bogus", reason: "bogus is not an input of this resource" },
      { property: "other", reason: "other is not an input of this resource" },
    ]);
    const nested = checkInputs(schema, { exclusions: [{ type: "url path", ttl: 0, extra: true }] }).failures;
    expect(nested).toEqual([
      { property: "exclusions[0].ttl", reason: "ttl must be more than 0" },
      { property: "exclusions[0].extra", reason: "extra is not a field of exclusions[0]" },
    ]);
    expect(nested.map(forEngine)[1]).toEqual({
      property: "",
      reason: "exclusions[0].extra is not a field of exclusions[0]",
    });
  });
});

describe("diff stables", () => {
  it("an update in place names what it keeps: the unchanged inputs and the stable outputs", async () => {
    const { definition } = await import("../../provider/kinds/Domain");
    const olds = {
      installId: "i",
      name: "apex.example.com",
      primary: false,
      redirectTo: null,
      secureAllUrls: true,
      domainId: "d",
    };
    const update = diffOf(definition, olds, { ...olds, secureAllUrls: false });
    expect(update.diffs).toEqual(["secureAllUrls"]);
    expect(update.stables).toEqual(
      expect.arrayContaining(["installId", "name", "primary", "redirectTo", "domainId"]),
    );
    expect(update.stables).not.toContain("secureAllUrls");
    const replace = diffOf(definition, olds, { ...olds, name: "www.example.com" });
    expect(replace.replaces).toEqual(["name"]);
    expect(replace.stables).toBeUndefined();
    expect(diffOf(definition, olds, olds)).toEqual({ changes: false });
  });
});

describe("an object's address, from its definition's parent and key markers", () => {
  it("gives each kind's identity as its parents, outermost first, then its own name", () => {
    const identities = Object.fromEntries(
      Object.values(KINDS).flatMap((k) => (k.identity ? [[k.kind, k.identity.fields]] : [])),
    );
    expect(identities).toEqual({
      AccountUser: ["accountId", "email"],
      App: ["accountId", "name"],
      CacheExclusions: ["installId"],
      Domain: ["installId", "name"],
      DomainMappings: ["accountId", "appId", "environmentId"],
      Environment: ["accountId", "appId", "name"],
      EnvironmentSource: ["accountId", "appId", "environmentId"],
      Install: ["accountId", "name"],
      InstallPlacement: ["installId"],
      LetsEncryptCertificate: ["installId", "domainId"],
      OffloadSettings: ["installId"],
      ReportSchedule: ["siteId", "title"],
      Site: ["accountId", "name"],
      SiteTransfer: ["siteId"],
      SshKey: ["publicKey"],
      ThirdPartyCertificate: ["installId"],
    });
  });

  it("hands a lifecycle call the parents and the key of the object it is about", () => {
    const ctx = contextOf(KINDS.Environment!, {} as never, { accountId: "a1", appId: "shop", name: "prod" });
    expect([ctx.parents, ctx.parent, ctx.key]).toEqual([["a1", "shop"], "shop", "prod"]);
    const none = contextOf(KINDS.SshKey!, {} as never, { publicKey: "ssh-ed25519 AAAA" });
    expect([none.parents, none.parent, none.key]).toEqual([[], "", "ssh-ed25519 AAAA"]);
  });

  it("gives a waiting call its timeoutSeconds, the input's default when the values lack it (an import)", () => {
    const given = contextOf(KINDS.DomainMappings!, {} as never, { timeoutSeconds: 30 });
    const imported = contextOf(KINDS.DomainMappings!, {} as never, {});
    const never = contextOf(KINDS.SshKey!, {} as never, {});
    expect([given.timeoutSeconds, imported.timeoutSeconds, never.timeoutSeconds]).toEqual([30, 600, 0]);
  });
});
