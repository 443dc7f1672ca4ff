import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { DURATIONS } from "../clock";
import { badRequest } from "../errors";
import { callerOf, parseBody, type Req } from "../http";
import type { Sim } from "../sim";
import type { LargeFsSettings } from "../store";

const Settings = z.strictObject({
  cloud: z.literal("s3").optional(),
  bucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a valid S3 bucket name")
    .optional(),
  bucket_region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, "must be an AWS region such as us-east-1")
    .optional(),
  path_settings: z
    .array(
      z.strictObject({
        path: z.string().min(1),
        excluded_paths: z.array(z.string().min(1)),
        redirect_type: z.enum(["break", "permanent"]),
      }),
    )
    .optional(),
});

// The Swagger names the wrapper both ways; either is accepted, never both.
const Body = z.strictObject({
  largefs_settings: Settings.optional(),
  large_fs_config: Settings.optional(),
});

const REQUIRED = ["cloud", "bucket", "bucket_region"] as const;

/**
 * Offloaded file-storage settings: read, partial update (PATCH), full update (POST), applied later; and
 * the validation file to put at the bucket's root.
 */
export function registerOffloadSettings(app: FastifyInstance, sim: Sim): void {
  const path = "/v1/installs/:install_id/offload_settings/files";

  app.get(path, async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const record = sim.world.offload_settings[install.id];
    return {
      largefs_settings: record?.settings ?? {},
      status: !record || sim.now() >= record.applied_at ? "applied" : "pending",
    };
  });

  const update = (partial: boolean) => async (req: Req, reply: FastifyReply) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const body = parseBody(Body, req.body, "offload_settings");
    if (body.largefs_settings && body.large_fs_config) {
      throw badRequest(
        "offload_settings",
        "large_fs_config",
        "Send largefs_settings or large_fs_config, not both",
      );
    }
    const given = body.largefs_settings ?? body.large_fs_config;
    const wrapper = body.large_fs_config ? "large_fs_config" : "largefs_settings";
    if (!given)
      throw badRequest("offload_settings", "largefs_settings", "largefs_settings is required", "required");
    const current = partial ? (sim.world.offload_settings[install.id]?.settings ?? {}) : {};
    const merged: LargeFsSettings = { ...current, ...given };
    for (const field of REQUIRED) {
      if (merged[field] === undefined) {
        throw badRequest(
          "offload_settings",
          `${wrapper}.${field}`,
          `${wrapper}.${field} is required`,
          "required",
        );
      }
    }
    merged.path_settings ??= [];
    sim.world.offload_settings[install.id] = {
      settings: merged,
      applied_at: sim.clock.after(DURATIONS.offloadApply),
    };
    sim.store.touch();
    return reply.code(202).send({ message: "Offload settings update accepted" });
  };

  // The file LargeFS looks for at the bucket's root before it serves from it: stable per install.
  app.get("/v1/installs/:install_id/offload_settings/largefs_validation_file", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const digest = createHash("sha256").update(`largefs/${install.id}`).digest("hex");
    return { name: `${digest.slice(0, 8)}.largefs`, content: digest.slice(8, 24) };
  });

  app.patch(path, update(true));
  app.post(path, update(false));
}
