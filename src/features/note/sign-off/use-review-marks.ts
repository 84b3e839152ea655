import { useCallback, useState } from "react";

// The "reviewed" marks of the sign-off checklist, per note, for this browser
// tab: kept in sessionStorage so a reload keeps them (the keys name sections
// and counts, never patient data), gone with the tab.

const storageKey = (noteId: string) => `tandem:sign-off-reviewed:${noteId}`;

function load(noteId: string): Set<string> {
  try {
    const raw = sessionStorage.getItem(storageKey(noteId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === "string") : []);
  } catch {
    return new Set();
  }
}

export function useReviewMarks(noteId: string): { reviewed: ReadonlySet<string>; toggle: (key: string, isReviewed: boolean) => void } {
  const [reviewed, setReviewed] = useState(() => load(noteId));
  const toggle = useCallback(
    (key: string, isReviewed: boolean) => {
      setReviewed((current) => {
        const next = new Set(current);
        if (isReviewed) next.add(key);
        else next.delete(key);
        try {
          sessionStorage.setItem(storageKey(noteId), JSON.stringify([...next]));
        } catch {
          // Storage full or blocked: the marks last until the tab reloads.
        }
        return next;
      });
    },
    [noteId],
  );
  return { reviewed, toggle };
}
