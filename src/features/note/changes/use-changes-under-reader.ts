import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import { changeAnnouncement, dismissMark, fieldsChangedUnderReader, marksAfter, NO_CHANGE_MARKS, shownFieldsOf, type ChangeMarks, type ShownFields } from "./changes-under-reader.ts";

// The marks of fields changed under the reader (changes-under-reader.ts),
// kept for the open note: each screen of the editor is compared with the one
// before. They live in the note's view, so leaving the note ends them.

export interface ChangesUnderReader {
  marks: ChangeMarks;
  /** The latest polite announcement for screen readers ("… was changed in the EHR just now."). */
  announcement: string;
  dismiss: (field: WritableNoteField) => void;
}

export function useChangesUnderReader(values: Readonly<Record<WritableNoteField, string>>, editing: readonly WritableNoteField[]): ChangesUnderReader {
  const shown = useMemo(() => shownFieldsOf(values, editing), [values, editing]);
  const previous = useRef<ShownFields>(shown);
  const [marks, setMarks] = useState<ChangeMarks>(NO_CHANGE_MARKS);
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    const before = previous.current;
    previous.current = shown;
    const changed = fieldsChangedUnderReader(before, shown);
    if (changed.length === 0) return;
    const seenAtMs = Date.now();
    setMarks((current) => marksAfter(current, before, shown, seenAtMs));
    setAnnouncement(changeAnnouncement(changed.map((field) => WRITABLE_FIELD_INFO[field].label)));
  }, [shown]);

  const dismiss = useCallback((field: WritableNoteField) => setMarks((current) => dismissMark(current, field)), []);
  return { marks, announcement, dismiss };
}
