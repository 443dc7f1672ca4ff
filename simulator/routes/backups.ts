import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requireInstall } from "../auth";
import { DURATIONS, iso } from "../clock";
import { badRequest, notFound } from "../errors";
import { callerOf, paginate, parseBody, type Req } from "../http";
import { archiveState, backupStatus } from "../lifecycle";
import type { Sim } from "../sim";
import type { ArchiveRecord, BackupRecord } from "../store";

const Emails = z.array(z.email()).min(1, "must hold at least one address");

const CreateBackup = z.strictObject({
  description: z.string().min(1),
  notification_emails: Emails,
});

const Restore = z.strictObject({
  notification_emails: Emails,
  restore_database: z.boolean().optional(),
  create_checkpoint: z.boolean().optional(),
});

/** The Backup record of spec section 2 as of `now`. */
function backupView(b: BackupRecord, now: number): Record<string, unknown> {
  const status = backupStatus(b, now);
  return {
    id: b.id,
    status,
    description: b.description,
    create_time: iso(b.requested_at),
    complete_time: status === "completed" ? iso(b.completed_at) : null,
    cms_version: b.cms_version,
  };
}

/** The Archive record (Swagger field names) as of `now`. */
function archiveView(a: ArchiveRecord, now: number): Record<string, unknown> {
  const state = archiveState(a, now);
  return {
    id: a.id,
    backup: { id: a.backup_id },
    notification_emails: a.notification_emails,
    state,
    create_time: iso(a.created_at),
    start_time: state === "requested" ? null : iso(a.started_at),
    complete_time: state === "completed" ? iso(a.completed_at) : null,
    abort_time: state === "aborted" ? iso(a.started_at) : null,
    download_uri: state === "completed" ? `https://storage.wpengine.invalid/archives/${a.id}.zip` : null,
  };
}

/** Backups (request, list, read, restore) and the archives made from them. */
export function registerBackups(app: FastifyInstance, sim: Sim): void {
  const base = "/v1/installs/:install_id/backups";

  app.post(base, async (req: Req, reply) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const body = parseBody(CreateBackup, req.body, "backup");
    const now = sim.now();
    const backup: BackupRecord = {
      id: randomUUID(),
      install_id: install.id,
      description: body.description,
      notification_emails: body.notification_emails,
      cms_version: install.cms_version,
      requested_at: now,
      started_at: sim.clock.after(DURATIONS.backupStart, now),
      completed_at: sim.clock.after(DURATIONS.backupComplete, now),
      aborted: false,
    };
    sim.world.backups[backup.id] = backup;
    // Every completed backup yields a downloadable archive, which appears once the backup is done.
    const archive: ArchiveRecord = {
      id: randomUUID(),
      install_id: install.id,
      backup_id: backup.id,
      notification_emails: body.notification_emails,
      created_at: backup.completed_at,
      started_at: sim.clock.after(DURATIONS.archiveStart, backup.completed_at),
      completed_at: sim.clock.after(DURATIONS.archiveComplete, backup.completed_at),
      aborted: false,
    };
    sim.world.archives[archive.id] = archive;
    sim.store.touch();
    return reply.code(202).send(backupView(backup, now));
  });

  app.get(base, async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const now = sim.now();
    const backups = sim.store.of(sim.store.by.backupsOfInstall, install.id);
    return paginate(req, backups, (b) => backupView(b, now));
  });

  app.get(`${base}/:backup_id`, async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const backup = sim.world.backups[req.params["backup_id"]!];
    if (!backup || backup.install_id !== install.id) throw notFound("Backup");
    return backupView(backup, sim.now());
  });

  app.post(`${base}/:backup_id/restore`, async (req: Req, reply) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const backup = sim.world.backups[req.params["backup_id"]!];
    if (!backup || backup.install_id !== install.id) throw notFound("Backup");
    const body = parseBody(Restore, req.body, "restore");
    const status = backupStatus(backup, sim.now());
    if (status !== "completed") {
      throw badRequest(
        "restore",
        "backup_id",
        `Only a completed backup can be restored (this one is ${status})`,
        "backup_not_completed",
        "value_unavailable",
      );
    }
    install.cms_version = backup.cms_version;
    install.busy_until = sim.clock.after(DURATIONS.restore);
    sim.world.restores.push({
      install_id: install.id,
      backup_id: backup.id,
      restore_database: body.restore_database ?? true,
      create_checkpoint: body.create_checkpoint ?? true,
      requested_at: sim.clock.iso(),
    });
    sim.store.touch();
    return reply.code(202).send({ message: "Restore initiated" });
  });

  app.get("/v1/installs/:install_id/archives", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const now = sim.now();
    const archives = sim.store
      .of(sim.store.by.archivesOfInstall, install.id)
      .filter((a) => archiveState(a, now) !== null);
    return paginate(req, archives, (a) => archiveView(a, now));
  });
}
