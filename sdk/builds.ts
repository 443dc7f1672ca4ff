/** Builds of an application-hosting environment. */
import { z } from "zod";
import { envPath, fillIdFromName } from "./apps";
import { TokenListing } from "./core/listing";
import { type Page, type TokenParams, TokenParamsSchema } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** Build states. */
export type BuildState = "QUEUED" | "BUILDING" | "SUCCEEDED" | "FAILED" | "CANCELLED";

/** A build. */
export const BuildSchema = z.preprocess(
  (raw) => fillIdFromName(raw, "buildId"),
  z.looseObject({
    /** Resource name `accounts/{a}/apps/{app}/environments/{env}/builds/{build}`. */
    name: z.string(),
    /** The build id. */
    buildId: z.string(),
    /** QUEUED, BUILDING, SUCCEEDED, FAILED or CANCELLED. */
    state: z.custom<BuildState | (string & {})>((v) => typeof v === "string", "expected a string").optional(),
    /** Creation time. */
    createTime: z.string().nullish(),
    /** Last update time. */
    updateTime: z.string().nullish(),
    /** What triggered it (`upload`). */
    source: z.string().nullish(),
  }),
);
/** A build. */
export type Build = z.infer<typeof BuildSchema>;

/** Operations on builds. */
export class Builds {
  readonly #list: TokenListing<Build>;

  constructor(private readonly transport: Transport) {
    this.#list = new TokenListing(transport, "builds", BuildSchema);
  }

  /** Lists one page of the environment's builds. */
  async list(
    accountId: string,
    appId: string,
    environmentId: string,
    params: TokenParams = {},
  ): Promise<Page<Build>> {
    const p = validateInput("builds.list", TokenParamsSchema, params);
    return this.#list.page(`${envPath(accountId, appId, environmentId)}/builds`, p);
  }

  /** Iterates every build of the environment. */
  iterate(
    accountId: string,
    appId: string,
    environmentId: string,
    params: Omit<TokenParams, "pageToken"> = {},
  ): AsyncIterable<Build> {
    const p = validateInput("builds.iterate", TokenParamsSchema, params);
    return this.#list.all(`${envPath(accountId, appId, environmentId)}/builds`, p);
  }

  /** Reads one build. */
  async get(accountId: string, appId: string, environmentId: string, buildId: string): Promise<Build> {
    return this.transport.request(
      {
        api: "appHosting",
        method: "GET",
        path: `${envPath(accountId, appId, environmentId)}${path`/builds/${buildId}`}`,
      },
      BuildSchema,
    );
  }

  /** Cancels a build. */
  async cancel(accountId: string, appId: string, environmentId: string, buildId: string): Promise<Build> {
    // Cancelling an already cancelled build leaves it cancelled: retried freely.
    return this.transport.request(
      {
        api: "appHosting",
        method: "POST",
        path: `${envPath(accountId, appId, environmentId)}${path`/builds/${buildId}:cancel`}`,
        body: {},
        retry: "safe",
      },
      BuildSchema,
    );
  }
}
