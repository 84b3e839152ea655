import * as z from "zod/mini";
import { currentCacheIdentity, identityKey } from "./cache-identity.ts";

// Typed text kept from the keystroke until the BFF has it (DESIGN.md: nothing
// typed is lost): in this page's memory, so leaving a view and coming back
// finds it, and in sessionStorage where the browser lets the frame have it,
// so a reload finds it too; never localStorage (it may hold patient data).
// Kept under the organization and user who typed it (ADR 0025) and the form's
// subject (the note a task is for, the patient being added to the waitlist).

export interface KeptDrafts<T> {
  read(subject: string): T | null;
  keep(subject: string, draft: T): void;
  forget(subject: string): void;
  /** Every draft of this kind, of every identity, in memory and in storage: between tests. */
  forgetAll(): void;
}

export function keptDrafts<T>(kind: string, schema: z.ZodMiniType<T>): KeptDrafts<T> {
  const prefix = `tandem.${kind}.`;
  const inMemory = new Map<string, T>();
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
      const key = keyOf(subject);
      const held = inMemory.get(key);
      if (held !== undefined) return held;
      try {
        const raw = storage()?.getItem(key) ?? null;
        if (raw === null) return null;
        const parsed = z.safeParse(schema, JSON.parse(raw) as unknown);
        return parsed.success ? parsed.data : null;
      } catch {
        return null; // a mangled value
      }
    },
    keep(subject, draft) {
      const key = keyOf(subject);
      inMemory.set(key, draft);
      try {
        storage()?.setItem(key, JSON.stringify(draft));
      } catch {
        // kept in memory only (storage full or blocked)
      }
    },
    forget(subject) {
      const key = keyOf(subject);
      inMemory.delete(key);
      storage()?.removeItem(key);
    },
    forgetAll() {
      inMemory.clear();
      const stored = storage();
      if (stored === null) return;
      for (let index = stored.length - 1; index >= 0; index -= 1) {
        const key = stored.key(index);
        if (key?.startsWith(prefix)) stored.removeItem(key);
      }
    },
  };
}
