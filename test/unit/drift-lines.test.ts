/**
 * The drift a user sees in the CLI's text (what the demo and the CLI tier scan for), on lines the real
 * `pulumi` CLI printed for a stack of four resources.
 */
import { describe, expect, it } from "vitest";
import { driftLines } from "../../tools/cli/drift";

const UNTOUCHED = `Previewing update (dev):

@ previewing update.....
 ~  pulumi:pulumi:Stack probe-dev refreshing 
 ~  pulumi-nodejs:dynamic/wpengine:SshKey k refreshing 
 ~  pulumi:pulumi:Stack fleet-dev refreshing warning: using pulumi-resource-wpengine from $PATH at /work/bin/pulumi-resource-wpengine
@ previewing update....
 ~  pulumi-nodejs:dynamic/wpengine:SshKey k refresh 
 ~  pulumi-nodejs:dynamic/wpengine:Domain a refresh (0.53s) 
    pulumi-nodejs:dynamic/wpengine:SshKey k  
    pulumi:pulumi:Stack probe-dev  
Resources:
    5 unchanged
`;

const DRIFTED = `Updating (dev):
 ~  pulumi-nodejs:dynamic/wpengine:CacheExclusions c refreshing (0s) 
 ~  pulumi-nodejs:dynamic/wpengine:CacheExclusions c refresh (0.49s) [diff: ~exclusions]
 ~  pulumi-nodejs:dynamic/wpengine:Domain a updating (0s) [diff: ~secureAllUrls]
 \u001b[33m~ \u001b[0m pulumi-nodejs:dynamic/wpengine:Domain a updated
Resources:
    ~ 2 to update
`;

describe("drift lines of the CLI's text", () => {
  it("are none for the refresh progress lines of an untouched stack", () => {
    expect(driftLines(UNTOUCHED)).toEqual([]);
  });
  it("are each [diff: line, update line and summary of changes, colours stripped", () => {
    expect(driftLines(DRIFTED).map((l) => l.trim())).toEqual([
      "~  pulumi-nodejs:dynamic/wpengine:CacheExclusions c refresh (0.49s) [diff: ~exclusions]",
      "~  pulumi-nodejs:dynamic/wpengine:Domain a updating (0s) [diff: ~secureAllUrls]",
      "~  pulumi-nodejs:dynamic/wpengine:Domain a updated",
      "~ 2 to update",
    ]);
  });
});
