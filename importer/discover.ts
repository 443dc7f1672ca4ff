/**
 * Which objects exist: the sdk's list calls at the largest page size each API allows (hosting lists 100,
 * application-hosting lists 1,000), one read per install for the two settings that have no listing
 * (cache exclusions, offload settings), and nothing else. Each object found carries the fields of its
 * kind's import id (what the kind's `read` needs), its own name and what holds it; the listed records
 * are seeded into the read-only client, so the kinds' `read` methods cost no further call.
 *
 * This file knows the service's collections (where each kind's objects are listed), never a kind's
 * fields: the inputs come from the kinds' own `read` (see `read.ts`).
 */
import { isNotAuthorized, isNotFound, type WpEngineClient } from "../sdk";
import { isSea } from "../sdk/core/process";
import type { ReadOnlyClient } from "./client";

/** Hosting Platform lists: `limit` 1 to 100. */
export const HOSTING_PAGE = 100;
/** Application-hosting lists: `pageSize`; the service documents no maximum, the simulator takes 1,000. */
export const APP_PAGE = 1000;

/** One object to bring in. */
export interface Found {
  kind: string;
  /** The parts of the kind's import id (`{installId}`, `{id}`, ...). */
  fields: Record<string, string>;
  /** The object's own name (a domain name, an install name, an email). */
  label: string;
  /** What holds it (an install, an account), to tell apart two objects of the same name. */
  qualifier: string;
}

/** An id of something that is not a resource of the program (an account, a report template). */
export interface Named {
  what: string;
  label: string;
}

/** Something that exists but is not brought in, and why. */
export interface LeftOut {
  kind: string;
  label: string;
  reason: string;
  /** The object's import id, when it has one: two objects of one name are two (two accounts' users of one email). */
  id?: string;
}

export interface World {
  found: Found[];
  /** The names of every id seen (accounts, templates, sites, installs), for ids outside the program. */
  names: Map<string, Named>;
  leftOut: LeftOut[];
}

export interface Selection {
  accounts?: readonly string[];
  sites?: readonly string[];
  installs?: readonly string[];
}

/** How many of the ids the credentials see an unknown id's error names: the line stays readable. */
const NAMED = 10;

/** Where the rest of what the credentials see is listed, by what was not found. */
const LISTS: Record<string, string> = {
  account: "wpengine:getAccounts",
  site: "wpengine:Site list",
  install: "wpengine:Install list",
};

/** An `--account`, `--site` or `--install` id the credentials cannot see (none of them, with profiles). */
export class UnknownIdError extends Error {
  constructor(what: string, id: string, seen: readonly string[], named?: string) {
    if (named) {
      super(
        `unknown ${what} ${id}: --${what} takes an id, not a name (${what} ${id} is ${named}: give --${what} ${named})`,
      );
      this.name = "UnknownIdError";
      return;
    }
    const more = seen.length - NAMED;
    // The plugin as `pulumi do` takes it: this executable, or the project's npm bin (README, "Look at one object").
    const plugin = isSea() ? process.execPath : "$PWD/node_modules/.bin/pulumi-resource-wpengine";
    const list = `${seen.slice(0, NAMED).join(", ")}${more > 0 ? ` and ${more} more (\`pulumi do --package "${plugin}" ${LISTS[what]}\` lists them)` : ""}`;
    super(
      `unknown ${what} ${id}: the credentials see ${seen.length ? `these ${what}s: ${list}` : `no ${what}`}`,
    );
    this.name = "UnknownIdError";
  }
}

/** An object the credentials see: its id and how an error names it (a site's or install's, its account's id). */
export interface Shown {
  id: string;
  label: string;
  account?: string;
}

/** What one API user sees of what a {@link Selection} names (sites and installs only when it names some). */
export interface Seen {
  accounts: Shown[];
  sites: Shown[];
  installs: Shown[];
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * What `ro`'s API user sees of `selection`: the accounts, and with `--site` or `--install` the sites and
 * installs of the accounts chosen, or of every account when one given is not among them (so that an id in
 * an account `--account` leaves out is told from an unknown one). Listed through `ro`, so {@link discover}
 * sends none of these again.
 */
export async function visible(ro: ReadOnlyClient, selection: Selection): Promise<Seen> {
  const client = ro.client;
  const listed = await all(client.accounts.iterate({ limit: HOSTING_PAGE }));
  const chosen = selection.accounts?.length
    ? listed.filter((a) => selection.accounts!.some((id) => same(id, a.id)))
    : listed;
  const given = [...(selection.sites ?? []), ...(selection.installs ?? [])];
  const seen: Seen = {
    accounts: listed.map((a) => ({ id: a.id, label: a.name ?? a.id })),
    sites: [],
    installs: [],
  };
  const list = async (accounts: typeof listed) => {
    const held = await Promise.all(
      accounts.map((a) =>
        Promise.all([
          all(client.sites.iterate({ accountId: a.id, limit: HOSTING_PAGE })),
          all(client.installs.iterate({ accountId: a.id, limit: HOSTING_PAGE })),
        ]).then(([sites, installs]) => ({ a, sites, installs })),
      ),
    );
    for (const { a, sites, installs } of held) {
      seen.sites.push(...sites.map((s) => ({ id: s.id, label: s.name, account: a.id })));
      seen.installs.push(...installs.map((i) => ({ id: i.id, label: i.name, account: a.id })));
    }
  };
  if (given.length) await list(chosen);
  if (given.some((id) => ![...seen.sites, ...seen.installs].some((v) => same(v.id, id))))
    await list(listed.filter((a) => !chosen.includes(a)));
  return seen;
}

/**
 * Each API user's share of `selection`, by what each sees (`seen`, in the same order): the ids it sees, or
 * undefined when it has nothing to add (none of the accounts given, nor of the sites and installs). An id
 * is unknown only when no one sees it: refused naming what they see together. The selection is the
 * intersection: a site or install of an account `--account` leaves out is refused, naming that account.
 */
export function shares(selection: Selection, seen: readonly Seen[]): (Selection | undefined)[] {
  const given = [
    ["account", "accounts", selection.accounts],
    ["site", "sites", selection.sites],
    ["install", "installs", selection.installs],
  ] as const;
  for (const [what, key, ids] of given) {
    const all = seen.flatMap((s) => s[key]);
    const union = new Map(all.map((v) => [v.id, `${v.label} (${v.id})`]));
    const id = ids?.find((id) => ![...union.keys()].some((x) => same(x, id)));
    const named = id === undefined ? undefined : all.find((v) => same(v.label, id))?.id;
    if (id !== undefined) throw new UnknownIdError(what, id, [...union.values()], named);
    // The flags intersect: a site or install of an account --account leaves out is in no selection.
    const chosen = selection.accounts?.length ? selection.accounts : undefined;
    const out = all.find(
      (v) => v.account && chosen?.every((a) => !same(a, v.account!)) && ids?.some((id) => same(id, v.id)),
    );
    if (out) {
      const account = seen.flatMap((s) => s.accounts).find((a) => a.id === out.account)!;
      throw new Error(
        `${what} ${out.id} (${out.label}) is in account ${account.label} (${account.id}), which --account leaves out: add --account ${account.id} or drop --${what} ${out.id}`,
      );
    }
  }
  return seen.map((s) => {
    const pick = (ids: readonly string[] | undefined, list: readonly Shown[]) =>
      list.filter((v) => ids?.some((id) => same(id, v.id))).map((v) => v.id);
    const accounts = pick(selection.accounts, s.accounts);
    const sites = pick(selection.sites, s.sites);
    const installs = pick(selection.installs, s.installs);
    if (selection.accounts?.length && !accounts.length) return undefined;
    const narrowed = Boolean(selection.sites?.length || selection.installs?.length);
    if (narrowed && !sites.length && !installs.length && !accounts.length) return undefined;
    return {
      ...(selection.accounts?.length ? { accounts } : {}),
      ...(narrowed ? { sites, installs } : {}),
    };
  });
}

/** The accounts that hold the sites and installs `selection` names, as `seen` shows them (each once). */
export function holders(selection: Selection, seen: readonly Seen[]): Shown[] {
  const given = [...(selection.sites ?? []), ...(selection.installs ?? [])];
  const ids = new Set(
    seen
      .flatMap((s) => [...s.sites, ...s.installs])
      .filter((v) => given.some((id) => same(id, v.id)))
      .map((v) => v.account),
  );
  const accounts = seen.flatMap((s) => s.accounts).filter((a) => ids.has(a.id));
  return [...new Map(accounts.map((a) => [a.id, a])).values()];
}

/** Every item of an async iterable, in order. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}

/** `undefined` when the service refuses (403) or lacks (404) the collection for this caller. */
export async function unlessRefused<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isNotAuthorized(err) || isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * Discovers the objects `selection` covers, its ids as {@link shares} gives them (those the credentials see,
 * as the service spells them). `progress(kind, n)` is told each kind's count as it grows.
 */
export async function discover(
  ro: ReadOnlyClient,
  selection: Selection,
  progress: (kind: string, count: number) => void = () => {},
): Promise<World> {
  const client: WpEngineClient = ro.client;
  const found: Found[] = [];
  const names = new Map<string, Named>();
  const leftOut: LeftOut[] = [];
  const counts = new Map<string, number>();
  const add = (f: Found) => {
    found.push(f);
    const n = (counts.get(f.kind) ?? 0) + 1;
    counts.set(f.kind, n);
    progress(f.kind, n);
  };

  const accounts = await all(client.accounts.iterate({ limit: HOSTING_PAGE }));
  for (const a of accounts) names.set(a.id, { what: "account", label: a.name ?? a.nickname ?? a.id });
  const chosenAccounts = selection.accounts?.length
    ? accounts.filter((a) => selection.accounts!.some((id) => same(id, a.id)))
    : accounts;
  // A site or install filter ({@link shares} gives both lists, either may be empty) narrows the sites and
  // installs to those and what they hold; the accounts' own objects (users, apps) come with an account given.
  const narrowed = selection.sites !== undefined || selection.installs !== undefined;

  const perAccount = await Promise.all(
    chosenAccounts.map(async (a) => {
      const [sites, installs] = await Promise.all([
        all(client.sites.iterate({ accountId: a.id, limit: HOSTING_PAGE })),
        all(client.installs.iterate({ accountId: a.id, limit: HOSTING_PAGE })),
      ]);
      return { account: a, sites, installs };
    }),
  );
  const sites = perAccount.flatMap((p) => p.sites.map((s) => ({ s, account: p.account.id })));
  const installs = perAccount.flatMap((p) => p.installs.map((i) => ({ i, account: p.account.id })));
  for (const { s } of sites) {
    names.set(s.id, { what: "site", label: s.name });
    ro.seed("sites", [s.id], s);
  }
  for (const { i } of installs) {
    names.set(i.id, { what: "install", label: i.name });
    ro.seed("installs", [i.id], i);
  }

  const siteIds = new Set(selection.sites ?? []);
  const installIds = new Set(selection.installs ?? []);
  const chosenSites = narrowed ? sites.filter(({ s }) => siteIds.has(s.id)) : sites;
  const chosenInstalls = narrowed
    ? installs.filter(({ i }) => installIds.has(i.id) || (i.site?.id !== undefined && siteIds.has(i.site.id)))
    : installs;

  // Sites, then installs: addressed by their own id, named by their own name, held by their account.
  const top = [
    ...chosenSites.map(({ s, account }) => ({ kind: "Site", o: s, account })),
    ...chosenInstalls.map(({ i, account }) => ({ kind: "Install", o: i, account })),
  ];
  for (const { kind, o, account } of top)
    add({ kind, fields: { id: o.id }, label: o.name, qualifier: names.get(account)?.label ?? account });

  // What follows depends only on the accounts, sites and installs listed above: every branch goes at once,
  // so the process's pace stays full (the transport's maxConcurrency bounds what is in flight).
  const perInstall = async () => {
    await Promise.all(
      chosenInstalls.map(async ({ i }) => {
        const [domains, exclusions, offload, certificates] = await Promise.all([
          // The call the Domain kind's read makes too (one key in the remembering client): each page once.
          client.domains.listAll(i.id),
          unlessRefused(client.cacheExclusions.get(i.id)),
          unlessRefused(client.offloadSettings.get(i.id)),
          unlessRefused(all(client.certificates.iterateForInstall(i.id, { limit: HOSTING_PAGE }))),
        ]);
        for (const d of domains) {
          ro.seed("domains", [i.id, d.id], d);
          names.set(d.id, { what: "domain", label: d.name });
          add({ kind: "Domain", fields: { installId: i.id, id: d.id }, label: d.name, qualifier: i.name });
        }
        // An install's list always exists: one holding no writable exclusion (cookie rules are the
        // platform's) is nothing to manage, like an install without a bucket; a stack that declares one takes it.
        if (exclusions?.some((e) => e.type !== "cookie")) {
          add({
            kind: "CacheExclusions",
            fields: { installId: i.id },
            label: `${i.name} cache exclusions`,
            qualifier: i.name,
          });
        } else if (!exclusions) {
          leftOut.push({
            kind: "CacheExclusions",
            label: `install ${i.name}`,
            reason:
              "the service refused to read its cache exclusions (403: the account is not eligible, or the user may not change the install)",
          });
        }
        if (offload?.settings?.bucket) {
          add({
            kind: "OffloadSettings",
            fields: { installId: i.id },
            label: `${i.name} offload`,
            qualifier: i.name,
          });
        }
        for (const c of certificates ?? []) {
          const what = c.cert_source === "LETS_ENCRYPT" ? "LetsEncryptCertificate" : "ThirdPartyCertificate";
          leftOut.push({
            kind: what,
            label: `${c.common_name ?? (c.domains ?? []).join(", ")} on install ${i.name}`,
            reason:
              what === "ThirdPartyCertificate"
                ? "the API never returns a certificate's private key (nor the PEM it was imported from): declare it with the PEM and the key (`pulumi config set --secret`) and `adopt: true`"
                : "the API does not return the holder's details the order was placed with: declare it with them to manage renewals",
          });
        }
      }),
    );
  };
  const usersAndApps = async () => {
    if (!narrowed || selection.accounts?.length) {
      await Promise.all(
        chosenAccounts.map(async (a) => {
          const [users, apps] = await Promise.all([
            unlessRefused(client.accountUsers.list(a.id)),
            unlessRefused(all(client.apps.iterate(a.id, { pageSize: APP_PAGE }))),
          ]);
          const account = names.get(a.id)?.label ?? a.id;
          for (const u of users ?? []) {
            ro.seed("accountUsers", [a.id, u.user_id], u);
            add({
              kind: "AccountUser",
              fields: { accountId: a.id, id: u.user_id },
              label: u.email ?? u.user_id,
              qualifier: account,
            });
          }
          await Promise.all(
            (apps ?? []).map(async (app) => {
              ro.seed("apps", [a.id, app.appId], app);
              add({
                kind: "App",
                fields: { accountId: a.id, name: app.appId },
                label: app.appId,
                qualifier: account,
              });
              const envs = await all(client.environments.iterate(a.id, app.appId, { pageSize: APP_PAGE }));
              await Promise.all(
                envs.map(async (e) => {
                  const envId = e.environmentId ?? e.name.split("/").pop() ?? e.name;
                  ro.seed("environments", [a.id, app.appId, envId], e);
                  const label = `${app.appId}-${envId}`;
                  add({
                    kind: "Environment",
                    fields: { accountId: a.id, appId: app.appId, name: envId },
                    label,
                    qualifier: account,
                  });
                  const mappings = await all(
                    client.domainMappings.iterate(a.id, app.appId, envId, { pageSize: APP_PAGE }),
                  );
                  if (mappings.length) {
                    add({
                      kind: "DomainMappings",
                      fields: { accountId: a.id, appId: app.appId, environmentId: envId },
                      label: `${label} domain mappings`,
                      qualifier: account,
                    });
                  }
                }),
              );
            }),
          );
        }),
      );
    }
  };
  const reportSchedules = async () => {
    // Report schedules belong to sites; their templates are named for ids outside the program.
    await Promise.all(
      chosenSites.map(async ({ s, account }) => {
        const schedules = (await unlessRefused(client.reportSchedules.list(s.id))) ?? [];
        if (!schedules.length) return;
        const templates = (await unlessRefused(client.reportTemplates.list(account))) ?? [];
        for (const t of templates)
          names.set(t.uuid.toLowerCase(), { what: "report template", label: t.name ?? t.uuid });
        for (const r of schedules) {
          add({
            kind: "ReportSchedule",
            fields: { siteId: s.id, id: r.uuid },
            label: r.title ?? r.uuid,
            qualifier: s.name,
          });
        }
      }),
    );
  };
  const sshKeys = async () => {
    if (!narrowed) {
      const keys = (await unlessRefused(all(client.sshKeys.iterate({ limit: HOSTING_PAGE })))) ?? [];
      for (const k of keys) {
        leftOut.push({
          kind: "SshKey",
          label: `${k.comment ?? "key"} (${k.fingerprint ?? k.uuid})`,
          reason:
            "the API returns a key's fingerprint, not the public key the resource declares: declare it with the key and `adopt: true`",
        });
      }
    }
  };
  await Promise.all([perInstall(), usersAndApps(), reportSchedules(), sshKeys()]);
  return { found, names, leftOut };
}
