/**
 * What the Node.js classes add to their definitions, by hand: the checks a program's declarations need
 * across resources (no resource's own `check` sees the others), run as the program declares them
 * (`resourceClass`). Program side only: the plugin never loads this module.
 */

/** What a class runs around its registration: before it (refusing a declaration), and after it. */
export interface Guard {
  declaring?(name: string, args: Record<string, unknown>): void;
  declared?(resource: Record<string, unknown>, name: string): void;
}

/**
 * The id outputs of the `Install` resources of this program, with their resource names. An `Install`
 * places its install itself; an `InstallPlacement` of the same install would fight it (each undoing
 * the other's move on every `up`), so its declaration is refused.
 */
const managedInstalls = new WeakMap<object, string>();

/** The guards, by kind. */
export const GUARDS: Readonly<Record<string, Guard>> = {
  Install: {
    declared(install, name) {
      for (const output of [install["id"], install["installId"]])
        if (typeof output === "object" && output !== null) managedInstalls.set(output, name);
    },
  },
  InstallPlacement: {
    declaring(name, args) {
      const installId = args?.["installId"];
      const owner =
        typeof installId === "object" && installId !== null ? managedInstalls.get(installId) : undefined;
      if (owner === undefined) return;
      throw new Error(
        `wpengine:InstallPlacement ${name}: installId is the install of wpengine.Install "${owner}", which places ` +
          "it itself: set siteId and environment on that Install and remove this InstallPlacement " +
          "(InstallPlacement is for installs made outside this program)",
      );
    },
  },
};
