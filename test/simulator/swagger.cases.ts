/**
 * The table of requests that test/simulator/swagger.test.ts sends to the simulator, one or more per
 * operation of the real service's Swagger, each answer validated against the Swagger's schema for its
 * status. Three blocks: operations the simulator served before issue 11, and the operations two other
 * branches ("sites" and "certs") are adding, written from the Swagger ahead of their routes.
 */

import type { RunningSimulator } from "../../simulator";
import { selfSigned } from "../fixtures/self-signed";
import { call, SEED, type UserKey } from "./helpers";

const { accounts: A, sites: S, installs: I, domains: D, backups: B, users: U } = SEED;

/** An id that names nothing in the seeded world. */
export const UNKNOWN = "00000000-0000-4000-8000-0000000000ff";

/**
 * Where the spec (/work/shared/spec/hosting-api.md) decides otherwise than the Swagger, the simulator
 * follows the spec. Each exception names the validation errors it allows, so nothing else can hide
 * behind it; docs/simulator.md lists every one by its key.
 */
export interface SpecException {
  /** Its key, listed in docs/simulator.md. */
  key: string;
  /** Why the spec wins here. */
  reason: string;
  /** The validation errors the exception allows: `instancePath` (a regular expression) and `keyword`. */
  allows?: { instancePath: RegExp; keyword: string }[];
  /** The answer is a JSON array whose every element must validate against the Swagger's object schema. */
  arrayOf?: true;
}

/** The exceptions, each listed by key in docs/simulator.md. */
export const EXCEPTIONS = {
  bulkDomainsArray: {
    key: "bulk-domains-array",
    reason:
      "The Swagger gives POST /installs/{id}/domains/bulk one DomainOrRedirect; the spec leaves list or " +
      "object open and the real service's recorded answers are a list of records, which the simulator " +
      "sends (the client reads both). Every element must validate as a DomainOrRedirect.",
    arrayOf: true,
  },
} satisfies Record<string, SpecException>;

/** One request and the status the simulator must answer. */
export interface SwaggerCase {
  /** `METHOD /template` exactly as in the Swagger. */
  op: string;
  /** What the case shows. */
  title: string;
  status: number;
  /** Path parameters of the template; `prepare` may add more (ids of objects it created). */
  params?: Record<string, string>;
  /** Query string without `?`. */
  query?: string;
  body?: unknown;
  /** Seeded user sending it (`demo` by default, `null` for no credentials). */
  user?: UserKey | null;
  /** Sets the world up on a freshly reset simulator; may give path parameters and the body. */
  prepare?: (sim: RunningSimulator) => Promise<Prepared>;
  exception?: SpecException;
}

/** What a prepare step gives: path parameters of objects it made, a body that depends on them. */
export interface Prepared {
  params?: Record<string, string>;
  body?: unknown;
}

/** The block a case belongs to: the others wait for a branch that adds their routes. */
export type Block = "served" | "sites" | "certs";

/** Sends a request as demo and insists on its status (a prepare step that fails should say so). */
async function must(sim: RunningSimulator, status: number, method: string, path: string, body?: unknown) {
  const r = await call(sim, method, path, body);
  if (r.status !== status) {
    throw new Error(`prepare: ${method} ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  return r.body;
}

/** Injects one 429 answer for the next request to `path` (the service may rate-limit any operation). */
const rateLimited = (path: string) => async (sim: RunningSimulator) => {
  sim.setFaults([{ path, status: 429, count: 1 }]);
  return {};
};

const acmeprod = { install_id: I.acmeprod.id };
/** The seeded domain on the legacy network, the kind a Let's Encrypt order is for. */
const legacyDomain = { install_id: I.acmeblog.id, domain_id: D.blogAcmeExample.id };
const SSH_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICnAIfGfcJtep8uc/0V6Yc5MTs43XnHSKX1s6m1/9oTW joe@example.com";
const offload = {
  largefs_settings: {
    cloud: "s3",
    bucket: "acme-media",
    bucket_region: "us-east-1",
    path_settings: [{ path: "wp-content/uploads", excluded_paths: [], redirect_type: "permanent" }],
  },
};
/** Two hours after the simulator's clock (which tests move forward). */
const inTwoHours = async (sim: RunningSimulator) => {
  const clock = await call(sim, "GET", "/__sim/clock");
  return new Date(Date.parse(clock.body.now) + 2 * 3600_000).toISOString();
};

/** A domain created on acmeprod, for cases that change or remove one. */
const newDomain = async (sim: RunningSimulator) => {
  const d = await must(sim, 201, "POST", `/v1/installs/${I.acmeprod.id}/domains`, {
    name: "new.acme.example",
  });
  return { params: { ...acmeprod, domain_id: d.id as string } };
};

/** A site transfer of Acme Blog to Initech, scheduled (cancellable) or immediate. */
const newTransfer = (scheduled: boolean) => async (sim: RunningSimulator) => {
  const t = await must(sim, 202, "POST", `/v1/sites/${S.acmeBlog.id}/site_transfers`, {
    destination_account_id: A.initech.id,
    ...(scheduled ? { scheduled_time: await inTwoHours(sim) } : {}),
  });
  return { params: { site_id: S.acmeBlog.id, transfer_id: t.id as string } };
};

const SERVED: SwaggerCase[] = [
  // Account users
  {
    op: "GET /accounts/{account_id}/account_users",
    title: "lists",
    status: 200,
    params: { account_id: A.acme.id },
  },
  {
    op: "GET /accounts/{account_id}/account_users",
    title: "without credentials",
    status: 401,
    params: { account_id: A.acme.id },
    user: null,
  },
  {
    op: "POST /accounts/{account_id}/account_users",
    title: "creates",
    status: 201,
    params: { account_id: A.acme.id },
    body: {
      user: {
        account_id: A.acme.id,
        first_name: "Nia",
        last_name: "New",
        email: "nia@acme.example",
        roles: "full",
      },
    },
  },
  {
    op: "POST /accounts/{account_id}/account_users",
    title: "an unknown role",
    status: 400,
    params: { account_id: A.acme.id },
    body: {
      user: {
        account_id: A.acme.id,
        first_name: "Nia",
        last_name: "New",
        email: "nia@acme.example",
        roles: "boss",
      },
    },
  },
  {
    op: "POST /accounts/{account_id}/account_users",
    title: "by a partial user",
    status: 403,
    params: { account_id: A.acme.id },
    user: "partial",
    body: {
      user: {
        account_id: A.acme.id,
        first_name: "Nia",
        last_name: "New",
        email: "nia@acme.example",
        roles: "full",
      },
    },
  },
  {
    op: "GET /accounts/{account_id}/account_users/{user_id}",
    title: "reads",
    status: 200,
    params: { account_id: A.acme.id, user_id: U.partial.userId },
  },
  {
    op: "GET /accounts/{account_id}/account_users/{user_id}",
    title: "an unknown user",
    status: 404,
    params: { account_id: A.acme.id, user_id: UNKNOWN },
  },
  {
    op: "PATCH /accounts/{account_id}/account_users/{user_id}",
    title: "changes roles",
    status: 200,
    params: { account_id: A.acme.id, user_id: U.full.userId },
    body: { roles: "full,billing" },
  },
  {
    op: "PATCH /accounts/{account_id}/account_users/{user_id}",
    title: "roles missing",
    status: 400,
    params: { account_id: A.acme.id, user_id: U.full.userId },
    body: {},
  },
  {
    op: "PATCH /accounts/{account_id}/account_users/{user_id}",
    title: "an unknown user",
    status: 404,
    params: { account_id: A.acme.id, user_id: UNKNOWN },
    body: { roles: "full" },
  },
  {
    op: "DELETE /accounts/{account_id}/account_users/{user_id}",
    title: "removes",
    status: 204,
    params: { account_id: A.acme.id, user_id: U.full.userId },
  },
  {
    op: "DELETE /accounts/{account_id}/account_users/{user_id}",
    title: "an unknown user",
    status: 404,
    params: { account_id: A.acme.id, user_id: UNKNOWN },
  },

  // Site transfers
  {
    op: "GET /accounts/{account_id}/site_transfers",
    title: "lists",
    status: 200,
    params: { account_id: A.acme.id },
  },
  {
    op: "GET /accounts/{account_id}/site_transfers",
    title: "a limit above 100",
    status: 400,
    params: { account_id: A.acme.id },
    query: "limit=101",
  },
  {
    op: "GET /accounts/{account_id}/site_transfers",
    title: "without Billing",
    status: 403,
    params: { account_id: A.acme.id },
    user: "full",
  },
  {
    op: "GET /accounts/{account_id}/site_transfers",
    title: "an unknown account",
    status: 404,
    params: { account_id: UNKNOWN },
  },
  {
    op: "GET /sites/{site_id}/site_transfers",
    title: "lists",
    status: 200,
    params: { site_id: S.acmeBlog.id },
  },
  {
    op: "GET /sites/{site_id}/site_transfers",
    title: "an unknown site",
    status: 404,
    params: { site_id: UNKNOWN },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "starts an immediate transfer",
    status: 202,
    params: { site_id: S.acmeBlog.id },
    body: { destination_account_id: A.initech.id },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "schedules a transfer",
    status: 202,
    params: { site_id: S.acmeBlog.id },
    // A scheduled time must be 1 hour to 7 days ahead of the simulator's clock.
    prepare: async (sim) => ({
      body: { destination_account_id: A.initech.id, scheduled_time: await inTwoHours(sim) },
    }),
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "destination missing",
    status: 400,
    params: { site_id: S.acmeBlog.id },
    body: {},
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "without Billing",
    status: 403,
    params: { site_id: S.acmeBlog.id },
    user: "full",
    body: { destination_account_id: A.initech.id },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "an unknown site",
    status: 404,
    params: { site_id: UNKNOWN },
    body: { destination_account_id: A.initech.id },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "a sandbox site",
    status: 409,
    params: { site_id: S.acmeSandbox.id },
    body: { destination_account_id: A.initech.id },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "the same account",
    status: 422,
    params: { site_id: S.acmeBlog.id },
    body: { destination_account_id: A.acme.id },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "a malformed scheduled_time",
    status: 422,
    params: { site_id: S.acmeBlog.id },
    body: { destination_account_id: A.initech.id, scheduled_time: "next tuesday" },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "a malformed destination_account_id",
    status: 422,
    params: { site_id: S.acmeBlog.id },
    body: { destination_account_id: "initech" },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "a maintenance_mode that is not a boolean",
    status: 422,
    params: { site_id: S.acmeBlog.id },
    body: { destination_account_id: A.initech.id, maintenance_mode: "yes" },
  },
  {
    op: "POST /sites/{site_id}/site_transfers",
    title: "rate limited",
    status: 429,
    params: { site_id: S.acmeBlog.id },
    prepare: rateLimited("/v1/sites/*/site_transfers"),
    body: { destination_account_id: A.initech.id },
  },
  {
    op: "GET /sites/{site_id}/site_transfers/{transfer_id}",
    title: "reads",
    status: 200,
    prepare: newTransfer(false),
  },
  {
    op: "GET /sites/{site_id}/site_transfers/{transfer_id}",
    title: "an unknown transfer",
    status: 404,
    params: { site_id: S.acmeBlog.id, transfer_id: UNKNOWN },
  },
  {
    op: "DELETE /sites/{site_id}/site_transfers/{transfer_id}",
    title: "cancels a scheduled transfer",
    status: 204,
    prepare: newTransfer(true),
  },
  {
    op: "DELETE /sites/{site_id}/site_transfers/{transfer_id}",
    title: "a transfer already under way",
    status: 409,
    prepare: async (sim) => {
      const prepared = await newTransfer(false)(sim);
      sim.advance(1);
      return prepared;
    },
  },
  {
    op: "DELETE /sites/{site_id}/site_transfers/{transfer_id}",
    title: "an unknown transfer",
    status: 404,
    params: { site_id: S.acmeBlog.id, transfer_id: UNKNOWN },
  },

  // Report templates
  {
    op: "GET /site_reports/templates",
    title: "lists an account's",
    status: 200,
    query: `account_id=${A.acme.id}`,
  },
  { op: "GET /site_reports/templates", title: "account_id missing", status: 400 },

  // Install copy
  {
    op: "POST /install_copy",
    title: "copies",
    status: 202,
    body: { source_environment_id: I.acmeprod.id, destination_environment_id: I.acmestg.id },
  },
  {
    op: "POST /install_copy",
    title: "installs on different accounts",
    status: 400,
    body: { source_environment_id: I.acmeprod.id, destination_environment_id: I.initechprod.id },
  },
  {
    op: "POST /install_copy",
    title: "a partial user on another install",
    status: 403,
    user: "partial",
    body: { source_environment_id: I.acmeprod.id, destination_environment_id: I.acmestg.id },
  },
  {
    op: "POST /install_copy",
    title: "an unknown install",
    status: 404,
    body: { source_environment_id: UNKNOWN, destination_environment_id: I.acmestg.id },
  },

  // Offload settings
  {
    op: "GET /installs/{install_id}/offload_settings/files",
    title: "reads",
    status: 200,
    params: acmeprod,
  },
  {
    op: "GET /installs/{install_id}/offload_settings/files",
    title: "a partial user on another install",
    status: 403,
    params: { install_id: I.acmestg.id },
    user: "partial",
  },
  {
    op: "GET /installs/{install_id}/offload_settings/files",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },
  {
    op: "POST /installs/{install_id}/offload_settings/files",
    title: "replaces",
    status: 202,
    params: acmeprod,
    body: offload,
  },
  {
    op: "POST /installs/{install_id}/offload_settings/files",
    title: "an unknown cloud",
    status: 400,
    params: acmeprod,
    body: { largefs_settings: { ...offload.largefs_settings, cloud: "gcs" } },
  },
  {
    op: "PATCH /installs/{install_id}/offload_settings/files",
    title: "merges into the current settings",
    status: 202,
    params: acmeprod,
    prepare: async (sim) => {
      await must(sim, 202, "POST", `/v1/installs/${I.acmeprod.id}/offload_settings/files`, offload);
      return {};
    },
    body: { largefs_settings: { bucket: "acme-media-2" } },
  },
  {
    op: "PATCH /installs/{install_id}/offload_settings/files",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
    body: offload,
  },

  // Domains
  { op: "GET /installs/{install_id}/domains", title: "lists", status: 200, params: acmeprod },
  {
    op: "GET /installs/{install_id}/domains",
    title: "without credentials",
    status: 401,
    params: acmeprod,
    user: null,
  },
  {
    op: "GET /installs/{install_id}/domains",
    title: "a partial user on another install",
    status: 403,
    params: { install_id: I.acmestg.id },
    user: "partial",
  },
  {
    op: "GET /installs/{install_id}/domains",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },
  {
    op: "GET /installs/{install_id}/domains",
    title: "rate limited",
    status: 429,
    params: acmeprod,
    prepare: rateLimited("/v1/installs/*/domains"),
  },
  {
    op: "POST /installs/{install_id}/domains",
    title: "creates",
    status: 201,
    params: acmeprod,
    body: { name: "shop.acme.example" },
  },
  {
    op: "POST /installs/{install_id}/domains",
    title: "a name already on the install",
    status: 400,
    params: acmeprod,
    body: { name: "acme.example" },
  },
  {
    op: "POST /installs/{install_id}/domains/bulk",
    title: "creates several",
    status: 201,
    params: acmeprod,
    body: {
      domains: [{ name: "a.acme.example" }, { name: "b.acme.example", redirect_to: "a.acme.example" }],
    },
    exception: EXCEPTIONS.bulkDomainsArray,
  },
  {
    op: "POST /installs/{install_id}/domains/bulk",
    title: "creates several, answered as the Swagger's one object (bulkDomains: object)",
    status: 201,
    params: acmeprod,
    body: {
      domains: [{ name: "a.acme.example" }, { name: "b.acme.example", redirect_to: "a.acme.example" }],
    },
    prepare: async (sim) => {
      sim.configure({ bulkDomains: "object" });
      return {};
    },
  },
  {
    op: "POST /installs/{install_id}/domains/bulk",
    title: "no domains",
    status: 400,
    params: acmeprod,
    body: { domains: [] },
  },
  {
    op: "GET /installs/{install_id}/domains/{domain_id}",
    title: "reads a redirect",
    status: 200,
    params: { ...acmeprod, domain_id: D.wwwAcmeExample.id },
  },
  {
    op: "GET /installs/{install_id}/domains/{domain_id}",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
  },
  {
    op: "PATCH /installs/{install_id}/domains/{domain_id}",
    title: "changes secure_all_urls",
    status: 200,
    prepare: newDomain,
    body: { secure_all_urls: true },
  },
  {
    op: "PATCH /installs/{install_id}/domains/{domain_id}",
    title: "a redirected domain made primary",
    status: 400,
    params: { ...acmeprod, domain_id: D.wwwAcmeExample.id },
    body: { primary: true },
  },
  {
    op: "PATCH /installs/{install_id}/domains/{domain_id}",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
    body: { secure_all_urls: true },
  },
  {
    op: "DELETE /installs/{install_id}/domains/{domain_id}",
    title: "deletes",
    status: 204,
    prepare: newDomain,
  },
  {
    op: "DELETE /installs/{install_id}/domains/{domain_id}",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/verification",
    title: "verifies once the TXT record is published",
    status: 200,
    prepare: async (sim) => {
      const prepared = await newDomain(sim);
      const d = await must(
        sim,
        200,
        "GET",
        `/v1/installs/${I.acmeprod.id}/domains/${prepared.params.domain_id}`,
      );
      sim.publishTxt(d.txt_verification_key, d.txt_verification_value);
      return prepared;
    },
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/verification",
    title: "no TXT record yet",
    status: 400,
    prepare: newDomain,
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/verification",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
  },

  // Third-party certificates
  {
    op: "POST /installs/{install_id}/ssl_certificates/third_party",
    title: "imports",
    status: 200,
    params: acmeprod,
    prepare: async () => {
      const pair = selfSigned(["acme.example"]);
      const b64 = (pem: string) => Buffer.from(pem).toString("base64");
      return { body: { certificate: b64(pair.certificate), private_key: b64(pair.privateKey) } };
    },
  },
  {
    op: "POST /installs/{install_id}/ssl_certificates/third_party",
    title: "not a certificate",
    status: 400,
    params: acmeprod,
    body: { certificate: Buffer.from("hello").toString("base64"), private_key: "aGVsbG8=" },
  },
  {
    op: "POST /installs/{install_id}/ssl_certificates/third_party",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
    body: { certificate: "aGVsbG8=", private_key: "aGVsbG8=" },
  },

  // Backups and archives
  { op: "GET /installs/{install_id}/backups", title: "lists", status: 200, params: acmeprod },
  {
    op: "GET /installs/{install_id}/backups",
    title: "an offset that is not a number",
    status: 400,
    params: acmeprod,
    query: "offset=first",
  },
  {
    op: "GET /installs/{install_id}/backups",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },
  {
    op: "POST /installs/{install_id}/backups",
    title: "requests a backup",
    status: 202,
    params: acmeprod,
    body: { description: "before the upgrade", notification_emails: ["ops@acme.example"] },
  },
  {
    op: "POST /installs/{install_id}/backups",
    title: "notification_emails missing",
    status: 400,
    params: acmeprod,
    body: { description: "before the upgrade" },
  },
  {
    op: "POST /installs/{install_id}/backups",
    title: "a partial user on another install",
    status: 403,
    params: { install_id: I.acmestg.id },
    user: "partial",
    body: { description: "x", notification_emails: ["ops@acme.example"] },
  },
  {
    op: "GET /installs/{install_id}/backups/{backup_id}",
    title: "reads a completed backup",
    status: 200,
    params: { ...acmeprod, backup_id: B.acmeprodCompleted.id },
  },
  {
    op: "GET /installs/{install_id}/backups/{backup_id}",
    title: "an unknown backup",
    status: 404,
    params: { ...acmeprod, backup_id: UNKNOWN },
  },
  {
    op: "POST /installs/{install_id}/backups/{backup_id}/restore",
    title: "restores",
    status: 202,
    params: { ...acmeprod, backup_id: B.acmeprodCompleted.id },
    body: { notification_emails: ["ops@acme.example"] },
  },
  {
    op: "POST /installs/{install_id}/backups/{backup_id}/restore",
    title: "a backup that never completed",
    status: 400,
    params: { ...acmeprod, backup_id: B.acmeprodAborted.id },
    body: { notification_emails: ["ops@acme.example"] },
  },
  {
    op: "POST /installs/{install_id}/backups/{backup_id}/restore",
    title: "an unknown backup",
    status: 404,
    params: { ...acmeprod, backup_id: UNKNOWN },
    body: { notification_emails: ["ops@acme.example"] },
  },
  { op: "GET /installs/{install_id}/archives", title: "lists", status: 200, params: acmeprod },
  {
    op: "GET /installs/{install_id}/archives",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },

  // The simulator's own description
  { op: "GET /swagger", title: "describes the paths served, without credentials", status: 200, user: null },
];

/** Sites, installs, SSH keys, accounts and the current user: the "sites" branch. */
const SITES: SwaggerCase[] = [
  { op: "GET /accounts", title: "lists", status: 200 },
  { op: "GET /accounts", title: "a limit above 100", status: 400, query: "limit=101" },
  { op: "GET /accounts", title: "without credentials", status: 401, user: null },
  { op: "GET /accounts/{account_id}", title: "reads", status: 200, params: { account_id: A.acme.id } },
  {
    op: "GET /accounts/{account_id}",
    title: "an unknown account",
    status: 404,
    params: { account_id: UNKNOWN },
  },
  { op: "GET /user", title: "reads the caller", status: 200 },
  { op: "GET /user", title: "without credentials", status: 401, user: null },

  { op: "GET /sites", title: "lists", status: 200 },
  { op: "GET /sites", title: "of one account", status: 200, query: `account_id=${A.globex.id}` },
  { op: "GET /sites", title: "a limit above 100", status: 400, query: "limit=101" },
  { op: "POST /sites", title: "creates", status: 201, body: { name: "Acme Shop", account_id: A.acme.id } },
  { op: "POST /sites", title: "name missing", status: 400, body: { account_id: A.acme.id } },
  {
    op: "POST /sites",
    title: "by a partial user",
    status: 403,
    user: "partial",
    body: { name: "Acme Shop", account_id: A.acme.id },
  },
  { op: "GET /sites/{site_id}", title: "reads", status: 200, params: { site_id: S.acmeMarketing.id } },
  { op: "GET /sites/{site_id}", title: "an unknown site", status: 404, params: { site_id: UNKNOWN } },
  {
    op: "GET /sites/{site_id}",
    title: "a partial user on a site without their install",
    status: 403,
    params: { site_id: S.acmeBlog.id },
    user: "partial",
  },
  {
    op: "PATCH /sites/{site_id}",
    title: "renames",
    status: 200,
    params: { site_id: S.acmeMarketing.id },
    body: { name: "Acme Marketing EU" },
  },
  {
    op: "PATCH /sites/{site_id}",
    title: "an empty name",
    status: 400,
    params: { site_id: S.acmeMarketing.id },
    body: { name: "" },
  },
  {
    op: "PATCH /sites/{site_id}",
    title: "an unknown site",
    status: 404,
    params: { site_id: UNKNOWN },
    body: { name: "x" },
  },
  {
    op: "DELETE /sites/{site_id}",
    title: "deletes a site and its installs",
    status: 204,
    params: { site_id: S.acmeMarketing.id },
  },
  { op: "DELETE /sites/{site_id}", title: "an unknown site", status: 404, params: { site_id: UNKNOWN } },
  {
    op: "DELETE /sites/{site_id}",
    title: "by a partial user",
    status: 403,
    params: { site_id: S.acmeMarketing.id },
    user: "partial",
  },

  { op: "GET /installs", title: "lists", status: 200 },
  { op: "GET /installs", title: "a limit above 100", status: 400, query: "limit=101" },
  {
    op: "POST /installs",
    title: "creates",
    status: 201,
    body: { name: "acmeshop", account_id: A.acme.id, site_id: S.acmeSandbox.id, environment: "staging" },
  },
  {
    op: "POST /installs",
    title: "a name outside ^[a-z][a-z0-9]{2,13}$",
    status: 400,
    body: { name: "Acme-Shop", account_id: A.acme.id },
  },
  {
    op: "POST /installs",
    title: "by a partial user",
    status: 403,
    user: "partial",
    body: { name: "acmeshop", account_id: A.acme.id },
  },
  { op: "GET /installs/{install_id}", title: "reads", status: 200, params: acmeprod },
  {
    op: "GET /installs/{install_id}",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },
  {
    op: "PATCH /installs/{install_id}",
    title: "moves to another environment",
    status: 200,
    params: { install_id: I.acmesandbox.id },
    body: { environment: "staging" },
  },
  {
    op: "PATCH /installs/{install_id}",
    title: "an unknown environment",
    status: 400,
    params: { install_id: I.acmesandbox.id },
    body: { environment: "qa" },
  },
  {
    op: "PATCH /installs/{install_id}",
    title: "a partial user on another install",
    status: 403,
    params: { install_id: I.acmestg.id },
    user: "partial",
    body: { environment: "staging" },
  },
  {
    op: "DELETE /installs/{install_id}",
    title: "deletes",
    status: 204,
    params: { install_id: I.acmedev.id },
  },
  {
    op: "DELETE /installs/{install_id}",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },

  { op: "GET /ssh_keys", title: "lists the caller's", status: 200 },
  { op: "GET /ssh_keys", title: "a limit above 100", status: 400, query: "limit=101" },
  { op: "POST /ssh_keys", title: "adds", status: 201, body: { public_key: SSH_KEY } },
  { op: "POST /ssh_keys", title: "not a public key", status: 400, body: { public_key: "ssh-rsa notakey" } },
  {
    op: "DELETE /ssh_keys/{ssh_key_id}",
    title: "removes",
    status: 204,
    prepare: async (sim) => {
      const key = await must(sim, 201, "POST", "/v1/ssh_keys", { public_key: SSH_KEY });
      return { params: { ssh_key_id: key.uuid as string } };
    },
  },
  {
    op: "DELETE /ssh_keys/{ssh_key_id}",
    title: "without credentials",
    status: 401,
    params: { ssh_key_id: UNKNOWN },
    user: null,
  },
];

/** A domain's status check: its report id. */
const statusCheck = async (sim: RunningSimulator) => {
  const path = `/v1/installs/${I.acmeprod.id}/domains/${D.acmeExample.id}/check_status`;
  const r = await must(sim, 202, "POST", path);
  return { params: { ...acmeprod, report_id: r.report_id as string } };
};
const order = {
  email_address: "jane@acme.example",
  given_name: "Jane",
  family_name: "Doe",
  region_code: "US",
};
const acmeDomain = { ...acmeprod, domain_id: D.acmeExample.id };

/** Cache purge, certificates, domain status, limits, usage, status, offload file: the "certs" branch. */
const CERTS: SwaggerCase[] = [
  { op: "GET /status", title: "reports the service's status", status: 200, user: null },

  { op: "GET /accounts/{account_id}/limits", title: "reads", status: 200, params: { account_id: A.acme.id } },
  {
    op: "GET /accounts/{account_id}/limits",
    title: "an unknown account",
    status: 404,
    params: { account_id: UNKNOWN },
  },
  {
    op: "GET /accounts/{account_id}/limits",
    title: "without credentials",
    status: 401,
    params: { account_id: A.acme.id },
    user: null,
  },
  { op: "GET /accounts/{account_id}/usage", title: "reads", status: 200, params: { account_id: A.acme.id } },
  {
    op: "GET /accounts/{account_id}/usage",
    title: "first_date without last_date",
    status: 400,
    params: { account_id: A.acme.id },
    query: "first_date=2026-01-01",
  },
  {
    op: "GET /accounts/{account_id}/usage",
    title: "an unknown account",
    status: 404,
    params: { account_id: UNKNOWN },
  },
  {
    op: "POST /accounts/{account_id}/usage/refresh_disk_usage",
    title: "starts a refresh",
    status: 200,
    params: { account_id: A.acme.id },
  },
  {
    op: "POST /accounts/{account_id}/usage/refresh_disk_usage",
    title: "an unknown account",
    status: 404,
    params: { account_id: UNKNOWN },
  },
  {
    op: "GET /accounts/{account_id}/usage/summary",
    title: "reads",
    status: 200,
    params: { account_id: A.acme.id },
  },
  {
    op: "GET /accounts/{account_id}/usage/summary",
    title: "an unknown account",
    status: 404,
    params: { account_id: UNKNOWN },
  },
  {
    op: "GET /accounts/{account_id}/usage/insights",
    title: "reads",
    status: 200,
    params: { account_id: A.acme.id },
  },
  {
    op: "GET /accounts/{account_id}/usage/insights",
    title: "a malformed date",
    status: 400,
    params: { account_id: A.acme.id },
    query: "first_date=yesterday&last_date=today",
  },
  { op: "GET /installs/{install_id}/usage", title: "reads", status: 200, params: acmeprod },
  {
    op: "GET /installs/{install_id}/usage",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },
  {
    op: "POST /installs/{install_id}/usage/refresh_disk_usage",
    title: "starts a refresh",
    status: 200,
    params: acmeprod,
  },
  {
    op: "POST /installs/{install_id}/usage/refresh_disk_usage",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },

  {
    op: "GET /installs/{install_id}/offload_settings/largefs_validation_file",
    title: "reads",
    status: 200,
    params: acmeprod,
  },
  {
    op: "GET /installs/{install_id}/offload_settings/largefs_validation_file",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },

  {
    op: "POST /installs/{install_id}/purge_cache",
    title: "purges",
    status: 202,
    params: acmeprod,
    body: { type: "all" },
  },
  {
    op: "POST /installs/{install_id}/purge_cache",
    title: "an unknown type",
    status: 400,
    params: acmeprod,
    body: { type: "everything" },
  },
  {
    op: "POST /installs/{install_id}/purge_cache",
    title: "a second object-cache purge within 60 s",
    status: 429,
    params: acmeprod,
    prepare: async (sim) => {
      await must(sim, 202, "POST", `/v1/installs/${I.acmeprod.id}/purge_cache`, { type: "object" });
      return {};
    },
    body: { type: "object" },
  },
  {
    op: "POST /installs/{install_id}/purge_cache",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
    body: { type: "all" },
  },

  {
    op: "POST /installs/{install_id}/domains/{domain_id}/check_status",
    title: "starts a check",
    status: 202,
    params: acmeDomain,
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/check_status",
    title: "a second check within 5 s",
    status: 429,
    params: acmeDomain,
    prepare: statusCheck,
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/check_status",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
  },
  {
    op: "GET /installs/{install_id}/domains/check_status/{report_id}",
    title: "reads the report",
    status: 200,
    prepare: statusCheck,
  },
  {
    op: "GET /installs/{install_id}/domains/check_status/{report_id}",
    title: "an unknown report",
    status: 404,
    params: { ...acmeprod, report_id: UNKNOWN },
  },

  {
    op: "GET /installs/{install_id}/ssl_certificates",
    title: "lists",
    status: 200,
    params: { install_id: I.acmeblog.id },
    // An install without certificates answers 404 (the Swagger's "No SSL certs found"): order one first.
    prepare: async (sim) => {
      await must(
        sim,
        202,
        "POST",
        `/v1/installs/${I.acmeblog.id}/domains/${D.blogAcmeExample.id}/ssl_certificate`,
        order,
      );
      return {};
    },
  },
  {
    op: "GET /installs/{install_id}/ssl_certificates",
    title: "an unknown install",
    status: 404,
    params: { install_id: UNKNOWN },
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/ssl_certificate",
    title: "orders a Let's Encrypt certificate",
    status: 202,
    // Only a domain on the legacy network can have one (the others' certificates are managed).
    params: legacyDomain,
    body: order,
  },
  {
    op: "POST /installs/{install_id}/domains/{domain_id}/ssl_certificate",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
    body: order,
  },
  {
    op: "GET /installs/{install_id}/domains/{domain_id}/ssl_certificate",
    title: "reads the ordered certificate",
    status: 200,
    params: legacyDomain,
    prepare: async (sim) => {
      await must(
        sim,
        202,
        "POST",
        `/v1/installs/${I.acmeblog.id}/domains/${D.blogAcmeExample.id}/ssl_certificate`,
        order,
      );
      sim.advance(3600);
      return {};
    },
  },
  {
    op: "GET /installs/{install_id}/domains/{domain_id}/ssl_certificate",
    title: "an unknown domain",
    status: 404,
    params: { ...acmeprod, domain_id: UNKNOWN },
  },
];

/** Every case, by block. */
export const CASES: Record<Block, SwaggerCase[]> = { served: SERVED, sites: SITES, certs: CERTS };
