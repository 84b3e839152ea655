import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NoteDraftBody } from "#contract/app-api/note.ts";
import { QueryClient } from "@tanstack/react-query";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { pickDraft, readSessionDraft, removeSessionDraft, writeSessionDraft } from "./session-draft.ts";

const draft = (updatedAt: string, text = "Typed"): NoteDraftBody => ({ fields: { additionalHpiComments: text }, baseline: { additionalHpiComments: "" }, noteVersion: 3, updatedAt });

/** A tab's sessionStorage (the tests run without a DOM). */
function fakeSessionStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe("which stored draft is offered on open", () => {
  it("is none when neither the BFF nor this tab has one", () => {
    expect(pickDraft(null, null)).toEqual({ draft: null, where: null });
  });

  it("is the BFF's when this tab has none", () => {
    const fromBff = draft("2026-12-01T17:04:00.000Z");
    expect(pickDraft(fromBff, null)).toEqual({ draft: fromBff, where: "bff" });
  });

  it("is this tab's whenever it has one, whatever the two clocks stamped (a copy left holds text the BFF never acknowledged)", () => {
    const fromSession = draft("2026-12-01T17:05:00.000Z", "Typed, then a reload");
    expect(pickDraft(null, fromSession)).toEqual({ draft: fromSession, where: "session" });
    expect(pickDraft(draft("2026-12-01T17:04:00.000Z"), fromSession)).toEqual({ draft: fromSession, where: "session" });
    // The browser's clock behind the BFF's: before, the BFF's older text won and the sentence typed last was lost.
    expect(pickDraft(draft("2026-12-01T17:09:00.000Z", "Typed"), fromSession)).toEqual({ draft: fromSession, where: "session" });
  });
});

describe("this tab's copy", () => {
  let storage: ReturnType<typeof fakeSessionStorage>;
  beforeEach(() => {
    storage = fakeSessionStorage();
    vi.stubGlobal("window", { sessionStorage: storage });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is written with the time it was kept, read back, and removed, per note", () => {
    const body = { fields: { otherExamComments: "Warm" }, baseline: { otherExamComments: "" }, noteVersion: 7 };
    expect(writeSessionDraft("note-1", body)).toBe(true);
    expect(readSessionDraft("note-1")).toMatchObject(body);
    expect(readSessionDraft("note-2")).toBeNull();
    removeSessionDraft("note-1");
    expect(readSessionDraft("note-1")).toBeNull();
  });

  it("is none when the stored value is mangled", () => {
    writeSessionDraft("note-1", { fields: {}, baseline: {}, noteVersion: null });
    const [key] = storage.items.keys();
    if (key === undefined) throw new Error("nothing was written");
    storage.items.set(key, "{not json");
    expect(readSessionDraft("note-1")).toBeNull();
    storage.items.set(key, JSON.stringify({ fields: "nope" }));
    expect(readSessionDraft("note-1")).toBeNull();
  });

  it("belongs to the organization and user who typed it: the next user of the tab opening the same note is offered none of it", () => {
    const queryClient = new QueryClient();
    const body = { fields: { otherExamComments: "Typed by the first physician" }, baseline: { otherExamComments: "" }, noteVersion: 7 };
    switchCacheIdentity(queryClient, { organizationId: "org-a", userId: "physician-1" });
    writeSessionDraft("note-1", body);
    switchCacheIdentity(queryClient, { organizationId: "org-a", userId: "physician-2" });
    expect(readSessionDraft("note-1")).toBeNull();
    switchCacheIdentity(queryClient, { organizationId: "org-b", userId: "physician-1" });
    expect(readSessionDraft("note-1")).toBeNull();
    switchCacheIdentity(queryClient, { organizationId: "org-a", userId: "physician-1" });
    expect(readSessionDraft("note-1")).toMatchObject(body);
    switchCacheIdentity(queryClient, null);
  });

  it("cannot be kept where storage is blocked, and nothing fails", () => {
    vi.stubGlobal("window", {
      get sessionStorage(): never {
        throw new Error("blocked");
      },
    });
    expect(writeSessionDraft("note-1", { fields: {}, baseline: {}, noteVersion: null })).toBe(false);
    expect(readSessionDraft("note-1")).toBeNull();
    expect(() => removeSessionDraft("note-1")).not.toThrow();
  });
});
