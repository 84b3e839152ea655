import { describe, expect, it } from "vitest";
import { WRITABLE_FIELD_INFO, WRITABLE_NOTE_FIELDS } from "../writable-fields.ts";
import { buildNoteFixture, buildSignedNoteFixture, emptySoapNoteFixture } from "./testing/note-fixture.ts";
import { emptySectionIds, NOTE_SECTIONS, noteSectionById, sectionHeadingId, SIGNER_USUALLY_FILLS } from "./note-sections.ts";

const ALL_IDS = [
  "section-hpi",
  "section-exam",
  "section-impressions-plans",
  "section-data-reviewed",
  "section-vitals",
  "section-rx",
  "section-tests",
  "section-clinical-notes",
  "section-attachments",
  "section-sticky-note",
  "section-billing",
  "section-appointments",
  "section-mips",
  "section-counseling",
  "section-history",
  "section-care-team",
  "section-follow-up",
  "section-time-spent",
  "section-em-billing",
  "section-addenda",
];

describe("NOTE_SECTIONS", () => {
  it("lists every section once, in the seed's order, with section-<kebab> ids", () => {
    expect(NOTE_SECTIONS.map((section) => section.id)).toEqual(ALL_IDS);
    for (const section of NOTE_SECTIONS) expect(section.id).toMatch(/^section-[a-z]+(-[a-z]+)*$/);
  });

  it("places each writable field in the section the editor expects", () => {
    for (const field of WRITABLE_NOTE_FIELDS) {
      const holders = NOTE_SECTIONS.filter((section) => section.writableField === field);
      expect(holders.map((section) => section.id)).toEqual([WRITABLE_FIELD_INFO[field].sectionId]);
    }
  });

  it("names only known sections as usually filled by the signer", () => {
    for (const id of SIGNER_USUALLY_FILLS) expect(noteSectionById(id)).toBeDefined();
    expect(SIGNER_USUALLY_FILLS).toEqual(expect.arrayContaining(["section-hpi", "section-exam", "section-impressions-plans", "section-time-spent", "section-em-billing"]));
  });

  it("derives heading ids from section ids", () => {
    expect(sectionHeadingId("section-vitals")).toBe("section-vitals-heading");
  });
});

describe("emptySectionIds", () => {
  it("finds only the addenda empty on the full fixture awaiting signature", () => {
    expect(emptySectionIds(buildNoteFixture())).toEqual(["section-addenda"]);
  });

  it("finds nothing empty once signed with addenda", () => {
    expect(emptySectionIds(buildSignedNoteFixture())).toEqual([]);
  });

  it("finds every section empty on a note no one has written", () => {
    expect(emptySectionIds(buildNoteFixture({ soapNote: emptySoapNoteFixture() }))).toEqual(ALL_IDS);
  });

  it("counts blank text and null as nothing", () => {
    const empty = emptySoapNoteFixture();
    const note = buildNoteFixture({
      soapNote: {
        ...empty,
        hpi: { ...empty.hpi, historicalSummary: "   ", additionalHpiComments: "\n", ros: "" },
        exam: { documentedExams: [{ title: " ", description: null }], otherExamComments: "  " },
        dataReviewed: " ",
        stickyNote: { description: " ", createdByIntegrationUserId: "21455" },
        timeSpent: { minutes: null, activities: ["", " "], attestation: " " },
        emBilling: { patientStatusLabel: " ", billAsNewPatient: false, overrideEmCode: null },
      },
    });
    expect(emptySectionIds(note)).toEqual(ALL_IDS);
  });

  it("treats array items without text as nothing", () => {
    const empty = emptySoapNoteFixture();
    const note = buildNoteFixture({
      soapNote: {
        ...empty,
        clinicalNotes: [{ type: "Procedure Note", description: null }],
        history: [{ title: "Medications", content: [] }],
        followUp: [{ description: "" }],
        attachments: [{ integrationFileId: "" }],
        vitals: [
          {
            dateTime: "2026-11-20 14:11:00.000000+00",
            takenByIntegrationUserId: "21471",
            temperature: null,
            temperatureType: "F",
            pulse: null,
            bpSystolic: null,
            bpDiastolic: null,
            bpPosition: "Sitting",
            respiration: null,
            oxygenSaturation: null,
            fio2: null,
            fio2Device: null,
            weight: null,
            weightType: "lbs",
            height: null,
            heightType: "in",
            bmi: null,
            bsa: null,
          },
        ],
      },
    });
    for (const id of ["section-clinical-notes", "section-history", "section-follow-up", "section-attachments", "section-vitals"]) expect(emptySectionIds(note)).toContain(id);
  });

  it("counts a single reading, a writable field's text or a true flag as content", () => {
    const base = buildNoteFixture();
    const [vital] = base.soapNote.vitals;
    if (!vital) throw new Error("fixture has vitals");
    const empty = emptySoapNoteFixture();
    const note = buildNoteFixture({
      soapNote: {
        ...empty,
        hpi: { ...empty.hpi, additionalHpiComments: "Accompanied by daughter." },
        impressionsPlansComments: "Plan agreed.",
        stickyNote: { description: "Prefers morning appointments.", createdByIntegrationUserId: null },
        vitals: [{ ...vital, temperature: null, pulse: 64, bpSystolic: null, bpDiastolic: null, respiration: null, oxygenSaturation: null, fio2: null, weight: null, height: null, bmi: null, bsa: null }],
        emBilling: { patientStatusLabel: null, billAsNewPatient: true, overrideEmCode: null },
        timeSpent: { minutes: 0, activities: [], attestation: null },
      },
    });
    const empties = emptySectionIds(note);
    for (const id of ["section-hpi", "section-impressions-plans", "section-sticky-note", "section-vitals", "section-em-billing", "section-time-spent"]) expect(empties).not.toContain(id);
  });

  it("sees the draft state of the seed: no plans' billing, follow-up or time yet", () => {
    const note = buildNoteFixture({ status: "in_progress", soapNote: { billing: [], followUp: [], mips: [], counseling: [], timeSpent: { minutes: null, activities: [], attestation: null } } });
    expect(emptySectionIds(note)).toEqual(["section-billing", "section-mips", "section-counseling", "section-follow-up", "section-time-spent", "section-addenda"]);
  });
});

describe("buildNoteFixture", () => {
  it("applies overrides and rejects a note that breaks the contract", () => {
    expect(buildNoteFixture({ version: 9 }).version).toBe(9);
    expect(buildNoteFixture({ soapNote: { dataReviewed: null } }).soapNote.dataReviewed).toBeNull();
    expect(() => buildNoteFixture({ visitDate: "2026-11-20T14:00:00Z" })).toThrow();
  });

  it("builds independent copies", () => {
    const first = buildNoteFixture();
    first.soapNote.rx.length = 0;
    expect(buildNoteFixture().soapNote.rx).toHaveLength(1);
  });
});
