import { describe, expect, it } from "vitest";
import { NOTE_SECTION_KEYS } from "#contract/note/section-digests.ts";
import { NOTE_SECTIONS } from "../reading/note-sections.ts";
import { sectionIdOf } from "./section-links.ts";

// The BFF reports changed sections by the keys of contract/note: each must be
// a section the note view draws, and each section the view draws must be
// compared.

describe("section keys", () => {
  it("are exactly the note view's sections, in the same order", () => {
    expect(NOTE_SECTION_KEYS.map(sectionIdOf)).toEqual(NOTE_SECTIONS.map((section) => section.id));
  });
});
