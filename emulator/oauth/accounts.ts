import { createHash } from "node:crypto";
import type { ServiceState } from "../service/service-state.ts";
import { ORG_A_ID, ORG_B_ID } from "../world/identities.ts";
import type { EhrOrganization, EhrProvider } from "../world/types.ts";

// The sandbox identity provider's accounts (DESIGN.md "Standalone mode"). An
// account is a person who signs in; in each organization they are one
// provider (EHR user) with roles. Derived from the seeded world on every
// read, without changing it: each active provider of every organization is
// an account of its own, except that the first Physician of org A and the
// first Physician of org B are linked as one person, so that one account has
// a clinical role in two organizations. That account keeps the org-A
// provider's name and email (the seeded world gave the two records different
// names; the link is the sandbox's, not the EHR's).

export interface AccountMembership {
  organizationId: string;
  organizationName: string;
  /** Raw UUID, as v1 gives it. */
  providerId: string;
  roles: string[];
}

export interface SandboxAccount {
  /** Stable for a seed: derived from the provider ids behind the account. */
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** As the EHR shows the (first) provider, e.g. "Dr. Jacob Brooks, MD". */
  displayName: string;
  /** Only active providers; an account without one cannot sign in and is not listed. */
  memberships: AccountMembership[];
}

interface Person {
  primary: { org: EhrOrganization; provider: EhrProvider };
  links: { org: EhrOrganization; provider: EhrProvider }[];
}

/** A UUID (version 5 layout) from a SHA-256 of the provider ids, so ids survive resets. */
function accountId(providerIds: readonly string[]): string {
  const hex = createHash("sha256").update(`sandbox-account|${providerIds.join("|")}`).digest("hex");
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `Riverside Health Partners` → `riverside-health-partners.example` (a reserved top-level domain). */
function emailDomain(organizationName: string): string {
  const label = organizationName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `${label || "clinic"}.example`;
}

function linkedPhysicians(state: ServiceState): { org: EhrOrganization; provider: EhrProvider }[] {
  // The seed lets only Physicians co-sign, and the sandbox's provider control
  // cannot change `canCosign`: picking by it keeps the link, and so the
  // account's id, when that Physician is given other roles.
  const pick = (organizationId: string) => {
    const org = state.org(organizationId)?.ehr;
    const provider = org?.providers.find((candidate) => candidate.canCosign);
    return org && provider ? { org, provider } : undefined;
  };
  const a = pick(ORG_A_ID);
  const b = pick(ORG_B_ID);
  return a && b ? [a, b] : [];
}

function people(state: ServiceState): Person[] {
  const linked = linkedPhysicians(state);
  const linkedIds = new Set(linked.map(({ provider }) => provider.id));
  const result: Person[] = [];
  const [primary, ...links] = linked;
  if (primary) result.push({ primary, links });
  for (const { ehr: org } of state.organizations()) {
    for (const provider of org.providers) if (!linkedIds.has(provider.id)) result.push({ primary: { org, provider }, links: [] });
  }
  return result;
}

function toAccount(person: Person): SandboxAccount {
  const all = [person.primary, ...person.links];
  const { org, provider } = person.primary;
  return {
    id: accountId(all.map((entry) => entry.provider.id)),
    email: `${provider.username}@${emailDomain(org.name)}`.toLowerCase(),
    firstName: provider.firstName,
    lastName: provider.lastName,
    displayName: `${provider.displayFirstName} ${provider.displayLastName}`.trim(),
    memberships: all
      .filter((entry) => entry.provider.active)
      .map((entry) => ({ organizationId: entry.org.id, organizationName: entry.org.name, providerId: entry.provider.id, roles: [...entry.provider.roles] })),
  };
}

/** Every account that can sign in: the multi-organization account first, then by organization and roster. */
export function sandboxAccounts(state: ServiceState): SandboxAccount[] {
  return people(state)
    .map(toAccount)
    .filter((account) => account.memberships.length > 0);
}

export function findAccount(state: ServiceState, id: string): SandboxAccount | undefined {
  const wanted = id.toLowerCase();
  return sandboxAccounts(state).find((account) => account.id === wanted);
}

/** The account a provider signs in with. */
export function accountOfProvider(state: ServiceState, providerId: string): SandboxAccount | undefined {
  const wanted = providerId.toLowerCase();
  return sandboxAccounts(state).find((account) => account.memberships.some((membership) => membership.providerId === wanted));
}

/** The account that is a Physician in both org A and org B (the app's organization picker then has two choices). */
export function findMultiOrgAccount(state: ServiceState): SandboxAccount {
  const account = sandboxAccounts(state).find((candidate) =>
    [ORG_A_ID, ORG_B_ID].every((organizationId) => candidate.memberships.some((membership) => membership.organizationId === organizationId)),
  );
  if (!account) throw new Error("the sandbox has no account in both org A and org B");
  return account;
}

/** The first account that belongs to one organization only, with that role there (e.g. org A's "Front Desk"). */
export function findSingleOrgAccount(state: ServiceState, organizationId: string, role: string): SandboxAccount {
  const account = sandboxAccounts(state).find(
    (candidate) => candidate.memberships.length === 1 && candidate.memberships[0]?.organizationId === organizationId && candidate.memberships[0].roles.includes(role),
  );
  if (!account) throw new Error(`the sandbox has no single-organization ${role} account in ${organizationId}`);
  return account;
}

/** "Dr. Jacob Brooks, MD — Physician at Riverside Health Partners; Physician at Harbourside Medical Group". */
export function accountLabel(account: SandboxAccount): string {
  const roles = account.memberships.map((membership) => `${membership.roles.join(", ") || "no role"} at ${membership.organizationName}`);
  return `${account.displayName} — ${roles.join("; ")}`;
}
