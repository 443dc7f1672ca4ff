import { describe, expect, it } from "vitest";
import { verifyUntilSeen } from "../../provider/core/txt";
import { verificationOutputs } from "../../provider/kinds/DomainVerification";
import { type Domain, WpEngineApiError } from "../../sdk";

const pending = {
  id: "d0000000-0000-4000-8000-000000000009",
  name: "www.example.test",
  redirects_to: [],
  ownership_status: "TXT_VERIFICATION_PENDING",
  txt_verified_time: null,
  txt_verification_key: "_wpe_verification.www.example.test",
  txt_verification_value: "wpe-verify-123",
};

describe("ownershipStatus", () => {
  const ownershipStatusOf = (d: Partial<Domain>) =>
    verificationOutputs({ ...pending, ownership_status: undefined, ...d }).ownershipStatus;

  it("uses the service's field when present", () => {
    expect(ownershipStatusOf(pending)).toBe("TXT_VERIFICATION_PENDING");
  });

  it("derives the status from the verification time when the field is absent", () => {
    expect(ownershipStatusOf({ txt_verified_time: "2024-03-01T10:00:00.000Z" })).toBe("TXT_VERIFIED");
    expect(ownershipStatusOf({ txt_verified_time: null })).toBe("TXT_VERIFICATION_PENDING");
  });
});

describe("verificationOutputs", () => {
  it("maps a domain record to outputs", () => {
    expect(
      verificationOutputs({
        ...pending,
        ownership_status: "TXT_VERIFIED",
        txt_verified_time: "2024-03-01T10:00:00.000Z",
        txt_verified_domain: "www.example.test",
      }),
    ).toEqual({
      domainId: pending.id,
      domainName: "www.example.test",
      ownershipStatus: "TXT_VERIFIED",
      verifiedTime: "2024-03-01T10:00:00.000Z",
      verifiedDomain: "www.example.test",
    });
  });
});

describe("verifyUntilSeen's timeout", () => {
  const seen = (record: { name?: string | null; value?: string | null }) =>
    verifyUntilSeen({
      timeoutSeconds: 0,
      retryIntervalSeconds: 1,
      attempt: () =>
        Promise.reject(
          new WpEngineApiError({
            status: 400,
            method: "POST",
            path: "/v",
            serverMessage: "record not found",
          }),
        ),
      subject: `domain www.example.test (id ${pending.id})`,
      record: async () => record,
      fallback:
        "publish the DNS TXT record shown by the domain's txtVerificationKey and txtVerificationValue",
    });

  it("tells the user the TXT record to publish and what the service said", async () => {
    await expect(
      seen({ name: pending.txt_verification_key, value: pending.txt_verification_value }),
    ).rejects.toThrow(
      `domain www.example.test (id ${pending.id}) is not verified after timeoutSeconds (0 s): publish a DNS TXT ` +
        'record named "_wpe_verification.www.example.test" with the value "wpe-verify-123", wait for it to ' +
        "propagate, then run again (or raise timeoutSeconds). The service last answered: record not found.",
    );
  });

  it("points at the outputs when the service gives no record", async () => {
    await expect(seen({ name: null, value: "x" })).rejects.toThrow(
      /publish the DNS TXT record shown by the domain's txtVerificationKey and txtVerificationValue, wait/,
    );
  });
});
