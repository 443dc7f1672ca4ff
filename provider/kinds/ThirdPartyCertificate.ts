import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { z } from "zod";
import { type ImportCertificateRequest, isNotAuthorized } from "../../sdk";
import { collect, defineKind } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, named, out, parentInput, stringInput, whole } from "../core/inputs";
import { type Context, FORGOTTEN } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
/** What OpenSSL's refusal of a PEM block (`ERR_OSSL_...`) means for the user, and what to do. */
const DAMAGED =
  "its text between the BEGIN and END lines is damaged or cut short; paste the whole file again";
const ordinal = (n: number) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

/** PEM text with LF line ends and one final newline, so a CRLF file never shows as a change. */
export const canonicalPem = (text: string): string => `${text.replace(/\r\n?/g, "\n").trim()}\n`;

/** Parses a PEM chain (CERTIFICATE blocks only, each valid X.509, issued by the next), or says why not. */
export function parseCertificateChain(text: string): X509Certificate[] | string {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  if (blocks.some((b) => /PRIVATE KEY/.test(b[1] ?? "")))
    return "contains a private key: pass the key as privateKey, not in the chain";
  const other = blocks.find((b) => b[1] !== "CERTIFICATE");
  if (other) return `contains a ${other[1]} block; only CERTIFICATE blocks belong there`;
  if (blocks.length === 0)
    return "must be PEM text: one or more blocks starting with -----BEGIN CERTIFICATE-----";
  const certs: X509Certificate[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      certs.push(new X509Certificate(block[0]));
    } catch {
      return whole(
        `the ${ordinal(i + 1)} certificate of the chain is not a valid X.509 certificate: ${DAMAGED}`,
      );
    }
  }
  const out = certs.findIndex((c, i) => i + 1 < certs.length && !c.checkIssued(certs[i + 1]!));
  if (out >= 0)
    return whole(
      `the chain is out of order: the ${ordinal(out + 2)} certificate did not issue the ${ordinal(out + 1)}; give the end-entity certificate first, then each intermediate in order`,
    );
  return certs;
}

/** Parses an unencrypted PEM private key, or says why not (never quoting the key). */
export function parsePrivateKey(text: string): KeyObject | string {
  // Checked on the text: asking OpenSSL to open an encrypted key without a passphrase may prompt.
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text) || /Proc-Type:\s*4,ENCRYPTED/.test(text))
    return "is encrypted; the service needs the key without a passphrase";
  if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text))
    return "must be PEM text starting with -----BEGIN PRIVATE KEY----- (or RSA/EC)";
  try {
    return createPrivateKey({ key: text, format: "pem" });
  } catch {
    return `is not a readable PEM private key: ${DAMAGED}`;
  }
}

/** Subject, issuer, DNS names, validity (ISO), SHA-256 fingerprint and serial of a certificate. */
export function describeCertificate(cert: X509Certificate) {
  const dn = (s: string) => s.split("\n").filter(Boolean).join(", ");
  return {
    subject: dn(cert.subject),
    issuer: dn(cert.issuer),
    names: [...(cert.subjectAltName ?? "").matchAll(/DNS:([^,\s]+)/g)].map((m) => m[1]!),
    notBefore: new Date(cert.validFrom).toISOString(),
    notAfter: new Date(cert.validTo).toISOString(),
    fingerprint: cert.fingerprint256,
    serialNumber: cert.serialNumber,
  };
}

/** The check rule across both inputs: the key must belong to the end-entity certificate. */
export function keyMatchFailure(i: Pick<ThirdPartyCertificateInputs, "certificate" | "privateKey">) {
  const certs = parseCertificateChain(i.certificate);
  const key = parsePrivateKey(i.privateKey);
  // A chain or key that does not parse is reported on its own property.
  if (typeof certs === "string" || typeof key === "string" || certs[0]!.checkPrivateKey(key))
    return undefined;
  return {
    property: "privateKey",
    reason: `does not match the end-entity certificate (${describeCertificate(certs[0]!).subject})`,
  };
}

const pemInput = (parse: (s: string) => object | string) =>
  stringInput
    .superRefine((s, ctx) => {
      const r = parse(s);
      if (typeof r === "string") ctx.addIssue({ code: "custom", message: r });
    })
    .transform(canonicalPem)
    .pipe(z.string());

const inputs = z.object({
  installId: parentInput("The install the certificate is imported into (also the resource id)."),
  certificate: pemInput(parseCertificateChain).meta({
    description:
      "The PEM certificate chain: the end-entity certificate first, then every intermediate (line ends normalised). Changing it imports again; a new one that has expired, or is not valid yet, fails preview.",
    writeOnly: true,
  }),
  privateKey: pemInput(parsePrivateKey).meta({
    description:
      "The PEM private key of the end-entity certificate, unencrypted; stored as a secret. Changing it imports again.",
    secret: true,
    writeOnly: true,
  }),
  adopt: COMMON_INPUTS.adopt.meta({
    description:
      "Import over another third-party certificate the install serves (by hand, or another stack's); without it, create refuses.",
  }),
});

const outputs = z.object({
  subject: out.string("Subject of the end-entity certificate, e.g. `CN=www.example.com, O=Acme`."),
  issuer: out.string("Issuer of the end-entity certificate."),
  names: out.strings("The DNS names the certificate covers (its subject alternative names)."),
  notBefore: out.string("Start of validity (ISO 8601)."),
  notAfter: out.string("End of validity (ISO 8601): renew before this."),
  fingerprint: out.string("SHA-256 fingerprint, colon-separated hex."),
  serialNumber: out.string("Serial number, hex."),
});

type ThirdPartyCertificateInputs = z.output<typeof inputs>;

/** What the end-entity certificate of the given or stored chain says (no API can read a certificate back). */
export function certificateOutputs(i: Pick<ThirdPartyCertificateInputs, "certificate">) {
  const certs = parseCertificateChain(i.certificate);
  if (typeof certs === "string") throw new Error(named({ property: "certificate", reason: certs }).reason);
  return describeCertificate(certs[0]!);
}

const WIRE = wireOf(inputs, outputs);

/** A serial number as compared: hex digits only, lower case, from its first non-zero digit on. */
const serial = (s: string) => s.replace(/^[^1-9a-f]*|[^0-9a-f]/gi, "").toLowerCase();

/** The serial numbers of the install's third-party certificates (none when refused the list: a 403). */
async function servedSerials(ctx: Context, installId: string): Promise<string[]> {
  const listed = await collect(ctx.client.certificates.iterateForInstall(installId, { limit: 100 })).catch(
    (err: unknown) => (isNotAuthorized(err) ? [] : Promise.reject(err)),
  );
  return listed.flatMap((c) => (c.cert_source === "THIRD_PARTY" && c.serial_number ? [c.serial_number] : []));
}

/** Another third-party certificate the install serves (its serial), and create's refusal without `adopt`. */
async function servedOther(ctx: Context, i: ThirdPartyCertificateInputs) {
  const mine = serial(certificateOutputs(i).serialNumber);
  const other = (await servedSerials(ctx, ctx.parent)).find((s) => serial(s) !== mine);
  if (!other || i.adopt) return { other };
  const refused = alreadyExists(
    `install ${ctx.parent} already serves another third-party certificate (serial number ${other}), perhaps another stack's`,
    "set adopt: true to import this one over it",
  );
  return { other, refused };
}

/** Imports the pair (each PEM text base64-encoded, as the service takes it): the outputs its certificate gives. */
async function importPair(ctx: Context, i: ThirdPartyCertificateInputs) {
  const b64 = ([k, pem]: [string, unknown]) => [k, Buffer.from(String(pem), "utf8").toString("base64")];
  const pair = Object.fromEntries(Object.entries(WIRE.body(i, definition.writeOnly)).map(b64));
  await ctx.client.certificates.importThirdParty(ctx.parent, pair as ImportCertificateRequest);
  return certificateOutputs(i);
}

export const definition = defineKind({
  kind: "ThirdPartyCertificate",
  description:
    "A third-party certificate and its private key imported into an install, which then serves its domains over HTTPS with it. Create imports the pair; changing the certificate or the key imports again. The service never returns the certificate or its key: read reports the stored state while the install serves this certificate (its serial number in the install's certificate list). The id is the install id: an install serves one third-party certificate, and create refuses to import over another one unless `adopt`.",
  deletes:
    "Nothing: no API deletes an imported certificate. Destroying the resource (or replacing it after an `installId` change) only forgets it; the install keeps serving the certificate until another one is imported.",
  gone: "Another third-party certificate imported over it (the install's certificate list shows another serial number), or the install deleted, reads as gone: the refresh removes it from the state, and the next `pulumi up` creates it again, which refuses to import over the other certificate unless `adopt: true`.",
  importId: {
    none: "the service cannot return a certificate or its private key, so there is nothing to read back.",
  },
  identity: {
    what: "the install's third-party certificate",
    clash:
      "an install serves one third-party certificate, and each `pulumi up` would import one over the other. Declare one certificate per install (one whose names cover every domain it serves).",
  },
  naturalKey: { resend: "importing the same pair again leaves the install serving the same certificate." },
  inputs,
  outputs,
  rules: [{ uses: ["certificate", "privateKey"], test: keyMatchFailure }],
  // A certificate about to be imported (new, or changed) outside its validity fails preview: the install would serve it.
  check(checked, olds) {
    const pem = checked.inputs["certificate"];
    const sent = !checked.failures && typeof pem === "string" && pem !== olds["certificate"];
    const certs = sent ? parseCertificateChain(pem) : undefined;
    if (!certs || typeof certs === "string") return checked;
    const { subject, notBefore, notAfter } = describeCertificate(certs[0]!);
    const now = new Date().toISOString();
    const reason =
      notAfter <= now
        ? `has expired: the end-entity certificate (${subject}) was valid until ${notAfter}, and the install would serve it; give the renewed certificate and its key`
        : notBefore > now
          ? `is not valid yet: the end-entity certificate (${subject}) is valid from ${notBefore}, and the install would serve it now (browsers refuse it until then); import it once it is valid`
          : undefined;
    return reason ? { ...checked, failures: [named({ property: "certificate", reason })] } : checked;
  },
  // Check says create's refusal at preview.
  takeover: async (inputs, ctx) => (await servedOther(ctx, inputs)).refused,
  // Another certificate the install serves (by hand, or another stack's) is only imported over on request;
  // this one served already (an interrupted run, the same pair again) is imported again, harmlessly.
  async create(inputs, ctx) {
    const { other, refused } = await servedOther(ctx, inputs);
    if (refused) throw refused;
    const adopted = other
      ? `third-party certificate of install ${ctx.parent} (serial number ${other}; this one imported over it)`
      : undefined;
    return { id: ctx.parent, outs: await importPair(ctx, inputs), adopted };
  },
  async read(id, olds, ctx) {
    const installId = ctx.parent || id;
    await ctx.client.installs.get(installId);
    const outs = certificateOutputs(olds);
    // The install lists what it serves with serial numbers: another third-party certificate in its place
    // (imported by hand) reads as gone, and the next `pulumi up` imports this one again.
    // An API user refused the list (403) sees no certificate: the stored state stands, as before the list.
    const others = await servedSerials(ctx, installId);
    const replaced = others.length && !others.some((s) => serial(s) === serial(outs.serialNumber));
    return replaced ? undefined : { outs };
  },
  update: (_id, _olds, news, ctx) => importPair(ctx, news),
  delete: async () => `${FORGOTTEN}an imported certificate cannot be deleted; the install keeps serving it`,
});
