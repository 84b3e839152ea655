import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { idKey } from "#contract/ids.ts";
import { currentCacheIdentity, identityKey } from "#src/api/cache-identity.ts";

// A clinician's save in one tab reaches their other tabs of the note as a
// change under the reader (changes-under-reader.ts). Told as "changed in the
// EHR", it reads as someone else's doing. So each confirmed save is told to
// the user's other tabs in this browser (BroadcastChannel: the same origin
// inside the same host page), and a field whose new text is what one of them
// saved moments ago is marked as the reader's own save. Only the identity
// signed in when the save was confirmed counts (a shared workstation), and
// only for a while: later the same text is the EHR's again as far as anyone
// here can tell. A browser without BroadcastChannel marks every change as the
// EHR's, as before.

const CHANNEL_NAME = "tandem.note-saves";
/** A save older than this no longer explains a change: the next re-read comes within 20 s (note-queries.ts). */
const REMEMBER_MS = 120_000;

interface SaveMessage {
  identity: string;
  noteId: string;
  fields: Partial<Record<WritableNoteField, string>>;
  atMs: number;
}

const heard: SaveMessage[] = [];
let channel: BroadcastChannel | null | undefined;

function isSaveMessage(value: unknown): value is SaveMessage {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Partial<SaveMessage>;
  return typeof message.identity === "string" && typeof message.noteId === "string" && typeof message.atMs === "number" && typeof message.fields === "object" && message.fields !== null;
}

function forget(nowMs: number): void {
  while (heard.length > 0 && (heard[0]?.atMs ?? nowMs) < nowMs - REMEMBER_MS) heard.shift();
}

/** The tab's channel, opened on first use; null where the browser has none. */
function channelNow(): BroadcastChannel | null {
  if (channel !== undefined) return channel;
  channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL_NAME) : null;
  channel?.addEventListener("message", (event: MessageEvent<unknown>) => {
    if (!isSaveMessage(event.data)) return;
    forget(Date.now());
    heard.push({ ...event.data, atMs: Date.now() });
  });
  return channel;
}

/** Starts listening for the other tabs' saves (call once the note is open: a save heard before is not missed). */
export function listenForSavesInOtherTabs(): void {
  channelNow();
}

/** This tab is sending a save of `fields` to the EHR: tells the user's other tabs. */
export function tellOtherTabsOfSave(noteId: string, fields: Partial<Record<WritableNoteField, string>>): void {
  const identity = currentCacheIdentity();
  if (identity === null) return;
  const message: SaveMessage = { identity: identityKey(identity), noteId: idKey(noteId), fields, atMs: Date.now() };
  channelNow()?.postMessage(message);
}

/** Whether the user sent `text` into the note's `field` from another tab lately. */
export function wasSavedInAnotherTab(noteId: string, field: WritableNoteField, text: string): boolean {
  const identity = currentCacheIdentity();
  if (identity === null) return false;
  forget(Date.now());
  const key = identityKey(identity);
  return heard.some((save) => save.identity === key && save.noteId === idKey(noteId) && save.fields[field] === text);
}
