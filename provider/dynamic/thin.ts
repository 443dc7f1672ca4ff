/**
 * The serialized side of every resource: a provider object holding only its kind and a reference to the
 * stable entry module (`dist/provider/plugin.js`, never to be renamed: later versions refresh and destroy
 * this version's state through it). Pulumi serializes the provider into every resource's state
 * (`__provider`): a zod schema fails to serialize, an HTTP pool or a credential must never be captured,
 * and a module outside `node_modules` is copied by value, so it captures strings only.
 */
import type * as pulumi from "@pulumi/pulumi";

const cache = new Map<string, pulumi.dynamic.ResourceProvider>();

/** Whether this build is an installed package (Pulumi captures such a module as a `require`, not by value). */
const INSTALLED = /[\\/]node_modules[\\/]/.test(__dirname);

/**
 * The one provider object of a kind (Pulumi's serialization cache is then hit once per type). Installed:
 * the entry module's exports as prototype and the kind as its only own property, which serializes to a
 * `require` and one string (~0.3 KB).
 */
export function thinProvider(kind: string): pulumi.dynamic.ResourceProvider {
  const existing = cache.get(kind);
  if (existing) return existing;
  const provider = INSTALLED ? Object.assign(Object.create(require("../plugin")), { kind }) : closures(kind);
  cache.set(kind, provider);
  return provider;
}

/**
 * A checkout used in place (the shape the first releases' state holds): closures that `require` the entry
 * by its package path, else by this build's absolute path (a program importing the source tree).
 */
function closures(kind: string): pulumi.dynamic.ResourceProvider {
  const localEntry = `${__dirname}/../plugin.js`;
  // Package-relative: portable across machines and checkouts (what an installed package uses).
  const packageEntry = "pulumi-wpengine/dist/provider/plugin.js";
  // biome-ignore lint/suspicious/noExplicitAny: the plugin module is loaded untyped on purpose.
  const load = (): any => {
    try {
      return require(packageEntry);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (e.code === "MODULE_NOT_FOUND" && String(e.message).includes(packageEntry))
        return require(localEntry);
      throw err;
    }
  };
  return {
    configure: (req) => load().configure(req),
    check: (olds, news) => load().run(kind, "check", olds, news),
    diff: (id, olds, news) => load().run(kind, "diff", id, olds, news),
    create: (inputs) => load().run(kind, "create", inputs),
    read: (id, props) => load().run(kind, "read", id, props),
    update: (id, olds, news) => load().run(kind, "update", id, olds, news),
    delete: (id, props) => load().run(kind, "delete", id, props),
  };
}
