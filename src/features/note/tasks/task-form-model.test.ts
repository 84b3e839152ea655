import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { MAX_TASK_ASSIGNEES, MAX_TASK_DESCRIPTION_LENGTH, taskCreateRequest } from "#contract/app-api/note.ts";
import { task as taskSchema, type Task } from "#contract/clinic-api/note.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { buildNoteFixture, emptySoapNoteFixture } from "../reading/testing/note-fixture.ts";
import { buildPeopleDirectory } from "../reading/people.ts";
import {
  assigneeNames,
  assigneeOptions,
  assigneeSummary,
  buildTaskRequest,
  descriptionLengthText,
  firstInvalidField,
  formatTaskTime,
  isTaskOpen,
  readableCode,
  sortTasksForDisplay,
  syncStatusOf,
  syncStatusText,
  TASK_DUPLICATE_TITLE,
  TASK_EHR_FAILED_DETAIL,
  TASK_NOT_CREATED_DETAIL,
  TASK_UNKNOWN_TITLE,
  taskCreateFailure,
  taskStatusText,
  validateTaskForm,
} from "./task-form-model.ts";

const BROOKS = "0b6c1a52-3f0e-4c8e-9d5a-1f2e3d4c5b6a";
const OKAFOR = "7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6";

const provider = (id: string, first: string, last: string, display: { first: string; last: string } = { first, last }) => ({
  id,
  firstName: first,
  lastName: last,
  displayFirstName: display.first,
  displayLastName: display.last,
  username: `${first.toLowerCase()}.${last.toLowerCase()}`,
  roles: ["Physician"],
  individualNpi: "1234567890",
  canFinalize: true,
  canCosign: false,
});

function makeTask(overrides: Partial<Task> = {}): Task {
  return z.parse(taskSchema, {
    id: "task-1",
    status: "not_started",
    syncStatus: "synced",
    notes: "Call the patient with the biopsy result",
    source: "marketplace_app",
    ehrType: "ema",
    assignedProviders: [provider(BROOKS, "Amelia", "Brooks", { first: "Dr Amelia", last: "Brooks" })],
    createdAt: "2026-11-20 14:05:00.000000+00",
    ehrCreatedAt: "2026-11-20 14:05:00.000000+00",
    updatedAt: "2026-11-20 14:05:00.000000+00",
    noteId: "note-1",
    ...overrides,
  });
}

const apiError = (status: number, code: string, message = "The service said no", extra: Record<string, unknown> = {}) =>
  new ApiError(status, { code, message, trace_id: "trace-1", ...extra });

describe("validating the create form", () => {
  it("gives the request for a description and one assignee, trimmed", () => {
    const result = validateTaskForm({ description: "  Call the patient \n", assigneeIds: [BROOKS] });
    expect(result.errors).toBeNull();
    expect(result.request).toEqual({ notes: "Call the patient", assigneeIds: [BROOKS] });
    expect(z.safeParse(taskCreateRequest, result.request).success).toBe(true);
  });

  it("needs a description that is more than spaces", () => {
    for (const description of ["", "   ", "\n\t"]) {
      const result = validateTaskForm({ description, assigneeIds: [BROOKS] });
      expect(result.errors).toEqual({ description: "Enter a task description." });
    }
  });

  it("names the limit and by how much a long description is over", () => {
    const result = validateTaskForm({ description: "x".repeat(MAX_TASK_DESCRIPTION_LENGTH + 5), assigneeIds: [BROOKS] });
    expect(result.errors?.description).toBe("The description is 4,005 characters; the limit is 4,000. Shorten it by 5.");
  });

  it("counts the trimmed text against the limit", () => {
    const result = validateTaskForm({ description: ` ${"x".repeat(MAX_TASK_DESCRIPTION_LENGTH)} `, assigneeIds: [BROOKS] });
    expect(result.errors).toBeNull();
  });

  it("needs at least one assignee", () => {
    const result = validateTaskForm({ description: "Call", assigneeIds: [] });
    expect(result.errors).toEqual({ assigneeIds: "Choose at least one provider to assign the task to." });
  });

  it("caps the assignees, counting each provider once", () => {
    const many = Array.from({ length: MAX_TASK_ASSIGNEES + 1 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`);
    expect(validateTaskForm({ description: "Call", assigneeIds: many }).errors).toEqual({ assigneeIds: "Choose at most 20 providers (21 chosen)." });
    const duplicated = [...many.slice(0, MAX_TASK_ASSIGNEES), many[0] ?? "", (many[1] ?? "").toUpperCase()];
    const result = validateTaskForm({ description: "Call", assigneeIds: duplicated });
    expect(result.errors).toBeNull();
    expect(result.request?.assigneeIds).toHaveLength(MAX_TASK_ASSIGNEES);
  });

  it("reports both fields at once, description first", () => {
    const result = validateTaskForm({ description: "", assigneeIds: [] });
    expect(Object.keys(result.errors ?? {})).toEqual(["description", "assigneeIds"]);
    expect(firstInvalidField(result.errors ?? {})).toBe("description");
    expect(firstInvalidField({ assigneeIds: "x" })).toBe("assigneeIds");
    expect(firstInvalidField({})).toBeNull();
  });

  it("refuses an assignee id the contract does not accept", () => {
    const result = validateTaskForm({ description: "Call", assigneeIds: ["not-an-id"] });
    expect(result.errors?.assigneeIds).toMatch(/cannot use/);
  });
});

describe("the request", () => {
  it("has exactly notes and assigneeIds: never an acting provider", () => {
    const request = buildTaskRequest(" Call ", [BROOKS, OKAFOR]);
    expect(Object.keys(request).sort()).toEqual(["assigneeIds", "notes"]);
    expect(request).not.toHaveProperty("providerId");
    expect(request).toEqual({ notes: "Call", assigneeIds: [BROOKS, OKAFOR] });
  });

  it("comes out of validation with the same two keys", () => {
    const result = validateTaskForm({ description: "Call", assigneeIds: [OKAFOR] });
    expect(Object.keys(result.request ?? {}).sort()).toEqual(["assigneeIds", "notes"]);
  });

  it("counts characters for the hint", () => {
    expect(descriptionLengthText("  hello ")).toBe("5 of 4,000 characters");
  });
});

describe("the assignee picker", () => {
  it("lists providers by display name with the title, sorted", () => {
    const options = assigneeOptions([
      { id: OKAFOR, firstName: "Chidi", lastName: "Okafor", displayName: "Dr Okafor", title: "Dermatologist", roles: ["Physician"] },
      { id: BROOKS, firstName: "Amelia", lastName: "Brooks", displayName: "Dr Brooks", title: "", roles: ["Physician", "Admin"] },
    ]);
    expect(options).toEqual([
      { value: BROOKS, label: "Dr Brooks", detail: "Physician, Admin" },
      { value: OKAFOR, label: "Dr Okafor", detail: "Dermatologist" },
    ]);
  });
});

describe("task values in words", () => {
  it("reads the statuses the seeds show", () => {
    expect(taskStatusText("not_started")).toBe("Not started");
    expect(syncStatusText("synced")).toBe("Synced to the EHR");
    expect(syncStatusOf("synced").tone).toBe("synced");
  });

  it("makes unknown values readable instead of hiding them", () => {
    expect(taskStatusText("awaiting_review")).toBe("Awaiting review");
    expect(taskStatusText("IN-PROGRESS")).toBe("In progress");
    expect(syncStatusOf("awaiting_ack")).toEqual({ text: "EHR sync: awaiting ack", tone: "unknown" });
    expect(syncStatusOf("sync_failed").tone).toBe("failed");
    expect(readableCode("")).toBe("Unknown");
  });
});

describe("whether a task is open", () => {
  it("is open unless the status looks terminal", () => {
    expect(isTaskOpen({ status: "not_started" })).toBe(true);
    expect(isTaskOpen({ status: "in_progress" })).toBe(true);
    expect(isTaskOpen({ status: "something_new" })).toBe(true);
    for (const status of ["completed", "Done", "cancelled", "canceled", "closed"]) expect(isTaskOpen({ status })).toBe(false);
  });

  it("lists open tasks first, newest first", () => {
    const older = makeTask({ id: "older", createdAt: "2026-11-19 10:00:00.000000+00" });
    const newer = makeTask({ id: "newer", createdAt: "2026-11-20 10:00:00.000000+00" });
    const done = makeTask({ id: "done", status: "completed", createdAt: "2026-11-21 10:00:00.000000+00" });
    expect(sortTasksForDisplay([done, older, newer]).map((task) => task.id)).toEqual(["newer", "older", "done"]);
  });
});

describe("assignee names", () => {
  const noOne = buildPeopleDirectory({ assignedProviders: [], soapNote: emptySoapNoteFixture() });

  it("uses display names, then legal names, each provider once (ids in either form)", () => {
    const task = makeTask({
      assignedProviders: [
        provider(BROOKS, "Amelia", "Brooks", { first: "Dr Amelia", last: "Brooks" }),
        provider(OKAFOR, "Chidi", "Okafor", { first: "", last: "" }),
        provider(BROOKS.toUpperCase(), "Amelia", "Brooks"),
      ],
    });
    expect(assigneeNames(task, noOne)).toEqual(["Dr Amelia Brooks", "Chidi Okafor"]);
    expect(assigneeSummary(task, noOne)).toBe("Dr Amelia Brooks, Chidi Okafor");
  });

  it("names an assignee the task leaves unnamed as the note does", () => {
    const note = buildNoteFixture();
    const [chen] = note.assignedProviders;
    if (chen === undefined) throw new Error("the fixture has an assigned provider");
    const nameless = { ...provider(chen.id, "", "", { first: "", last: "" }), username: "" };
    expect(assigneeNames(makeTask({ assignedProviders: [nameless] }), buildPeopleDirectory(note))).toEqual(["Dr. Maria Chen, MD"]);
  });

  it("falls back to the username, then to 'an EHR user', never the id", () => {
    const nameless = { ...provider(OKAFOR, "", "", { first: "", last: "" }), username: "cokafor" };
    expect(assigneeNames(makeTask({ assignedProviders: [nameless] }), noOne)).toEqual(["cokafor"]);
    const unknown = { ...nameless, username: " " };
    expect(assigneeSummary(makeTask({ assignedProviders: [unknown] }), noOne)).toBe("An EHR user");
    const brooks = provider(BROOKS, "Amelia", "Brooks");
    expect(assigneeSummary(makeTask({ assignedProviders: [brooks, unknown] }), noOne)).toBe("Amelia Brooks, an EHR user");
    const another = { ...unknown, id: "5f000000-0000-4000-8000-000000000001" };
    expect(assigneeSummary(makeTask({ assignedProviders: [brooks, unknown, another] }), noOne)).toBe("Amelia Brooks, 2 other EHR users");
    expect(assigneeSummary(makeTask({ assignedProviders: [unknown, another] }), noOne)).toBe("2 EHR users");
    for (const name of assigneeNames(makeTask({ assignedProviders: [unknown, another] }), noOne)) expect(name).not.toContain(OKAFOR);
  });

  it("says when there is no assignee", () => {
    expect(assigneeSummary(makeTask({ assignedProviders: [] }), noOne)).toBe("No assignee recorded");
  });
});

describe("task times", () => {

  const chicagoan = (zone: string) => ({ locale: "en-GB", zone, userZone: "America/Chicago" });

  it("shows the time in the facility's zone, the zone named where it differs from the user's", () => {
    expect(formatTaskTime("2026-11-20 14:05:00.000000+00", chicagoan("America/New_York"))).toEqual({ label: "20 Nov 2026, 09:05 EST", iso: "2026-11-20T14:05:00.000Z" });
    expect(formatTaskTime("2026-11-20 14:05:00.000000+00", chicagoan("Australia/Sydney")).label).toBe("21 Nov 2026, 01:05 AEDT");
    expect(formatTaskTime("2026-11-20 14:05:00.000000+00", chicagoan("America/Chicago")).label).toBe("20 Nov 2026, 08:05");
    expect(formatTaskTime("2026-11-20 14:05:00.000000+00", { locale: "en-US", zone: "America/New_York", userZone: "America/Chicago" }).label).toBe("Nov 20, 2026, 9:05 AM EST");
  });

  it("never silently uses the machine's zone, and shows unreadable text as is", () => {
    expect(formatTaskTime("2026-11-20 14:05:00.000000+00", chicagoan("Not/AZone")).label).toBe("20 Nov 2026, 14:05 UTC");
    expect(formatTaskTime("yesterday", chicagoan("America/New_York"))).toEqual({ label: "yesterday", iso: null });
  });
});

describe("a failed create", () => {
  it("on a 502 or another failure of the EHR after sending, says the EHR may have created it, never that nothing was created", () => {
    for (const error of [apiError(502, "unexpected_integration_error"), apiError(504, "server_unresponsive")]) {
      expect(taskCreateFailure(error)).toEqual({ kind: "unknown", title: TASK_UNKNOWN_TITLE, detail: TASK_EHR_FAILED_DETAIL });
    }
    expect(taskCreateFailure(apiError(502, "internal_error", "…", { upstream_trace_id: "trc_1" }))).toMatchObject({ kind: "unknown", detail: expect.stringMatching(/^The clinic data service failed after/) as unknown });
    expect(`${TASK_UNKNOWN_TITLE} ${TASK_EHR_FAILED_DETAIL}`).not.toMatch(/nothing was created/i);
    expect(taskCreateFailure(apiError(503, "upstream_unavailable")).kind).toBe("ehr");
  });

  it("an outcome_unknown names the system whose answer was lost and says the task is listed as not confirmed", () => {
    const lost = taskCreateFailure(apiError(503, "outcome_unknown", "…", { failed_system: "service", intent_id: "i-1" }));
    expect(lost).toEqual({
      kind: "unknown",
      title: "The EHR may have created the task.",
      detail: "The clinic data service's answer did not reach Tandem. Check the note's tasks in the EHR before sending it again: Tandem lists it as not confirmed. Your text is kept.",
    });
    expect(taskCreateFailure(apiError(503, "outcome_unknown", "…", { failed_system: "tandem" }))).toMatchObject({ detail: expect.stringMatching(/^Tandem's server failed after sending it\./) as unknown });
    expect(taskCreateFailure(apiError(504, "outcome_unknown", "…", { failed_system: "ehr" }))).toMatchObject({ detail: expect.stringMatching(/^The EHR did not confirm it\./) as unknown });
  });

  it("a possible duplicate warns that sending it again may create a second task", () => {
    const failure = taskCreateFailure(apiError(409, "possible_duplicate", "…", { intent_id: "i-1" }));
    expect(failure).toMatchObject({ kind: "duplicate", title: TASK_DUPLICATE_TITLE });
    expect("detail" in failure ? failure.detail : "").toMatch(/it will have it twice/);
  });

  it("says how long to wait when rate limited", () => {
    const failure = taskCreateFailure(apiError(429, "rate_limited", "busy", { retry_after_seconds: 3 }));
    expect(failure).toMatchObject({ kind: "ehr", detail: "Nothing was created. Your text is kept: try again in 3 seconds." });
    // As the wait counts down on screen (useRateLimitWaitLeft): never a wait long over.
    expect(taskCreateFailure(apiError(429, "rate_limited", "busy", { retry_after_seconds: 3 }), 1)).toMatchObject({ detail: "Nothing was created. Your text is kept: try again in 1 second." });
    expect(taskCreateFailure(apiError(429, "rate_limited", "busy", { retry_after_seconds: 3 }), 0)).toMatchObject({ detail: "Nothing was created. Your text is kept: try again now." });
  });

  it("shows the BFF's message for a 400", () => {
    expect(taskCreateFailure(apiError(400, "validation_error", "assigneeIds.0: x is not a provider of this organization"))).toEqual({
      kind: "invalid",
      title: "The task was not created.",
      detail: "assigneeIds.0: x is not a provider of this organization",
    });
  });

  it("recognises a signed note", () => {
    expect(taskCreateFailure(apiError(409, "conflict", "Note is signed")).kind).toBe("signed");
  });

  it("does not claim nothing was created when the server was not reached", () => {
    const failure = taskCreateFailure(new TypeError("Failed to fetch"));
    expect(failure.kind).toBe("unreached");
    expect("detail" in failure ? failure.detail : "").toMatch(/may not have been created/);
  });

  it("does not claim nothing was created when the EHR did not answer in time (the task may exist there)", () => {
    const failure = taskCreateFailure(apiError(503, "upstream_timeout"));
    expect(failure.kind).toBe("unreached");
    expect("detail" in failure ? failure.detail : "").toMatch(/may have been created there/);
  });

  it("names Tandem's server, not the EHR, when its store could not answer or it failed; and does not claim nothing was created (the EHR may have it)", () => {
    for (const error of [apiError(503, "store_unavailable"), apiError(500, "internal_error")]) {
      expect(taskCreateFailure(error)).toEqual({
        kind: "unreached",
        title: "Tandem's server is having trouble.",
        detail: "The task may have been created: check the note's tasks in the EHR before trying again. Your text is kept.",
      });
    }
  });

  it("names the clinic data service when it was not reached or busy: nothing was created", () => {
    expect(taskCreateFailure(apiError(503, "upstream_unavailable"))).toEqual({ kind: "ehr", title: "The clinic data service did not answer.", detail: TASK_NOT_CREATED_DETAIL });
    expect(taskCreateFailure(apiError(503, "rate_limited", "busy", { retry_after_seconds: 3 }))).toMatchObject({ kind: "ehr", title: "The clinic data service is busy." });
  });

  it("leaves other errors to the shared description", () => {
    expect(taskCreateFailure(apiError(403, "role_forbidden")).kind).toBe("other");
    expect(taskCreateFailure(apiError(401, "token_replayed")).kind).toBe("other");
  });
});
