import type {
  ArchiveRecord,
  BackupRecord,
  BuildRecord,
  DomainMappingRecord,
  ReportScheduleRecord,
  SiteTransferRecord,
} from "./store";

// States of asynchronous work, read from due timestamps on the simulator's clock (see clock.ts).

/** Backup status at `now`: requested → in_progress → completed (seeded ones may be aborted). */
export function backupStatus(
  b: BackupRecord,
  now: number,
): "requested" | "in_progress" | "completed" | "aborted" {
  if (b.aborted && now >= b.started_at) return "aborted";
  if (now >= b.completed_at) return "completed";
  if (now >= b.started_at) return "in_progress";
  return "requested";
}

/** Archive state at `now`, or null while its backup is still running (the archive does not exist yet). */
export function archiveState(
  a: ArchiveRecord,
  now: number,
): "requested" | "in_progress" | "completed" | "aborted" | null {
  if (now < a.created_at) return null;
  if (a.aborted) return "aborted";
  if (now >= a.completed_at) return "completed";
  if (now >= a.started_at) return "in_progress";
  return "requested";
}

export type TransferStatus = "pending" | "scheduled" | "in_progress" | "completed" | "failed" | "cancelled";

/** Site transfer status at `now`: pending|scheduled → in_progress → completed, or cancelled. */
export function transferStatus(t: SiteTransferRecord, now: number): TransferStatus {
  if (t.cancelled_at !== null && now >= t.cancelled_at) return "cancelled";
  if (now >= t.completed_at) return "completed";
  if (now >= t.started_at) return "in_progress";
  return t.scheduled_time ? "scheduled" : "pending";
}

/** When a transfer's status last changed, as of `now`. */
export function transferUpdatedAt(t: SiteTransferRecord, now: number): number {
  const status = transferStatus(t, now);
  if (status === "cancelled") return t.cancelled_at!;
  if (status === "completed") return t.completed_at;
  if (status === "in_progress") return t.started_at;
  return t.created_at;
}

/** Build state at `now`: QUEUED → BUILDING → SUCCEEDED | FAILED, or CANCELLED. */
export function buildState(
  b: BuildRecord,
  now: number,
): "QUEUED" | "BUILDING" | "SUCCEEDED" | "FAILED" | "CANCELLED" {
  if (b.cancelled_at !== null) return "CANCELLED";
  if (now >= b.finished_at) return b.outcome;
  if (now >= b.started_at) return "BUILDING";
  return "QUEUED";
}

/** When a build last changed state, as of `now`. */
export function buildUpdatedAt(b: BuildRecord, now: number): number {
  if (b.cancelled_at !== null) return b.cancelled_at;
  if (now >= b.finished_at) return b.finished_at;
  if (now >= b.started_at) return b.started_at;
  return b.created_at;
}

/** Domain mapping state at `now`, or null once a deleted mapping is gone. */
export function mappingState(m: DomainMappingRecord, now: number): "CREATING" | "ACTIVE" | "DELETING" | null {
  if (m.gone_at !== null && now >= m.gone_at) return null;
  if (m.deleting_at !== null) return "DELETING";
  return now >= m.active_at ? "ACTIVE" : "CREATING";
}

/**
 * The next generation date of a report schedule at `now` (scheduling rules 1 and 2): once a run date has
 * passed the report runs and the date moves on, by 7 or 14 days, or to the frequency's day of the next
 * month (the last day of that month when it has no such day).
 */
export function nextScheduledDate(s: ReportScheduleRecord, now: number): string {
  let at = new Date(s.next_scheduled_date);
  for (let guard = 0; at.getTime() <= now && guard < 10_000; guard++) at = stepSchedule(at, s.frequency);
  return at.toISOString();
}

/** One step of a schedule's frequency from `at`. */
export function stepSchedule(at: Date, frequency: ReportScheduleRecord["frequency"]): Date {
  if (frequency.unit === "DAYS") return new Date(at.getTime() + frequency.value * 86_400_000);
  return monthlyRunDate(at.getUTCFullYear(), at.getUTCMonth() + 1, frequency.value, at);
}

/** The run date in month `month0` (0-based, may overflow into next year) on `day`, clamped to the month's last day. */
export function monthlyRunDate(year: number, month0: number, day: number, timeOf: Date): Date {
  const y = year + Math.floor(month0 / 12);
  const m = ((month0 % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(day, lastDay),
      timeOf.getUTCHours(),
      timeOf.getUTCMinutes(),
      timeOf.getUTCSeconds(),
      timeOf.getUTCMilliseconds(),
    ),
  );
}
