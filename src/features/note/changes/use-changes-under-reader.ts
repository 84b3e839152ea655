import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Note, WritableNoteField } from "#contract/clinic-api/note.ts";
import type { NoteSectionKey } from "#contract/note/section-digests.ts";
import { WRITABLE_FIELD_INFO } from "../writable-fields.ts";
import { changeAnnouncement, dismissMark, fieldsChangedUnderReader, marksAfter, NO_CHANGE_MARKS, shownFieldsOf, type ChangeMarks, type ShownFields } from "./changes-under-reader.ts";
import { listenForSavesInOtherTabs, wasSavedInAnotherTab } from "./saved-in-another-tab.ts";
import { sectionTitleOf } from "./section-links.ts";
import { dismissSectionMark, NO_SECTION_CHANGE_MARKS, sectionMarksAfter, sectionsChangedUnderReader, type SectionChangeMarks } from "./sections-changed-under-reader.ts";

// The marks of what changed under the reader, kept for the open note: the
// writable fields as the editor shows them (changes-under-reader.ts) and the
// sections' read-only content as the note shows it
// (sections-changed-under-reader.ts), each screen compared with the one
// before. They live in the note's view, so leaving the note ends them.

export interface ChangesUnderReader {
  fields: ChangeMarks;
  sections: SectionChangeMarks;
  /** The latest polite announcement for screen readers ("… was changed in the EHR just now."), numbered so the same words said again are a new announcement. */
  announcement: Announcement;
  dismissField: (field: WritableNoteField) => void;
  dismissSection: (key: NoteSectionKey) => void;
}

export interface Announcement {
  text: string;
  count: number;
}

interface Screen {
  fields: ShownFields;
  note: Note;
}

export function useChangesUnderReader(note: Note, values: Readonly<Record<WritableNoteField, string>>, editing: readonly WritableNoteField[]): ChangesUnderReader {
  const screen = useMemo((): Screen => ({ fields: shownFieldsOf(values, editing), note }), [note, values, editing]);
  const previous = useRef<Screen>(screen);
  const [fields, setFields] = useState<ChangeMarks>(NO_CHANGE_MARKS);
  const [sections, setSections] = useState<SectionChangeMarks>(NO_SECTION_CHANGE_MARKS);
  const [announcement, setAnnouncement] = useState<Announcement>({ text: "", count: 0 });

  useEffect(listenForSavesInOtherTabs, []);

  useEffect(() => {
    const before = previous.current;
    previous.current = screen;
    const changedFields = fieldsChangedUnderReader(before.fields, screen.fields);
    const changedSections = sectionsChangedUnderReader(before.note, screen.note);
    const seenAtMs = Date.now();
    const ownSaves = changedFields.filter((field) => wasSavedInAnotherTab(screen.note.id, field, screen.fields[field].text));
    // On every screen: typing in a field also ends the mark of the reader's own save there (marksAfter).
    setFields((current) => marksAfter(current, before.fields, screen.fields, seenAtMs, (field) => ownSaves.includes(field)));
    if (changedFields.length === 0 && changedSections.length === 0) return;
    setSections((current) => sectionMarksAfter(current, before.note, screen.note, seenAtMs));
    const text = changeAnnouncement(
      [...changedSections.map(sectionTitleOf), ...changedFields.filter((field) => !ownSaves.includes(field)).map((field) => WRITABLE_FIELD_INFO[field].label)],
      ownSaves.map((field) => WRITABLE_FIELD_INFO[field].label),
    );
    setAnnouncement((current) => ({ text, count: current.count + 1 }));
  }, [screen]);

  const dismissField = useCallback((field: WritableNoteField) => setFields((current) => dismissMark(current, field)), []);
  const dismissSection = useCallback((key: NoteSectionKey) => setSections((current) => dismissSectionMark(current, key)), []);
  return { fields, sections, announcement, dismissField, dismissSection };
}
