/**
 * The status report of a domain: `check_status` starts it, then the report is read until complete. The
 * service takes one check per 5 s per install: checks of one install are spaced by that window inside
 * this process, and a 429 from a check made elsewhere is waited out.
 */
import { DOMAIN_STATUS_CHECK_WINDOW_MS, type DomainStatusEntry, pollUntil } from "../../sdk";
import { PACING_CLOCK, paced } from "../core/pacing";
import { clientOf, type LookupOptions, outputOf } from "./common";

/** The status of one domain in a report. */
export interface DomainStatusInfo {
  /** The domain name. */
  name: string | null;
  /** Whether its checks are complete. */
  complete: boolean;
  /** The result of pinging the domain. */
  result: string | null;
  /** Its CNAME, A and AAAA records. */
  cname: string | null;
  aRecord: string | null;
  aaaaRecord: string | null;
  /** The addresses it resolves to. */
  ip: string[];
  /** Its name servers. */
  nameServers: string[];
  /** Its TXT records. */
  txt: string[];
  /** Its DNS provider. */
  dnsProvider: string | null;
  /** Whether DNS or HTTP information could not be read. */
  dnsError: boolean;
  httpError: boolean;
  /** SSL status (e.g. `verified`), issuer and expiry. */
  sslStatus: string | null;
  sslIssuer: string | null;
  sslNotAfter: string | null;
}

/** A domain status report. */
export interface DomainStatusReportInfo {
  /** The report's id. */
  reportId: string;
  /** Whether the report is complete (it always is unless the wait ran out). */
  complete: boolean;
  /** The install's name and IP address. */
  installName: string | null;
  installIp: string | null;
  /** The domains reported on. */
  domains: DomainStatusInfo[];
}

export function toDomainStatusInfo(d: DomainStatusEntry): DomainStatusInfo {
  return {
    name: d.name ?? null,
    complete: d.complete ?? false,
    result: d.result ?? null,
    cname: d.cname ?? null,
    aRecord: d.a_record ?? null,
    aaaaRecord: d.aaaa_record ?? null,
    ip: d.ip ?? [],
    nameServers: (d.ns ?? []).map((n) => n.host ?? "").filter(Boolean),
    txt: d.txt ?? [],
    dnsProvider: d.dns_provider ?? null,
    dnsError: d.dns_error ?? false,
    httpError: d.http_error ?? false,
    sslStatus: d.ssl?.status ?? null,
    sslIssuer: d.ssl?.issuer ?? null,
    sslNotAfter: d.ssl?.not_after ?? null,
  };
}

/** How often the report is read while incomplete (milliseconds). */
export const REPORT_POLL = { intervalMs: 1_000, maxIntervalMs: 5_000 };

/**
 * Checks a domain and returns its completed status report. Checks of one install are paced to one per
 * 5 s in this process; `timeoutSeconds` (default 120) bounds the whole wait.
 */
export async function getDomainStatus(
  args: { installId: string; domainId: string; timeoutSeconds?: number },
  options?: LookupOptions,
): Promise<DomainStatusReportInfo> {
  const client = await clientOf(options);
  const timeoutMs = (args.timeoutSeconds ?? 120) * 1000;
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
    intervalMs: REPORT_POLL.intervalMs,
    maxIntervalMs: REPORT_POLL.maxIntervalMs,
    describe: `the status report ${check.report_id} of domain ${args.domainId} to complete`,
    now: PACING_CLOCK.now,
    sleep: PACING_CLOCK.sleep,
    check: async () => {
      const r = await client.domainStatus.report(args.installId, check.report_id);
      return r.complete ? { done: true, value: r } : { done: false, state: "incomplete" };
    },
  });
  return {
    reportId: report.id ?? check.report_id,
    complete: report.complete ?? false,
    installName: report.install_name ?? null,
    installIp: report.install_ip ?? null,
    domains: (report.domains ?? []).map(toDomainStatusInfo),
  };
}
export const getDomainStatusOutput = outputOf(getDomainStatus);
