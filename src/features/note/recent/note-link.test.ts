import { describe, expect, it } from "vitest";
import { noteIdSearchValue, readNoteLink } from "./note-link.ts";

describe("readNoteLink", () => {
  it("opens a note id in either case, as lower case", () => {
    expect(readNoteLink("3F2C1B4A-9D8E-4C7B-A6F5-0E1D2C3B4A59")).toEqual({ kind: "note", noteId: "3f2c1b4a-9d8e-4c7b-a6f5-0e1d2c3b4a59" });
  });

  it("shows the list without an id", () => {
    expect(readNoteLink(undefined)).toEqual({ kind: "none" });
  });

  it.each(["", "not-a-note", "3f2c1b4a-9d8e-4c7b-a6f5", "3f2c1b4a-9d8e-4c7b-a6f5-0e1d2c3b4a59x", "123", "<script>"])("calls %j a link that names no note", (value) => {
    expect(readNoteLink(value)).toEqual({ kind: "malformed" });
  });
});

describe("noteIdSearchValue", () => {
  it("keeps text, and writes anything else the router parsed as text, so it is never lost or taken for a note", () => {
    expect(noteIdSearchValue("abc")).toBe("abc");
    expect(noteIdSearchValue(123)).toBe("123");
    expect(noteIdSearchValue({ a: 1 })).toBe('{"a":1}');
    expect(noteIdSearchValue(undefined)).toBeUndefined();
  });
});
