import { describe, expect, it } from "vitest";
import { personKeyOf, providerOfPersonKey } from "./person-key.ts";

const PROVIDER = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f";

describe("personKeyOf", () => {
  it("is the provider's, whichever account signed in: a host token's sub and a standalone account's give one key", () => {
    const inEhr = personKeyOf({ providerId: PROVIDER, accountId: PROVIDER });
    const outside = personKeyOf({ providerId: PROVIDER, accountId: "acct-7f3e" });
    expect(inEhr).toBe(`provider:${PROVIDER}`);
    expect(outside).toBe(inEhr);
  });

  it("reads the provider id in either form and any case as one", () => {
    const prefixed = `prv_${PROVIDER.replaceAll("-", "")}`;
    expect(personKeyOf({ providerId: prefixed, accountId: "a" })).toBe(`provider:${PROVIDER}`);
    expect(personKeyOf({ providerId: PROVIDER.toUpperCase(), accountId: "a" })).toBe(`provider:${PROVIDER}`);
  });

  it("falls back to the account only where no provider id exists, and never as a provider's key", () => {
    expect(personKeyOf({ providerId: null, accountId: PROVIDER })).toBe(`account:${PROVIDER}`);
    expect(personKeyOf({ providerId: " ", accountId: "acct-1" })).toBe("account:acct-1");
    expect(personKeyOf({ providerId: null, accountId: PROVIDER })).not.toBe(personKeyOf({ providerId: PROVIDER, accountId: PROVIDER }));
  });

  it("keeps two accounts without a provider apart", () => {
    expect(personKeyOf({ providerId: null, accountId: "acct-1" })).not.toBe(personKeyOf({ providerId: null, accountId: "acct-2" }));
  });
});

describe("providerOfPersonKey", () => {
  it("names the provider of a provider's key, and none for an account's key or a `sub` from before person keys", () => {
    expect(providerOfPersonKey(personKeyOf({ providerId: PROVIDER, accountId: "a" }))).toBe(PROVIDER);
    expect(providerOfPersonKey("account:acct-1")).toBeNull();
    expect(providerOfPersonKey(PROVIDER)).toBeNull();
  });
});
