import {
  DOMAIN_STATUS_CHECK_WINDOW_MS,
  type DomainStatusReport,
  pollUntil,
  type WpEngineClient,
} from "../../sdk";
import { PACING_CLOCK, paced } from "../core/pacing";

/** How often the report is read while incomplete (milliseconds). */
export const REPORT_POLL = { intervalMs: 1_000, maxIntervalMs: 5_000 };

/**
 * A domain's completed status report (its `id` the check's when the report has none); the service takes one
 * check per 5 s per install, so this process paces them and waits out a 429 from a check made elsewhere.
 */
export async function checkDomainStatus(
  client: WpEngineClient,
  args: { installId: string; domainId: string; timeoutSeconds: number },
): Promise<DomainStatusReport> {
  const timeoutMs = args.timeoutSeconds * 1000;
  const started = PACING_CLOCK.now();
  const { value: check } = await paced(
    `domain-check/${args.installId}`,
    DOMAIN_STATUS_CHECK_WINDOW_MS,
    timeoutMs,
    `install ${args.installId} to accept a domain status check`,
    () => client.domainStatus.check(args.installId, args.domainId),
  );
  const report = await pollUntil({
    deadlineMs: Math.max(0, timeoutMs - (PACING_CLOCK.now() - started)),
    ...REPORT_POLL,
    describe: `the status report ${check.report_id} of domain ${args.domainId} to complete`,
    now: PACING_CLOCK.now,
    sleep: PACING_CLOCK.sleep,
    check: async () => {
      const r = await client.domainStatus.report(args.installId, check.report_id);
      return r.complete ? { done: true, value: r } : { done: false, state: "incomplete" };
    },
  });
  return { ...report, id: report.id ?? check.report_id };
}
