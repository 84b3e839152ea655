import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildNoteOutline } from "./note-outline.ts";
import { NoteOutlineNav } from "./note-outline-nav.tsx";
import { buildNoteFixture } from "./reading/testing/note-fixture.ts";

describe("NoteOutlineNav", () => {
  it("links every part of the note, named by its visible heading, empty ones marked in text", () => {
    const outline = buildNoteOutline(buildNoteFixture(), { tasks: 1, images: 3 });
    const html = renderToStaticMarkup(<NoteOutlineNav outline={outline} />);
    expect(html).toMatch(/<nav aria-labelledby="([^"]+)"[\s\S]*<h2 id="\1"[^>]*>On this note<\/h2>/);
    for (const entry of outline.entries) expect(html).toContain(`href="#${entry.id}"`);
    expect(html).toMatch(/href="#section-addenda"[^>]*>.*?Addenda.*?\(empty\)/);
    expect(html).toMatch(/href="#section-tasks"[^>]*>.*?Tasks.*?\(1\)/);
    expect(html).toMatch(/href="#section-images"[^>]*>.*?Images.*?\(3\)/);
  });
});
