/**
 * The resource classes the engine-level and program-level suites run, one entry each. Adding a
 * resource is adding an entry: its args for a create, the args of an in-place update, an invalid input
 * and what must come out.
 *
 * Args are plain data built from the simulator's fixed ids (`SEED`); keys listed in `secretArgs` are
 * wrapped in `pulumi.secret()` by the generated program.
 */
import type { SEED } from "../../simulator";
import { selfSigned, type TestPair } from "../fixtures/self-signed";

export type Seed = typeof SEED;
type Args = Record<string, unknown>;

export interface ResourceCase {
  /** The class name exported by the package (and the `<Kind>` of its type token). */
  kind: string;
  /** Args of a create. */
  args: (seed: Seed) => Args;
  /** Args of an in-place update of the created resource (same identity). */
  update: (seed: Seed) => Args;
  /** The input keys the update changes. */
  updated: string[];
  /** Args that `check` must refuse, and the property it must name. */
  invalid: { args: (seed: Seed) => Args; property: string; reason: RegExp };
  /** Output keys that must hold a value (not null, not undefined) after create. */
  required: string[];
  /** Output keys the class declares (registered as outputs) besides its inputs. */
  declaredOutputs: string[];
  /** Outputs the class marks secret (`additionalSecretOutputs`). */
  secretOutputs?: string[];
  /** Args wrapped in `pulumi.secret()`. */
  secretArgs?: string[];
  /** False when delete only forgets the resource (read still finds it afterwards). Default true. */
  goneAfterDelete?: boolean;
  /** Makes the create's follow-up step fail on the simulator (for the created-but-failed test). */
  failAfterCreate?: {
    args: (seed: Seed) => Args;
    faults: {
      method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
      path: string;
      status: 429;
      retryAfter: number;
    }[];
  };
}

/** Throwaway certificates, made once per process when a test first needs them (openssl). */
const pairs: TestPair[] = [];
const pair = (i: 0 | 1): TestPair => {
  while (pairs.length <= i) pairs.push(selfSigned([`cert${pairs.length}.engine-test.example.com`]));
  return pairs[i]!;
};

export const CASES: ResourceCase[] = [
  {
    kind: "Domain",
    args: (S) => ({ installId: S.installs.acmeprod.id, name: "Engine-Test.Example.com" }),
    update: (S) => ({
      installId: S.installs.acmeprod.id,
      name: "engine-test.example.com",
      secureAllUrls: true,
    }),
    updated: ["secureAllUrls"],
    invalid: {
      args: (S) => ({ installId: S.installs.acmeprod.id, name: "https://nope" }),
      property: "name",
      reason: /domain name/,
    },
    required: [
      "domainId",
      "name",
      "installId",
      "ownershipStatus",
      "txtVerificationKey",
      "txtVerificationValue",
    ],
    declaredOutputs: [
      "domainId",
      "duplicate",
      "networkType",
      "ownershipStatus",
      "txtVerificationKey",
      "txtVerificationValue",
      "txtVerifiedTime",
      "cname",
      "aRecords",
      "primary",
      "redirectTo",
      "secureAllUrls",
      "adopt",
    ],
    failAfterCreate: {
      // The domain is created by a POST; secureAllUrls needs a PATCH after it, which the fault refuses
      // with a Retry-After longer than the client waits for, so it fails at once.
      args: (S) => ({
        installId: S.installs.acmeprod.id,
        name: "half-made.example.com",
        secureAllUrls: true,
      }),
      faults: [{ method: "PATCH", path: "/v1/installs/*/domains/*", status: 429, retryAfter: 86_400 }],
    },
  },
  {
    kind: "ThirdPartyCertificate",
    args: (S) => ({ installId: S.installs.acmestg.id, ...pair(0) }),
    update: (S) => ({ installId: S.installs.acmestg.id, ...pair(1) }),
    updated: ["certificate", "privateKey"],
    invalid: {
      args: (S) => ({
        installId: S.installs.acmestg.id,
        certificate: "not a certificate",
        privateKey: pair(0).privateKey,
      }),
      property: "certificate",
      reason: /PEM/,
    },
    required: ["installId", "certificate", "privateKey", "subject", "issuer", "notAfter", "fingerprint"],
    declaredOutputs: [
      "installId",
      "certificate",
      "privateKey",
      "subject",
      "issuer",
      "names",
      "notBefore",
      "notAfter",
      "fingerprint",
      "serialNumber",
      "adopt",
    ],
    secretOutputs: ["privateKey"],
    secretArgs: ["privateKey"],
    // Nothing on the service deletes an imported certificate: delete forgets it.
    goneAfterDelete: false,
  },
];
