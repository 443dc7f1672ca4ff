/**
 * The serialized side of every resource: a provider object that holds nothing but its resource kind
 * and a reference to the stable entry module, which loads the real implementation inside the plugin
 * process.
 *
 * Why: Pulumi serializes the provider object into the state of every resource (`__provider`). Anything
 * it captures is written there and re-evaluated by the plugin: a zod schema fails to serialize, a live
 * HTTP pool or a credential must never be captured, and the whole object graph of a module outside
 * `node_modules` would be copied by value. So these methods capture only strings, and everything else
 * is `require`d at run time from the installed package.
 *
 * The entry module (`dist/provider/plugin.js`) is a stable path: state written by this version is
 * refreshed and destroyed by later versions through it, so it must never be renamed.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The resource kinds, one per Pulumi type token `pulumi-nodejs:dynamic/wpengine:<Kind>`. */
export type ResourceKind = string;

/** Package-relative entry: portable across machines and checkouts (what an installed package uses). */
const PACKAGE_ENTRY = "pulumi-wpengine/dist/provider/plugin.js";

const cache = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/**
 * Whether this build is an installed package. Pulumi's serializer captures the exports of a module whose
 * file lies under `node_modules` as `require("<package>/<path>")`, and any other module by value.
 */
const INSTALLED = /[\\/]node_modules[\\/]/.test(__dirname);

/**
 * Returns the one provider object of a resource kind (one object per kind, so Pulumi's serialization
 * cache is hit once per type, not once per resource).
 *
 * Installed (what users have): an object whose prototype is the entry module's exports and whose only
 * own property is the kind. It serializes to a `require` of the entry and one string (~0.3 KB): the
 * floor, since the plugin can tell resources apart only by their `__provider` text.
 */
export function thinProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const existing = cache.get(kind);
  if (existing) return existing;
  const provider = INSTALLED ? Object.assign(Object.create(require("../plugin")), { kind }) : closures(kind);
  cache.set(kind, provider);
  return provider;
}

/**
 * A checkout used in place: its modules would be copied by value, so every method is a closure that
 * `require`s the entry by its package path, with this build's absolute path as the fallback (a program
 * that imports the source tree, the repository's own quickstart, has no `node_modules/pulumi-wpengine`).
 * This is also the shape state written by the first releases holds.
 */
function closures(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const localEntry = `${__dirname}/../plugin.js`;
  const packageEntry = PACKAGE_ENTRY;
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
