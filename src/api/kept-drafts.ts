import * as z from "zod/mini";
import { currentCacheIdentity, identityKey } from "./cache-identity.ts";

// Typed text kept from the keystroke until the BFF has it (DESIGN.md: nothing
// typed is lost), in this tab's sessionStorage where the browser lets the
// frame have it, so a reload finds it; never localStorage (it may hold patient
// data). Kept under the organization and user who typed it (ADR 0025) and a
// subject (the note, the patient being added to the waitlist).

/** One kind of copy in this tab's sessionStorage; storage blocked, full or mangled reads as nothing kept. */
export interface TabCopies<T> {
  read(subject: string): T | null;
  /** Whether the tab kept it (false where the browser refuses the frame its storage, or it is full). */
  write(subject: string, value: T): boolean;
  remove(subject: string): void;
  /** Every copy of this kind, of every identity. */
  removeAll(): void;
}

export function tabCopies<T>(kind: string, schema: z.ZodMiniType<T>): TabCopies<T> {
  const prefix = `tandem.${kind}.`;
  const keyOf = (subject: string) => `${prefix}${identityKey(currentCacheIdentity())}.${subject}`;
  const storage = (): Storage | null => {
    try {
      return window.sessionStorage;
    } catch {
      return null; // blocked for a cross-site frame
    }
  };
  return {
    read(subject) {
      try {
        const raw = storage()?.getItem(keyOf(subject)) ?? null;
        if (raw === null) return null;
        const parsed = z.safeParse(schema, JSON.parse(raw) as unknown);
        return parsed.success ? parsed.data : null;
      } catch {
        return null; // a mangled value
      }
    },
    write(subject, value) {
      const stored = storage();
      if (stored === null) return false;
      try {
        stored.setItem(keyOf(subject), JSON.stringify(value));
        return true;
      } catch {
        return false; // storage full
      }
    },
    remove(subject) {
      storage()?.removeItem(keyOf(subject));
    },
    removeAll() {
      removeTabKeysStartingWith(prefix);
    },
  };
}

/** A form's drafts: in this page's memory too, so leaving a view and coming back finds them where the tab keeps none. */
export interface KeptDrafts<T> {
  read(subject: string): T | null;
  keep(subject: string, draft: T): void;
  forget(subject: string): void;
  /** Every draft of this kind, of every identity, in memory and in storage: between tests. */
  forgetAll(): void;
}

export function keptDrafts<T>(kind: string, schema: z.ZodMiniType<T>): KeptDrafts<T> {
  const inTab = tabCopies(kind, schema);
  const inMemory = new Map<string, T>();
  const memoryKey = (subject: string) => `${identityKey(currentCacheIdentity())}.${subject}`;
  return {
    read: (subject) => inMemory.get(memoryKey(subject)) ?? inTab.read(subject),
    keep(subject, draft) {
      inMemory.set(memoryKey(subject), draft);
      inTab.write(subject, draft);
    },
    forget(subject) {
      inMemory.delete(memoryKey(subject));
      inTab.remove(subject);
    },
    forgetAll() {
      inMemory.clear();
      inTab.removeAll();
    },
  };
}

/**
 * After a sign-out: every copy Tandem keeps in this tab, of every identity
 * and kind (drafts, the last slot search, the offers put away), so nothing of
 * the user stays on a shared workstation. Every such key starts with "tandem.".
 */
export function forgetEverythingThisTabKeeps(): void {
  removeTabKeysStartingWith("tandem.");
}

function removeTabKeysStartingWith(prefix: string): void {
  try {
    const stored = window.sessionStorage;
    for (let index = stored.length - 1; index >= 0; index -= 1) {
      const key = stored.key(index);
      if (key?.startsWith(prefix)) stored.removeItem(key);
    }
  } catch {
    // blocked for a cross-site frame: nothing was kept
  }
}
