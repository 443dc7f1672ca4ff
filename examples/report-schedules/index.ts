import * as pulumi from "@pulumi/pulumi";
import * as wpengine from "pulumi-wpengine";

const config = new pulumi.Config();
const accountId = config.require("accountId");
const siteId = config.require("siteId");
// The first generation of both reports (ISO 8601 with a zone, in the future), e.g. 2030-01-07T09:00:00Z.
const firstReportDate = config.require("firstReportDate");
const recipients = [
  { name: config.get("recipientName") ?? "Site team", email: config.require("recipientEmail") },
];

// The account's report templates, and the sections each one allows.
const templates = wpengine.getReportTemplatesOutput({ accountId });
const template = (name: string) =>
  templates.apply((all) => {
    const found = all.find((t) => t.name === name);
    if (!found) throw new Error(`no report template named ${name}: ${all.map((t) => t.name).join(", ")}`);
    return found;
  });
const performance = template("Performance Report");
const siteReport = template("Site Report");

const weekly = new wpengine.ReportSchedule("weekly-performance", {
  siteId,
  title: "Weekly performance",
  nextScheduledDate: firstReportDate,
  templateUuid: performance.uuid,
  frequency: { value: 7, unit: "DAYS" },
  recipients,
  sections: performance.sections.apply((names) => names.map((name) => ({ name }))),
});

const monthly = new wpengine.ReportSchedule("monthly-site", {
  siteId,
  title: "Monthly site report",
  nextScheduledDate: firstReportDate,
  templateUuid: siteReport.uuid,
  // On the 1st of every month.
  frequency: { value: 1, unit: "MONTHLY" },
  recipients,
  // Every section of the template except the plugin list.
  sections: siteReport.sections.apply((names) =>
    names.filter((n) => n !== "plugins").map((name) => ({ name })),
  ),
});

export const templateSections = templates.apply((all) =>
  Object.fromEntries(all.map((t) => [t.name, t.sections])),
);
export const weeklyScheduleId = weekly.scheduleId;
export const weeklyNextRun = weekly.nextRunDate;
export const monthlyScheduleId = monthly.scheduleId;
export const monthlySections = monthly.sections.apply((s) => s.map((x) => x.name));
