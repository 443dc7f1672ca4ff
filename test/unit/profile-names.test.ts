/**
 * A profile that has no credentials: a typo of one that is set is named ("did you mean"), with the profiles
 * set here; under `pulumi do` the advice keeps the password off the command line (ut-agency52 finding 9).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { profileInstance } from "../../provider/core/config";

const run = vi.hoisted(() => ({ doing: false }));
vi.mock("../../provider/core/journal", async (original) => ({
  ...(await original<typeof import("../../provider/core/journal")>()),
  underPulumiDo: () => run.doing,
}));

const creds = { username: "u", password: "p" };
const env = {
  WPE_PROFILES: JSON.stringify({ acme: creds, globex: creds }),
  WPE_API_USER_ID_INITECH: "initechapi",
  WPE_API_PASSWORD_INITECH: "pw",
};
const base = { config: {}, clientSlot: Symbol("t") };
const failure = (name: string, e: NodeJS.ProcessEnv = env) => {
  try {
    profileInstance(name, base, e);
  } catch (err) {
    return (err as Error).message;
  }
  return "no failure";
};

afterEach(() => {
  run.doing = false;
});

describe("a profile without credentials", () => {
  it("a typo of a set profile names it and the profiles set here (WPE_PROFILES, WPE_API_USER_ID_<NAME>)", () => {
    expect(failure("acmee")).toMatch(
      /^wpengine: profile acmee has no API user id \(did you mean acme\? the profiles set here: acme, globex, initech\): set it in /,
    );
    expect(failure("initeck")).toContain("(did you mean initech?");
    // No likely typo: the message is as before.
    expect(failure("client-x")).toMatch(/^wpengine: profile client-x has no API user id: set it in /);
    expect(failure("acmee", {})).toMatch(/^wpengine: profile acmee has no API user id: set it in /);
  });

  it("under pulumi do, the advice keeps the password out of the shell history (no --wpengine:profiles with it)", () => {
    run.doing = true;
    const message = failure("acmee");
    expect(message).toContain("(did you mean acme? the profiles set here: acme, globex, initech)");
    expect(message).toContain(
      "in the environment; to keep the password out of the shell history, read it with `read -rs WPE_API_PASSWORD_ACMEE && export WPE_API_PASSWORD_ACMEE`",
    );
    expect(message).not.toContain("--wpengine:profiles");
  });
});
