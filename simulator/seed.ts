import { type AccountUserRecord, type CacheExclusion, emptyWorld, type World } from "./store";

/**
 * The fixed, documented ids of the seeded world (see docs/simulator.md). Ids are the same on every
 * start and reset, so tests and the demo can name them.
 */
export const SEED = {
  accounts: {
    /** Has a preferred data center; eligible for cache exclusions. */
    acme: { id: "ac000000-0000-4000-8000-000000000001", name: "Acme Corp", nickname: "acme" },
    /** No preferred data center (cannot receive site transfers); not eligible for cache exclusions. */
    globex: { id: "ac000000-0000-4000-8000-000000000002", name: "Globex Inc", nickname: "globex" },
    /** Has a preferred data center: the destination of the demo site transfer. */
    initech: { id: "ac000000-0000-4000-8000-000000000003", name: "Initech", nickname: "initech" },
  },
  sites: {
    acmeMarketing: { id: "5e000000-0000-4000-8000-000000000001", name: "Acme Marketing" },
    /** A sandbox site: cannot be transferred. */
    acmeSandbox: { id: "5e000000-0000-4000-8000-000000000002", name: "Acme Sandbox" },
    /** The transferable site; its install is transferable too. */
    acmeBlog: { id: "5e000000-0000-4000-8000-000000000003", name: "Acme Blog" },
    globexCorporate: { id: "5e000000-0000-4000-8000-000000000004", name: "Globex Corporate" },
    initechPortal: { id: "5e000000-0000-4000-8000-000000000005", name: "Initech Portal" },
  },
  installs: {
    acmeprod: { id: "1e000000-0000-4000-8000-000000000001", name: "acmeprod" },
    acmestg: { id: "1e000000-0000-4000-8000-000000000002", name: "acmestg" },
    acmedev: { id: "1e000000-0000-4000-8000-000000000003", name: "acmedev" },
    acmesandbox: { id: "1e000000-0000-4000-8000-000000000004", name: "acmesandbox" },
    /** Transferable (its site is): cache exclusion changes answer 409. */
    acmeblog: { id: "1e000000-0000-4000-8000-000000000005", name: "acmeblog" },
    globexprod: { id: "1e000000-0000-4000-8000-000000000006", name: "globexprod" },
    globexstg: { id: "1e000000-0000-4000-8000-000000000007", name: "globexstg" },
    initechprod: { id: "1e000000-0000-4000-8000-000000000008", name: "initechprod" },
  },
  domains: {
    acmeExample: { id: "d0000000-0000-4000-8000-000000000001", name: "acme.example" },
    wwwAcmeExample: { id: "d0000000-0000-4000-8000-000000000002", name: "www.acme.example" },
    stagingAcmeExample: { id: "d0000000-0000-4000-8000-000000000003", name: "staging.acme.example" },
    globexExample: { id: "d0000000-0000-4000-8000-000000000004", name: "globex.example" },
    initechExample: { id: "d0000000-0000-4000-8000-000000000005", name: "initech.example" },
    /** On the legacy network: the one seeded domain a Let's Encrypt order can be placed for. */
    blogAcmeExample: { id: "d0000000-0000-4000-8000-000000000006", name: "blog.acme.example" },
    /** Also on the legacy network, never ordered by the seed or the examples (the tests' second order). */
    newsAcmeExample: { id: "d0000000-0000-4000-8000-000000000007", name: "news.acme.example" },
  },
  backups: {
    acmeprodCompleted: { id: "b0000000-0000-4000-8000-000000000001" },
    acmeprodAborted: { id: "b0000000-0000-4000-8000-000000000002" },
  },
  archives: {
    acmeprodCompleted: { id: "a4000000-0000-4000-8000-000000000001" },
  },
  siteTransfers: {
    /** A cancelled transfer of Acme Blog to Initech, listed under Acme Corp. */
    acmeBlogCancelled: { id: "57000000-0000-4000-8000-000000000001" },
  },
  /**
   * API users. `demo` is an owner of every account (its credentials can be changed with flags);
   * the others exercise the permission rules.
   */
  users: {
    demo: { userId: "0e000000-0000-4000-8000-000000000001", username: "demo", password: "demo" },
    /** Owner of Acme Corp only: lacks a role on the destination account of a transfer to Initech. */
    owner: { userId: "0e000000-0000-4000-8000-000000000002", username: "owner", password: "owner-secret" },
    /** Full with Billing on Acme Corp and Initech: may transfer sites between them. */
    fullBilling: {
      userId: "0e000000-0000-4000-8000-000000000003",
      username: "full-billing",
      password: "full-billing-secret",
    },
    /** Full (no billing) on Acme Corp and Initech: may not transfer sites. */
    full: { userId: "0e000000-0000-4000-8000-000000000004", username: "full", password: "full-secret" },
    /** Partial on Acme Corp, limited to acmeprod. */
    partial: {
      userId: "0e000000-0000-4000-8000-000000000005",
      username: "partial",
      password: "partial-secret",
    },
    /** Partial with Billing on Acme Corp, limited to acmestg. */
    partialBilling: {
      userId: "0e000000-0000-4000-8000-000000000006",
      username: "partial-billing",
      password: "partial-billing-secret",
    },
  },
  templates: {
    siteReport: {
      uuid: "7e000000-0000-4000-8000-000000000001",
      name: "Site Report",
      sections: ["cover", "overview", "usage", "themes", "plugins"],
    },
    performanceReport: {
      uuid: "7e000000-0000-4000-8000-000000000002",
      name: "Performance Report",
      sections: ["cover", "overview", "performance", "usage"],
    },
  },
  reportSchedules: {
    acmeMonthly: { uuid: "5c000000-0000-4000-8000-000000000001", title: "Acme monthly report" },
  },
  apps: {
    acmeFrontend: {
      accountId: "ac000000-0000-4000-8000-000000000001",
      appId: "acme-frontend",
      environments: { production: "production", staging: "staging" },
      buildId: "bd000000-0000-4000-8000-000000000001",
      domain: "www.acme-frontend.example",
    },
  },
} as const;

/** Platform-managed cookie exclusions every install reports (cache exclusion rule 3). */
export const PLATFORM_COOKIE_EXCLUSIONS: readonly CacheExclusion[] = [
  { type: "cookie", value: "^wordpress_logged_in_" },
  { type: "cookie", value: "^wp-postpass_" },
];

const T0 = "2024-03-01T10:00:00.000Z";
const ms = (s: string) => Date.parse(s);

/** Builds a fresh copy of the seeded world. */
export function seedWorld(): World {
  const { accounts: A, sites: S, installs: I, domains: D, users: U } = SEED;
  const world = emptyWorld();

  const account = (
    a: { id: string; name: string; nickname: string },
    dc: string | null,
    eligible: boolean,
  ) => {
    world.accounts[a.id] = { ...a, preferred_data_center: dc, cache_exclusions_eligible: eligible };
  };
  account(A.acme, "us-central1", true);
  account(A.globex, null, false);
  account(A.initech, "europe-west2", true);

  const site = (
    s: { id: string; name: string },
    accountId: string,
    extra: { sandbox?: boolean; transferable?: boolean; group?: string; tags?: string[] } = {},
  ) => {
    world.sites[s.id] = {
      id: s.id,
      name: s.name,
      account_id: accountId,
      group_name: extra.group ?? null,
      tags: extra.tags ?? [],
      created_at: T0,
      sandbox: extra.sandbox ?? false,
      transferable: extra.transferable ?? false,
    };
  };
  site(S.acmeMarketing, A.acme.id, { group: "Marketing", tags: ["marketing", "primary"] });
  site(S.acmeSandbox, A.acme.id, { sandbox: true, tags: ["sandbox"] });
  site(S.acmeBlog, A.acme.id, { transferable: true, tags: ["blog"] });
  site(S.globexCorporate, A.globex.id, { group: "Corporate" });
  site(S.initechPortal, A.initech.id);

  const install = (
    i: { id: string; name: string },
    accountId: string,
    siteId: string,
    environment: "production" | "staging" | "development",
    extra: { stableIps?: string[]; multisite?: boolean } = {},
  ) => {
    world.installs[i.id] = {
      id: i.id,
      name: i.name,
      account_id: accountId,
      site_id: siteId,
      environment,
      php_version: "8.2",
      cms_version: "6.8.1",
      defer_cms_upgrades_until: null,
      is_multisite: extra.multisite ?? false,
      stable_ips: extra.stableIps ?? null,
      created_at: T0,
      busy_until: 0,
    };
  };
  install(I.acmeprod, A.acme.id, S.acmeMarketing.id, "production", {
    stableIps: ["141.193.213.20", "141.193.213.21"],
  });
  install(I.acmestg, A.acme.id, S.acmeMarketing.id, "staging");
  install(I.acmedev, A.acme.id, S.acmeMarketing.id, "development");
  install(I.acmesandbox, A.acme.id, S.acmeSandbox.id, "development");
  install(I.acmeblog, A.acme.id, S.acmeBlog.id, "production");
  install(I.globexprod, A.globex.id, S.globexCorporate.id, "production", { multisite: true });
  install(I.globexstg, A.globex.id, S.globexCorporate.id, "staging");
  install(I.initechprod, A.initech.id, S.initechPortal.id, "production");

  const domain = (
    d: { id: string; name: string },
    installId: string,
    extra: { primary?: boolean; redirectTo?: string; pendingValue?: string; legacy?: boolean } = {},
  ) => {
    world.domains[d.id] = {
      id: d.id,
      install_id: installId,
      name: d.name,
      primary: extra.primary ?? false,
      redirect_to_id: extra.redirectTo ?? null,
      secure_all_urls: false,
      network_type: extra.legacy ? "LEGACY" : "AN",
      txt_verified_time: extra.pendingValue ? null : T0,
      txt_verification_key: extra.pendingValue ? `_wpe_verification.${d.name}` : null,
      txt_verification_value: extra.pendingValue ?? null,
      created_at: T0,
    };
  };
  domain(D.acmeExample, I.acmeprod.id, { primary: true });
  domain(D.wwwAcmeExample, I.acmeprod.id, { redirectTo: D.acmeExample.id });
  domain(D.stagingAcmeExample, I.acmestg.id, { pendingValue: "wpe-verify-0000000000000000seeded0000000001" });
  domain(D.globexExample, I.globexprod.id, { primary: true });
  domain(D.initechExample, I.initechprod.id, { primary: true });
  domain(D.blogAcmeExample, I.acmeblog.id, { legacy: true });
  domain(D.newsAcmeExample, I.acmeblog.id, { legacy: true });

  const B = SEED.backups;
  world.backups[B.acmeprodCompleted.id] = {
    id: B.acmeprodCompleted.id,
    install_id: I.acmeprod.id,
    description: "Before the spring redesign",
    notification_emails: ["ops@acme.example"],
    cms_version: "6.7.2",
    requested_at: ms("2025-01-10T08:00:00.000Z"),
    started_at: ms("2025-01-10T08:00:05.000Z"),
    completed_at: ms("2025-01-10T08:12:00.000Z"),
    aborted: false,
  };
  world.backups[B.acmeprodAborted.id] = {
    id: B.acmeprodAborted.id,
    install_id: I.acmeprod.id,
    description: "Interrupted nightly snapshot",
    notification_emails: ["ops@acme.example"],
    cms_version: "6.7.2",
    requested_at: ms("2025-01-11T02:00:00.000Z"),
    started_at: ms("2025-01-11T02:00:05.000Z"),
    completed_at: ms("2025-01-11T02:20:00.000Z"),
    aborted: true,
  };
  world.archives[SEED.archives.acmeprodCompleted.id] = {
    id: SEED.archives.acmeprodCompleted.id,
    install_id: I.acmeprod.id,
    backup_id: B.acmeprodCompleted.id,
    notification_emails: ["ops@acme.example"],
    created_at: ms("2025-01-10T08:12:00.000Z"),
    started_at: ms("2025-01-10T08:12:30.000Z"),
    completed_at: ms("2025-01-10T08:20:00.000Z"),
    aborted: false,
  };

  world.cache_exclusions[I.acmeprod.id] = [
    { type: "url path", value: "^/wp-json/" },
    { type: "query arg", value: "^utm_" },
  ];
  world.cache_exclusions[I.acmeblog.id] = [{ type: "url path", value: "^/feed/" }];

  world.site_transfers[SEED.siteTransfers.acmeBlogCancelled.id] = {
    id: SEED.siteTransfers.acmeBlogCancelled.id,
    site_id: S.acmeBlog.id,
    site_name: S.acmeBlog.name,
    install_ids: [I.acmeblog.id],
    install_names: [I.acmeblog.name],
    origin_account_id: A.acme.id,
    origin_account_name: A.acme.name,
    destination_account_id: A.initech.id,
    destination_account_name: A.initech.name,
    scheduled_time: "2025-02-03T12:00:00.000Z",
    maintenance_mode: false,
    created_at: ms("2025-02-01T12:00:00.000Z"),
    started_at: ms("2025-02-03T12:00:00.000Z"),
    completed_at: ms("2025-02-03T12:00:02.000Z"),
    cancelled_at: ms("2025-02-02T09:30:00.000Z"),
    applied: false,
  };

  const people: Record<string, [string, string, string]> = {
    [U.demo.userId]: ["Dee", "Mo", "demo@example.com"],
    [U.owner.userId]: ["Olive", "Owner", "owner@acme.example"],
    [U.fullBilling.userId]: ["Bill", "Fuller", "billing@acme.example"],
    [U.full.userId]: ["Fay", "Full", "full@acme.example"],
    [U.partial.userId]: ["Pat", "Partial", "partial@acme.example"],
    [U.partialBilling.userId]: ["Paige", "Partial-Billing", "partial-billing@acme.example"],
  };
  const member = (userId: string, accountId: string, roles: string, installIds: string[] = []) => {
    const [first, last, email] = people[userId]!;
    const record: AccountUserRecord = {
      user_id: userId,
      account_id: accountId,
      first_name: first,
      last_name: last,
      email,
      phone: null,
      invite_accepted: true,
      mfa_enabled: userId === U.demo.userId,
      roles,
      install_ids: installIds,
    };
    world.account_users.push(record);
  };
  for (const a of [A.acme, A.globex, A.initech]) member(U.demo.userId, a.id, "owner");
  member(U.owner.userId, A.acme.id, "owner");
  member(U.fullBilling.userId, A.acme.id, "billing,full");
  member(U.fullBilling.userId, A.initech.id, "billing,full");
  member(U.full.userId, A.acme.id, "full");
  member(U.full.userId, A.initech.id, "full");
  member(U.partial.userId, A.acme.id, "partial", [I.acmeprod.id]);
  member(U.partialBilling.userId, A.acme.id, "billing,partial", [I.acmestg.id]);

  const R = SEED.reportSchedules.acmeMonthly;
  world.report_schedules[R.uuid] = {
    uuid: R.uuid,
    site_id: S.acmeMarketing.id,
    title: R.title,
    next_scheduled_date: "2025-01-31T09:00:00.000Z",
    template_uuid: SEED.templates.siteReport.uuid,
    frequency: { value: 31, unit: "MONTHLY" },
    recipients: [{ name: "Olive Owner", email: "owner@acme.example" }],
    sections: [{ name: "cover" }, { name: "overview" }, { name: "usage" }],
    created_at: T0,
  };

  const app = SEED.apps.acmeFrontend;
  const appKey = `${app.accountId}/${app.appId}`;
  world.apps[appKey] = {
    account_id: app.accountId,
    app_id: app.appId,
    region: "regions/US-C",
    create_time: T0,
    update_time: T0,
  };
  const buildName = `accounts/${app.accountId}/apps/${app.appId}/environments/production/builds/${app.buildId}`;
  for (const [envId, display] of [
    ["production", "Production"],
    ["staging", "Staging"],
  ] as const) {
    world.environments[`${appKey}/${envId}`] = {
      account_id: app.accountId,
      app_id: app.appId,
      environment_id: envId,
      display_name: display,
      branch: "uploadable",
      root_directory: "",
      build: envId === "production" ? buildName : "",
      create_time: T0,
      update_time: T0,
      reconcile_until: 0,
      cache_cleared_at: null,
    };
  }
  world.builds[`${appKey}/production/${app.buildId}`] = {
    account_id: app.accountId,
    app_id: app.appId,
    environment_id: "production",
    build_id: app.buildId,
    created_at: ms(T0),
    started_at: ms(T0) + 5_000,
    finished_at: ms(T0) + 90_000,
    outcome: "SUCCEEDED",
    cancelled_at: null,
    size_bytes: 1024,
  };
  world.domain_mappings[`${appKey}/production/${app.domain}`] = {
    account_id: app.accountId,
    app_id: app.appId,
    environment_id: "production",
    domain: app.domain,
    primary: true,
    destination: null,
    created_at: ms(T0),
    active_at: ms(T0) + 60_000,
    deleting_at: null,
    gone_at: null,
    txt_name: `_wpe_verification.${app.domain}`,
    txt_value: "wpe-verify-0000000000000000seeded0000000002",
    verified: true,
  };
  return world;
}
