/** Offloaded file storage (LargeFS) settings of an install. */
import { z } from "zod";
import { type MessageResponse, MessageResponseSchema } from "./common";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** One offloaded path as the service returns it. */
export const OffloadPathSettingSchema = z.looseObject({
  /** Path offloaded to the bucket, e.g. `wp-content/uploads/`. */
  path: z.string(),
  /** Sub-paths kept local. */
  excluded_paths: z.array(z.string()).nullish(),
  /** `break` or `permanent`. */
  redirect_type: z.string().nullish(),
});

/** The settings object as the service returns it. */
export const OffloadSettingsValueSchema = z.looseObject({
  /** Storage provider (`s3`). */
  cloud: z.string().nullish(),
  /** Bucket name. */
  bucket: z.string().nullish(),
  /** Bucket region, e.g. `us-east-1`. */
  bucket_region: z.string().nullish(),
  /** Offloaded paths. */
  path_settings: z.array(OffloadPathSettingSchema).nullish(),
});
/** The settings object as the service returns it. */
export type OffloadSettingsValue = z.infer<typeof OffloadSettingsValueSchema>;

/**
 * `GET .../offload_settings/files`: the settings under `settings`, read from the wrapper
 * `largefs_settings` or `large_fs_config` (both names exist in the service's docs), plus `status`
 * (`pending` until an update is applied, then `applied`) and any other field as sent.
 */
export const OffloadSettingsSchema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
    const rec = raw as Record<string, unknown>;
    const settings = rec["largefs_settings"] ?? rec["large_fs_config"] ?? rec["settings"] ?? null;
    return { ...rec, settings };
  },
  z.looseObject({
    /** The current settings; null when offloading was never configured. */
    settings: OffloadSettingsValueSchema.nullable(),
    /** `pending` while an update is being applied, `applied` afterwards. */
    status: z.string().nullish(),
  }),
);
/** Offload settings of an install. */
export type OffloadSettings = z.infer<typeof OffloadSettingsSchema>;

/** One offloaded path in an update. */
export const OffloadPathSettingInputSchema = z.strictObject({
  /** Path offloaded to the bucket. */
  path: z.string().min(1, "must not be empty"),
  /** Sub-paths kept local. */
  excluded_paths: z.array(z.string()).optional(),
  /** `break` or `permanent`. */
  redirect_type: z.enum(["break", "permanent"]).optional(),
});

/** The settings object of an update (partial: only the given fields change). */
export const UpdateOffloadSettingsRequestSchema = z.strictObject({
  /** Storage provider; the service knows `s3`. */
  cloud: z.enum(["s3"]).optional(),
  /** Bucket name. */
  bucket: z.string().min(1, "must not be empty").optional(),
  /** Bucket region. */
  bucket_region: z.string().min(1, "must not be empty").optional(),
  /** Offloaded paths. */
  path_settings: z.array(OffloadPathSettingInputSchema).optional(),
});
/** The settings object of an update. */
export type UpdateOffloadSettingsRequest = z.infer<typeof UpdateOffloadSettingsRequestSchema>;

/** The file LargeFS needs at the root of the bucket before it serves from it (`getLargeFSValidationFile`). */
export const LargeFsValidationFileSchema = z.looseObject({
  /** The file name, e.g. `64f1250c.largefs`. */
  name: z.string(),
  /** The file's exact content. */
  content: z.string(),
});
/** The LargeFS validation file. */
export type LargeFsValidationFile = z.infer<typeof LargeFsValidationFileSchema>;

/** Operations on offload settings. */
export class OffloadSettingsApi {
  constructor(private readonly transport: Transport) {}

  /** Reads the settings and whether the last update is applied. */
  async get(installId: string): Promise<OffloadSettings> {
    return this.transport.request(
      { method: "GET", path: path`/installs/${installId}/offload_settings/files` },
      OffloadSettingsSchema,
    );
  }

  /** The validation file (name and content) to put at the root of the bucket. */
  async validationFile(installId: string): Promise<LargeFsValidationFile> {
    return this.transport.request(
      { method: "GET", path: path`/installs/${installId}/offload_settings/largefs_validation_file` },
      LargeFsValidationFileSchema,
    );
  }

  /** Updates the settings (202: applied later; poll `get` until `status` is `applied`). */
  async update(installId: string, settings: UpdateOffloadSettingsRequest): Promise<MessageResponse> {
    const req = validateInput("offloadSettings.update", UpdateOffloadSettingsRequestSchema, settings);
    // The wrapper is sent as `largefs_settings`, the name of the service's body schema and example.
    // PATCH sets absolute values: repeating it leaves the same state, so it is retried freely.
    return this.transport.request(
      {
        method: "PATCH",
        path: path`/installs/${installId}/offload_settings/files`,
        body: { largefs_settings: req },
        retry: "safe",
      },
      MessageResponseSchema,
    );
  }
}
