/**
 * Lookups of accounts, the calling API user and its SSH keys (see `lookups.ts` for the conventions:
 * every page followed, a `...Output` form of each).
 */
import type { Account, SshKey, User } from "../../sdk";
import { clientOf, collect, type LookupOptions, limitOf, outputOf } from "./common";

/** An account the caller has a role on. */
export interface AccountInfo {
  /** The account's UUID. */
  id: string;
  /** The account name. */
  name: string | null;
  /** The account nickname. */
  nickname: string | null;
}

export function toAccountInfo(a: Account): AccountInfo {
  return { id: a.id, name: a.name ?? null, nickname: a.nickname ?? null };
}

/** The API user the provider authenticates as. */
export interface CurrentUserInfo {
  /** The user's UUID. */
  id: string;
  /** First name. */
  firstName: string | null;
  /** Last name. */
  lastName: string | null;
  /** Email address. */
  email: string | null;
  /** Phone number. */
  phoneNumber: string | null;
}

export function toCurrentUserInfo(u: User): CurrentUserInfo {
  return {
    id: u.id,
    firstName: u.first_name ?? null,
    lastName: u.last_name ?? null,
    email: u.email ?? null,
    phoneNumber: u.phone_number ?? null,
  };
}

/** An SSH key of the API user. */
export interface SshKeyInfo {
  /** The key's UUID. */
  id: string;
  /** The key's comment. */
  comment: string | null;
  /** MD5 fingerprint (`a1:b2:...`). */
  fingerprint: string | null;
  /** When the key was added. */
  createdAt: string | null;
}

export function toSshKeyInfo(k: SshKey): SshKeyInfo {
  return {
    id: k.uuid,
    comment: k.comment ?? null,
    fingerprint: k.fingerprint ?? null,
    createdAt: k.created_at ?? null,
  };
}

/** Every account the API user has a role on. */
export async function getAccounts(_args: object = {}, options?: LookupOptions): Promise<AccountInfo[]> {
  const client = await clientOf(options);
  return collect(client.accounts.iterate(limitOf(options)), toAccountInfo);
}
export const getAccountsOutput = outputOf(getAccounts);

/** One account. */
export async function getAccount(args: { accountId: string }, options?: LookupOptions): Promise<AccountInfo> {
  return toAccountInfo(await (await clientOf(options)).accounts.get(args.accountId));
}
export const getAccountOutput = outputOf(getAccount);

/** The API user the provider authenticates as (whose SSH keys `SshKey` manages). */
export async function getCurrentUser(_args: object = {}, options?: LookupOptions): Promise<CurrentUserInfo> {
  return toCurrentUserInfo(await (await clientOf(options)).accounts.currentUser());
}
export const getCurrentUserOutput = outputOf(getCurrentUser);

/** Every SSH key of the API user. */
export async function getSshKeys(_args: object = {}, options?: LookupOptions): Promise<SshKeyInfo[]> {
  const client = await clientOf(options);
  return collect(client.sshKeys.iterate(limitOf(options)), toSshKeyInfo);
}
export const getSshKeysOutput = outputOf(getSshKeys);
