/** Environments of an application-hosting app, their cache and zip uploads. */
import { z } from "zod";
import { envPath, fillIdFromName, resourceId } from "./apps";
import { type Build, BuildSchema } from "./builds";
import { WpEngineValidationError } from "./core/errors";
import { TokenListing } from "./core/listing";
import { type Page, TokenParamsSchema } from "./core/pagination";
import { path } from "./core/path";
import { type Transport, undici } from "./core/transport";
import { validateInput } from "./core/validate";

/** An environment. */
export const EnvironmentSchema = z.preprocess(
  (raw) => fillIdFromName(raw, "environmentId"),
  z.looseObject({
    /** Resource name `accounts/{a}/apps/{app}/environments/{env}`. */
    name: z.string(),
    /** The environment id given at creation. */
    environmentId: z.string(),
    /** Display name. */
    displayName: z.string().nullish(),
    /** Git branch built, or `uploadable` for zip uploads. */
    branch: z.string().nullish(),
    /** Directory of the app inside the repository or zip. */
    rootDirectory: z.string().nullish(),
    /** Domains served. */
    domains: z.array(z.string()).nullish(),
    /** Resource name of the current build, or empty. */
    build: z.string().nullish(),
    /** Creation time. */
    createTime: z.string().nullish(),
    /** Last update time. */
    updateTime: z.string().nullish(),
    /** True while the platform is still applying the requested state: poll until false. */
    reconciling: z.boolean().nullish(),
  }),
);
/** An environment. */
export type Environment = z.infer<typeof EnvironmentSchema>;

/** Body of an environment creation. */
export const CreateEnvironmentRequestSchema = z.strictObject({
  /** Display name. */
  displayName: z.string().min(1, "must not be empty"),
  /** Git branch, or `uploadable` for zip uploads. */
  branch: z.string().min(1, "must not be empty"),
  /** Directory of the app inside the repository or zip. */
  rootDirectory: z.string().optional(),
});
/** Body of an environment creation. */
export type CreateEnvironmentRequest = z.infer<typeof CreateEnvironmentRequestSchema>;

/** Fields an update may change; the update mask is computed from the keys given. */
export const UpdateEnvironmentRequestSchema = CreateEnvironmentRequestSchema.partial().refine(
  (v) => Object.keys(v).length > 0,
  "at least one of displayName, branch, rootDirectory must be given",
);
/** Fields an update may change. */
export type UpdateEnvironmentRequest = z.infer<typeof UpdateEnvironmentRequestSchema>;

/** Query of an environment listing. */
export const ListEnvironmentsParamsSchema = TokenParamsSchema.extend({
  /** Filter expression, e.g. `parentEnvironment="accounts/a/apps/b/environments/prod"`. */
  filter: z.string().optional(),
});
/** Query of an environment listing. */
export type ListEnvironmentsParams = z.infer<typeof ListEnvironmentsParamsSchema>;

const appPath = (a: string, app: string) => path`/v1/accounts/${a}/apps/${app}`;

/** Operations on environments. */
export class Environments {
  readonly #list: TokenListing<Environment>;

  constructor(private readonly transport: Transport) {
    this.#list = new TokenListing(transport, "environments", EnvironmentSchema);
  }

  /** Lists one page of the app's environments. */
  async list(
    accountId: string,
    appId: string,
    params: ListEnvironmentsParams = {},
  ): Promise<Page<Environment>> {
    const p = validateInput("environments.list", ListEnvironmentsParamsSchema, params);
    return this.#list.page(`${appPath(accountId, appId)}/environments`, p);
  }

  /** Iterates every environment of the app. */
  iterate(
    accountId: string,
    appId: string,
    params: Omit<ListEnvironmentsParams, "pageToken"> = {},
  ): AsyncIterable<Environment> {
    const p = validateInput("environments.iterate", ListEnvironmentsParamsSchema, params);
    return this.#list.all(`${appPath(accountId, appId)}/environments`, p);
  }

  /** Reads one environment. */
  async get(accountId: string, appId: string, environmentId: string): Promise<Environment> {
    return this.transport.request(
      { api: "appHosting", method: "GET", path: envPath(accountId, appId, environmentId) },
      EnvironmentSchema,
    );
  }

  /** Creates an environment (answered with `reconciling: true`). */
  async create(
    accountId: string,
    appId: string,
    environmentId: string,
    body: CreateEnvironmentRequest,
  ): Promise<Environment> {
    const id = validateInput("environments.create", resourceId("environmentId"), environmentId);
    const req = validateInput("environments.create", CreateEnvironmentRequestSchema, body);
    // Creates an environment and starts a build: not retried once the request may have reached the server.
    return this.transport.request(
      {
        api: "appHosting",
        method: "POST",
        path: `${appPath(accountId, appId)}/environments`,
        query: { environmentId: id },
        body: req,
        retry: "unsafe",
      },
      EnvironmentSchema,
    );
  }

  /**
   * Changes the given fields; `updateMask` is the list of keys given. With `validateOnly` the service
   * only checks the change.
   */
  async update(
    accountId: string,
    appId: string,
    environmentId: string,
    patch: UpdateEnvironmentRequest,
    options: { validateOnly?: boolean } = {},
  ): Promise<Environment> {
    const req = validateInput("environments.update", UpdateEnvironmentRequestSchema, patch);
    const updateMask = Object.keys(req)
      .filter((k) => req[k as keyof typeof req] !== undefined)
      .join(",");
    // PATCH sets absolute values: repeating it leaves the same state, so it is retried freely.
    return this.transport.request(
      {
        api: "appHosting",
        method: "PATCH",
        path: envPath(accountId, appId, environmentId),
        query: { updateMask, validateOnly: options.validateOnly ? true : undefined },
        body: req,
        retry: "safe",
      },
      EnvironmentSchema,
    );
  }

  /** Deletes an environment. */
  async delete(accountId: string, appId: string, environmentId: string): Promise<void> {
    await this.transport.requestVoid({
      api: "appHosting",
      method: "DELETE",
      path: envPath(accountId, appId, environmentId),
    });
  }

  /** Clears the web cache of the environment. */
  async clearCache(accountId: string, appId: string, environmentId: string): Promise<void> {
    // Clearing an empty cache is harmless: retried freely.
    await this.transport.requestVoid({
      api: "appHosting",
      method: "POST",
      path: `${envPath(accountId, appId, environmentId)}:clearCache`,
      body: {},
      retry: "safe",
    });
  }

  /** Uploads a .zip as the environment's new version (multipart field `repository`); answers the build. */
  async upload(
    accountId: string,
    appId: string,
    environmentId: string,
    zip: Buffer | Uint8Array,
    filename = "app.zip",
  ): Promise<Build> {
    if (!(zip instanceof Uint8Array) || zip.byteLength === 0) {
      throw new WpEngineValidationError("environments.upload", [
        { path: "zip", message: "must be a non-empty Buffer or Uint8Array" },
      ]);
    }
    const form = new (undici().FormData)();
    form.append("repository", new Blob([new Uint8Array(zip)], { type: "application/zip" }), filename);
    // Each upload starts a build: not retried once the request may have reached the server.
    return this.transport.request(
      {
        api: "appHosting",
        method: "POST",
        path: `/fu${envPath(accountId, appId, environmentId)}:upload`,
        multipart: form,
        retry: "unsafe",
      },
      BuildSchema,
    );
  }
}
