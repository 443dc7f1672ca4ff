import { z } from "zod";
import type { Certificate, CertificateOrderRequest } from "../../sdk";
import { unlessGone } from "../core/children";
import { collect, defineKind, listedUnder } from "../core/define";
import { alreadyExists } from "../core/errors";
import { COMMON_INPUTS, out, parentInput, stringInput } from "../core/inputs";
import { afterCreate, type Context, FORGOTTEN, twoParents } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const text = stringInput.trim().min(1, "must not be empty");

/** A holder detail: write-only on the service, a change orders again. */
const holder = (description: string) => ({ description, writeOnly: true });

const inputs = z.object({
  installId: parentInput("The install holding the domain."),
  domainId: parentInput("The domain's UUID (e.g. `Domain.domainId`); it must be on the legacy network."),
  emailAddress: stringInput
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must be an email address")
    .meta(holder("The certificate holder's email address.")),
  givenName: text.meta(holder("The holder's given name.")),
  familyName: text.meta(holder("The holder's family name.")),
  regionCode: stringInput
    .regex(/^[A-Za-z]{2}$/, "must be a two-letter ISO 3166-1 alpha-2 country code such as US")
    .toUpperCase()
    .meta(
      holder("The holder's country: a two-letter ISO 3166-1 alpha-2 code such as `US` (kept upper case)."),
    ),
  state: text.optional().meta(holder("The holder's state or region.")),
  city: text.optional().meta(holder("The holder's city.")),
  phone: text.optional().meta(holder("The holder's phone number.")),
  adopt: COMMON_INPUTS.adopt.meta({
    description:
      "Take over the domain's existing Let's Encrypt certificate (no new order is sent) instead of failing create.",
  }),
});

const outputs = z.object({
  certificateId: out.stringOrNull("The certificate's id on the service."),
  status: out.stringOrNull(
    "`SUBMITTED` until issued, then `ENABLED`; `EXPIRED`, `CANCELED`, `REJECTED` or `DISABLED` make the next `up` order again.",
  ),
  commonName: out.stringOrNull("The certificate's common name."),
  domains: out.strings("The domains it covers."),
  autoRenew: out.booleanOrNull("Whether the service renews it."),
  orderedTime: out.stringOrNull("When it was ordered."),
  approvedTime: out.stringOrNull("When it was issued."),
  expiresTime: out.stringOrNull("When it expires."),
  serialNumber: out.stringOrNull("Its X.509 serial number (hexadecimal)."),
});

/** Statuses of a certificate that no longer serves: the next `up` orders again. */
const ENDED = new Set<unknown>(["EXPIRED", "CANCELED", "REJECTED", "DISABLED"]);

/** A certificate record carries only what the service computes. */
const CERTIFICATE = wireOf<z.ZodObject, typeof outputs>(z.object({}), outputs);
const WIRE = wireOf(inputs, outputs);

/** The outputs describing a certificate record (its id a string, whatever the service sends). */
export const certificateOutputs = (c: Certificate | null | undefined) =>
  CERTIFICATE.outputs(c ?? {}, { certificateId: c?.id == null ? null : String(c.id) });

/** The certificate if it is a Let's Encrypt one (another kind, e.g. a third-party import, does not count). */
const letsEncrypt = (c: Certificate | null | undefined) =>
  c?.cert_source === "LETS_ENCRYPT" ? c : undefined;

/** The domain's Let's Encrypt certificate, or undefined when it has none (or another kind, or is gone: a 404). */
const current = async (ctx: Context) =>
  letsEncrypt((await unlessGone(ctx.client.certificates.getForDomain(...twoParents(ctx))))?.certificate);

/** Orders a certificate with the holder's details (the write-only inputs: a change of one orders again). */
const order = (ctx: Context, i: z.output<typeof inputs>) =>
  ctx.client.certificates.orderLetsEncrypt(
    ...twoParents(ctx),
    WIRE.body(i, definition.writeOnly) as CertificateOrderRequest,
  );

export const definition = defineKind({
  kind: "LetsEncryptCertificate",
  description:
    "The Let's Encrypt order for a domain of an install on the legacy network (domains on the current network get their certificates automatically), with the certificate's status (`SUBMITTED` until issued, then `ENABLED`). Changing the holder's details orders again. The id is `{installId}/{domainId}`.",
  deletes:
    "Nothing: the API has no way to cancel or remove a certificate, so delete only forgets the resource; the certificate stays on the domain (and renews on the service's schedule when `autoRenew` is true).",
  gone: "A domain deleted on the service, or a certificate of another kind installed on it, reads as gone: the refresh removes it from the state and the next `pulumi up` creates it again (ordering again).",
  importId: "{installId}/{domainId}",
  notImported: "the API does not return the holder's details the order was placed with",
  identity: {
    what: "the domain's Let's Encrypt certificate (a domain has one)",
    find: async (_i, ctx) => {
      const cert = await current(ctx);
      return cert && !ENDED.has(cert.status) ? String(cert.id ?? ctx.parents.join("/")) : undefined;
    },
    refusal: (id, ctx) =>
      alreadyExists(
        `domain ${ctx.parents[1]} of install ${ctx.parents[0]} already has a Let's Encrypt certificate (id ${id})`,
      ),
  },
  list: listedUnder(
    "installId",
    "The install whose Let's Encrypt certificates are listed.",
    async (client, installId) => {
      const [certs, domains] = await Promise.all([
        collect(client.certificates.iterateForInstall(installId, { limit: 100 })),
        collect(client.domains.iterate(installId, { limit: 100 })),
      ]);
      const byName = new Map(domains.map((d) => [d.name.toLowerCase(), d.id]));
      return certs.filter(letsEncrypt).flatMap((c) => {
        const name = (c.common_name ?? c.domains?.[0] ?? "").toLowerCase();
        const domainId = byName.get(name);
        return domainId ? [{ domainId, name }] : [];
      });
    },
    (found) => [found.domainId, found.name],
    "domainId",
  ),
  inputs,
  outputs,
  normalize: (key, v) => (key === "regionCode" && typeof v === "string" ? v.toUpperCase() : v),
  lost: (olds) => (ENDED.has(olds["status"]) ? "update" : undefined),
  async create(inputs, ctx) {
    const [installId, domainId] = twoParents(ctx);
    const id = ctx.parents.join("/");
    const existing = await current(ctx);
    if (existing && !ENDED.has(existing.status)) {
      if (!inputs.adopt)
        throw alreadyExists(
          `domain ${domainId} of install ${installId} already has a Let's Encrypt certificate (id ${existing.id ?? "?"}, ${existing.status ?? "unknown status"})`,
        );
      const outs = certificateOutputs(existing);
      return { id, outs, adopted: `Let's Encrypt certificate of domain ${domainId}` };
    }
    await order(ctx, inputs);
    // The order was placed: a failure records it, so the next `up` does not order twice.
    const cert = await afterCreate(id, certificateOutputs(undefined), () => current(ctx));
    return { id, outs: certificateOutputs(cert) };
  },
  async read(_id, _olds, ctx) {
    const cert = await current(ctx);
    return cert && { outs: certificateOutputs(cert) };
  },
  async update(_id, olds, news, ctx) {
    const holderChanged = definition.writeOnly.some((k) => (olds[k] ?? null) !== (news[k] ?? null));
    if (ENDED.has(olds.status) || holderChanged) await order(ctx, news);
    return certificateOutputs(await current(ctx));
  },
  delete: async () =>
    `${FORGOTTEN}the API cannot cancel or remove a certificate; it stays on the domain and renews on the service's schedule`,
});
