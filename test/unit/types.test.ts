/**
 * provider/kinds/generated.ts (the classes' argument and property interfaces, with each property's
 * description) is what `npm run types` would write from the definitions now.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../provider/registry";
import { FILE, renderTypes } from "../../tools/types";

describe("generated types", () => {
  it(`${FILE} is current`, () => {
    const text = readFileSync(path.join(__dirname, "..", "..", FILE), "utf8");
    expect(text, `${FILE} is stale: run npm run types`).toBe(renderTypes(Object.values(KINDS)));
  });

  it("types an enum input as the union of its values, and describes each property", () => {
    const text = renderTypes(Object.values(KINDS));
    expect(text).toContain(
      'roles: pulumi.Input<"owner" | "full" | "full,billing" | "partial" | "partial,billing">;',
    );
    expect(text).toContain('environment: pulumi.Input<"production" | "staging" | "development">;');
    const description = KINDS["Domain"]!.inputs.shape["secureAllUrls"]!.meta()?.description;
    expect(description).toBeTruthy();
    expect(text).toContain(`  /** ${description} */\n  secureAllUrls?: DomainIn["secureAllUrls"];`);
  });
});
