/** Installs: the hosted WordPress installations (Hosting Platform API). */
import { z } from "zod";
import { fillAlias, IdRefSchema, idString } from "./common";
import { EnvelopeListing } from "./core/listing";
import type { Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** An install as the service returns it; `cms_version` is filled from `wp_version` when needed. */
export const InstallSchema = z.preprocess(
  (raw) =>
    fillAlias(
      fillAlias(raw, "cms_version", "wp_version", "wordpress_version"),
      "defer_cms_upgrades_until",
      "defer_wordpress_upgrades_until",
    ),
  z.looseObject({
    /** The install's UUID. */
    id: z.string(),
    /** The install name (also its subdomain). */
    name: z.string(),
    /** The owning account. */
    account: IdRefSchema.nullish(),
    /** PHP version (read-only). */
    php_version: z.string().nullish(),
    /** `active` or `pending`. */
    status: z.string().nullish(),
    /** The site the install belongs to. */
    site: IdRefSchema.nullish(),
    /** CNAME of the install. */
    cname: z.string().nullish(),
    /** Stable IPs (some premium plans only). */
    stable_ips: z.array(z.string()).nullish(),
    /** Environment the install fills in its site: production, staging or development. */
    environment: z.string().nullish(),
    /** The primary domain. */
    primary_domain: z.string().nullish(),
    /** Whether the install is a multisite. */
    is_multisite: z.boolean().nullish(),
    /** Creation time (UTC). */
    created_at: z.string().nullish(),
    /** WordPress version (single-install reads only; the real service calls it `wp_version`). */
    cms_version: z.string().nullish(),
    /** Automatic core major updates are deferred until this date (single-install reads only). */
    defer_cms_upgrades_until: z.string().nullish(),
  }),
);
/** An install. */
export type Install = z.infer<typeof InstallSchema>;

/** Query of `GET /installs`. */
export const ListInstallsParamsSchema = z.strictObject({
  /** Only installs of this account. */
  accountId: idString("accountId").optional(),
  /** Records per page, 1 to 100. */
  limit: z.number().int().min(1).max(100).optional(),
  /** Index of the first record. */
  offset: z.number().int().min(0).optional(),
});
/** Query of `GET /installs`. */
export type ListInstallsParams = z.infer<typeof ListInstallsParamsSchema>;

/** The rule of an install name: 3 to 14 lower-case letters or digits, starting with a letter. */
export const INSTALL_NAME_PATTERN = /^[a-z][a-z0-9]{2,13}$/;

/** The environments a site holds one install of each. */
export const INSTALL_ENVIRONMENTS = ["production", "staging", "development"] as const;
/** One install environment. */
export type InstallEnvironment = (typeof INSTALL_ENVIRONMENTS)[number];

/** Body of `PATCH /installs/{id}`. */
export const UpdateInstallRequestSchema = z.strictObject({
  /** Site the install will belong to (accounts with sites enabled). */
  site_id: idString("site_id").optional(),
  /** Environment the install fills: production, staging or development. */
  environment: z.enum(INSTALL_ENVIRONMENTS).optional(),
});
/** Body of `PATCH /installs/{id}`. */
export type UpdateInstallRequest = z.infer<typeof UpdateInstallRequestSchema>;

/** Body of `POST /installs`. */
export const CreateInstallRequestSchema = z.strictObject({
  /** The install name, also its subdomain (`<name>.wpengine.com`); unique across the service. */
  name: z
    .string()
    .regex(INSTALL_NAME_PATTERN, "name must be 3 to 14 lower-case letters or digits, starting with a letter"),
  /** The account the install belongs to. */
  account_id: idString("account_id"),
  /** The site the install belongs to (required for accounts with sites enabled). */
  site_id: idString("site_id").nullable().optional(),
  /** The environment it fills in its site (required for accounts with sites enabled). */
  environment: z.enum(INSTALL_ENVIRONMENTS).nullable().optional(),
});
/** Body of `POST /installs`. */
export type CreateInstallRequest = z.infer<typeof CreateInstallRequestSchema>;

/** Operations on installs. */
export class Installs {
  readonly #list: EnvelopeListing<Install>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, InstallSchema);
  }

  /** Lists one page of installs, optionally of one account. */
  async list(params: ListInstallsParams = {}): Promise<Page<Install>> {
    const p = validateInput("installs.list", ListInstallsParamsSchema, params);
    return this.#list.page("/installs", { account_id: p.accountId, limit: p.limit, offset: p.offset });
  }

  /** Iterates every install, following the pages. */
  iterate(params: Omit<ListInstallsParams, "offset"> = {}): AsyncIterable<Install> {
    const p = validateInput("installs.iterate", ListInstallsParamsSchema, params);
    return this.#list.all("/installs", { account_id: p.accountId, limit: p.limit });
  }

  /** Reads one install (with `cms_version` and `defer_cms_upgrades_until`). */
  async get(installId: string): Promise<Install> {
    return this.transport.request({ method: "GET", path: path`/installs/${installId}` }, InstallSchema);
  }

  /** Creates an install (201); it is `pending` until provisioned, then `active`. */
  async create(body: CreateInstallRequest): Promise<Install> {
    const req = validateInput("installs.create", CreateInstallRequestSchema, body);
    // Creates a record: not retried once the request may have reached the server (names are unique, so a
    // repeat would fail as "taken" anyway; the caller looks the name up instead).
    return this.transport.request(
      { method: "POST", path: "/installs", body: req, retry: "unsafe" },
      InstallSchema,
    );
  }

  /** Moves an install to a site and/or sets the environment it fills. */
  async update(installId: string, body: UpdateInstallRequest): Promise<Install> {
    const req = validateInput("installs.update", UpdateInstallRequestSchema, body);
    // PATCH sets absolute values: sending it twice leaves the same state, so it is retried freely.
    return this.transport.request(
      { method: "PATCH", path: path`/installs/${installId}`, body: req, retry: "safe" },
      InstallSchema,
    );
  }

  /** Deletes an install (irreversible; the service answers 204). */
  async delete(installId: string): Promise<void> {
    await this.transport.requestVoid({ method: "DELETE", path: path`/installs/${installId}` });
  }
}
