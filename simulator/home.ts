import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where `wpengine:simulator true` (`WPE_SIMULATOR=true`) keeps its world: one file for every folder of
 * the user, so that the importer run in one folder and the project it writes, run in another, see the
 * same objects. It sits in Pulumi's own home (`PULUMI_HOME`, else `~/.pulumi`), which the engine passes
 * on to the provider's process; a path given instead of `true` (`WPE_SIMULATOR=./world.json`) names
 * another file.
 */
export function sharedWorldFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env["PULUMI_HOME"] || join(homedir(), ".pulumi"), "wpengine-simulator.json");
}
