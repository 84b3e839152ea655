import type { Note, SoapNote } from "../clinic-api/note.ts";

// Which part of a note is which section, and a digest of each, so the BFF can
// tell a user which sections changed since their last view without keeping a
// copy of the note (ADR 0016 "What changed since you last looked"). The SPA
// computes the digests of the note it shows and the BFF those of the note it
// reads now: one implementation, here, so both sides agree.
//
// The keys are the SPA's section ids without their `section-` prefix
// (src/features/note/reading/note-sections.ts), in the seed's order (seed 000
// "Note (SOAP note)"). A section's content leaves out its writable field:
// those four are compared as text, field by field, so a section is reported
// only when something else in it changed, which Tandem never writes.

export const NOTE_SECTION_KEYS = [
  "hpi",
  "exam",
  "impressions-plans",
  "data-reviewed",
  "vitals",
  "rx",
  "tests",
  "clinical-notes",
  "attachments",
  "sticky-note",
  "billing",
  "appointments",
  "mips",
  "counseling",
  "history",
  "care-team",
  "follow-up",
  "time-spent",
  "em-billing",
  "addenda",
] as const;
export type NoteSectionKey = (typeof NOTE_SECTION_KEYS)[number];

export type SectionDigests = Record<NoteSectionKey, string>;

/** `sha256:` and 64 lower-case hex digits; the prefix names the algorithm, so a future one is told apart rather than read as a change. */
export const SECTION_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const copy: Partial<T> = { ...value };
  delete copy[key];
  return copy as Omit<T, K>;
}

/** What each section holds, its writable field left out. */
export function sectionContents(soapNote: SoapNote): Record<NoteSectionKey, unknown> {
  return {
    hpi: without(soapNote.hpi, "additionalHpiComments"),
    exam: without(soapNote.exam, "otherExamComments"),
    "impressions-plans": soapNote.impressionsPlans,
    "data-reviewed": soapNote.dataReviewed,
    vitals: soapNote.vitals,
    rx: soapNote.rx,
    tests: soapNote.tests,
    "clinical-notes": soapNote.clinicalNotes,
    attachments: soapNote.attachments,
    "sticky-note": without(soapNote.stickyNote, "description"),
    billing: soapNote.billing,
    appointments: soapNote.appointments,
    mips: soapNote.mips,
    counseling: soapNote.counseling,
    history: soapNote.history,
    "care-team": soapNote.careTeam,
    "follow-up": soapNote.followUp,
    "time-spent": soapNote.timeSpent,
    "em-billing": soapNote.emBilling,
    addenda: soapNote.addenda,
  };
}

/**
 * JSON with object keys sorted at every level, so the same content gives the
 * same text whichever side parsed it and in whatever order the service wrote
 * its keys. Array order is kept: a reordered list is a change.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  const entries = Object.entries(value)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

// SHA-256 rather than a quick non-cryptographic hash: a digest stands for
// clinical text, and whoever can write to the EHR must not be able to craft
// an edit that hides behind an old digest. Web Crypto is in every browser
// Tandem runs in and in Node, under the same name.
async function sha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** One digest per section of the note (its writable field left out). */
export async function sectionDigestsOf(note: Pick<Note, "soapNote">): Promise<SectionDigests> {
  const contents = sectionContents(note.soapNote);
  const digests = await Promise.all(NOTE_SECTION_KEYS.map(async (key) => [key, `sha256:${await sha256Hex(canonicalJson(contents[key]))}`] as const));
  return Object.fromEntries(digests) as SectionDigests;
}

/**
 * The sections whose digest differs, in note order. A key missing on either
 * side, or digested with another algorithm, is not reported: Tandem cannot
 * tell, and says nothing rather than something false.
 */
export function changedSections(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): NoteSectionKey[] {
  return NOTE_SECTION_KEYS.filter((key) => {
    const was = before[key];
    const now = after[key];
    if (was === undefined || now === undefined) return false;
    if (!SECTION_DIGEST_PATTERN.test(was) || !SECTION_DIGEST_PATTERN.test(now)) return false;
    return was !== now;
  });
}
