import { describe, expect, it } from "vitest";
import { buildNoteOutline, IMAGES_ID, listedTaskCount, SIGN_OFF_ID, SUMMARY_ID, TASKS_ID } from "./note-outline.ts";
import { buildNoteFixture } from "./reading/testing/note-fixture.ts";
import { NOTE_SECTIONS } from "./reading/note-sections.ts";

describe("buildNoteOutline", () => {
  it("lists every part of the note view top to bottom, tasks and images included", () => {
    const outline = buildNoteOutline(buildNoteFixture(), { tasks: 2, images: 0 });
    expect(outline.entries.map((entry) => entry.id)).toEqual([SUMMARY_ID, SIGN_OFF_ID, ...NOTE_SECTIONS.map((section) => section.id), TASKS_ID, IMAGES_ID]);
    expect(outline.entries.at(-2)).toEqual({ id: TASKS_ID, title: "Tasks", marker: "(2)", isEmpty: false });
    expect(outline.entries.at(-1)).toEqual({ id: IMAGES_ID, title: "Images", marker: "(none)", isEmpty: true });
  });

  it("marks empty sections in text and counts the ones with content", () => {
    const outline = buildNoteOutline(buildNoteFixture(), { tasks: null, images: null });
    expect(outline.entries.filter((entry) => entry.marker === "(empty)").map((entry) => entry.id)).toEqual(["section-addenda"]);
    expect(outline.summary).toBe(`${NOTE_SECTIONS.length - 1} of ${NOTE_SECTIONS.length} sections with content`);
  });

  it("says nothing about a count it does not know yet", () => {
    const outline = buildNoteOutline(buildNoteFixture(), { tasks: null, images: null });
    expect(outline.entries.filter((entry) => entry.id === TASKS_ID || entry.id === IMAGES_ID).map((entry) => entry.marker)).toEqual([null, null]);
  });

  it("counts a task the EHR has not confirmed with the tasks: the panel lists it, so the outline never says none (found walking a 502 on a task)", () => {
    expect(listedTaskCount({ tasks: [], unconfirmed: [{}] })).toBe(1);
    expect(listedTaskCount({ tasks: [{}], unconfirmed: [{}] })).toBe(2);
    expect(listedTaskCount(undefined)).toBeNull();
  });
});
