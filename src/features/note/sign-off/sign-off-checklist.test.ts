import { describe, expect, it } from "vitest";
import { buildNoteFixture, buildSignedNoteFixture } from "../reading/note-fixture.ts";
import { buildSignOffChecklist, type SignOffInput } from "./sign-off-checklist.ts";

const input = (overrides: Partial<SignOffInput> = {}): SignOffInput => ({
  note: buildNoteFixture({ aiStatus: "no_issues", aiIssueCount: 0 }),
  emptySignerSections: [],
  unsavedFields: [],
  saveProblem: null,
  openTasks: [],
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
      ["1 task is still open", ["section-tasks"]],
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

  it("never lets a review mark clear unsaved text: only saving does", () => {
    const checklist = buildSignOffChecklist(input({ unsavedFields: [{ label: "Sticky note", inputId: "field-stickyNoteDescription" }], reviewed: new Set(["save"]) }));
    expect(checklist.state).toBe("not_ready");
    expect(checklist.items[0]).toMatchObject({ kind: "save", title: "1 field has unsaved changes", links: [{ targetId: "field-stickyNoteDescription" }], needsAction: true });
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

  it("has nothing to prepare on a signed note", () => {
    expect(buildSignOffChecklist(input({ note: buildSignedNoteFixture() }))).toMatchObject({ state: "signed", items: [] });
  });
});
