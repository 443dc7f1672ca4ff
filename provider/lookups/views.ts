/** The records lookups return: the sdk's schemas under `camel.ts`'s mapping, with the few renames and computed fields. */
import * as S from "../../sdk";
import { out } from "../core/inputs";
import { mapOf, view } from "./camel";

const { stringOrNull: text, strings: names } = out;
const sectionNames = {
  schema: names("Names of the sections, in order."),
  from: (r: { sections: { name: string }[] }) => r.sections.map((s) => s.name),
};

export const Install = view(S.InstallSchema);
export const Site = view(S.SiteSchema);
export const Domain = view(S.DomainSchema).derive({
  cname: {
    schema: text("The CNAME target to point the domain at."),
    from: (d) => d.networkDetails?.dnsConfigInfo?.cname ?? null,
  },
  aRecords: {
    schema: names("The A records to point the domain at."),
    from: (d) => d.networkDetails?.dnsConfigInfo?.aRecords ?? [],
  },
});
export const Backup = view(S.BackupSchema);
export const Archive = view(S.ArchiveSchema);
export const SiteTransfer = view(S.SiteTransferSchema);
export const ReportTemplate = view(S.ReportTemplateSchema).derive({ sections: sectionNames });
export const ReportSchedule = view(S.ReportScheduleSchema).derive({ sections: sectionNames });
export const AccountUser = view(S.AccountUserSchema);
export const App = view(S.AppSchema).derive({
  uploadable: {
    schema: out.boolean("Whether the app takes zip uploads."),
    from: (a) => a.uploadable !== null,
  },
});
export const Environment = view(S.EnvironmentSchema).derive({
  build: { schema: text("Resource name of the current build, or null."), from: (e) => e.build || null },
});
export const Build = view(S.BuildSchema);
export const DomainMapping = view(S.DomainMappingSchema);

export const Account = view(S.AccountSchema);
export const CurrentUser = view(S.UserSchema);
export const SshKey = view(S.SshKeySchema, { rename: { id: "uuid" } });

export const Certificate = view(S.CertificateSchema, { rename: { source: "cert_source" } }).derive({
  id: {
    schema: text("The certificate's id on the service."),
    from: (c) => (c.id === null ? null : String(c.id)),
  },
});
export const DomainCertificate = view(S.DomainCertificateSchema, {
  rename: { name: "cert_name" },
  nested: { certificate: Certificate },
}).derive({
  certificatePem: {
    schema: text("The PEM certificate, when the service includes it."),
    from: (d) => d.certInfo?.cert ?? null,
  },
});

const DomainStatusEntry = view(S.DomainStatusEntrySchema).derive({
  nameServers: {
    schema: names("Its name servers."),
    from: (d) => d.ns.map((n) => n.host ?? "").filter(Boolean),
  },
  sslStatus: { schema: text("SSL status, e.g. `verified`."), from: (d) => d.ssl?.status ?? null },
  sslIssuer: { schema: text("SSL certificate issuer."), from: (d) => d.ssl?.issuer ?? null },
  sslNotAfter: { schema: text("SSL certificate expiry."), from: (d) => d.ssl?.notAfter ?? null },
});
export const DomainStatusReport = view(S.DomainStatusReportSchema, {
  rename: { reportId: "id" },
  nested: { domains: DomainStatusEntry },
});
export const OffloadValidationFile = view(S.LargeFsValidationFileSchema);

export const AccountLimits = view(S.AccountLimitsSchema, {
  rename: { storageGb: "storage", bandwidthGb: "bandwidth" },
});
const UsageRollup = view(S.UsageRollupSchema).derive({
  latest: { schema: out.numberOrNull("The latest value (storage)."), from: (r) => r.latest?.value ?? null },
  latestDate: { schema: text("The day of the latest value."), from: (r) => r.latest?.date ?? null },
});
export const UsageRollups = mapOf(UsageRollup);
export const InstallUsage = view(S.InstallUsageSchema, {
  rename: { days: "metrics", rollups: "metrics_rollup" },
  nested: { metrics_rollup: UsageRollup },
});
const EnvironmentUsage = view(S.EnvironmentMetricsSchema, {
  rename: { installName: "environment_name", days: "metrics", rollups: "metrics_rollup" },
  nested: { metrics_rollup: UsageRollup },
});
export const AccountUsage = view(S.AccountUsagePageSchema, {
  rename: { installs: "environment_metrics" },
  nested: { environment_metrics: EnvironmentUsage },
});
export const UsageInsights = mapOf(view(S.UsageMetricBreakdownSchema));
export const ServiceStatus = view(S.ServiceStatusSchema);
