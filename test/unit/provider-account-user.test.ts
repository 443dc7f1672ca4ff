import { describe, expect, it } from "vitest";
import {
  accountUserOutputs,
  accountUserPatch,
  canonicalRoles,
  normalizeInstallIds,
  unadoptable,
} from "../../provider/kinds/AccountUser";
import { AccountUserSchema } from "../../sdk";

const A = "1e000000-0000-4000-8000-00000000000a";
const B = "1e000000-0000-4000-8000-00000000000b";

describe("canonicalRoles", () => {
  it("accepts every spelling of the five role sets and gives one canonical form", () => {
    expect(canonicalRoles("owner")).toBe("owner");
    expect(canonicalRoles("FULL")).toBe("full");
    expect(canonicalRoles("billing,full")).toBe("full,billing");
    expect(canonicalRoles(" Billing , Full ")).toBe("full,billing");
    expect(canonicalRoles("billing, partial")).toBe("partial,billing");
    expect(canonicalRoles("partial,billing,partial")).toBe("partial,billing");
  });

  it("refuses anything else", () => {
    for (const bad of ["", "admin", "billing", "owner,billing", "owner,full", "full,partial", ","])
      expect(canonicalRoles(bad)).toBeUndefined();
  });
});

describe("normalizeInstallIds", () => {
  it("sorts, lower-cases and de-duplicates; empty means none", () => {
    expect(normalizeInstallIds([B, A.toUpperCase(), B])).toEqual([A, B]);
    expect(normalizeInstallIds([])).toBeNull();
    expect(normalizeInstallIds(undefined)).toBeNull();
  });
});

describe("accountUserPatch", () => {
  it("is undefined when roles and installs already match in any spelling or order", () => {
    expect(
      accountUserPatch(
        { roles: "partial,billing", installIds: [B, A] },
        { roles: "partial,billing", installIds: [A, B] },
      ),
    ).toBeUndefined();
    expect(accountUserPatch({ roles: "full", installIds: [] }, { roles: "full" })).toBeUndefined();
  });

  it("sends the roles, and the installs only with a partial role", () => {
    expect(
      accountUserPatch({ roles: "partial", installIds: [A] }, { roles: "partial", installIds: [A, B] }),
    ).toEqual({
      roles: "partial",
      install_ids: [A, B],
    });
    expect(accountUserPatch({ roles: "partial", installIds: [A] }, { roles: "full,billing" })).toEqual({
      roles: "full,billing",
    });
  });
});

describe("accountUserOutputs", () => {
  it("maps the record, canonicalising roles and sorting installs", () => {
    // The record as the client reads it: the sdk canonicalises the roles the service spells its way.
    const outs = accountUserOutputs(
      AccountUserSchema.parse({
        user_id: "u1",
        account_id: "acct",
        first_name: "Pat",
        last_name: "Partial",
        email: "pat@example.com",
        phone: null,
        invite_accepted: true,
        mfa_enabled: false,
        roles: "billing, partial",
        installs: [
          { id: B, name: "b" },
          { id: A, name: "a" },
        ],
      }),
    );
    expect(outs).toEqual({
      accountId: "acct",
      email: "pat@example.com",
      firstName: "Pat",
      lastName: "Partial",
      roles: "partial,billing",
      installIds: [A, B],
      userId: "u1",
      inviteAccepted: true,
      mfaEnabled: false,
      lastOwner: null,
      phone: null,
      installs: [
        { id: A, name: "a" },
        { id: B, name: "b" },
      ],
    });
  });

  it("names the identity fields an adopted user would have to change", () => {
    const user = { user_id: "u", first_name: "Fay", last_name: "Full", roles: "full" };
    const inputs = {
      accountId: "a",
      email: "e@x.io",
      firstName: "Faye",
      lastName: "Full",
      roles: "full" as const,
    };
    expect(unadoptable(user, inputs, "e@x.io", "a")?.message).toBe(
      'cannot adopt user e@x.io on account a: on the service its firstName is "Fay"; names cannot be changed, so set the inputs to match',
    );
    expect(unadoptable({ ...user, first_name: null }, inputs, "e@x.io", "a")).toBeUndefined();
  });
});
