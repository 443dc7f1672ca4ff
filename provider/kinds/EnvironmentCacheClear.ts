import { randomUUID } from "node:crypto";
import { z } from "zod";
import { goneWithParent } from "../core/actions";
import { environmentAddress, environmentOf, resourceNameOf } from "../core/appHosting";
import { defineKind } from "../core/define";
import { out, triggersInput } from "../core/inputs";
import { type Context, FORGOTTEN } from "../core/lifecycle";

const inputs = z.object({
  ...environmentAddress,
  triggers: triggersInput.meta({
    description:
      "Any values (a build name, a content hash, a date); when they change, the cache is cleared again.",
    writeOnly: true,
  }),
});

const outputs = z.object({
  environmentResourceName: out.string("The resource name of the environment whose cache is cleared."),
  lastClearedAt: out.string(
    "When this resource last cleared the cache (RFC 3339, the provider's clock: the service does not report it).",
  ),
});

async function clear(ctx: Context) {
  await ctx.client.environments.clearCache(...environmentOf(ctx));
  return { environmentResourceName: resourceNameOf(ctx), lastClearedAt: new Date().toISOString() };
}

export const definition = defineKind({
  kind: "EnvironmentCacheClear",
  description:
    "An action, not an object: clears the web cache of an application-hosting environment when created, and again each time `triggers` change. The id is `accounts/{a}/apps/{app}/environments/{env}/cacheClears/{uuid}`.",
  deletes:
    "Forgets the resource only; nothing is sent to the service (a cleared cache cannot be uncleared). Delete says so in one line among the update's diagnostics (`wpengine:EnvironmentCacheClear <id>: forgotten only, nothing sent to the service: ...`).",
  gone: "An action keeps nothing on the service: it reads as gone when its environment is gone, and the refresh removes it from the state.",
  importId: { none: "an action: the service keeps nothing of it to read back." },
  naturalKey: { resend: "a cache clear: clearing again leaves the cache as empty." },
  inputs,
  outputs,
  async create(_inputs, ctx) {
    const outs = await clear(ctx);
    // Several may target the same environment: the id is unique.
    return { id: `${outs.environmentResourceName}/cacheClears/${randomUUID()}`, outs };
  },
  read: goneWithParent((ctx) => ctx.client.environments.get(...environmentOf(ctx))),
  update: (_id, _olds, _news, ctx) => clear(ctx),
  delete: async () => `${FORGOTTEN}clearing a cache cannot be undone`,
});
