// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { noteTasksResponse, taskCreateRequest, taskResponse, type UnconfirmedTask } from "#contract/app-api/note.ts";
import { providersResponse, session } from "#contract/app-api/session.ts";
import { task as taskSchema, type Task } from "#contract/clinic-api/note.ts";
import { reportBffAnswered } from "#src/api/bff-reachability.ts";
import { UserTimeSettingsProvider } from "#src/lib/use-time-display.tsx";
import { renderWithUser } from "#src/testing/render.tsx";
import { failure, heldAnswer, installFakeBff, ok, type BffReply, type FakeBff } from "#src/testing/fake-bff.ts";
import { peopleOf } from "../reading/people.ts";
import { buildNoteFixture } from "../reading/testing/note-fixture.ts";
import { forgetTaskDrafts } from "./kept-task-draft.ts";
import { TaskPanel } from "./task-panel.tsx";

// The note's task panel as a clinician uses it: the list of tasks Tandem
// created, the form (its checks named at each field, creating, what a failure
// means: refused and nothing created, or sent and perhaps created), the
// warning before a task that may be in the EHR already is sent again, and a
// signed note. The BFF is faked at `fetch` (src/testing/fake-bff.ts).

const NOTE = buildNoteFixture();
const TASKS_PATH = `/api/notes/${NOTE.id}/tasks`;
const BROOKS = "5b0e6f7a-1d2c-4b3a-9e8f-7a6b5c4d3e21";
const OKAFOR = "8c7d6e5f-4a3b-4c2d-8e1f-0a9b8c7d6e54";
const DESCRIPTION = "Schedule a follow-up biopsy review";

const SESSION = z.parse(session, {
  user: { id: "0b7e4a52-3c1d-4e8f-a6b9-2d5c8e1f7a34", firstName: "Maria", lastName: "Chen", displayName: "Dr. Maria Chen, MD", title: "MD", roles: ["Physician"] },
  organization: { id: "org_a", installationStatus: "active", settings: {} },
  facilities: [{ id: NOTE.facility.id, name: NOTE.facility.name, timezone: NOTE.facility.timezone }],
  grantedScopes: ["read:soap_notes", "write:soap_notes"],
  context: { facilityId: NOTE.facility.id, patientId: NOTE.patient.id, noteId: NOTE.id },
  capabilities: { canHoldSlots: false, canEditNotes: true, canReadPatients: true },
  tokenExpiresAt: "2026-11-20T16:00:00.000Z",
});

const PROVIDERS = ok(providersResponse, {
  providers: [
    { id: BROOKS, firstName: "Amelia", lastName: "Brooks", displayName: "Dr. Amelia Brooks, MD", title: "Dermatologist", roles: ["Physician"] },
    { id: OKAFOR, firstName: "Chidi", lastName: "Okafor", displayName: "Chidi Okafor, NP", title: "", roles: ["Nurse Practitioner"] },
  ],
});

function makeTask(notes: string, assigneeId: string, createdAt = "2026-11-20 14:05:00.000000+00"): Task {
  const [firstName, lastName] = assigneeId === BROOKS ? ["Amelia", "Brooks"] : ["Chidi", "Okafor"];
  return z.parse(taskSchema, {
    id: `task-${notes.length}-${assigneeId.slice(0, 4)}`,
    status: "not_started",
    syncStatus: "synced",
    notes,
    source: "marketplace_app",
    ehrType: "ema",
    assignedProviders: [{ id: assigneeId, firstName, lastName, displayFirstName: firstName, displayLastName: lastName, roles: ["Physician"], individualNpi: "1234567890", username: lastName.toLowerCase(), canFinalize: true, canCosign: false }],
    createdAt,
    ehrCreatedAt: createdAt,
    updatedAt: createdAt,
    noteId: NOTE.id,
  });
}

const UNCONFIRMED: UnconfirmedTask = { intentId: "intent-1", notes: "Call the patient with the biopsy result", assigneeIds: [OKAFOR], sentAt: "2026-11-20T14:10:00.000Z", isOwn: true };

/** The tasks the BFF lists now: a test changes them as the EHR would. */
let listed: { tasks: Task[]; unconfirmed: UnconfirmedTask[] };
let bff: FakeBff;
beforeEach(() => {
  forgetTaskDrafts();
  listed = { tasks: [makeTask("Send the pathology request", BROOKS)], unconfirmed: [] };
  bff = installFakeBff();
  bff.on("GET", "/api/session", ok(session, SESSION));
  bff.on("GET", "/api/providers", PROVIDERS);
  bff.on("GET", TASKS_PATH, () => ok(noteTasksResponse, { ...listed, source: "tandem" }));
});
// Every call the panel made was one the test expected.
afterEach(() => expect(bff.unanswered).toEqual([]));

function renderPanel(readOnlyReason: string | null = null) {
  return renderWithUser(
    <UserTimeSettingsProvider settings={{ locale: "en-US", userZone: "America/New_York" }}>
      <TaskPanel noteId={NOTE.id} readOnlyReason={readOnlyReason} timezone={NOTE.facility.timezone} people={peopleOf(NOTE)} />
    </UserTimeSettingsProvider>,
  );
}

const form = () => screen.getByRole("form", { name: "Create a task" });
const descriptionBox = () => within(form()).getByRole("textbox", { name: "Task description" });
const assigneePicker = () => within(form()).getByRole("button", { name: /^Assign to/ });
const createButton = () => within(form()).getByRole("button", { name: /^(Create|Creating) task/ });
const sentRequests = () => bff.calls("POST", TASKS_PATH).map((call) => z.parse(taskCreateRequest, call.body));

/** The text an element's aria-describedby points at: what a screen reader reads with the field. */
function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute("aria-describedby")?.split(" ") ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

function textIn(box: HTMLElement): string {
  if (!(box instanceof HTMLTextAreaElement)) throw new Error("not a textarea");
  return box.value;
}

/** Types the description and picks Dr Brooks, from the keyboard. */
async function fillForm(user: ReturnType<typeof renderPanel>["user"]) {
  await user.click(descriptionBox());
  await user.keyboard(DESCRIPTION);
  await user.tab();
  expect(document.activeElement).toBe(assigneePicker());
  await user.keyboard("{Enter}");
  await user.keyboard("brooks");
  await user.click(await screen.findByRole("checkbox", { name: /Amelia Brooks/ }));
  await user.keyboard("{Escape}");
  await waitFor(() => expect(assigneePicker().textContent).toContain("Dr. Amelia Brooks, MD"));
}

/** A reload of the frame now: whether the browser would ask first (beforeunload prevented). */
function reloadAsksFirst(): boolean {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe("the note's tasks", () => {
  it("lists the tasks created through Tandem, says only those are listed, and who creates new ones", async () => {
    renderPanel();
    const list = await screen.findByRole("list", { name: "Tasks created through Tandem" });
    expect(within(list).getByText("Send the pathology request")).toBeTruthy();
    expect(within(list).getByText("Amelia Brooks")).toBeTruthy();
    expect(screen.getByText(/Only tasks created through Tandem are listed/)).toBeTruthy();
    expect((await within(form()).findByText("Dr. Maria Chen, MD")).closest("p")?.textContent).toBe("Created as Dr. Maria Chen, MD (the user signed in to the EHR)");
  });

  it("on a signed note: the list stays, the form gives way to the reason", async () => {
    renderPanel("This note was signed in the EHR, so no tasks can be added from Tandem.");
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    expect(screen.getByText("This note was signed in the EHR, so no tasks can be added from Tandem.")).toBeTruthy();
    expect(screen.queryByRole("form", { name: "Create a task" })).toBeNull();
  });
});

describe("the create form's checks", () => {
  it("names each problem at its field, focuses the first, and follows the fixes as they are made", async () => {
    const { user } = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    await user.click(createButton());

    expect(descriptionBox().getAttribute("aria-invalid")).toBe("true");
    expect(descriptionOf(descriptionBox())).toContain("Enter a task description.");
    expect(assigneePicker().getAttribute("aria-invalid")).toBe("true");
    expect(descriptionOf(assigneePicker())).toContain("Choose at least one provider to assign the task to.");
    expect(document.activeElement).toBe(descriptionBox());

    await user.keyboard("   ");
    expect(descriptionOf(descriptionBox())).toContain("Enter a task description.");
    await user.keyboard(DESCRIPTION);
    expect(descriptionBox().hasAttribute("aria-invalid")).toBe(false);
    expect(descriptionOf(descriptionBox())).toBe(`${DESCRIPTION.length} of 4,000 characters`);

    // Enter in the form submits it again: focus goes to the one field still wrong.
    await user.click(createButton());
    expect(document.activeElement).toBe(assigneePicker());
    expect(sentRequests()).toHaveLength(0);
  });
});

describe("creating a task", () => {
  it("sends the description and assignees, says it is creating, then lists the task and empties the form", async () => {
    const held = heldAnswer();
    bff.once("POST", TASKS_PATH, held.answer);
    const { user } = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    expect(reloadAsksFirst()).toBe(false);
    await fillForm(user);
    // What is typed lives only in this page: a reload asks first.
    expect(reloadAsksFirst()).toBe(true);
    await user.click(createButton());

    expect(createButton().textContent).toBe("Creating task…");
    expect(createButton().hasAttribute("disabled")).toBe(true);
    expect(sentRequests()).toEqual([{ notes: DESCRIPTION, assigneeIds: [BROOKS] }]);

    const created = makeTask(DESCRIPTION, BROOKS, "2026-11-20 15:00:00.000000+00");
    listed = { ...listed, tasks: [...listed.tasks, created] };
    held.release(ok(taskResponse, { task: created }));

    expect(await screen.findByText("Task created")).toBeTruthy();
    expect(within(screen.getByRole("list", { name: "Tasks created through Tandem" })).getByText(DESCRIPTION)).toBeTruthy();
    expect(textIn(descriptionBox())).toBe("");
    expect(assigneePicker().textContent).not.toContain("Brooks");
    expect(document.activeElement).toBe(createButton());
    expect(reloadAsksFirst()).toBe(false);
  });

  it("keeps what is half typed while the user is in another view, and forgets it once the task is created", async () => {
    const first = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    await fillForm(first.user);
    // To Slots and back: the panel is unmounted and drawn again.
    first.unmount();
    const { user } = renderPanel();
    expect(textIn(descriptionBox())).toBe(DESCRIPTION);
    await waitFor(() => expect(assigneePicker().textContent).toContain("Dr. Amelia Brooks, MD"));
    expect(reloadAsksFirst()).toBe(true);

    const created = makeTask(DESCRIPTION, BROOKS, "2026-11-20 15:00:00.000000+00");
    bff.once("POST", TASKS_PATH, ok(taskResponse, { task: created }));
    listed = { ...listed, tasks: [...listed.tasks, created] };
    await user.click(createButton());
    expect(await screen.findByText("Task created")).toBeTruthy();
    cleanup();
    renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    expect(textIn(descriptionBox())).toBe("");
  });

  const refused = "Nothing was created";
  it.each([
    {
      what: "the service busy: refused before acting, nothing created, Retry",
      answer: () => failure(429, { code: "rate_limited", message: "Too many requests", retry_after_seconds: 2 }),
      title: "The clinic data service is busy.",
      detail: `${refused}. Your text is kept: try again in 2 seconds.`,
      retry: true,
    },
    {
      what: "the service not reached: never sent, nothing created, Retry",
      answer: () => failure(502, { code: "upstream_unavailable", message: "The clinic data service did not answer" }),
      title: "The clinic data service did not answer.",
      detail: `${refused}. Your text is kept: try again.`,
      retry: true,
    },
    {
      what: "sent and the EHR's answer lost: it may be created, listed as not confirmed, no Retry",
      answer: () => failure(502, { code: "outcome_unknown", message: "No answer", failed_system: "ehr", intent_id: "intent-2" }),
      title: "The EHR may have created the task.",
      detail: "The EHR did not confirm it. Check the note's tasks in the EHR before sending it again: Tandem lists it as not confirmed. Your text is kept.",
      retry: false,
    },
    {
      what: "the EHR failing after it was sent: it may be created, no Retry",
      answer: () => failure(502, { code: "unexpected_integration_error", message: "The EHR failed", upstream_trace_id: "svc_1" }),
      title: "The EHR may have created the task.",
      detail: "The EHR reported a failure after Tandem sent the task. Check the note's tasks in the EHR before sending it again. Your text is kept.",
      retry: false,
    },
    {
      what: "Tandem's server not reached: it may not be created, Retry",
      answer: (): BffReply => {
        throw new TypeError("Failed to fetch");
      },
      title: "Tandem could not reach its server.",
      detail: "The task may not have been created: check the note's tasks in the EHR before trying again. Your text is kept.",
      retry: true,
    },
    {
      what: "refused by the BFF's checks: its message",
      answer: () => failure(400, { code: "validation_error", message: "notes: must not contain NUL characters or unpaired surrogates" }),
      title: "The task was not created.",
      detail: "notes: must not contain NUL characters or unpaired surrogates",
      retry: false,
    },
  ])("a failed create says what it means: $what", async ({ answer, title, detail, retry }) => {
    bff.once("POST", TASKS_PATH, answer);
    const { user } = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    await fillForm(user);
    await user.click(createButton());

    const notice = await within(form()).findByRole("alert");
    expect(within(notice).getByText(title)).toBeTruthy();
    expect(within(notice).getByText(detail)).toBeTruthy();
    expect(notice.textContent).not.toMatch(retry ? /may have created/ : /Nothing was created/);
    expect(within(notice).queryByRole("button", { name: "Retry" }) !== null).toBe(retry);
    expect(textIn(descriptionBox())).toBe(DESCRIPTION);
    expect(assigneePicker().textContent).toContain("Dr. Amelia Brooks, MD");
  });

  it("a create that could not reach Tandem's server: once the server answers again, the notice says so and the list is read again, showing the task if it got there", async () => {
    bff.once("POST", TASKS_PATH, (): BffReply => {
      // The request reached the BFF, which sent it; the answer was lost on the way back.
      listed = { ...listed, unconfirmed: [{ ...UNCONFIRMED, notes: DESCRIPTION, assigneeIds: [BROOKS] }] };
      throw new TypeError("Failed to fetch");
    });
    const { user } = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    await fillForm(user);
    await user.click(createButton());
    const notice = await within(form()).findByRole("alert");
    expect(notice.textContent).toContain("Tandem could not reach its server.");
    const listReads = bff.calls("GET", TASKS_PATH).length;

    act(() => reportBffAnswered());
    const back = await within(form()).findByRole("status");
    expect(within(back).getByText("Tandem's server is answering again.")).toBeTruthy();
    expect(back.textContent).toContain("The task may not have been created: check the note's tasks in the EHR before trying again. Your text is kept.");
    expect(within(form()).queryByText("Tandem could not reach its server.")).toBeNull();
    await waitFor(() => expect(bff.calls("GET", TASKS_PATH).length).toBeGreaterThan(listReads));
    expect((await screen.findByRole("list", { name: "Tasks the EHR has not confirmed" })).textContent).toContain(DESCRIPTION);
    expect(textIn(descriptionBox())).toBe(DESCRIPTION);
  });

  it("a create refused as Tandem is not active says nothing was created; once Tandem answers again, Retry creates it", async () => {
    bff.once("POST", TASKS_PATH, failure(403, { code: "installation_inactive", message: "Tandem's installation for this organization is uninstalled" }));
    const { user } = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    await fillForm(user);
    await user.click(createButton());
    const notice = await within(form()).findByRole("alert");
    expect(notice.textContent).toContain("Tandem is not active for this organization.");
    expect(notice.textContent).toContain("Nothing was created. Your text is kept: create the task once an administrator reactivates Tandem.");
    const listReads = bff.calls("GET", TASKS_PATH).length;

    // Reinstalled: another call of the app is answered.
    act(() => reportBffAnswered());
    const back = await within(form()).findByRole("status");
    expect(within(back).getByText("Tandem is active again.")).toBeTruthy();
    expect(within(form()).queryByText("Tandem is not active for this organization.")).toBeNull();
    // Nothing was sent, so nothing can be in the EHR: the list is not read again for it.
    expect(bff.calls("GET", TASKS_PATH)).toHaveLength(listReads);
    const created = makeTask(DESCRIPTION, BROOKS, "2026-11-20 15:00:00.000000+00");
    bff.once("POST", TASKS_PATH, () => {
      listed = { ...listed, tasks: [...listed.tasks, created] };
      return ok(taskResponse, { task: created });
    });
    await user.click(within(back).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Task created")).toBeTruthy();
    expect(within(screen.getByRole("list", { name: "Tasks created through Tandem" })).getByText(DESCRIPTION)).toBeTruthy();
    expect(sentRequests()).toEqual([
      { notes: DESCRIPTION, assigneeIds: [BROOKS] },
      { notes: DESCRIPTION, assigneeIds: [BROOKS] },
    ]);
  });

  it("a task like one the EHR may have already is sent only when the user chooses, marked as such", async () => {
    bff.once("POST", TASKS_PATH, failure(409, { code: "possible_duplicate", message: "A task like this may be in the EHR", intent_id: "intent-1" }));
    bff.once("POST", TASKS_PATH, ok(taskResponse, { task: makeTask(DESCRIPTION, BROOKS) }));
    const { user } = renderPanel();
    await screen.findByRole("list", { name: "Tasks created through Tandem" });
    await fillForm(user);
    await user.click(createButton());

    const warning = await within(form()).findByRole("status");
    expect(within(warning).getByText("This task may be in the EHR already.")).toBeTruthy();
    expect(warning.textContent).toContain("send it again only if it is not there: if the EHR has it, it will have it twice");
    within(warning).getByRole("button", { name: "Send it again anyway" }).focus();
    await user.keyboard("{Enter}");

    expect(await screen.findByText("Task created")).toBeTruthy();
    expect(sentRequests()).toEqual([
      { notes: DESCRIPTION, assigneeIds: [BROOKS] },
      { notes: DESCRIPTION, assigneeIds: [BROOKS], confirmPossibleDuplicate: true },
    ]);
  });
});

describe("tasks the EHR has not confirmed", () => {
  it("say the EHR may have created them, and are sent again only after the question, warned of a duplicate", async () => {
    listed = { ...listed, unconfirmed: [UNCONFIRMED] };
    const { user } = renderPanel();
    const list = await screen.findByRole("list", { name: "Tasks the EHR has not confirmed" });
    expect(list.textContent).toContain("Call the patient with the biopsy result");
    expect(list.textContent).toContain("Assigned to Chidi Okafor, NP");
    expect(list.textContent).toContain("The EHR may have created this task: Tandem sent it at");

    await user.click(within(list).getByRole("button", { name: "Send again…" }));
    const question = within(list).getByRole("group", { name: "Send this task again?" });
    expect(question.textContent).toContain("Send this task to the EHR again? If the EHR created it the first time, it will have it twice.");
    await user.click(within(question).getByRole("button", { name: "Cancel" }));
    expect(within(list).queryByRole("group")).toBeNull();
    expect(sentRequests()).toHaveLength(0);

    const resent = makeTask(UNCONFIRMED.notes, OKAFOR, "2026-11-20 15:00:00.000000+00");
    bff.once("POST", TASKS_PATH, () => {
      listed = { tasks: [...listed.tasks, resent], unconfirmed: [] };
      return ok(taskResponse, { task: resent });
    });
    await user.click(within(list).getByRole("button", { name: "Send again…" }));
    await user.click(within(list).getByRole("button", { name: "Send again" }));

    await waitFor(() => expect(screen.queryByRole("list", { name: "Tasks the EHR has not confirmed" })).toBeNull());
    expect(within(screen.getByRole("list", { name: "Tasks created through Tandem" })).getByText(UNCONFIRMED.notes)).toBeTruthy();
    expect(sentRequests()).toEqual([{ notes: UNCONFIRMED.notes, assigneeIds: [OKAFOR], confirmPossibleDuplicate: true }]);
  });

  it("are not followed by 'no tasks yet' when they are all the note has", async () => {
    listed = { tasks: [], unconfirmed: [UNCONFIRMED] };
    renderPanel();
    await screen.findByRole("list", { name: "Tasks the EHR has not confirmed" });
    expect(screen.queryByText(/No tasks created through Tandem/)).toBeNull();
  });

  it("leave 'no tasks yet' to a note with neither kind", async () => {
    listed = { tasks: [], unconfirmed: [] };
    renderPanel();
    expect(await screen.findByText("No tasks created through Tandem on this note yet.")).toBeTruthy();
  });

  it("offer no resend on a signed note", async () => {
    listed = { ...listed, unconfirmed: [UNCONFIRMED] };
    renderPanel("This note was signed in the EHR, so no tasks can be added from Tandem.");
    const list = await screen.findByRole("list", { name: "Tasks the EHR has not confirmed" });
    expect(within(list).queryByRole("button", { name: "Send again…" })).toBeNull();
  });
});
