import { z } from "zod";
import type { Install } from "../../sdk";
import { defineKind, listedUnder } from "../core/define";
import { COMMON_INPUTS, out, parentInput, uuidString } from "../core/inputs";
import { environmentInput, environmentOf } from "../core/installs";
import { type Context, FORGOTTEN } from "../core/lifecycle";
import { wireOf } from "../core/wire";

const inputs = z.object({
  installId: parentInput("The install to place; it must exist. Changing it replaces the placement.", {
    wire: "id",
  }),
  siteId: uuidString.meta({
    description: "The site the install belongs to. Changing it moves the install in place.",
    wire: { read: "site.id", write: "site_id" },
  }),
  environment: environmentInput.meta({
    description:
      "The environment the install fills in its site: `production`, `staging` or `development` (any case).",
  }),
  ...COMMON_INPUTS,
});

const outputs = z.object({
  installName: out.string("The install's name.", { wire: "name" }),
  accountId: out.stringOrNull("The account owning the install.", { wire: "account.id" }),
  cname: out.stringOrNull("The install's CNAME."),
  primaryDomain: out.stringOrNull("The install's primary domain."),
  status: out.stringOrNull("The install's status (`active` or `pending`)."),
});

const normalize = (_key: string, v: unknown) => (typeof v === "string" ? v.toLowerCase() : v);
const WIRE = wireOf(inputs, outputs, normalize);

/** Maps an install record to outputs; a site or environment it omits is left out (kept by read). */
export const placementOutputs = (i: Install) => ({ ...WIRE.outputs(i), ...environmentOf(i) });

/** Moves the install (`ctx.parent`) where `want` says (both fields at once: the service validates the pair). */
async function place({ client, parent: installId }: Context, want: z.output<typeof inputs>) {
  const current = placementOutputs(await client.installs.get(installId));
  const patch = WIRE.patch(current, want);
  return patch ? placementOutputs(await client.installs.update(installId, patch)) : current;
}

export const definition = defineKind({
  kind: "InstallPlacement",
  description:
    "Where an existing install lives: the site it belongs to and the environment (production, staging or development) it fills there. Creating it moves the install (PATCH install); it never creates an install. For installs made elsewhere (by hand, by another stack): an install this program creates with `Install` is placed by that resource's `siteId`/`environment`. The id is the install's UUID.",
  deletes:
    "Only forgets the placement: the install stays in the site and environment it has now (nothing on the service un-places an install, and moving it back somewhere would be a guess). Nothing is sent to the service.",
  gone: "The install deleted on the service reads as gone, and the refresh removes the placement from the state.",
  importId: "{installId}",
  notImported:
    "for installs made outside the program: every install is brought in as an Install instead (the two refuse to share one)",
  identity: { what: "the install's placement (an install has one)" },
  naturalKey: { resend: "a PATCH of absolute values: sending it again leaves the same placement." },
  list: listedUnder(
    "installId",
    "The install whose placement is listed (one per install).",
    async (client, installId) => [await client.installs.get(installId)],
    (i) => [i.id, `${i.name} placement`],
    "installId",
  ),
  inputs,
  outputs,
  normalize,
  // An install always has a placement: creating one is the move itself (`adopt` changes nothing).
  create: async (inputs, ctx) => ({ id: ctx.parent, outs: await place(ctx, inputs) }),
  read: async (id, _olds, ctx) => ({ outs: placementOutputs(await ctx.client.installs.get(id)) }),
  update: (_id, _olds, news, ctx) => place(ctx, news),
  delete: async (_id, olds) =>
    `${FORGOTTEN}install ${olds.installName} stays in site ${olds.siteId} as its ${olds.environment} install`,
});
