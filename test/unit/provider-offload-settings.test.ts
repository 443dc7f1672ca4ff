import { describe, expect, it } from "vitest";
import { named } from "../../provider/core/inputs";
import {
  definition,
  duplicatePathFailures as duplicatePathFailuresRaw,
  normalizePathSettings,
  offloadOutputs,
  offloadRequest,
} from "../../provider/kinds/OffloadSettings";

/** What the user reads of each failure (check puts the property's name in front). */
const duplicatePathFailures = (...a: Parameters<typeof duplicatePathFailuresRaw>) =>
  duplicatePathFailuresRaw(...a).map(named);

const INSTALL = "1e000000-0000-4000-8000-000000000001";

const want = {
  cloud: "s3" as const,
  bucket: "acme-uploads",
  bucketRegion: "us-east-1",
  pathSettings: [
    { path: "wp-content/uploads/", excludedPaths: ["b/", "a/", "a/"], redirectType: "permanent" as const },
    { path: "media/", excludedPaths: [], redirectType: "break" as const },
  ],
};

describe("normalizePathSettings", () => {
  it("sorts paths and excluded paths and drops repeated excluded paths", () => {
    expect(normalizePathSettings(want.pathSettings)).toEqual([
      { path: "media/", excludedPaths: [], redirectType: "break" },
      { path: "wp-content/uploads/", excludedPaths: ["a/", "b/"], redirectType: "permanent" },
    ]);
  });

  it("fills a missing excludedPaths with an empty list", () => {
    expect(normalizePathSettings([{ path: "x/", redirectType: "break" }])).toEqual([
      { path: "x/", excludedPaths: [], redirectType: "break" },
    ]);
  });
});

describe("duplicatePathFailures", () => {
  it("names the second occurrence of a path", () => {
    expect(duplicatePathFailures([{ path: "a/" }, { path: "b/" }, { path: "a/" }])).toEqual([
      {
        property: "pathSettings[2].path",
        reason: 'duplicate path "a/": each path may appear once in pathSettings',
      },
    ]);
  });
});

describe("offloadRequest and offloadOutputs", () => {
  it("builds the snake_case body of the whole settings", () => {
    expect(offloadRequest(want)).toEqual({
      cloud: "s3",
      bucket: "acme-uploads",
      bucket_region: "us-east-1",
      path_settings: [
        { path: "media/", excluded_paths: [], redirect_type: "break" },
        { path: "wp-content/uploads/", excluded_paths: ["a/", "b/"], redirect_type: "permanent" },
      ],
    });
  });

  it("reads the service's answer back into the same shape the inputs normalise to", async () => {
    const body = offloadRequest(want);
    const outs = offloadOutputs({ settings: body, status: "applied" });
    expect(outs).toEqual({
      cloud: "s3",
      bucket: "acme-uploads",
      bucketRegion: "us-east-1",
      pathSettings: normalizePathSettings(want.pathSettings),
      status: "applied",
    });
    // Compared with the inputs they came from, they show no change; another bucket does.
    const inputs = { installId: INSTALL, ...want };
    const diff = (olds: object) => definition.provider.diff!(INSTALL, { ...inputs, ...olds }, inputs);
    expect(await diff(outs)).toEqual({ changes: false });
    expect(await diff({ ...outs, bucket: "other" })).toEqual({ changes: true });
  });

  it("reports nothing configured as nulls", () => {
    expect(offloadOutputs({ settings: null })).toEqual({
      cloud: null,
      bucket: null,
      bucketRegion: null,
      pathSettings: [],
      status: null,
    });
  });
});
