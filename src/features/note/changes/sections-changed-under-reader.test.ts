import { describe, expect, it } from "vitest";
import type { Note } from "#contract/clinic-api/note.ts";
import { buildNoteFixture } from "../reading/testing/note-fixture.ts";
import { dismissSectionMark, NO_SECTION_CHANGE_MARKS, sectionMarksAfter, sectionsChangedUnderReader, type SectionChangeMarks } from "./sections-changed-under-reader.ts";

const FIRST_SEEN = Date.parse("2026-12-01T14:05:00.000Z");
const LATER = Date.parse("2026-12-01T14:06:20.000Z");
const open = buildNoteFixture();
const withSoap = (note: Note, soapNote: Partial<Note["soapNote"]>, version = note.version + 1): Note => ({ ...note, version, soapNote: { ...note.soapNote, ...soapNote } });

describe("sectionsChangedUnderReader", () => {
  it("names the sections whose read-only content changed, in note order", () => {
    const after = withSoap(open, { dataReviewed: "Outside pathology report reviewed.", exam: { ...open.soapNote.exam, documentedExams: [] } });
    expect(sectionsChangedUnderReader(open, after)).toEqual(["exam", "data-reviewed"]);
  });

  it("leaves out the writable fields, which are marked at the field, and notes with the same content", () => {
    const after = withSoap(open, { exam: { ...open.soapNote.exam, otherExamComments: "Changed." }, stickyNote: { ...open.soapNote.stickyNote, description: "Changed." } });
    expect(sectionsChangedUnderReader(open, after)).toEqual([]);
    expect(sectionsChangedUnderReader(open, structuredClone(open))).toEqual([]);
  });
});

describe("sectionMarksAfter", () => {
  it("marks each changed section with the note as it was on screen before", () => {
    const after = withSoap(open, { dataReviewed: "Outside pathology report reviewed." });
    expect(sectionMarksAfter(NO_SECTION_CHANGE_MARKS, open, after, FIRST_SEEN)).toEqual({ "data-reviewed": { replaced: open, seenAtMs: FIRST_SEEN } });
  });

  it("a section changed twice shows what the reader last saw; other marks stay", () => {
    const once = withSoap(open, { dataReviewed: "First.", followUp: [] });
    const twice = withSoap(once, { dataReviewed: "Second." });
    const marks = sectionMarksAfter(sectionMarksAfter(NO_SECTION_CHANGE_MARKS, open, once, FIRST_SEEN), once, twice, LATER);
    expect(marks["data-reviewed"]).toEqual({ replaced: once, seenAtMs: LATER });
    expect(marks["follow-up"]).toEqual({ replaced: open, seenAtMs: FIRST_SEEN });
  });

  it("returns the same marks when no section changed", () => {
    const marks: SectionChangeMarks = { vitals: { replaced: open, seenAtMs: FIRST_SEEN } };
    expect(sectionMarksAfter(marks, open, { ...open, version: open.version + 1 }, LATER)).toBe(marks);
  });
});

describe("dismissSectionMark", () => {
  it("takes one section's mark away", () => {
    const marks: SectionChangeMarks = { vitals: { replaced: open, seenAtMs: FIRST_SEEN }, rx: { replaced: open, seenAtMs: FIRST_SEEN } };
    expect(Object.keys(dismissSectionMark(marks, "vitals"))).toEqual(["rx"]);
    expect(dismissSectionMark(marks, "tests")).toBe(marks);
  });
});
