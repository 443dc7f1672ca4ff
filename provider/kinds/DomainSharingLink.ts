import { createHash } from "node:crypto";
import { z } from "zod";
import { goneWithParent } from "../core/actions";
import { unlessGone } from "../core/children";
import { defineKind } from "../core/define";
import { out, parentInput, whole } from "../core/inputs";
import { FORGOTTEN, isCreating, twoParents } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  installId: parentInput("The install the domain belongs to. Changing it makes a new link."),
  domainId: parentInput(
    "The id of the domain, e.g. `domain.id` of a `Domain` on the Advanced Network (AN) or Global Edge Security (GES). Changing it makes a new link.",
  ),
});

const outputs = z.object({
  url: out.string(
    "The Entri Connect link to send to whoever holds the domain's registry access (secret: anyone holding it can start the domain's DNS setup).",
    { secret: true },
  ),
  domainName: out.string("The domain's name.", { wire: "name" }),
  networkType: out.stringOrNull("The domain's network when the link was made: AN or GES."),
});

/** Why the domain's network takes no sharing link (only AN and GES do), or undefined when it does. */
const unsupported = (name: string, networkType: string | null | undefined) =>
  networkType === "AN" || networkType === "GES"
    ? undefined
    : `domain ${name} is on the ${networkType ?? "unknown"} network: the service makes sharing links only for domains on the Advanced Network (AN) or Global Edge Security (GES); move the domain to AN first, or publish its DNS records yourself (the Domain's cname and aRecords outputs)`;

const WIRE = wireOf(inputs, outputs);

export const definition = defineKind({
  kind: "DomainSharingLink",
  description:
    "A shareable Entri Connect link with which a client sets a domain's DNS (AN and GES domains only; beyond Swagger 1.17.0). The service makes a new link on every request, so the link is asked for once, when the resource is created, and kept in the state (as a secret) until the resource is replaced: later `up`s and refreshes never ask again. The id is a hash of the link, never the link itself (a secret).",
  deletes: "Only forgets the link: the API has no call to revoke one. Nothing is sent to the service.",
  gone: "A link cannot be read back; a refresh finds it gone only when its domain is (the next `pulumi up` asks for a new link if the program still declares it).",
  importId: { none: "the service lists no sharing links: there is nothing to find and adopt." },
  naturalKey: {
    none: "the service lists no sharing links, so a lost answer cannot be found again",
    recover:
      "`pulumi up` asks for a new link (the lost one, if it was made, is simply never shared; the API cannot revoke it)",
  },
  inputs,
  outputs,
  // Only a link about to be made: an existing one whose domain went is the refresh's to find gone.
  async preflight(i, ctx, olds) {
    if (!isCreating(definition, olds, i)) return [];
    // Undefined: a 404; null: another failure, for create to say.
    const d = await unlessGone(ctx.client.domains.get(...twoParents(ctx))).catch(() => null);
    const why =
      d === undefined
        ? `domainId ${ctx.parents[1]} is no domain of install ${ctx.parents[0]}: give the id of one of its domains (a Domain's id on that install)`
        : d && unsupported(d.name, d.network_type);
    return why ? [{ property: "domainId", reason: whole(why) }] : [];
  },
  async create(_i, ctx) {
    const d = await ctx.client.domains.get(...twoParents(ctx));
    const why = unsupported(d.name, d.network_type);
    if (why) throw new Error(why);
    const { url } = await ctx.client.domains.createSharingLink(...twoParents(ctx));
    // Not the share token: the id is printed and stored in clear text.
    const id = createHash("sha256").update(url).digest("hex").slice(0, 32);
    return { id, outs: WIRE.outputs(d, { url }) };
  },
  read: goneWithParent((ctx) => ctx.client.domains.get(...twoParents(ctx))),
  delete: async () =>
    `${FORGOTTEN}the API cannot revoke a sharing link; it stays valid as long as the service keeps it`,
});
