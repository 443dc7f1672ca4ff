/** Domain status checks: `check_status` starts a report, read by its id once complete. */
import { z } from "zod";
import { path } from "./core/path";
import type { Transport } from "./core/transport";

/** The service's window between two domain status checks of one install (documented). */
export const DOMAIN_STATUS_CHECK_WINDOW_MS = 5_000;

/** Answer of `check_status`: the id of the report it started. */
export const DomainReportSchema = z.looseObject({
  /** The report's UUID. */
  report_id: z.string(),
});
/** Answer of `check_status`. */
export type DomainReport = z.infer<typeof DomainReportSchema>;

/** The status of one domain in a report (the Swagger's `DomainStatus`; every field optional). */
export const DomainStatusEntrySchema = z.looseObject({
  /** The domain name. */
  name: z.string().nullish(),
  /** Whether this domain's checks are done. */
  complete: z.boolean().nullish(),
  /** The domain's CNAME. */
  cname: z.string().nullish(),
  /** The domain's A record. */
  a_record: z.string().nullish(),
  /** The domain's AAAA record. */
  aaaa_record: z.string().nullish(),
  /** The result of pinging the domain. */
  result: z.string().nullish(),
  /** The domain's DNS provider. */
  dns_provider: z.string().nullish(),
  /** Whether DNS information could not be read. */
  dns_error: z.boolean().nullish(),
  /** Whether HTTP information could not be read. */
  http_error: z.boolean().nullish(),
  /** The addresses the domain resolves to. */
  ip: z.array(z.string()).nullish(),
  /** TXT records of the domain. */
  txt: z.array(z.string()).nullish(),
  /** Name servers `{host}`. */
  ns: z.array(z.looseObject({ host: z.string().nullish() })).nullish(),
  /** SSL information; `status` such as `verified`. */
  ssl: z
    .looseObject({
      status: z.string().nullish(),
      issuer: z.string().nullish(),
      not_after: z.string().nullish(),
      common_name: z.string().nullish(),
    })
    .nullish(),
});
/** The status of one domain in a report. */
export type DomainStatusEntry = z.infer<typeof DomainStatusEntrySchema>;

/** A domain status report (the Swagger's `DomainStatusReport`). */
export const DomainStatusReportSchema = z.looseObject({
  /** Whether the report is complete. */
  complete: z.boolean().nullish(),
  /** The report's UUID. */
  id: z.string().nullish(),
  /** The install's name. */
  install_name: z.string().nullish(),
  /** The install's IP address. */
  install_ip: z.string().nullish(),
  /** The domains reported on. */
  domains: z.array(DomainStatusEntrySchema).nullish(),
});
/** A domain status report. */
export type DomainStatusReport = z.infer<typeof DomainStatusReportSchema>;

/** Operations of domain status checks. */
export class DomainStatus {
  constructor(private readonly transport: Transport) {}

  /**
   * Starts a status report of a domain (202 `{report_id}`). A 429 is handed back at once, not retried:
   * the service takes one check per 5 s per install ({@link DOMAIN_STATUS_CHECK_WINDOW_MS}), which the
   * caller paces.
   */
  async check(installId: string, domainId: string): Promise<DomainReport> {
    return this.transport.request(
      {
        method: "POST",
        path: path`/installs/${installId}/domains/${domainId}/check_status`,
        retry: "unsafe",
        retryRateLimited: false,
      },
      DomainReportSchema,
    );
  }

  /** Reads a report (`{report}`; a bare report is accepted too). */
  async report(installId: string, reportId: string): Promise<DomainStatusReport> {
    const answer = await this.transport.request(
      { method: "GET", path: path`/installs/${installId}/domains/check_status/${reportId}` },
      z.looseObject({ report: DomainStatusReportSchema.optional() }),
    );
    return answer.report ?? (answer as DomainStatusReport);
  }
}
