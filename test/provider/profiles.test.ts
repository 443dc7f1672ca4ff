/**
 * Credential profiles: a resource's `profile` input chooses the API user its calls run as (the plugin's
 * entry, as the engine calls it), from `wpengine:profiles` or `WPE_API_USER_ID_<NAME>`; wrong or missing
 * credentials of a profile fail `check` naming the profile; the state holds the name only.
 */
import { afterEach, describe, expect, it } from "vitest";
import { forgetClient, resetClient } from "../../provider/core/client";
import { profileEnv, setStackConfig } from "../../provider/core/config";
import { run } from "../../provider/plugin";
import { SEED } from "../../simulator";
import { useSimulator } from "../support/simulator";

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const GLOBEXPROD = SEED.installs.globexprod.id;
const { owner } = SEED.users; // owner of Acme Corp only

/** Stack config pointing at the simulator with no default credentials, plus `extra`. */
function configure(extra: Record<string, string> = {}) {
  const config: Record<string, string> = {
    "wpengine:apiUrl": fixture.sim.apiUrl,
    "wpengine:appHostingUrl": fixture.sim.appHostingUrl,
    ...extra,
  };
  setStackConfig((key) => config[key]);
  resetClient();
}

const vars = profileEnv("client-a");
afterEach(() => {
  delete process.env[vars.username];
  delete process.env[vars.password];
  delete process.env["WPE_PROFILE"];
  delete process.env["WPE_PROFILES"];
});

const usersOf = (path: string) =>
  fixture.sim
    .requests()
    .filter((r) => r.path.startsWith(path))
    .map((r) => r.user);

describe("credential profiles", () => {
  it("runs a resource's calls as its profile's API user, from WPE_API_USER_ID_<NAME>", async () => {
    configure();
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    const news = { installId: ACMEPROD, name: "profile.acme.example", profile: "client-a" };
    const checked = (await run("Domain", "check", {}, news)) as { inputs: Record<string, unknown> };
    const { id, outs } = (await run("Domain", "create", checked.inputs)) as {
      id: string;
      outs: Record<string, unknown>;
    };
    expect(usersOf(`/v1/installs/${ACMEPROD}/domains`)).toContain(owner.username);
    expect(usersOf(`/v1/installs/${ACMEPROD}/domains`)).not.toContain("demo");
    // The state keeps the profile's name, never its credentials.
    expect(outs["profile"]).toBe("client-a");
    expect(JSON.stringify(outs)).not.toContain(owner.password);
    expect(await run("Domain", "read", id, outs)).toMatchObject({ id });
    // The owner of Acme sees no Globex install: the same profile cannot reach it.
    await expect(
      run("Domain", "create", { installId: GLOBEXPROD, name: "x.globex.example", profile: "client-a" }),
    ).rejects.toThrow(
      `403 Not authorized: You don't have permission to perform that action. The call ran as profile client-a (API user ${owner.username}), which has no access to it: run it as a profile whose API user can`,
    );
  });

  it("a resource moved to a profile that cannot reach its parent fails preview (the update's 403), one that can passes", async () => {
    configure();
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    const globex = { installId: GLOBEXPROD, name: "www.globex.example" };
    const res = (await run(
      "Domain",
      "check",
      { ...globex, primary: false },
      { ...globex, profile: "client-a" },
    )) as {
      failures?: { property: string; reason: string }[];
    };
    expect(res.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          new RegExp(
            `^installId ${GLOBEXPROD}: the service refuses profile client-a \\(API user ${owner.username}\\) \\(403: .*\\), so the update would fail`,
          ),
        ),
      },
    ]);
    // Moved to a profile that reaches it: passes (its own object found is no refusal); unmoved: no look.
    const acme = { installId: ACMEPROD, name: "www.acme.example" };
    const moved = (await run(
      "Domain",
      "check",
      { ...acme, primary: false },
      { ...acme, profile: "client-a" },
    )) as {
      failures?: unknown[];
    };
    expect(moved.failures ?? []).toEqual([]);
    fixture.sim.clearRequests();
    const kept = { ...acme, profile: "client-a" };
    const same = (await run("Domain", "check", { ...kept, primary: false }, kept)) as {
      failures?: unknown[];
    };
    expect(same.failures ?? []).toEqual([]);
    expect(usersOf(`/v1/installs/${ACMEPROD}/domains`)).toEqual([]);
    // The profile's client (and its proven credentials) is this case's alone.
    forgetClient(Symbol.for("pulumi-wpengine.profile-client.client-a"));
  });

  it("reads profiles from wpengine:profiles; the environment is not consulted for a listed one", async () => {
    configure({
      "wpengine:profiles": JSON.stringify({
        "client-a": { username: owner.username, password: owner.password },
      }),
    });
    process.env[vars.password] = "not-this-one";
    const res = (await run(
      "Domain",
      "check",
      {},
      {
        installId: ACMEPROD,
        name: "cfg.acme.example",
        profile: "client-a",
      },
    )) as { failures?: unknown[] };
    expect(res.failures ?? []).toEqual([]);
    expect(usersOf("/v1/user")).toContain(owner.username);
  });

  it("reads a profile the stack's wpengine:profiles does not list from WPE_PROFILES (CI adds its own)", async () => {
    configure({ "wpengine:profiles": JSON.stringify({ other: { username: "x", password: "y" } }) });
    process.env["WPE_PROFILES"] = JSON.stringify({
      "client-a": { username: owner.username, password: owner.password },
    });
    try {
      fixture.sim.clearRequests();
      const res = (await run(
        "Domain",
        "check",
        {},
        {
          installId: ACMEPROD,
          name: "ci.acme.example",
          profile: "client-a",
        },
      )) as { inputs: Record<string, unknown>; failures?: unknown[] };
      expect(res.failures ?? []).toEqual([]);
      const made = (await run("Domain", "create", res.inputs)) as {
        id: string;
        outs: Record<string, unknown>;
      };
      await run("Domain", "delete", made.id, made.outs);
      expect(new Set(usersOf(`/v1/installs/${ACMEPROD}`))).toEqual(new Set([owner.username]));
      // A profile the stack lists is the stack's, whatever WPE_PROFILES says of it.
      process.env["WPE_PROFILES"] = JSON.stringify({
        other: { username: owner.username, password: owner.password },
      });
      const err = (await run(
        "Domain",
        "check",
        {},
        {
          installId: ACMEPROD,
          name: "ci.acme.example",
          profile: "other",
        },
      ).catch((e: unknown) => e)) as Error;
      expect(err.message).toContain("API user x");
    } finally {
      delete process.env["WPE_PROFILES"];
    }
  });

  it("fails check naming the profile when the service refuses its credentials, never showing them", async () => {
    configure({ "wpengine:username": "demo", "wpengine:password": "demo" });
    process.env[vars.username] = owner.username;
    process.env[vars.password] = "wrong-secret-7q";
    const err = (await run(
      "Domain",
      "check",
      {},
      {
        installId: ACMEPROD,
        name: "w.acme.example",
        profile: "client-a",
      },
    ).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain(`refused the credentials of profile client-a (API user ${owner.username})`);
    expect(err.message).toContain(vars.password);
    expect(err.message).not.toContain("wrong-secret-7q");
    // The default credentials still pass for a resource without a profile.
    const ok = (await run("Domain", "check", {}, { installId: ACMEPROD, name: "w.acme.example" })) as {
      failures?: unknown[];
    };
    expect(ok.failures ?? []).toEqual([]);
  });

  it("a refresh whose profile's password is refused names the profile and where its credentials come from", async () => {
    configure();
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    const { id, outs } = (await run("Domain", "create", {
      installId: ACMEPROD,
      name: "rotated.acme.example",
      profile: "client-a",
    })) as { id: string; outs: Record<string, unknown> };
    process.env[vars.password] = "rotated-away-9z";
    const err = (await run("Domain", "read", id, outs).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      new RegExp(
        `^wpengine:Domain read failed: .*401 .*\\. The API refused the credentials of profile client-a \\(API user ${owner.username}\\), from ${vars.username} and ${vars.password}: check them$`,
      ),
    );
    expect(err.message).not.toContain("rotated-away-9z");
    // From the stack's wpengine:profiles, which a refresh takes from the last deployment: how to pass the new one.
    delete process.env[vars.username];
    delete process.env[vars.password];
    configure({
      "wpengine:profiles": JSON.stringify({
        "client-a": { username: owner.username, password: "rotated-away-9z" },
      }),
    });
    await expect(run("Domain", "read", id, outs)).rejects.toThrow(
      `The API refused the credentials of profile client-a (API user ${owner.username}), from wpengine:profiles: check it. After a change of wpengine:profiles, \`pulumi refresh\`, \`pulumi preview --refresh\` and \`pulumi destroy\` use the configuration stored by the last deployment: run them with --run-program`,
    );
    configure();
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    await run("Domain", "delete", id, outs);
  });

  it("fails naming the profile and where to set it when it has no credentials (never the defaults)", async () => {
    configure({ "wpengine:username": "demo", "wpengine:password": "demo" });
    const err = (await run(
      "Domain",
      "check",
      {},
      {
        installId: ACMEPROD,
        name: "n.acme.example",
        profile: "client-a",
      },
    ).catch((e: unknown) => e)) as Error;
    expect(err.message).toContain("profile client-a has no API user id");
    expect(err.message).toContain("wpengine:profiles");
    // What a run without a stack (`pulumi do`) reads too.
    expect(err.message).toContain(`or WPE_PROFILES, or ${vars.username} and ${vars.password}.`);
  });

  it("records a change of profile alone with an update that only reads as it; refresh and delete then run as it", async () => {
    configure({ "wpengine:username": "demo", "wpengine:password": "demo" });
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    const news = { installId: ACMEPROD, name: "moved.acme.example" };
    const { id, outs } = (await run("Domain", "create", news)) as {
      id: string;
      outs: Record<string, unknown>;
    };
    // A profile whose API user cannot reach the object is refused, and nothing is recorded.
    const c = profileEnv("client-c");
    process.env[c.username] = SEED.users.partialBilling.username;
    process.env[c.password] = SEED.users.partialBilling.password;
    try {
      await expect(run("Domain", "update", id, outs, { ...news, profile: "client-c" })).rejects.toThrow(
        "The call ran as profile client-c",
      );
    } finally {
      delete process.env[c.username];
      delete process.env[c.password];
    }
    const moved = { ...news, profile: "client-a" };
    // Planned as an update in place (the old API user may be retired once it is recorded), never a replacement.
    expect(await run("Domain", "diff", id, outs, moved)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = (await run("Domain", "update", id, outs, moved)) as { outs: Record<string, unknown> };
    // Read once as the new API user; nothing written.
    const sent = fixture.sim.requests().filter((r) => r.path !== "/v1/user");
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.method === "GET" && r.user === owner.username)).toBe(true);
    expect(updated.outs).toEqual({ ...outs, profile: "client-a" });
    // The default API user retired: the refresh and the delete read the new profile from the state.
    configure();
    await run("Domain", "read", id, updated.outs);
    await run("Domain", "delete", id, updated.outs);
    expect(new Set(usersOf(`/v1/installs/${ACMEPROD}/domains`))).toEqual(new Set([owner.username]));
  });

  it("takes the stack's wpengine:profile as every resource's default profile", async () => {
    configure({ "wpengine:profile": "client-a" });
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    fixture.sim.clearRequests();
    await run("Domain", "read", SEED.domains.acmeExample.id, {
      installId: ACMEPROD,
      name: "acme.example",
    });
    expect(new Set(usersOf(`/v1/installs/${ACMEPROD}`))).toEqual(new Set([owner.username]));
  });

  it("takes WPE_PROFILE when the stack names no profile: a resource runs as it, never as the default user", async () => {
    configure({ "wpengine:username": "demo", "wpengine:password": "demo" });
    process.env["WPE_PROFILE"] = "nosuch";
    const err = (await run("Domain", "check", {}, { installId: ACMEPROD, name: "e.acme.example" }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toContain("profile nosuch has no API user id");
    process.env["WPE_PROFILE"] = "client-a";
    process.env[vars.username] = owner.username;
    process.env[vars.password] = owner.password;
    fixture.sim.clearRequests();
    // Not the domain the test above read as client-a: its listing would be the one already fetched.
    const ACMESTG = SEED.installs.acmestg.id;
    await run("Domain", "read", SEED.domains.stagingAcmeExample.id, {
      installId: ACMESTG,
      name: "staging.acme.example",
    });
    expect(new Set(usersOf(`/v1/installs/${ACMESTG}`))).toEqual(new Set([owner.username]));
    // The stack's wpengine:profile wins over the variable, as every setting's config does.
    configure({ "wpengine:profile": "client-a" });
    process.env["WPE_PROFILE"] = "nosuch";
    const ok = (await run("Domain", "check", {}, { installId: ACMEPROD, name: "e.acme.example" })) as {
      failures?: unknown[];
    };
    expect(ok.failures ?? []).toEqual([]);
  });

  it("checks a profile's entry in simulator mode too, where the simulator's one user serves every profile", async () => {
    configure({ "wpengine:simulator": "true" });
    const news = { installId: ACMEPROD, name: "sim.acme.example", profile: "client-a" };
    // No credentials anywhere: the simulator serves the profile.
    const ok = (await run("Domain", "check", {}, news)) as { failures?: unknown[] };
    expect(ok.failures ?? []).toEqual([]);
    // A misspelt entry is found while trying things out, not on the first run against the service.
    process.env["WPE_PROFILES"] = JSON.stringify({ "client-a": { user: "a", pass: "b" } });
    const err = (await run("Domain", "check", {}, news).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      'wpengine: profile client-a in WPE_PROFILES has user (did you mean username?), pass (did you mean password?), which a profile does not hold: a profile is {"username":"<api user id>","password":"<api password>"}.',
    );
    // An entry that is set is checked whole: a missing password is no typo of another profile.
    process.env["WPE_PROFILES"] = JSON.stringify({ "client-a": { username: "demo" } });
    const partial = (await run("Domain", "check", {}, news).catch((e: unknown) => e)) as Error;
    expect(partial.message).toMatch(
      /^wpengine: profile client-a in WPE_PROFILES has no password: set it in /,
    );
    const badName = (await run("Domain", "check", {}, { ...news, profile: "client a" }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(badName.message).toContain(
      'profile "client a" is not a profile name: use letters, digits, - and _, starting with a letter or digit',
    );
  });

  it("refuses in simulator mode a profile set nowhere whose name is a typo of one set here, as the service would", async () => {
    configure({ "wpengine:simulator": "true" });
    process.env["WPE_PROFILES"] = JSON.stringify({ initech: { username: "full", password: "full-secret" } });
    const news = { installId: ACMEPROD, name: "typo.acme.example", profile: "initeck" };
    const err = (await run("Domain", "check", {}, news).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      /^wpengine: profile initeck has no API user id \(did you mean initech\? the profiles set here: initech\): set it in /,
    );
    expect(err.message).not.toContain("full-secret");
    // A name like none set here is still served by the simulator's one user, credentials or not.
    const ok = (await run("Domain", "check", {}, { ...news, profile: "globex" })) as { failures?: unknown[] };
    expect(ok.failures ?? []).toEqual([]);
  });
});
