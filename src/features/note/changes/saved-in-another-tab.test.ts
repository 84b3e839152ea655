import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { identityKey, switchCacheIdentity } from "#src/api/cache-identity.ts";
import { listenForSavesInOtherTabs, tellOtherTabsOfSave, wasSavedInAnotherTab } from "./saved-in-another-tab.ts";

// The user's other tab is a channel of its own on the same name, as another
// tab's frame would open it (Node has BroadcastChannel, as browsers do).

const NOTE = "0b7e6f3c-1d2a-4e5f-9a8b-7c6d5e4f3a2b";
const PHYSICIAN = { organizationId: "3b0f6a2e-5d41-4c8a-9e7b-1f2d3c4b5a61", userId: "9c1a6f98-f0fb-4012-a800-8dcbd76bd1c9" };
const COLLEAGUE = { ...PHYSICIAN, userId: "82fa219b-d9b4-43b8-b940-dd03f1e27496" };
const queryClient = new QueryClient();
const otherTabs: BroadcastChannel[] = [];

function otherTab(): BroadcastChannel {
  const tab = new BroadcastChannel("tandem.note-saves");
  otherTabs.push(tab);
  return tab;
}

/** A message delivered on the channel (delivery is asynchronous). */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  for (const tab of otherTabs.splice(0)) tab.close();
  switchCacheIdentity(queryClient, null);
});

describe("saves told to the user's other tabs", () => {
  it("a field another tab of the same user saved with this text is theirs; other text, another field or another note is not", async () => {
    switchCacheIdentity(queryClient, PHYSICIAN);
    listenForSavesInOtherTabs();
    otherTab().postMessage({ identity: identityKey(PHYSICIAN), noteId: NOTE, fields: { additionalHpiComments: "Typed in tab A." }, atMs: 0 });
    await delivered();
    expect(wasSavedInAnotherTab(NOTE, "additionalHpiComments", "Typed in tab A.")).toBe(true);
    expect(wasSavedInAnotherTab(NOTE, "additionalHpiComments", "Typed in tab A. And more.")).toBe(false);
    expect(wasSavedInAnotherTab(NOTE, "stickyNoteDescription", "Typed in tab A.")).toBe(false);
    expect(wasSavedInAnotherTab("another-note", "additionalHpiComments", "Typed in tab A.")).toBe(false);
  });

  it("another user's save on this workstation is not the reader's, and a message of another shape is ignored", async () => {
    switchCacheIdentity(queryClient, PHYSICIAN);
    listenForSavesInOtherTabs();
    const tab = otherTab();
    tab.postMessage({ identity: identityKey(COLLEAGUE), noteId: NOTE, fields: { otherExamComments: "Colleague's text." }, atMs: 0 });
    tab.postMessage({ noteId: NOTE, fields: { otherExamComments: "No identity." } });
    await delivered();
    expect(wasSavedInAnotherTab(NOTE, "otherExamComments", "Colleague's text.")).toBe(false);
    expect(wasSavedInAnotherTab(NOTE, "otherExamComments", "No identity.")).toBe(false);
  });

  it("a save sent from here reaches the user's other tabs, named by organization and user", async () => {
    switchCacheIdentity(queryClient, PHYSICIAN);
    const tab = otherTab();
    const heard: unknown[] = [];
    tab.onmessage = (event: MessageEvent<unknown>) => heard.push(event.data);
    tellOtherTabsOfSave(NOTE, { impressionsPlansComments: "Biopsy next week." });
    await delivered();
    expect(heard).toEqual([expect.objectContaining({ identity: identityKey(PHYSICIAN), noteId: NOTE, fields: { impressionsPlansComments: "Biopsy next week." } })]);
  });
});
