/** Cache exclusion rules of an install (full-replacement list). */
import { z } from "zod";
import { unwrapList } from "./common";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** Kinds of cache exclusion; `cookie` entries are platform-managed (accepted, ignored on save). */
export const CacheExclusionTypeSchema = z.enum(["query arg", "url path", "cookie"]);
/** Kind of a cache exclusion. */
export type CacheExclusionType = z.infer<typeof CacheExclusionTypeSchema>;

/** A cache exclusion as the service returns it. */
export const CacheExclusionSchema = z.looseObject({
  /** `query arg`, `url path` or `cookie`. */
  type: z.string(),
  /** Regular expression matched against the request. */
  value: z.string(),
});
/** A cache exclusion. */
export type CacheExclusion = z.infer<typeof CacheExclusionSchema>;

/** One exclusion in a replacement request. */
export const CacheExclusionInputSchema = z.strictObject({
  /** `query arg`, `url path` or `cookie`. */
  type: CacheExclusionTypeSchema,
  /** Regular expression (the service answers 400 for an invalid one). */
  value: z.string().min(1, "must not be empty"),
});
/** One exclusion in a replacement request. */
export type CacheExclusionInput = z.infer<typeof CacheExclusionInputSchema>;

/** Body of `PUT /installs/{id}/cache_exclusions`. */
export const ReplaceCacheExclusionsRequestSchema = z.strictObject({
  /** The complete new list (empty clears every writable exclusion). */
  exclusions: z.array(CacheExclusionInputSchema),
});

/** `{results: [...]}` (also a bare array or `{exclusions}`). */
export const CacheExclusionListSchema = z.preprocess(
  (raw) => {
    const v = unwrapList("results")(raw) as Record<string, unknown>;
    return v && typeof v === "object" && !("results" in v) && Array.isArray(v["exclusions"])
      ? { results: v["exclusions"] }
      : v;
  },
  z.looseObject({ results: z.array(CacheExclusionSchema) }),
);

/** Operations on cache exclusions. */
export class CacheExclusions {
  constructor(private readonly transport: Transport) {}

  /** Reads the current list. */
  async get(installId: string): Promise<CacheExclusion[]> {
    const res = await this.transport.request(
      { method: "GET", path: path`/installs/${installId}/cache_exclusions` },
      CacheExclusionListSchema,
    );
    return res.results;
  }

  /**
   * Replaces the whole list and returns the resulting list. 409 while the install is transferable,
   * 403 without permission, 400 for an invalid regular expression.
   */
  async replace(installId: string, exclusions: CacheExclusionInput[]): Promise<CacheExclusion[]> {
    const req = validateInput("cacheExclusions.replace", ReplaceCacheExclusionsRequestSchema, { exclusions });
    // PUT of a full list is idempotent: retried freely.
    const res = await this.transport.request(
      { method: "PUT", path: path`/installs/${installId}/cache_exclusions`, body: req },
      CacheExclusionListSchema,
    );
    return res.results;
  }
}
