import { idKey } from "#contract/ids.ts";

// One person is one user (ADR 0024). Tandem keeps a user's holds, drafts,
// last views of notes and recent notes under a person key, the same whether
// they came in through the EHR (a host token) or signed in outside it (a
// standalone session): both name the user's provider in the organization,
// and the provider is who the user is to the EHR. The key is only ever used
// beside the verified organization (every row that holds it is keyed by the
// organization too), so one provider id in two organizations is two people.
// The account that signed in (the host token's or the id_token's `sub`)
// stays in the audit trail as who acted.

const PROVIDER_PREFIX = "provider:";
const ACCOUNT_PREFIX = "account:";

/**
 * `provider:<raw UUID>` from the user's provider in the organization (either
 * form of the id, any case); only without one, `account:<sub>`, which links
 * nothing: that account is a person of its own.
 */
export function personKeyOf(identity: { providerId: string | null; accountId: string }): string {
  const providerId = identity.providerId?.trim() ?? "";
  return providerId === "" ? `${ACCOUNT_PREFIX}${identity.accountId}` : `${PROVIDER_PREFIX}${idKey(providerId)}`;
}

/** The provider a person key names, or null (an account's own key, or a key from before person keys: an account's `sub`). */
export function providerOfPersonKey(key: string): string | null {
  return key.startsWith(PROVIDER_PREFIX) ? key.slice(PROVIDER_PREFIX.length) : null;
}
