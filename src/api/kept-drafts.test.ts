import { QueryClient } from "@tanstack/react-query";
import * as z from "zod/mini";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { switchCacheIdentity, type CacheIdentity } from "./cache-identity.ts";
import { keptDrafts } from "./kept-drafts.ts";

// Typed text kept until the BFF has it: found again by a later page of the
// same tab (a reload reads sessionStorage), only by the identity that typed it,
// and kept in the page's memory where the browser refuses the frame storage.

const PHYSICIAN: CacheIdentity = { organizationId: "org_a", userId: "physician" };
const COLLEAGUE: CacheIdentity = { organizationId: "org_a", userId: "colleague" };
const draftSchema = z.object({ text: z.string() });
type Draft = z.infer<typeof draftSchema>;

/** A tab's sessionStorage (the tests run without a DOM). */
function fakeSessionStorage(): Storage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
}

let storage: ReturnType<typeof fakeSessionStorage>;
beforeEach(() => {
  storage = fakeSessionStorage();
  vi.stubGlobal("window", { sessionStorage: storage });
  switchCacheIdentity(new QueryClient(), PHYSICIAN);
});
afterEach(() => {
  vi.unstubAllGlobals();
  switchCacheIdentity(new QueryClient(), null);
});

describe("kept drafts", () => {
  it("are found by the page after a reload (another instance reading the tab's storage), per subject", () => {
    keptDrafts<Draft>("test-draft", draftSchema).keep("note-1", { text: "Call the patient" });
    const afterReload = keptDrafts<Draft>("test-draft", draftSchema);
    expect(afterReload.read("note-1")).toEqual({ text: "Call the patient" });
    expect(afterReload.read("note-2")).toBeNull();
  });

  it("are not found by another user of the same tab, and are there again for the one who typed them", () => {
    const drafts = keptDrafts<Draft>("test-draft", draftSchema);
    drafts.keep("note-1", { text: "Call the patient" });
    switchCacheIdentity(new QueryClient(), COLLEAGUE);
    expect(drafts.read("note-1")).toBeNull();
    expect(keptDrafts<Draft>("test-draft", draftSchema).read("note-1")).toBeNull();
    switchCacheIdentity(new QueryClient(), PHYSICIAN);
    expect(drafts.read("note-1")).toEqual({ text: "Call the patient" });
  });

  it("are gone once forgotten, from memory and from the tab's storage", () => {
    const drafts = keptDrafts<Draft>("test-draft", draftSchema);
    drafts.keep("note-1", { text: "Call the patient" });
    drafts.forget("note-1");
    expect(drafts.read("note-1")).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it("read as none when the stored value is mangled or of another shape", () => {
    keptDrafts<Draft>("test-draft", draftSchema).keep("note-1", { text: "Call the patient" });
    const [key] = storage.items.keys();
    storage.items.set(key ?? "", "{not json");
    expect(keptDrafts<Draft>("test-draft", draftSchema).read("note-1")).toBeNull();
    storage.items.set(key ?? "", JSON.stringify({ text: 42 }));
    expect(keptDrafts<Draft>("test-draft", draftSchema).read("note-1")).toBeNull();
  });

  it("are kept in the page's memory where the browser refuses the frame its storage", () => {
    vi.stubGlobal("window", {
      get sessionStorage(): Storage {
        throw new DOMException("Access is denied for this document.", "SecurityError");
      },
    });
    const drafts = keptDrafts<Draft>("test-draft", draftSchema);
    drafts.keep("note-1", { text: "Call the patient" });
    expect(drafts.read("note-1")).toEqual({ text: "Call the patient" });
    drafts.forget("note-1");
    expect(drafts.read("note-1")).toBeNull();
  });

  it("are kept in the page's memory when the tab's storage is full", () => {
    storage.setItem = () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
    const drafts = keptDrafts<Draft>("test-draft", draftSchema);
    drafts.keep("note-1", { text: "Call the patient" });
    expect(drafts.read("note-1")).toEqual({ text: "Call the patient" });
  });

  it("forgetAll removes every identity's drafts of its kind and nothing of another kind", () => {
    const drafts = keptDrafts<Draft>("test-draft", draftSchema);
    drafts.keep("note-1", { text: "Mine" });
    switchCacheIdentity(new QueryClient(), COLLEAGUE);
    drafts.keep("note-1", { text: "Theirs" });
    keptDrafts<Draft>("other-draft", draftSchema).keep("note-1", { text: "Other kind" });
    drafts.forgetAll();
    expect(drafts.read("note-1")).toBeNull();
    expect([...storage.items.keys()]).toEqual([expect.stringMatching(/^tandem\.other-draft\./)]);
  });
});
