import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { buildName, buildView, envKey, requireEnvironment } from "../appHosting";
import { DURATIONS } from "../clock";
import { badRequest, notFound } from "../errors";
import { page, parseBody, type Req } from "../http";
import { buildState } from "../lifecycle";
import type { Sim } from "../sim";
import type { BuildRecord } from "../store";

/** Whether the bytes start like a zip archive (local file header, or the end record of an empty zip). */
function isZip(data: Buffer): boolean {
  return data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b && (data[2] === 3 || data[2] === 5);
}

/** Builds: direct upload of a .zip (under /fu/v1), list, read, cancel. */
export function registerBuilds(app: FastifyInstance, sim: Sim): void {
  const env = "/accounts/:account/apps/:app/environments/:env(^[^:/]+)";

  app.post(`/fu/v1${env}::upload`, async (req: Req) => {
    const environment = requireEnvironment(sim, req);
    if (environment.branch !== "uploadable") {
      throw badRequest(
        "environment",
        "branch",
        `Uploads need an environment whose branch is "uploadable" (this one builds ${environment.branch})`,
        "not_uploadable",
      );
    }
    if (!req.isMultipart()) {
      throw badRequest(
        "build",
        "repository",
        "Send the .zip as multipart/form-data in the field repository",
        "required",
      );
    }
    let data: Buffer | null = null;
    for await (const part of req.parts()) {
      if (part.type === "file" && part.fieldname === "repository" && data === null)
        data = await part.toBuffer();
      else if (part.type === "file") part.file.resume();
    }
    if (data === null)
      throw badRequest("build", "repository", "The multipart field repository is required", "required");
    const now = sim.now();
    const build: BuildRecord = {
      account_id: environment.account_id,
      app_id: environment.app_id,
      environment_id: environment.environment_id,
      build_id: randomUUID(),
      created_at: now,
      started_at: sim.clock.after(DURATIONS.buildStart, now),
      finished_at: sim.clock.after(DURATIONS.buildComplete, now),
      outcome: isZip(data) ? "SUCCEEDED" : "FAILED",
      cancelled_at: null,
      size_bytes: data.length,
    };
    const key = envKey(build.account_id, build.app_id, build.environment_id);
    sim.world.builds[`${key}/${build.build_id}`] = build;
    environment.build = buildName(build);
    environment.reconcile_until = build.finished_at;
    environment.update_time = new Date(now).toISOString();
    sim.store.touch();
    return buildView(build, now);
  });

  const builds = `/v1${env}/builds`;

  app.get(builds, async (req: Req) => {
    const environment = requireEnvironment(sim, req);
    const key = envKey(environment.account_id, environment.app_id, environment.environment_id);
    const now = sim.now();
    const list = Object.entries(sim.world.builds)
      .filter(([k]) => k.startsWith(`${key}/`))
      .map(([, b]) => b)
      .sort((a, b) => b.created_at - a.created_at);
    const { items, nextPageToken } = page(
      req,
      list.map((b) => buildView(b, now)),
    );
    return nextPageToken ? { builds: items, nextPageToken } : { builds: items };
  });

  const requireBuild = (req: Req): BuildRecord => {
    const environment = requireEnvironment(sim, req);
    const key = envKey(environment.account_id, environment.app_id, environment.environment_id);
    const build = sim.world.builds[`${key}/${req.params["build"]}`];
    if (!build) throw notFound("Build");
    return build;
  };

  app.get(`${builds}/:build(^[^:/]+)`, async (req: Req) => buildView(requireBuild(req), sim.now()));

  app.post(`${builds}/:build(^[^:/]+)::cancel`, async (req: Req) => {
    const build = requireBuild(req);
    parseBody(z.strictObject({}), req.body, "build");
    const now = sim.now();
    const state = buildState(build, now);
    if (state !== "QUEUED" && state !== "BUILDING") {
      throw badRequest(
        "build",
        undefined,
        `The build has already finished (${state})`,
        "failed_precondition",
        "value_unavailable",
      );
    }
    build.cancelled_at = now;
    const environment = sim.world.environments[envKey(build.account_id, build.app_id, build.environment_id)];
    if (environment) environment.reconcile_until = now;
    sim.store.touch();
    return buildView(build, now);
  });
}
