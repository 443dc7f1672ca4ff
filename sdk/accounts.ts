/** Accounts the caller has a role on, and the calling API user. */
import { z } from "zod";
import { EnvelopeListing } from "./core/listing";
import type { Page } from "./core/pagination";
import { path } from "./core/path";
import type { Transport } from "./core/transport";
import { validateInput } from "./core/validate";

/** An account. */
export const AccountSchema = z.looseObject({
  /** The account's UUID. */
  id: z.string(),
  /** The account name. */
  name: z.string().nullish(),
  /** The account nickname. */
  nickname: z.string().nullish(),
});
/** An account. */
export type Account = z.infer<typeof AccountSchema>;

/** The authenticated API user (`GET /user`). */
export const UserSchema = z.looseObject({
  /** The user's UUID. */
  id: z.string(),
  /** First name. */
  first_name: z.string().nullish(),
  /** Last name. */
  last_name: z.string().nullish(),
  /** Email address. */
  email: z.string().nullish(),
  /** Phone number. */
  phone_number: z.string().nullish(),
});
/** The authenticated API user. */
export type User = z.infer<typeof UserSchema>;

/** Query of `GET /accounts`. */
export const ListAccountsParamsSchema = z.strictObject({
  /** Records per page, 1 to 100. */
  limit: z.number().int().min(1).max(100).optional(),
  /** Index of the first record. */
  offset: z.number().int().min(0).optional(),
});
/** Query of `GET /accounts`. */
export type ListAccountsParams = z.infer<typeof ListAccountsParamsSchema>;

/** Operations on accounts and the current user. */
export class Accounts {
  readonly #list: EnvelopeListing<Account>;

  constructor(private readonly transport: Transport) {
    this.#list = new EnvelopeListing(transport, AccountSchema);
  }

  /** Lists one page of the accounts the caller has a role on. */
  async list(params: ListAccountsParams = {}): Promise<Page<Account>> {
    const p = validateInput("accounts.list", ListAccountsParamsSchema, params);
    return this.#list.page("/accounts", { limit: p.limit, offset: p.offset });
  }

  /** Iterates every account the caller has a role on, following the pages. */
  iterate(params: Omit<ListAccountsParams, "offset"> = {}): AsyncIterable<Account> {
    const p = validateInput("accounts.iterate", ListAccountsParamsSchema, params);
    return this.#list.all("/accounts", { limit: p.limit });
  }

  /** Reads one account. */
  async get(accountId: string): Promise<Account> {
    return this.transport.request({ method: "GET", path: path`/accounts/${accountId}` }, AccountSchema);
  }

  /** The API user the client authenticates as. */
  async currentUser(): Promise<User> {
    return this.transport.request({ method: "GET", path: "/user" }, UserSchema);
  }
}
