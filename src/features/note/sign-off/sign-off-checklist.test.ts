import { describe, expect, it } from "vitest";
import { buildNoteFixture, buildSignedNoteFixture } from "../reading/testing/note-fixture.ts";
import { buildSignOffChecklist, type SignOffInput } from "./sign-off-checklist.ts";

const input = (overrides: Partial<SignOffInput> = {}): SignOffInput => ({
  note: buildNoteFixture({ aiStatus: "no_issues", aiIssueCount: 0 }),
  emptySignerSections: [],
  unsavedFields: [],
  emptyFields: [],
  saveProblem: null,
  hasWaitingDraft: false,
  openTasks: [],
  unconfirmedTasks: [],
  reviewed: new Set(),
  ...overrides,
});

describe("buildSignOffChecklist", () => {
  it("says a note with nothing left is ready", () => {
    const checklist = buildSignOffChecklist(input());
    expect(checklist).toMatchObject({ state: "ready", items: [] });
    expect(checklist.summary).toMatch(/^Ready to sign/);
  });

  it("lists AI issues, empty sections a signer fills and open tasks, each linking to its place (the AI issues are in the EHR only)", () => {
    const checklist = buildSignOffChecklist(
      input({ note: buildNoteFixture({ aiIssueCount: 3 }), emptySignerSections: [{ id: "section-vitals", title: "Vitals" }], openTasks: [{ id: "t1", description: "Call" }] }),
    );
    expect(checklist.state).toBe("not_ready");
    expect(checklist.items.map((item) => [item.title, item.links.map((link) => link.targetId)])).toEqual([
      ["The EHR's AI review found 3 issues in this note.", []],
      ["Vitals is empty", ["section-vitals"]],
      ["1 task is still open", ["task-t1"]],
    ]);
    expect(checklist.items[0]?.detail).toBe("Review them in the EHR before signing: Tandem is told how many, not what they are.");
    expect(checklist.summary).toBe("Not ready to sign yet: 3 items need your attention.");
  });

  it("is ready once every review item is marked reviewed, and a mark lapses when its subject changes", () => {
    const first = buildSignOffChecklist(input({ note: buildNoteFixture({ aiIssueCount: 2 }), openTasks: [{ id: "t1", description: "Call" }] }));
    const reviewed = new Set(first.items.map((item) => item.key));
    expect(buildSignOffChecklist(input({ note: buildNoteFixture({ aiIssueCount: 2 }), openTasks: [{ id: "t1", description: "Call" }], reviewed })).state).toBe("ready");
    const moreTasks = buildSignOffChecklist(input({ note: buildNoteFixture({ aiIssueCount: 2 }), openTasks: [{ id: "t1", description: "Call" }, { id: "t2", description: "Fax" }], reviewed }));
    expect(moreTasks.items.filter((item) => item.needsAction).map((item) => item.title)).toEqual(["2 tasks are still open"]);
  });

  it("asks for a look in the EHR at tasks it has not confirmed (it may or may not have them), linking each, until marked reviewed", () => {
    const unconfirmedTasks = [{ intentId: "w1", description: "Call the lab" }];
    const checklist = buildSignOffChecklist(input({ note: buildNoteFixture({ aiStatus: "no_issues", aiIssueCount: 0 }), unconfirmedTasks }));
    expect(checklist.state).toBe("not_ready");
    expect(checklist.items).toEqual([
      expect.objectContaining({ kind: "review", title: "1 task is not confirmed by the EHR", links: [{ targetId: "unconfirmed-task-w1", label: "Go to task: Call the lab" }], needsAction: true }),
    ]);
    expect(checklist.items[0]?.detail).toMatch(/^Tandem sent it and the EHR did not confirm it/);
    const reviewed = new Set(checklist.items.map((item) => item.key));
    expect(buildSignOffChecklist(input({ note: buildNoteFixture({ aiStatus: "no_issues", aiIssueCount: 0 }), unconfirmedTasks, reviewed })).state).toBe("ready");
    const another = buildSignOffChecklist(input({ unconfirmedTasks: [...unconfirmedTasks, { intentId: "w2", description: "Fax" }], reviewed }));
    expect(another.items.filter((item) => item.needsAction).map((item) => item.title)).toContain("2 tasks are not confirmed by the EHR");
  });

  it("never lets a review mark clear unsaved text: only saving does", () => {
    const checklist = buildSignOffChecklist(input({ unsavedFields: [{ label: "Sticky note", inputId: "field-stickyNoteDescription" }], reviewed: new Set(["save"]) }));
    expect(checklist.state).toBe("not_ready");
    expect(checklist.items[0]).toMatchObject({ kind: "save", title: "1 field has unsaved changes", links: [{ targetId: "field-stickyNoteDescription" }], needsAction: true });
  });

  it("links each unsaved field, each empty field and each open task by itself", () => {
    const sticky = { label: "Sticky note", inputId: "field-stickyNoteDescription", sectionId: "section-sticky-note" };
    const exam = { label: "Other exam comments", inputId: "field-otherExamComments", sectionId: "section-exam" };
    const checklist = buildSignOffChecklist(
      input({
        unsavedFields: [
          { label: "Additional HPI comments", inputId: "field-additionalHpiComments" },
          { label: "Impressions and plans comments", inputId: "field-impressionsPlansComments" },
        ],
        emptyFields: [exam, sticky],
        openTasks: [
          { id: "t1", description: "Call the lab about the biopsy result and fax the report to the dermatologist" },
          { id: "t2", description: "Book a follow-up" },
        ],
      }),
    );
    expect(checklist.items.map((item) => [item.title, item.links])).toEqual([
      [
        "2 fields have unsaved changes",
        [
          { targetId: "field-additionalHpiComments", label: "Go to Additional HPI comments" },
          { targetId: "field-impressionsPlansComments", label: "Go to Impressions and plans comments" },
        ],
      ],
      [
        "Other exam comments and Sticky note are empty",
        [
          { targetId: "field-otherExamComments", label: "Go to Other exam comments" },
          { targetId: "field-stickyNoteDescription", label: "Go to Sticky note" },
        ],
      ],
      [
        "2 tasks are still open",
        [
          { targetId: "task-t1", label: "Go to task: Call the lab about the biopsy result and fax…" },
          { targetId: "task-t2", label: "Go to task: Book a follow-up" },
        ],
      ],
    ]);
  });

  it("leaves an empty field to the empty section it sits in, and keeps a mark while the same fields stay empty", () => {
    const exam = { label: "Other exam comments", inputId: "field-otherExamComments", sectionId: "section-exam" };
    const sticky = { label: "Sticky note", inputId: "field-stickyNoteDescription", sectionId: "section-sticky-note" };
    const checklist = buildSignOffChecklist(input({ emptySignerSections: [{ id: "section-exam", title: "Exam" }], emptyFields: [exam, sticky] }));
    expect(checklist.items.map((item) => item.title)).toEqual(["Exam is empty", "Sticky note is empty"]);
    const fieldItem = checklist.items[1];
    if (!fieldItem) throw new Error("no field item");
    const reviewed = new Set([fieldItem.key]);
    expect(buildSignOffChecklist(input({ emptyFields: [sticky], reviewed })).items[0]?.needsAction).toBe(false);
    expect(buildSignOffChecklist(input({ emptyFields: [exam, sticky], reviewed })).items[0]?.needsAction).toBe(true);
  });

  it("names a failed save even with no field left dirty", () => {
    const checklist = buildSignOffChecklist(input({ saveProblem: "Your last save did not reach the EHR" }));
    expect(checklist.items[0]).toMatchObject({ kind: "save", title: "Your last save did not reach the EHR", links: [{ targetId: "note-save-status" }] });
  });

  it("asks for a look in the EHR while the AI review is unfinished or its result unknown, and not when it found nothing", () => {
    const item = (aiStatus: string) => buildSignOffChecklist(input({ note: buildNoteFixture({ aiStatus, aiIssueCount: 0 }) })).items;
    expect(item("pending")).toMatchObject([{ kind: "review", title: "The EHR's AI review of this note has not finished.", links: [], needsAction: true }]);
    expect(item("needsHumanReview")).toMatchObject([{ kind: "review", title: expect.stringContaining("“Needs human review”") as unknown, links: [] }]);
    expect(item("no_issues")).toEqual([]);
  });

  it("is never ready while the service's state is not awaiting signature: no review mark clears it", () => {
    const inProgress = buildNoteFixture({ status: "in_progress", aiStatus: "no_issues", aiIssueCount: 0 });
    const checklist = buildSignOffChecklist(input({ note: inProgress, reviewed: new Set(["service:in_progress"]) }));
    expect(checklist.state).toBe("not_ready");
    expect(checklist.items).toEqual([
      expect.objectContaining({ key: "service:in_progress", kind: "service", title: "The EHR says this note is in progress", needsAction: true, links: [{ targetId: "note-status", label: "Go to the note's status" }] }),
    ]);
  });

  it("is not ready while unsaved text from earlier waits for Restore or Discard", () => {
    const checklist = buildSignOffChecklist(input({ hasWaitingDraft: true }));
    expect(checklist.state).toBe("not_ready");
    expect(checklist.items).toEqual([expect.objectContaining({ key: "draft", kind: "save", title: "Unsaved text from earlier is waiting", links: [{ targetId: "draft-restore-notice", label: "Go to the unsaved text" }] })]);
  });

  it("has nothing to prepare on a signed note", () => {
    expect(buildSignOffChecklist(input({ note: buildSignedNoteFixture() }))).toMatchObject({ state: "signed", items: [] });
  });
});
