/** Applications of the application-hosting (Headless Platform) API. */
import { z } from "zod";
import { TokenListing } from "./core/listing";
import { type Page, type TokenParams, TokenParamsSchema } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** Fills `<idField>` from the last segment of a Google-style resource `name` when it is absent. */
export function fillIdFromName(raw: unknown, idField: string): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const rec = raw as Record<string, unknown>;
  if (typeof rec[idField] === "string" && rec[idField] !== "") return raw;
  const name = rec["name"];
  if (typeof name !== "string") return raw;
  const last = name.split("/").pop();
  return last ? { ...rec, [idField]: last } : raw;
}

/** A short resource id used in application-hosting paths (an app, environment or build id). */
export const resourceId = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, "must not be empty")
    .regex(/^[^/:?#\s]+$/, `${what} must not contain '/', ':', '?', '#' or spaces`);

/** Regions an app can live in. */
export const APP_REGIONS = ["regions/US-C", "regions/EU-W", "regions/AUS-SE", "regions/UK"] as const;
/** A region resource name. */
export type AppRegion = (typeof APP_REGIONS)[number];

/** An application. */
export const AppSchema = z.preprocess(
  (raw) => fillIdFromName(raw, "appId"),
  z.looseObject({
    /** Resource name `accounts/{a}/apps/{app}`. */
    name: z.string(),
    /** The app id given at creation. */
    appId: z.string(),
    /** Region resource name, e.g. `regions/US-C`. */
    region: z.string().nullish(),
    /** Present (`{}`) when the app takes zip uploads. */
    uploadable: z.looseObject({}).nullish(),
    /** Creation time. */
    createTime: z.string().nullish(),
    /** Last update time. */
    updateTime: z.string().nullish(),
  }),
);
/** An application. */
export type App = z.infer<typeof AppSchema>;

/** Body of `POST /v1/accounts/{a}/apps?appId=`; a bare region (`US-C`) gets its `regions/` prefix. */
export const CreateAppRequestSchema = z.strictObject({
  /** Region: `regions/US-C`, `regions/EU-W`, `regions/AUS-SE` or `regions/UK`. */
  region: z
    .string({ error: `region must be one of ${APP_REGIONS.join(", ")}` })
    .transform((r) => (r.startsWith("regions/") ? r : `regions/${r}`))
    .pipe(z.enum(APP_REGIONS, { error: `region must be one of ${APP_REGIONS.join(", ")}` })),
});
/** Body of an app creation. */
export type CreateAppRequest = z.input<typeof CreateAppRequestSchema>;

/** The path of an environment of an app (its builds and domain mappings live under it). */
export const envPath = (a: string, app: string, env: string) =>
  path`/v1/accounts/${a}/apps/${app}/environments/${env}`;

/** Operations on applications. */
export class Apps {
  readonly #list: TokenListing<App>;

  constructor(private readonly transport: Transport) {
    this.#list = new TokenListing(transport, "apps", AppSchema);
  }

  /** Lists one page of the account's apps. */
  async list(accountId: string, params: TokenParams = {}): Promise<Page<App>> {
    const p = validateInput("apps.list", TokenParamsSchema, params);
    return this.#list.page(path`/v1/accounts/${accountId}/apps`, p);
  }

  /** Iterates every app of the account. */
  iterate(accountId: string, params: Omit<TokenParams, "pageToken"> = {}): AsyncIterable<App> {
    const p = validateInput("apps.iterate", TokenParamsSchema, params);
    return this.#list.all(path`/v1/accounts/${accountId}/apps`, p);
  }

  /** Reads one app. */
  async get(accountId: string, appId: string): Promise<App> {
    return this.transport.request(
      { api: "appHosting", method: "GET", path: path`/v1/accounts/${accountId}/apps/${appId}` },
      AppSchema,
    );
  }

  /** Creates an app with the given id (409 if the id is taken). */
  async create(accountId: string, appId: string, body: CreateAppRequest): Promise<App> {
    const id = validateInput("apps.create", resourceId("appId"), appId);
    const req = validateInput("apps.create", CreateAppRequestSchema, body);
    // Creates an app: not retried once the request may have reached the server (a second attempt would
    // answer 409 for an app this very call created).
    return this.transport.request(
      {
        api: "appHosting",
        method: "POST",
        path: path`/v1/accounts/${accountId}/apps`,
        query: { appId: id },
        body: { region: req.region, uploadable: {} },
        retry: "unsafe",
      },
      AppSchema,
    );
  }

  /** Deletes an app and its environments. */
  async delete(accountId: string, appId: string): Promise<void> {
    await this.transport.requestVoid({
      api: "appHosting",
      method: "DELETE",
      path: path`/v1/accounts/${accountId}/apps/${appId}`,
    });
  }
}
