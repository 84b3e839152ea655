import { describe, expect, it } from "vitest";
import type { SoapNote } from "../clinic-api/note.ts";
import { canonicalJson, changedSections, NOTE_SECTION_KEYS, sectionContents, sectionDigestsOf, SECTION_DIGEST_PATTERN } from "./section-digests.ts";

function soapNote(overrides: Partial<SoapNote> = {}): SoapNote {
  return {
    hpi: { historicalSummary: "Changing mole on the back.", chiefComplaints: [], secondaryComplaints: [], additionalHpiComments: "Accompanied by her daughter.", independentHistorian: null, ros: null },
    exam: { documentedExams: [{ title: "Back", description: "7 mm irregular macule." }], otherExamComments: "Dermatoscope used." },
    impressionsPlans: [],
    impressionsPlansComments: "Biopsy discussed.",
    dataReviewed: null,
    vitals: [],
    rx: [],
    tests: [],
    clinicalNotes: [],
    attachments: [],
    stickyNote: { description: "Call the daughter.", createdByIntegrationUserId: "21455" },
    billing: [],
    appointments: [],
    mips: [],
    counseling: [],
    history: [],
    careTeam: { physician: null, primaryBiller: null, attendees: [] },
    followUp: [],
    timeSpent: { minutes: null, activities: [], attestation: null },
    emBilling: { patientStatusLabel: null, billAsNewPatient: false, overrideEmCode: null },
    addenda: [],
    ...overrides,
  };
}

describe("section digests", () => {
  it("gives every section one digest, the same for the same content", async () => {
    const digests = await sectionDigestsOf({ soapNote: soapNote() });
    expect(Object.keys(digests)).toEqual([...NOTE_SECTION_KEYS]);
    for (const digest of Object.values(digests)) expect(digest).toMatch(SECTION_DIGEST_PATTERN);
    expect(await sectionDigestsOf({ soapNote: soapNote() })).toEqual(digests);
  });

  it("leaves each section's writable field out: changing one changes no section", async () => {
    const before = await sectionDigestsOf({ soapNote: soapNote() });
    const after = await sectionDigestsOf({
      soapNote: soapNote({
        hpi: { ...soapNote().hpi, additionalHpiComments: "Alone today." },
        exam: { ...soapNote().exam, otherExamComments: "" },
        impressionsPlansComments: "Biopsy declined.",
        stickyNote: { description: "Call the son.", createdByIntegrationUserId: "21455" },
      }),
    });
    expect(changedSections(before, after)).toEqual([]);
  });

  it("reports the sections whose other content changed, in note order", async () => {
    const before = await sectionDigestsOf({ soapNote: soapNote() });
    const after = await sectionDigestsOf({
      soapNote: soapNote({
        followUp: [{ description: "Return in 2 weeks for suture removal." }],
        hpi: { ...soapNote().hpi, ros: "Negative for bleeding." },
        stickyNote: { description: "Call the daughter.", createdByIntegrationUserId: "21437" },
      }),
    });
    expect(changedSections(before, after)).toEqual(["hpi", "sticky-note", "follow-up"]);
  });

  it("does not depend on the order the service wrote keys in, but does on the order of a list", async () => {
    const note = soapNote();
    const reordered = { ...note, hpi: { ros: note.hpi.ros, additionalHpiComments: note.hpi.additionalHpiComments, historicalSummary: note.hpi.historicalSummary, independentHistorian: null, secondaryComplaints: [], chiefComplaints: [] } };
    expect(await sectionDigestsOf({ soapNote: reordered })).toEqual(await sectionDigestsOf({ soapNote: note }));
    const two = [{ description: "Two weeks." }, { description: "Six months." }];
    const a = await sectionDigestsOf({ soapNote: soapNote({ followUp: two }) });
    const b = await sectionDigestsOf({ soapNote: soapNote({ followUp: [...two].reverse() }) });
    expect(changedSections(a, b)).toEqual(["follow-up"]);
  });

  it("says nothing of a section it cannot compare: missing on either side, or another algorithm", async () => {
    const before = await sectionDigestsOf({ soapNote: soapNote() });
    const after = await sectionDigestsOf({ soapNote: soapNote({ dataReviewed: "Pathology report reviewed.", followUp: [{ description: "2 weeks." }] }) });
    const { "data-reviewed": _dropped, ...partial } = before;
    expect(changedSections(partial, after)).toEqual(["follow-up"]);
    expect(changedSections({ ...before, "follow-up": "md5:abc" }, after)).toEqual(["data-reviewed"]);
  });

  it("writes canonical JSON: keys sorted at every level, undefined left out, text escaped", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: null, e: "x" }], c: undefined } })).toBe('{"a":{"d":[2,{"e":"x","f":null}]},"b":1}');
    expect(canonicalJson('quote " and \u2028')).toBe(JSON.stringify('quote " and \u2028'));
    expect(sectionContents(soapNote())["sticky-note"]).toEqual({ createdByIntegrationUserId: "21455" });
  });
});
