/** Sites: groups of installs (production, staging, development) owned by an account. */
import { z } from "zod";
import { IdRefSchema, idString } from "./common";
import { EnvelopeListing } from "./core/listing";
import type { Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** An install as summarised inside a site. */
export const SiteInstallSchema = z.looseObject({
  /** The install's UUID. */
  id: z.string(),
  /** The install name. */
  name: z.string().nullish(),
  /** Environment the install fills. */
  environment: z.string().nullish(),
  /** CNAME of the install. */
  cname: z.string().nullish(),
  /** PHP version. */
  php_version: z.string().nullish(),
  /** Whether the install is a multisite. */
  is_multisite: z.boolean().nullish(),
});
/** An install as summarised inside a site. */
export type SiteInstall = z.infer<typeof SiteInstallSchema>;

/** A site. */
export const SiteSchema = z.looseObject({
  /** The site's UUID. */
  id: z.string(),
  /** The site name. */
  name: z.string(),
  /** The owning account. */
  account: IdRefSchema.nullish(),
  /** Group name. */
  group_name: z.string().nullish(),
  /** Tags. */
  tags: z.array(z.string()).nullish(),
  /** Creation time (UTC). */
  created_at: z.string().nullish(),
  /** Whether the site is a sandbox site (sandboxes cannot be transferred). */
  sandbox: z.boolean().nullish(),
  /** Whether the site can be transferred. */
  transferable: z.boolean().nullish(),
  /** The site's installs. */
  installs: z.array(SiteInstallSchema).nullish(),
});
/** A site. */
export type Site = z.infer<typeof SiteSchema>;

/** Query of `GET /sites`. */
export const ListSitesParamsSchema = z.strictObject({
  /** Only sites of this account. */
  accountId: idString("accountId").optional(),
  /** Records per page, 1 to 100. */
  limit: z.number().int().min(1).max(100).optional(),
  /** Index of the first record. */
  offset: z.number().int().min(0).optional(),
});
/** Query of `GET /sites`. */
export type ListSitesParams = z.infer<typeof ListSitesParamsSchema>;

/** Body of `POST /sites`. */
export const CreateSiteRequestSchema = z.strictObject({
  /** The site name (1 to 40 characters). */
  name: z.string().min(1, "name must not be empty").max(40, "name must be at most 40 characters"),
  /** The account the site belongs to. */
  account_id: idString("account_id"),
});
/** Body of `POST /sites`. */
export type CreateSiteRequest = z.infer<typeof CreateSiteRequestSchema>;

/** Body of `PATCH /sites/{id}`: the only thing a site's PATCH changes is its name. */
export const UpdateSiteRequestSchema = CreateSiteRequestSchema.pick({ name: true });
/** Body of `PATCH /sites/{id}`. */
export type UpdateSiteRequest = z.infer<typeof UpdateSiteRequestSchema>;

/** Operations on sites. */
export class Sites {
  readonly #list: EnvelopeListing<Site>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, SiteSchema);
  }

  /** Lists one page of sites, optionally of one account. */
  async list(params: ListSitesParams = {}): Promise<Page<Site>> {
    const p = validateInput("sites.list", ListSitesParamsSchema, params);
    return this.#list.page("/sites", { account_id: p.accountId, limit: p.limit, offset: p.offset });
  }

  /** Iterates every site, following the pages. */
  iterate(params: Omit<ListSitesParams, "offset"> = {}): AsyncIterable<Site> {
    const p = validateInput("sites.iterate", ListSitesParamsSchema, params);
    return this.#list.all("/sites", { account_id: p.accountId, limit: p.limit });
  }

  /** Reads one site. */
  async get(siteId: string): Promise<Site> {
    return this.transport.request({ method: "GET", path: path`/sites/${siteId}` }, SiteSchema);
  }

  /** Creates a site in an account (201); it starts with no installs. */
  async create(body: CreateSiteRequest): Promise<Site> {
    const req = validateInput("sites.create", CreateSiteRequestSchema, body);
    // Creates a record: a retry after the request may have arrived could make a second site.
    return this.transport.request({ method: "POST", path: "/sites", body: req, retry: "unsafe" }, SiteSchema);
  }

  /** Renames a site. */
  async update(siteId: string, body: UpdateSiteRequest): Promise<Site> {
    const req = validateInput("sites.update", UpdateSiteRequestSchema, body);
    // Sets an absolute value: repeating it leaves the same state, so it is retried freely.
    return this.transport.request(
      { method: "PATCH", path: path`/sites/${siteId}`, body: req, retry: "safe" },
      SiteSchema,
    );
  }

  /** Deletes a site and its installs (irreversible; the service answers 204). */
  async delete(siteId: string): Promise<void> {
    await this.transport.requestVoid({ method: "DELETE", path: path`/sites/${siteId}` });
  }
}
