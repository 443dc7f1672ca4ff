import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { badRequest } from "../errors";
import { callerOf, parseBody, type Req } from "../http";
import type { Sim } from "../sim";

const InstallCopy = z.strictObject({
  source_environment_id: z.guid(),
  destination_environment_id: z.guid(),
  notification_emails: z.array(z.email()).optional(),
  custom_options: z
    .strictObject({
      include_files: z.boolean().optional(),
      include_db: z.boolean().optional(),
      db_tables: z.array(z.string().min(1)).min(1).optional(),
    })
    .optional(),
});

/** Install copy: same account only, `db_tables` only with `include_db`; accepted, completion not observable. */
export function registerInstallCopy(app: FastifyInstance, sim: Sim): void {
  app.post("/v1/install_copy", async (req: Req, reply) => {
    const world = sim.world;
    const caller = callerOf(req);
    const body = parseBody(InstallCopy, req.body, "install_copy");
    const source = requireInstall(world, caller, body.source_environment_id);
    const destination = requireInstall(world, caller, body.destination_environment_id);
    if (source.id === destination.id) {
      throw badRequest(
        "install_copy",
        "destination_environment_id",
        "Source and destination must differ",
        "same_environment",
      );
    }
    if (source.account_id !== destination.account_id) {
      throw badRequest(
        "install_copy",
        "destination_environment_id",
        "Source and destination must be on the same account",
        "different_accounts",
      );
    }
    const includeFiles = body.custom_options?.include_files ?? true;
    const includeDb = body.custom_options?.include_db ?? true;
    if (!includeDb && body.custom_options?.db_tables) {
      throw badRequest(
        "install_copy",
        "custom_options.db_tables",
        "db_tables cannot be given when include_db is false",
        "db_tables_without_db",
      );
    }
    if (!includeFiles && !includeDb) {
      throw badRequest(
        "install_copy",
        "custom_options",
        "Nothing to copy: include_files and include_db are both false",
      );
    }
    // Files carry the content-management software with them.
    if (includeFiles) destination.cms_version = source.cms_version;
    world.install_copies.push({
      id: randomUUID(),
      source_environment_id: source.id,
      destination_environment_id: destination.id,
      include_files: includeFiles,
      include_db: includeDb,
      db_tables: body.custom_options?.db_tables ?? null,
      notification_emails: body.notification_emails ?? [],
      requested_at: sim.clock.iso(),
    });
    sim.store.touch();
    return reply.code(202).send({ message: "Install copy initiated" });
  });
}
