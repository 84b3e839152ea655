import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WritableNoteField } from "#contract/clinic-api/note.ts";
import { buildNoteFixture, buildSignedNoteFixture, emptySoapNoteFixture } from "./testing/note-fixture.ts";
import { NoteHeader } from "./note-header.tsx";
import { NoteSectionList } from "./note-section-list.tsx";
import { NOTE_SECTIONS } from "./note-sections.ts";
import { UserTimeSettingsProvider } from "#src/lib/use-time-display.tsx";

// Server-rendered markup of the reading components: structure, not looks
// (axe runs in the e2e suite). The reader is pinned: British English, in
// London, so the New York facility's zone is named whatever the machine's.

const render = (node: ReactNode) => renderToStaticMarkup(<UserTimeSettingsProvider settings={{ locale: "en-GB", userZone: "Europe/London" }}>{node}</UserTimeSettingsProvider>);

const editor = (field: WritableNoteField) => <div data-editor={field} />;

/** The markup of one <section id=…>, up to its closing tag (sections do not nest). */
function sectionHtml(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}"`);
  if (start < 0) throw new Error(`no section ${id}`);
  return html.slice(start, html.indexOf("</section>", start));
}

describe("NoteHeader", () => {
  const html = render(<NoteHeader note={buildNoteFixture()} />);

  it("shows the patient with a photo named for them", () => {
    expect(html).toContain("Jane Elizabeth Doe");
    expect(html).toMatch(/<img[^>]*alt="Photo of Jane Elizabeth Doe"/);
    expect(html).toMatch(/<img[^>]*width="48"[^>]*height="48"/);
    expect(html).toContain("MRN 00412387");
    expect(html).toContain("DOB 14 Mar 1968 (58 y at visit)");
  });

  it("shows facility, visit time in its zone, providers, status, version and AI review", () => {
    expect(html).toContain("Riverside Dermatology");
    expect(html).toContain('<time dateTime="2026-11-20T14:00:00.000Z">Fri, 20 Nov 2026, 09:00 EST</time>');
    expect(html).toContain("Dr. Maria Chen, MD");
    expect(html).toContain("Awaiting signature");
    expect(html).toContain("Version 4");
    expect(html).toContain("3 issues found");
    expect(html).toContain("AI review found 3 issues in this note. Review them in the EHR before signing");
    expect(html).not.toContain("Go to the AI review");
  });

  it("names an assigned provider without a name as the care team does", () => {
    const note = buildNoteFixture();
    const assignedProviders = note.assignedProviders.map((provider) => ({ ...provider, firstName: "", lastName: "", displayFirstName: "", displayLastName: "" }));
    expect(render(<NoteHeader note={{ ...note, assignedProviders }} />)).toContain("Maria Chen, MD");
  });

  it("falls back to initials without a photo URL", () => {
    const note = buildNoteFixture();
    const bare = render(<NoteHeader note={{ ...note, patient: { ...note.patient, avatar: "" } }} />);
    expect(bare).not.toContain("<img");
    expect(bare).toMatch(/data-testid="patient-initials"[^>]*>JD</);
  });
});

describe("NoteSectionList", () => {
  it("renders every section in order with an h2 labelling it", () => {
    const html = render(<NoteSectionList note={buildSignedNoteFixture()} renderWritableField={editor} />);
    const ids = [...html.matchAll(/<section id="([^"]+)" aria-labelledby="([^"]+)"/g)].map((match) => [match[1], match[2]]);
    expect(ids).toEqual(NOTE_SECTIONS.map((section) => [section.id, `${section.id}-heading`]));
    for (const section of NOTE_SECTIONS) expect(html).toContain(`<h2 id="${section.id}-heading"`);
    expect(html).not.toContain("<h1");
  });

  it("places each editor in its section and leaves its text to the editor", () => {
    const note = buildNoteFixture();
    const html = render(<NoteSectionList note={note} renderWritableField={editor} />);
    expect(sectionHtml(html, "section-hpi")).toContain('data-editor="additionalHpiComments"');
    expect(sectionHtml(html, "section-exam")).toContain('data-editor="otherExamComments"');
    expect(sectionHtml(html, "section-impressions-plans")).toContain('data-editor="impressionsPlansComments"');
    expect(sectionHtml(html, "section-sticky-note")).toContain('data-editor="stickyNoteDescription"');
    for (const text of [note.soapNote.hpi.additionalHpiComments, note.soapNote.exam.otherExamComments, note.soapNote.impressionsPlansComments, note.soapNote.stickyNote.description]) {
      expect(html).not.toContain(text);
    }
  });

  it("collapses empty sections except those holding an editor", () => {
    const html = render(<NoteSectionList note={buildNoteFixture({ soapNote: emptySoapNoteFixture() })} renderWritableField={editor} />);
    for (const section of NOTE_SECTIONS) {
      const part = sectionHtml(html, section.id);
      if (section.writableField) {
        expect(part).not.toContain("<details");
        expect(part).toContain(`data-editor="${section.writableField}"`);
      } else {
        expect(part).toContain("<details");
        expect(part).not.toContain("<details open");
        expect(part).toContain("Nothing recorded");
      }
    }
  });

  it("shows vitals as a table with headers and units", () => {
    const vitals = sectionHtml(render(<NoteSectionList note={buildNoteFixture()} renderWritableField={editor} />), "section-vitals");
    expect(vitals).toContain("<table");
    expect(vitals).toContain('<th scope="col"');
    expect(vitals).toMatch(/<th scope="row"[^>]*>Temperature<\/th><td[^>]*>98.2 °F<\/td>/);
    expect(vitals).toContain("124/78 mmHg, sitting");
    expect(vitals).toContain("154.3 lb");
    expect(vitals).toContain("Taken 09:11 EST");
    expect(vitals).toContain("Daniel Ortiz");
  });

  it("shows impressions with codes, flags, plans and assessments", () => {
    const part = sectionHtml(render(<NoteSectionList note={buildNoteFixture()} renderWritableField={editor} />), "section-impressions-plans");
    expect(part).toContain("Neoplasm of uncertain behavior of skin");
    expect(part).toContain("D48.5");
    expect(part).toContain("New problem");
    expect(part).toContain("Rule out");
    expect(part).toContain("Deep shave (saucerization) biopsy");
    expect(part).toMatch(/<dt[^>]*>Dermoscopy<\/dt>/);
  });

  it("shows billing totals and appointment times in the facility's zone", () => {
    const html = render(<NoteSectionList note={buildNoteFixture()} renderWritableField={editor} />);
    expect(sectionHtml(html, "section-billing")).toContain("197.00");
    expect(sectionHtml(html, "section-appointments")).toContain("Fri, 20 Nov 2026, 09:00–09:20 EST");
    expect(sectionHtml(html, "section-addenda")).toContain("<details");
  });

  it("names people as the note does, and no person or file by number", () => {
    const note = buildNoteFixture();
    const html = render(<NoteSectionList note={note} renderWritableField={editor} />);
    expect(sectionHtml(html, "section-appointments")).toContain("Maria Chen, MD");
    expect(sectionHtml(html, "section-care-team")).toContain("Daniel Ortiz");
    // The sticky note's author (21455) is not on the care team.
    expect(sectionHtml(html, "section-sticky-note")).toContain("Left by an EHR user");
    expect(sectionHtml(html, "section-attachments")).toContain("1 file is attached to this note in the EHR");
    for (const number of ["21437", "21471", "21455", "604218"]) expect(html).not.toContain(number);
  });

  it("shows addenda with their signatures", () => {
    const part = sectionHtml(render(<NoteSectionList note={buildSignedNoteFixture()} renderWritableField={editor} />), "section-addenda");
    expect(part).toContain("Electronically signed by Maria Chen, MD");
    expect(part).toContain("Not signed");
  });
});
