import { describe, expect, it } from "vitest";
import { resourceNameOf } from "../../provider/core/appHosting";
import type { Context } from "../../provider/core/lifecycle";
import { definition, environmentOutputs } from "../../provider/kinds/Environment";
import type { WpEngineClient } from "../../sdk";

const { provider } = definition;

const EnvironmentInputsSchema = definition.inputs;

const ACCOUNT = "ac000000-0000-4000-8000-000000000001";
const base = { accountId: ACCOUNT, appId: "shop", name: "prod", displayName: "Production", branch: "main" };
const settings = { displayName: "Production", branch: "main", rootDirectory: "" };

/** The PATCH an update from `have` to `want` sends (`undefined` when none is sent). */
async function patchOf(have: typeof settings, want: typeof settings) {
  const sent: unknown[] = [];
  const record = { name: "", environmentId: "prod", reconciling: false };
  const environments = {
    get: async () => record,
    update: async (_a: string, _b: string, _c: string, patch: unknown) => {
      sent.push(patch);
      return record;
    },
  };
  const client = { environments } as unknown as WpEngineClient;
  const ctx = { client, parents: [ACCOUNT, "shop"], key: "prod", timeoutSeconds: 5 } as unknown as Context;
  const olds = {
    ...base,
    ...have,
    timeoutSeconds: 5,
    resourceName: "",
    createTime: null,
    reconciling: false,
  };
  await definition.update!("id", olds, { ...base, ...want, timeoutSeconds: 5 }, ctx);
  expect(sent.length).toBeLessThan(2);
  return sent[0];
}

describe("Environment helpers", () => {
  it("fills defaults and normalises rootDirectory", () => {
    const parsed = EnvironmentInputsSchema.parse({ ...base, rootDirectory: "apps/web/" });
    expect(parsed.rootDirectory).toBe("apps/web");
    expect(parsed.timeoutSeconds).toBe(600);
    expect(EnvironmentInputsSchema.parse(base).rootDirectory).toBe("");
  });

  it("refuses a rootDirectory outside the repository", () => {
    for (const rootDirectory of ["/etc", "../up", "a/../../b"]) {
      const r = EnvironmentInputsSchema.safeParse({ ...base, rootDirectory });
      expect(r.success, rootDirectory).toBe(false);
    }
  });

  it("patches only the fields that differ", async () => {
    const have = settings;
    expect(await patchOf(have, have)).toBeUndefined();
    expect(await patchOf(have, { ...have, branch: "uploadable", rootDirectory: "web" })).toEqual({
      branch: "uploadable",
      rootDirectory: "web",
    });
  });

  it("maps a service record to outputs, leaving out what changes through other resources or by itself", () => {
    const outs = environmentOutputs(
      {
        name: resourceNameOf({ parents: [ACCOUNT, "shop"], key: "prod" }),
        environmentId: "prod",
        displayName: "Production",
        branch: "uploadable",
        rootDirectory: "",
        domains: ["a.example"],
        build: "accounts/a/apps/shop/builds/b1",
        updateTime: "2026-01-01T00:00:00Z",
        reconciling: false,
      },
      { parents: [ACCOUNT, "shop"], key: "prod" },
    );
    expect(outs).toMatchObject({
      name: "prod",
      resourceName: `accounts/${ACCOUNT}/apps/shop/environments/prod`,
      reconciling: false,
      createTime: null,
    });
    // Mappings change the domains, uploads the build, the platform the update time: never outputs.
    expect(outs).not.toHaveProperty("domains");
    expect(outs).not.toHaveProperty("build");
    expect(outs).not.toHaveProperty("updateTime");
  });
});

describe("Environment diff", () => {
  const olds = { ...base, rootDirectory: "web", timeoutSeconds: 600, reconciling: false };

  it("ignores a trailing slash and the timeout", async () => {
    const news = EnvironmentInputsSchema.parse({ ...base, rootDirectory: "web/", timeoutSeconds: 5 });
    expect(await provider.diff!("id", olds, news)).toEqual({ changes: false });
  });

  it("updates display name, branch and root directory in place", async () => {
    const news = EnvironmentInputsSchema.parse({ ...base, displayName: "Prod", rootDirectory: "" });
    expect(await provider.diff!("id", olds, news)).toEqual({ changes: true });
  });

  it("replaces when the environment id changes", async () => {
    const news = EnvironmentInputsSchema.parse({ ...base, name: "production", rootDirectory: "web" });
    expect(await provider.diff!("id", olds, news)).toEqual({ changes: true, replaces: ["name"] });
  });
});
