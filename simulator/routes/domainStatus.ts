import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { requireInstall } from "../auth";
import { DURATIONS, LIMITS } from "../clock";
import { ApiError, notFound } from "../errors";
import { callerOf, type Req } from "../http";
import type { Sim } from "../sim";
import type { DomainReportRecord } from "../store";
import { DNS_CONFIG, requireDomain } from "./domains";
import { cnameOf } from "./installs";

/** The Swagger's `DomainStatusReport` of a report at time `now` (its domain's entry once complete). */
function reportView(sim: Sim, r: DomainReportRecord, now: number): Record<string, unknown> {
  const world = sim.world;
  const install = world.installs[r.install_id]!;
  const domain = world.domains[r.domain_id];
  const complete = now >= r.complete_at;
  const ip = install.stable_ips?.[0] ?? DNS_CONFIG.a_records[0]!;
  const entry: Record<string, unknown> = { name: domain?.name ?? "", complete };
  if (complete && domain) {
    const order = world.certificate_orders[domain.id];
    const verified = domain.txt_verified_time !== null;
    Object.assign(entry, {
      cname: domain.network_type === "LEGACY" ? cnameOf(install) : DNS_CONFIG.cname,
      a_record: DNS_CONFIG.a_records[0],
      result: verified ? "ok" : "pending_verification",
      dns_provider: "simulator",
      dns_error: false,
      http_error: false,
      install_name: install.name,
      cluster_id: "sim-1",
      ip: DNS_CONFIG.a_records,
      address: DNS_CONFIG.a_records,
      txt: world.dns_txt[`_wpe_verification.${domain.name.replace(/^\*\./, "")}`] ?? [],
      ns: [{ host: "ns1.simulator.invalid" }, { host: "ns2.simulator.invalid" }],
      ssl: { status: order && now >= order.approved_at ? "verified" : verified ? "active" : "pending" },
    });
  }
  return {
    complete,
    id: r.id,
    install_name: install.name,
    install_ip: ip,
    admin: false,
    domains: [entry],
  };
}

/**
 * Domain status: `check_status` starts a report (202 `{report_id}`; one check per 5 s per install on the
 * simulator's clock, a 429 otherwise), and the report reads incomplete for a moment, then complete.
 */
export function registerDomainStatus(app: FastifyInstance, sim: Sim): void {
  app.post("/v1/installs/:install_id/domains/:domain_id/check_status", async (req: Req, reply) => {
    const world = sim.world;
    const install = requireInstall(world, callerOf(req), req.params["install_id"]!);
    const domain = requireDomain(world, install, req.params["domain_id"]!);
    const now = sim.now();
    const last = world.domain_checks[install.id];
    if (last !== undefined && now - last < LIMITS.domainStatusCheck * 1000) {
      throw new ApiError(
        429,
        "Domain status checks are rate-limited to one request every 5 seconds for each install",
      );
    }
    const report: DomainReportRecord = {
      id: randomUUID(),
      install_id: install.id,
      domain_id: domain.id,
      created_at: now,
      complete_at: sim.clock.after(DURATIONS.domainReport, now),
    };
    world.domain_reports[report.id] = report;
    world.domain_checks[install.id] = now;
    sim.store.touch();
    return reply.code(202).send({ report_id: report.id });
  });

  app.get("/v1/installs/:install_id/domains/check_status/:report_id", async (req: Req) => {
    const install = requireInstall(sim.world, callerOf(req), req.params["install_id"]!);
    const report = sim.world.domain_reports[req.params["report_id"]!];
    if (!report || report.install_id !== install.id) throw notFound("Report");
    return { report: reportView(sim, report, sim.now()) };
  });
}
