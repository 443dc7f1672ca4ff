import { describe, expect, it } from "vitest";
import { named } from "../../provider/core/inputs";
import {
  canonicalPem,
  certificateOutputs,
  describeCertificate,
  keyMatchFailure as keyMatch,
  parseCertificateChain as parseChain,
  parsePrivateKey as parseKey,
} from "../../provider/kinds/ThirdPartyCertificate";
import { chainFor, encryptKey, selfSigned } from "../fixtures/self-signed";

/** The helpers' failures as check reports them (the property's name in front). */
const asChecked = <R>(property: string, r: R | string): R | string =>
  typeof r === "string" ? named({ property, reason: r }).reason : r;
const parseCertificateChain = (text: string) => asChecked("certificate", parseChain(text));
const parsePrivateKey = (text: string) => asChecked("privateKey", parseKey(text));
const keyMatchFailure = (certificate: string, privateKey: string) => {
  const failure = keyMatch({ certificate, privateKey });
  return failure && named(failure);
};

const pair = selfSigned(["www.example.test", "example.test"]);
const chain = chainFor("shop.example.test");

describe("parseCertificateChain", () => {
  it("reads every certificate of a chain, end-entity first", () => {
    const r = parseCertificateChain(chain.chain);
    expect(typeof r !== "string" && r.map((c) => c.subject)).toEqual([
      "CN=shop.example.test",
      "CN=Throwaway Test Intermediate",
    ]);
  });

  it("refuses text without a PEM certificate", () => {
    expect(parseCertificateChain("hello")).toBe(
      "certificate must be PEM text: one or more blocks starting with -----BEGIN CERTIFICATE-----",
    );
  });

  it("names the certificate of the chain that is not valid", () => {
    const broken = `${pair.certificate}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`;
    const r = parseCertificateChain(broken);
    expect(r).toBeTypeOf("string");
    expect(r).toMatch(/^the 2nd certificate of the chain is not a valid X\.509 certificate/);
  });

  it("refuses a private key pasted into the chain, without echoing it", () => {
    const r = parseCertificateChain(pair.certificate + pair.privateKey);
    expect(r).toBe("certificate contains a private key: pass the key as privateKey, not in the chain");
  });

  it("refuses a chain out of order", () => {
    const r = parseCertificateChain(chain.intermediate.certificate + chain.leaf.certificate);
    expect(r).toMatch(/out of order: the 2nd certificate did not issue the 1st/);
  });

  it("refuses a chain with a certificate that did not issue the one before", () => {
    const r = parseCertificateChain(chain.leaf.certificate + chain.root.certificate);
    expect(r).toBeTypeOf("string");
  });
});

describe("parsePrivateKey", () => {
  it("reads an unencrypted key", () => {
    expect(parsePrivateKey(pair.privateKey)).not.toBeTypeOf("string");
  });

  it("refuses an encrypted key with a reason", () => {
    expect(parsePrivateKey(encryptKey(pair.privateKey))).toBe(
      "privateKey is encrypted; the service needs the key without a passphrase",
    );
  });

  it("refuses a certificate given as the key", () => {
    const r = parsePrivateKey(pair.certificate);
    expect(r).toMatch(/^privateKey must be PEM text/);
  });

  it("never echoes a broken key in its reason", () => {
    const secret = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXNlY3JldA==\n-----END PRIVATE KEY-----\n";
    const r = parsePrivateKey(secret);
    expect(r).toBeTypeOf("string");
    expect(r).not.toContain("c2VjcmV0");
    expect(r).toMatch(/^privateKey is not a readable PEM private key/);
  });

  it("says what an unreadable key or certificate means, not OpenSSL's code", () => {
    const key = parsePrivateKey("-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n");
    expect(key).toBe(
      "privateKey is not a readable PEM private key: its text between the BEGIN and END lines is damaged or cut short; paste the whole file again",
    );
    const chain = parseCertificateChain("-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n");
    expect(chain).toContain(
      "the 1st certificate of the chain is not a valid X.509 certificate: its text between the BEGIN and END lines",
    );
    expect(`${key} ${chain}`).not.toMatch(/ERR_|OSSL/);
  });
});

describe("keyMatchFailure", () => {
  it("accepts the key of the end-entity certificate", () => {
    expect(keyMatchFailure(chain.chain, chain.leaf.privateKey)).toBeUndefined();
  });

  it("refuses the key of another certificate, naming privateKey", () => {
    expect(keyMatchFailure(chain.chain, chain.intermediate.privateKey)).toEqual({
      property: "privateKey",
      reason: "privateKey does not match the end-entity certificate (CN=shop.example.test)",
    });
  });
});

describe("describeCertificate", () => {
  it("gives subject, issuer, DNS names, ISO validity, fingerprint and serial", () => {
    const r = parseCertificateChain(pair.certificate);
    if (typeof r === "string") throw new Error(r);
    const facts = describeCertificate(r[0]!);
    expect(facts.subject).toBe("CN=www.example.test, O=Throwaway Test");
    expect(facts.issuer).toBe(facts.subject);
    expect(facts.names).toEqual(["www.example.test", "example.test"]);
    expect(facts.notBefore).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(Date.parse(facts.notAfter) - Date.parse(facts.notBefore)).toBe(3650 * 86_400_000);
    expect(facts.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(facts.serialNumber).toBe(r[0]!.serialNumber);
  });

  it("describes the end-entity certificate of a chain", () => {
    expect(certificateOutputs({ certificate: chain.chain }).subject).toBe("CN=shop.example.test");
  });
});

describe("canonicalPem", () => {
  it("makes CRLF and surrounding blank lines irrelevant", () => {
    const crlf = `\r\n${pair.certificate.replace(/\n/g, "\r\n")}\r\n\r\n`;
    expect(canonicalPem(crlf)).toBe(canonicalPem(pair.certificate));
    expect(canonicalPem(pair.certificate).endsWith("-----END CERTIFICATE-----\n")).toBe(true);
  });
});

describe("read", () => {
  it("keeps the stored state when the API user may not list the install's certificates (403)", async () => {
    const { definition } = await import("../../provider/kinds/ThirdPartyCertificate");
    const { WpEngineApiError } = await import("../../sdk");
    const stored = { installId: "i1", certificate: pair.certificate, privateKey: pair.privateKey };
    const client = {
      installs: { get: async () => ({ id: "i1" }) },
      certificates: {
        // biome-ignore lint/correctness/useYield: refused before the first page
        async *iterateForInstall() {
          throw new WpEngineApiError({ status: 403, method: "GET", path: "/installs/i1/ssl_certificates" });
        },
      },
    };
    const ctx = {
      client,
      kind: "ThirdPartyCertificate",
      parents: ["i1"],
      parent: "i1",
      key: "",
      timeoutSeconds: 0,
    };
    const read = await definition.read("i1", stored as never, ctx as never);
    expect(read?.outs).toEqual(certificateOutputs(stored));
  });
});
