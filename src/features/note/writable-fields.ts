import { WRITABLE_NOTE_FIELDS, type WritableNoteField } from "#contract/clinic-api/note.ts";

// The four fields the service lets Tandem write (seed 001 PATCH /v1/notes),
// with the label and the note section each sits in. Shared by the reading
// view (which places an editor in each field's section), the editor and the
// sign-off panel.

export { WRITABLE_NOTE_FIELDS, type WritableNoteField };

export interface WritableFieldInfo {
  field: WritableNoteField;
  label: string;
  /** The id of the section element the field is edited in (see note-sections.ts). */
  sectionId: string;
  /** The id of the field's textarea, for links from the sign-off panel. */
  inputId: string;
}

export const WRITABLE_FIELD_INFO: Record<WritableNoteField, WritableFieldInfo> = {
  additionalHpiComments: { field: "additionalHpiComments", label: "Additional HPI comments", sectionId: "section-hpi", inputId: "field-additionalHpiComments" },
  otherExamComments: { field: "otherExamComments", label: "Other exam comments", sectionId: "section-exam", inputId: "field-otherExamComments" },
  impressionsPlansComments: { field: "impressionsPlansComments", label: "Impressions and plans comments", sectionId: "section-impressions-plans", inputId: "field-impressionsPlansComments" },
  stickyNoteDescription: { field: "stickyNoteDescription", label: "Sticky note", sectionId: "section-sticky-note", inputId: "field-stickyNoteDescription" },
};
