import type { Query, QueryClient } from "@tanstack/react-query";

// Whose data the query cache holds (ADR 0025): the organization and the user
// the BFF answers as. Every key of the organization's data starts with them
// (query-keys.ts), so two identities' reads never share an entry. When the
// identity changes (another organization or user in the EHR, another
// organization chosen outside it, a sign-out), the previous identity's
// entries are removed, not invalidated: nothing of them can be drawn again,
// not even for a moment while the new identity's reads are on their way.

export interface CacheIdentity {
  organizationId: string;
  /** The account that signed in: the host token's `sub`, or the standalone sign-in's email. */
  userId: string;
}

/** The first part of every key of the organization's data. */
export const ORGANIZATION_ROOT = "organization";

/** Before anyone is signed in (or after a sign-out): keys still have a shape, and nothing read is kept under them. */
const NOBODY = "nobody";

let current: CacheIdentity | null = null;
const listeners = new Set<(identity: CacheIdentity | null) => void>();

/** Called after each change of identity (the previous one's entries are gone by then); returns the unsubscribe. */
export function onCacheIdentityChange(listener: (identity: CacheIdentity | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentCacheIdentity(): CacheIdentity | null {
  return current;
}

export function sameIdentity(a: CacheIdentity | null, b: CacheIdentity | null): boolean {
  return a === b || (a !== null && b !== null && a.organizationId === b.organizationId && a.userId === b.userId);
}

/** The prefix of every key of `identity`'s data. */
export function identityRoot(identity: CacheIdentity | null) {
  return [ORGANIZATION_ROOT, identity?.organizationId ?? NOBODY, identity?.userId ?? NOBODY] as const;
}

/** A string naming the identity, for a React `key` that remounts what was drawn for another one. */
export function identityKey(identity: CacheIdentity | null): string {
  return identityRoot(identity).join("|");
}

function belongsToAnotherIdentity(query: Query, identity: CacheIdentity | null): boolean {
  const [root, organizationId, userId] = identityRoot(identity);
  const [queryRoot, queryOrganizationId, queryUserId] = query.queryKey;
  return queryRoot === root && (queryOrganizationId !== organizationId || queryUserId !== userId);
}

/**
 * Makes `next` the identity the cache holds data for, and removes every entry
 * of any other one (cancelling its reads in flight: an answer that still
 * arrives lands in an entry no longer in the cache). Call it at the moment the
 * identity changes, before anything renders for the new one. Nothing happens
 * when the identity is the same.
 */
export function switchCacheIdentity(queryClient: QueryClient, next: CacheIdentity | null): void {
  if (sameIdentity(current, next)) return;
  current = next;
  const predicate = (query: Query) => belongsToAnotherIdentity(query, next);
  void queryClient.cancelQueries({ predicate });
  queryClient.removeQueries({ predicate });
  for (const listener of [...listeners]) listener(next);
}
