import { describe, expect, it, vi } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/AccountUser";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACME = SEED.accounts.acme.id;
const GLOBEX = SEED.accounts.globex.id;
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;
const GLOBEXPROD = SEED.installs.globexprod.id;

const client = fixture.client;

const editor = {
  accountId: ACME,
  email: "ed.itor@acme.example",
  firstName: "Ed",
  lastName: "Itor",
  roles: "partial",
  installIds: [ACMESTG, ACMEPROD],
};

describe("AccountUser lifecycle", () => {
  it("creates, reads back the same outputs, and a second diff shows no changes", async () => {
    const { id, outs } = await createOk(provider, editor);
    const live = await client().accountUsers.get(ACME, id);
    expect(live.email).toBe(editor.email);
    expect(outs).toMatchObject({
      userId: id,
      roles: "partial",
      installIds: [ACMEPROD, ACMESTG].sort(),
      inviteAccepted: false,
      mfaEnabled: false,
      lastOwner: null,
      phone: null,
    });
    expect(outs["installs"]).toEqual(
      [
        { id: ACMEPROD, name: "acmeprod" },
        { id: ACMESTG, name: "acmestg" },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );

    const read = await provider.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({
      accountId: ACME,
      email: editor.email,
      firstName: "Ed",
      lastName: "Itor",
      roles: "partial",
      installIds: [ACMEPROD, ACMESTG].sort(),
    });
    expect(await diff(provider, id, outs, editor)).toEqual({ changes: false });
  });

  it("shows no change for roles spelled in another order, case or spacing, or reordered installs", async () => {
    const { id, outs } = await createOk(provider, { ...editor, roles: "partial,billing" });
    expect(outs["roles"]).toBe("partial,billing");
    for (const roles of ["billing,partial", " Billing , PARTIAL ", "partial, billing"]) {
      expect(
        await diff(provider, id, outs, { ...editor, roles, installIds: [ACMEPROD, ACMESTG, ACMEPROD] }),
      ).toEqual({ changes: false });
    }
    // The service itself answers "billing, partial": a refresh still shows no change.
    const read = await provider.read!(id, outs);
    expect(read.props?.["roles"]).toBe("partial,billing");
  });

  it("updates roles and installs in place and returns the full outputs", async () => {
    const { id, outs } = await createOk(provider, editor);
    const news = await checkOk(provider, { ...editor, installIds: [ACMEPROD] }, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, outs, news);
    expect(updated.outs).toMatchObject({
      userId: id,
      installIds: [ACMEPROD],
      installs: [{ id: ACMEPROD, name: "acmeprod" }],
    });

    const full = await checkOk(provider, { ...editor, roles: "Billing, Full", installIds: undefined }, outs);
    expect(full["roles"]).toBe("full,billing");
    const promoted = await provider.update!(id, updated.outs!, full);
    expect(promoted.outs).toMatchObject({ roles: "full,billing", installs: [], email: editor.email });
    // A full user reaches every install: it has no installIds (none to refresh into its inputs).
    expect(promoted.outs["installIds"]).toBeUndefined();
    expect((await client().accountUsers.get(ACME, id)).roles).toBe("full,billing");
  });

  it("replaces on a change of email or name, deleting the old user first", async () => {
    const { id, outs } = await createOk(provider, editor);
    const said: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((line) => {
      said.push(String(line));
      return true;
    });
    try {
      expect(await diff(provider, id, outs, { ...editor, lastName: "Editor" })).toEqual({
        changes: true,
        replaces: ["lastName"],
        deleteBeforeReplace: true,
      });
    } finally {
      spy.mockRestore();
    }
    // The preview says the replacement deletes first (its plan shows a replace either way).
    expect(said).toEqual([
      `wpengine:AccountUser ${editor.email}: changing lastName replaces it by deleting it first, then creating ` +
        "the new one: between the two, neither exists on the service\n",
    ]);
    // Email compares without case: no replacement for a capitalised address.
    expect(await diff(provider, id, outs, { ...editor, email: "Ed.Itor@ACME.example" })).toEqual({
      changes: false,
    });
  });

  it("sees an out-of-band change in read and diff", async () => {
    const { id, outs } = await createOk(provider, editor);
    await client().accountUsers.update(ACME, id, { roles: "full" });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ roles: "full", installs: [] });
    expect(read.inputs).toMatchObject({ roles: "full" });
    // The partial user's stale list is gone from both.
    expect(read.props?.["installIds"]).toBeUndefined();
    expect(read.inputs?.["installIds"]).toBeUndefined();
    expect(await diff(provider, id, read.props!, editor)).toEqual({ changes: true });
  });

  it("deletes the user; a read afterwards returns an empty id and a second delete succeeds", async () => {
    const { id, outs } = await createOk(provider, editor);
    await provider.delete!(id, outs);
    const users = await client().accountUsers.list(ACME);
    expect(users.some((u) => u.user_id === id)).toBe(false);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
    await provider.delete!(id, outs); // 404 is success
  });

  it("says plainly that the last owner of an account cannot be removed", async () => {
    // demo is the only owner of Globex.
    const { id, outs } = await createOk(provider, {
      accountId: GLOBEX,
      email: "demo@example.com",
      firstName: "Dee",
      lastName: "Mo",
      roles: "owner",
      adopt: true,
    });
    expect(outs["lastOwner"]).toBe(true);
    await expect(provider.delete!(id, outs)).rejects.toThrow(
      /demo@example.com is the last owner of account .* make another user an owner first/,
    );
    expect((await client().accountUsers.list(GLOBEX)).some((u) => u.user_id === id)).toBe(true);
  });
});

describe("AccountUser check", () => {
  it("names every rule's failure", async () => {
    expect(await checkFails(provider, { ...editor, roles: "admin" })).toEqual([
      'roles: roles must be one of "owner", "full", "full,billing", "partial", "partial,billing" (got "admin")',
    ]);
    expect(await checkFails(provider, { ...editor, roles: "owner,partial" })).toEqual([
      expect.stringMatching(/^roles: roles must be one of/),
    ]);
    expect(await checkFails(provider, { ...editor, email: "not-an-email" })).toEqual([
      "email: email must be an email address",
    ]);
    expect(await checkFails(provider, { ...editor, accountId: "acme" })).toEqual([
      "accountId: accountId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { ...editor, firstName: "" })).toEqual([
      "firstName: firstName must not be empty",
    ]);
    expect(await checkFails(provider, { ...editor, installIds: [] })).toEqual([
      'installIds: installIds is required with roles "partial": a partial user only sees the installs listed',
    ]);
    expect(await checkFails(provider, { ...editor, roles: "full" })).toEqual([
      'installIds: installIds applies only to partial roles; roles "full" already reach every install',
    ]);
    expect(await checkFails(provider, { ...editor, installIds: ["acmeprod"] })).toEqual([
      "installIds[0]: installIds[] must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
    expect(await checkFails(provider, { ...editor, rolez: "full" })).toEqual([
      expect.stringMatching(/rolez/),
    ]);
  });

  it("passes unknown values through and skips the rules that read them", async () => {
    const inputs = await checkOk(provider, { ...editor, accountId: UNKNOWN, installIds: UNKNOWN });
    expect(inputs["accountId"]).toBe(UNKNOWN);
    expect(inputs["installIds"]).toBe(UNKNOWN);
    expect(await checkOk(provider, { ...editor, roles: UNKNOWN, installIds: [UNKNOWN] })).toMatchObject({
      roles: UNKNOWN,
      installIds: [UNKNOWN],
    });
  });
});

describe("AccountUser adoption and service errors", () => {
  it("fails on an existing email without adopt, and takes the user over with it", async () => {
    const existing = {
      accountId: ACME,
      email: "partial@acme.example",
      firstName: "Pat",
      lastName: "Partial",
      roles: "partial",
      installIds: [ACMEPROD, ACMESTG],
    };
    const partialId = SEED.users.partial.userId;
    await expect(provider.create(await refusedAtCheck(provider, existing))).rejects.toThrow(
      `wpengine:AccountUser create failed: user partial@acme.example already exists on account ${ACME} (user_id ${partialId}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
    const { id, outs } = await createOk(provider, { ...existing, adopt: true });
    expect(id).toBe(partialId);
    // Adoption brings the user to the declared access (seeded with acmeprod only).
    expect(outs["installIds"]).toEqual([ACMEPROD, ACMESTG].sort());
    expect((await client().accountUsers.get(ACME, id)).installs?.map((i) => i.id).sort()).toEqual(
      [ACMEPROD, ACMESTG].sort(),
    );
    expect(await diff(provider, id, outs, { ...existing, adopt: true })).toEqual({ changes: false });
  });

  it("refuses to adopt a user whose name differs (names cannot change): at preview, and create the same", async () => {
    const said = /cannot adopt user full@acme.example .* its firstName is "Fay"/;
    const inputs = await refusedAtCheck(
      provider,
      {
        accountId: ACME,
        email: "full@acme.example",
        firstName: "Faye",
        lastName: "Full",
        roles: "full",
        adopt: true,
      },
      said,
    );
    await expect(provider.create(inputs)).rejects.toThrow(said);
  });

  it("turns a service error into a message naming the input", async () => {
    // globexprod is not an install of Acme: the service refuses it.
    await expect(
      provider.create(await checkOk(provider, { ...editor, installIds: [GLOBEXPROD] })),
    ).rejects.toThrow(
      /wpengine:AccountUser create failed: .*400 Bad Request.*not an install of the account.*\(input "installIds"\)/,
    );
  });
});
