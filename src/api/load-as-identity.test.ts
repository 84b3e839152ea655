import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { switchCacheIdentity } from "./cache-identity.ts";
import { loadAsCurrentIdentity } from "./load-as-identity.ts";

// A route loader's reads, across a change of organization or user (ADR 0025).

const FRONT_DESK = { organizationId: "org_a", userId: "front-desk" };
const PHYSICIAN = { organizationId: "org_a", userId: "physician" };

afterEach(() => switchCacheIdentity(new QueryClient(), null));

describe("loadAsCurrentIdentity", () => {
  it("passes on a read's failure while the identity stays: the route's error view says it", async () => {
    switchCacheIdentity(new QueryClient(), PHYSICIAN);
    const failure = new Error("the EHR did not answer");
    await expect(
      loadAsCurrentIdentity(() => {
        switchCacheIdentity(new QueryClient(), { ...PHYSICIAN });
        return Promise.reject(failure);
      }),
    ).rejects.toBe(failure);
  });

  it("drops a failure caused by another identity signing in meanwhile: the router loads again for the new one", async () => {
    switchCacheIdentity(new QueryClient(), PHYSICIAN);
    await expect(
      loadAsCurrentIdentity(() => {
        switchCacheIdentity(new QueryClient(), FRONT_DESK);
        return Promise.reject(new Error("cancelled: the identity changed"));
      }),
    ).resolves.toBeUndefined();
  });
});
