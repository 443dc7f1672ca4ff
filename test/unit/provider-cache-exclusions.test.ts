import { describe, expect, it } from "vitest";
import { named } from "../../provider/core/inputs";
import {
  exclusionFailures as exclusionFailuresRaw,
  normalizeExclusions,
  regexError,
} from "../../provider/kinds/CacheExclusions";

/** What the user reads of each failure (check puts the property's name in front). */
const exclusionFailures = (...a: Parameters<typeof exclusionFailuresRaw>) =>
  exclusionFailuresRaw(...a).map(named);

describe("regexError", () => {
  it("accepts a valid expression", () => {
    expect(regexError("^/wp-json/(v2|v3)/")).toBeUndefined();
  });

  it("explains an invalid expression without repeating it", () => {
    expect(regexError("^/feed/(")).toBe("Unterminated group");
    expect(regexError("[z-a]")).toBe("Range out of order in character class");
  });
});

describe("exclusionFailures", () => {
  it("names the index of every invalid value", () => {
    const failures = exclusionFailures([
      { type: "url path", value: "^/ok/" },
      { type: "query arg", value: "^utm_" },
      { type: "url path", value: "(" },
    ]);
    expect(failures).toEqual([
      { property: "exclusions[2].value", reason: "invalid regular expression: Unterminated group" },
    ]);
  });

  it("has nothing to say about a valid list", () => {
    expect(exclusionFailures([])).toEqual([]);
  });
});

describe("normalizeExclusions", () => {
  it("collapses duplicates and sorts, so order and repeats are never a change", () => {
    const a = normalizeExclusions([
      { type: "url path", value: "^/b/" },
      { type: "query arg", value: "^utm_" },
      { type: "url path", value: "^/a/" },
      { type: "url path", value: "^/b/" },
    ]);
    const b = normalizeExclusions([
      { type: "url path", value: "^/a/" },
      { type: "url path", value: "^/b/" },
      { type: "query arg", value: "^utm_" },
    ]);
    expect(a).toEqual(b);
    expect(a).toEqual([
      { type: "query arg", value: "^utm_" },
      { type: "url path", value: "^/a/" },
      { type: "url path", value: "^/b/" },
    ]);
  });

  it("drops cookie entries (the service never saves them) and extra fields", () => {
    expect(
      normalizeExclusions([
        { type: "cookie", value: "^wp-postpass_" },
        { type: "url path", value: "^/x/", id: 3 },
      ]),
    ).toEqual([{ type: "url path", value: "^/x/" }]);
  });

  it("treats a missing list as empty", () => {
    expect(normalizeExclusions(undefined)).toEqual([]);
  });
});
