/**
 * The records lookups return: each the sdk's own schema under the generic mapping of `camel.ts`. Only
 * where a public name or shape is not the sdk's does a view say so (a rename, a nested view or a
 * computed field); everything else follows the rules.
 */
import { z } from "zod";
import {
  AccountLimitsSchema,
  AccountSchema,
  AccountUsagePageSchema,
  AccountUserSchema,
  AppSchema,
  ArchiveSchema,
  BackupSchema,
  BuildSchema,
  CertificateSchema,
  DomainCertificateSchema,
  DomainMappingSchema,
  DomainSchema,
  DomainStatusEntrySchema,
  DomainStatusReportSchema,
  EnvironmentMetricsSchema,
  EnvironmentSchema,
  InstallSchema,
  InstallUsageSchema,
  LargeFsValidationFileSchema,
  ReportScheduleSchema,
  ReportTemplateSchema,
  ServiceStatusSchema,
  SiteSchema,
  SiteTransferSchema,
  SshKeySchema,
  UsageMetricBreakdownSchema,
  UsageRollupSchema,
  UserSchema,
} from "../../sdk";
import { mapOf, view } from "./camel";

const text = (description: string) => z.string().nullable().meta({ description });
const names = (description: string) => z.array(z.string()).meta({ description });
const sectionNames = {
  schema: names("Names of the sections, in order."),
  from: (r: { sections: { name: string }[] }) => r.sections.map((s) => s.name),
};

export const Install = view(InstallSchema);
export const Site = view(SiteSchema);
export const Domain = view(DomainSchema).derive({
  cname: {
    schema: text("The CNAME target to point the domain at."),
    from: (d) => d.networkDetails?.dnsConfigInfo?.cname ?? null,
  },
  aRecords: {
    schema: names("The A records to point the domain at."),
    from: (d) => d.networkDetails?.dnsConfigInfo?.aRecords ?? [],
  },
});
export const Backup = view(BackupSchema);
export const Archive = view(ArchiveSchema);
export const SiteTransfer = view(SiteTransferSchema);
export const ReportTemplate = view(ReportTemplateSchema).derive({ sections: sectionNames });
export const ReportSchedule = view(ReportScheduleSchema).derive({ sections: sectionNames });
export const AccountUser = view(AccountUserSchema);
export const App = view(AppSchema).derive({
  uploadable: {
    schema: z.boolean().meta({ description: "Whether the app takes zip uploads." }),
    from: (a) => a.uploadable !== null,
  },
});
export const Environment = view(EnvironmentSchema).derive({
  build: { schema: text("Resource name of the current build, or null."), from: (e) => e.build || null },
});
export const Build = view(BuildSchema);
export const DomainMapping = view(DomainMappingSchema);

export const Account = view(AccountSchema);
export const CurrentUser = view(UserSchema);
export const SshKey = view(SshKeySchema, { rename: { id: "uuid" } });

export const Certificate = view(CertificateSchema, { rename: { source: "cert_source" } }).derive({
  id: {
    schema: text("The certificate's id on the service."),
    from: (c) => (c.id === null ? null : String(c.id)),
  },
});
export const DomainCertificate = view(DomainCertificateSchema, {
  rename: { name: "cert_name" },
  nested: { certificate: Certificate },
}).derive({
  certificatePem: {
    schema: text("The PEM certificate, when the service includes it."),
    from: (d) => d.certInfo?.cert ?? null,
  },
});

const DomainStatusEntry = view(DomainStatusEntrySchema).derive({
  nameServers: {
    schema: names("Its name servers."),
    from: (d) => d.ns.map((n) => n.host ?? "").filter(Boolean),
  },
  sslStatus: { schema: text("SSL status, e.g. `verified`."), from: (d) => d.ssl?.status ?? null },
  sslIssuer: { schema: text("SSL certificate issuer."), from: (d) => d.ssl?.issuer ?? null },
  sslNotAfter: { schema: text("SSL certificate expiry."), from: (d) => d.ssl?.notAfter ?? null },
});
export const DomainStatusReport = view(DomainStatusReportSchema, {
  rename: { reportId: "id" },
  nested: { domains: DomainStatusEntry },
});
export const OffloadValidationFile = view(LargeFsValidationFileSchema);

export const AccountLimits = view(AccountLimitsSchema, {
  rename: { storageGb: "storage", bandwidthGb: "bandwidth" },
});
const UsageRollup = view(UsageRollupSchema).derive({
  latest: {
    schema: z.number().nullable().meta({ description: "The latest value (storage)." }),
    from: (r) => r.latest?.value ?? null,
  },
  latestDate: { schema: text("The day of the latest value."), from: (r) => r.latest?.date ?? null },
});
export const UsageRollups = mapOf(UsageRollup);
export const InstallUsage = view(InstallUsageSchema, {
  rename: { days: "metrics", rollups: "metrics_rollup" },
  nested: { metrics_rollup: UsageRollup },
});
const EnvironmentUsage = view(EnvironmentMetricsSchema, {
  rename: { installName: "environment_name", days: "metrics", rollups: "metrics_rollup" },
  nested: { metrics_rollup: UsageRollup },
});
export const AccountUsage = view(AccountUsagePageSchema, {
  rename: { installs: "environment_metrics" },
  nested: { environment_metrics: EnvironmentUsage },
});
export const UsageInsights = mapOf(view(UsageMetricBreakdownSchema));
export const ServiceStatus = view(ServiceStatusSchema);
