/**
 * Checks across a program's declarations (no resource's own `check` sees the others), run by the classes
 * as the program declares them (`resourceClass`). Program side only: the plugin never loads this module.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * What a class runs around its registration: before it (refusing a declaration with a `pulumi.RunError`,
 * which Pulumi prints as its message alone, not as an unhandled exception with a trace), and after it.
 */
export interface Guard {
  declaring?(name: string, args: Record<string, unknown>): void;
  declared?(resource: Record<string, unknown>, name: string): void;
}

/**
 * The id outputs of this program's `Install`s, with their names: an `InstallPlacement` of one would undo
 * the Install's own placement on every `up` (and it the placement's), so its declaration is refused.
 */
const managedInstalls = new WeakMap<object, string>();

export const GUARDS: Readonly<Record<string, Guard>> = {
  Install: {
    declared(install, name) {
      for (const output of [install["id"], install["installId"]])
        if (typeof output === "object" && output !== null) managedInstalls.set(output, name);
    },
  },
  InstallPlacement: {
    declaring(name, args) {
      // A WeakMap answers undefined for a value that is no object (a plain string id).
      const owner = managedInstalls.get(args?.["installId"] as object);
      if (owner !== undefined)
        throw new pulumi.RunError(
          `wpengine:InstallPlacement ${name}: installId is the install of wpengine.Install "${owner}", which places ` +
            "it itself: set siteId and environment on that Install and remove this InstallPlacement " +
            "(InstallPlacement is for installs made outside this program)",
        );
    },
  },
};
