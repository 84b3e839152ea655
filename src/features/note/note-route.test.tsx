// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noteChangesResponse, noteViewResponse } from "#contract/app-api/note-changes.ts";
import { noteDraftResponse, noteImagesResponse, noteResponse, noteTasksResponse, type NoteDraftBody } from "#contract/app-api/note.ts";
import { session, type Session } from "#contract/app-api/session.ts";
import { switchCacheIdentity } from "#src/api/cache-identity.ts";
import { noteDraftQuery, noteQuery } from "#src/api/note-queries.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { Route } from "#src/routes/note.tsx";
import { failure, heldAnswer, installFakeBff, ok, type FakeBff } from "#src/testing/fake-bff.ts";
import { renderRoute, routerOf } from "#src/testing/render-route.tsx";
import { testQueryClient } from "#src/testing/render.tsx";
import { buildNoteFixture } from "./reading/testing/note-fixture.ts";

// The /note route as the router runs it (issue 36 item 14): its loader reads
// the note the view opens and its stored draft, with the view's own
// queryOptions; the route's pending view stands in until both have answered
// (a draft offered late would be lost: the editor reads it once); a draft
// that could not be read is not offered, and a note that could not be read is
// the route's error view, naming the system that failed.

const NOTE = buildNoteFixture();
const NOTE_PATH = `/api/notes/${NOTE.id}`;
const OTHER_NOTE = buildNoteFixture({ id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" });
const KEPT = "Call the daughter on Monday with the pathology.";
const DRAFT: NoteDraftBody = { fields: { stickyNoteDescription: KEPT }, baseline: { stickyNoteDescription: NOTE.soapNote.stickyNote.description }, noteVersion: NOTE.version, updatedAt: "2026-11-20T14:30:00.000Z" };

const PHYSICIAN = {
  user: { id: "prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", firstName: "Maria", lastName: "Chen", displayName: "Maria Chen, MD", title: "MD", roles: ["Physician"] },
  organization: { id: "org_a", installationStatus: "active", settings: {} },
  facilities: [],
  grantedScopes: ["write:soap_notes"],
  context: { facilityId: null, patientId: null, noteId: NOTE.id },
  capabilities: { canHoldSlots: true, canEditNotes: true, canReadPatients: true },
  tokenExpiresAt: "2099-01-01T00:00:00.000Z",
} satisfies Session;

/** The note view on screen: a view React hid while the next one suspends (display: none) is not. */
function noteView(): HTMLElement {
  const shown = screen.getAllByTestId("note-view").filter((view) => view.style.display !== "none");
  if (shown.length !== 1) throw new Error(`${shown.length} note views on screen`);
  return shown[0] as HTMLElement;
}

let bff: FakeBff;
beforeEach(() => {
  sessionStorage.clear();
  switchCacheIdentity(new QueryClient(), { organizationId: "org_a", userId: "physician" });
  bff = installFakeBff();
  bff.on("GET", "/api/session", ok(session, PHYSICIAN));
  for (const note of [NOTE, OTHER_NOTE]) {
    const path = `/api/notes/${note.id}`;
    bff.on("GET", `${path}/tasks`, ok(noteTasksResponse, { tasks: [], unconfirmed: [], source: "tandem" }));
    bff.on("GET", `${path}/images`, ok(noteImagesResponse, { images: [] }));
    bff.on("GET", `${path}/changes`, ok(noteChangesResponse, { lastSeenAt: null, noteUpdatedAt: note.updatedAt, fields: [], sections: [] }));
    bff.on("PUT", `${path}/view`, ok(noteViewResponse, { seenAt: "2026-11-20T15:00:00.000Z" }));
  }
});
afterEach(() => switchCacheIdentity(new QueryClient(), null));

describe("the /note route's loader", () => {
  it("reads no note on a preload (a hover over the tab): the patient's note is read, and audited, when it is opened", async () => {
    bff.on("GET", NOTE_PATH, ok(noteResponse, { note: NOTE }));
    bff.on("GET", `${NOTE_PATH}/draft`, ok(noteDraftResponse, { draft: DRAFT }));
    const router = routerOf(Route, { url: "/note", queryClient: testQueryClient() });
    await router.preloadRoute({ to: "/note" });
    expect(bff.calls("GET", NOTE_PATH)).toEqual([]);
    expect(bff.calls("GET", `${NOTE_PATH}/draft`)).toEqual([]);
  });

  it("has the EHR's note and its stored draft in the cache once it has run, with the view's own queryOptions", async () => {
    bff.on("GET", NOTE_PATH, ok(noteResponse, { note: NOTE }));
    bff.on("GET", `${NOTE_PATH}/draft`, ok(noteDraftResponse, { draft: DRAFT }));
    const queryClient = testQueryClient();
    // The URL's note id is not the EHR's: inside the EHR the session names the note.
    await routerOf(Route, { url: `/note?noteId=${OTHER_NOTE.id}`, queryClient }).load();
    expect(queryClient.getQueryData(noteQuery(NOTE.id).queryKey)?.note.id).toBe(NOTE.id);
    expect(queryClient.getQueryData(noteDraftQuery(NOTE.id).queryKey)?.draft).toEqual(DRAFT);
    expect(bff.calls("GET", `/api/notes/${OTHER_NOTE.id}`)).toEqual([]);
  });

  it("outside the EHR, reads the note the link names", async () => {
    bff.on("GET", `/api/notes/${OTHER_NOTE.id}`, ok(noteResponse, { note: OTHER_NOTE }));
    bff.on("GET", `/api/notes/${OTHER_NOTE.id}/draft`, ok(noteDraftResponse, { draft: null }));
    const queryClient = testQueryClient();
    await routerOf(Route, { url: `/note?noteId=${OTHER_NOTE.id}`, appMode: "standalone", queryClient }).load();
    expect(queryClient.getQueryData(noteQuery(OTHER_NOTE.id).queryKey)?.note.id).toBe(OTHER_NOTE.id);
    expect(bff.calls("GET", NOTE_PATH)).toEqual([]);
  });

  it("reads no note for a role notes are not for", async () => {
    bff.on("GET", "/api/session", ok(session, { ...PHYSICIAN, user: { ...PHYSICIAN.user, roles: ["Front Desk"] } }));
    const { router } = renderRoute(Route, { url: "/note" });
    await router.load();
    expect(await screen.findByText("Notes are for clinical roles")).toBeTruthy();
    expect(bff.calls("GET", NOTE_PATH)).toEqual([]);
  });
});

describe("the /note route's views", () => {
  it("shows the pending view until both the note and its stored draft have answered, then the note with the draft offered", async () => {
    const note = heldAnswer();
    const draft = heldAnswer();
    bff.once("GET", NOTE_PATH, note.answer);
    bff.once("GET", `${NOTE_PATH}/draft`, draft.answer);
    const { queryClient } = renderRoute(Route, { url: "/note" });
    expect((await screen.findByTestId("note-view")).getAttribute("data-state")).toBe("loading");
    note.release(ok(noteResponse, { note: NOTE }));
    await waitFor(() => expect(queryClient.getQueryData(noteQuery(NOTE.id).queryKey)).toBeDefined());
    expect(noteView().getAttribute("data-state")).toBe("loading");
    draft.release(ok(noteDraftResponse, { draft: DRAFT }));
    expect(await screen.findByRole("region", { name: "Unsaved text from earlier" })).toBeTruthy();
    expect(noteView().getAttribute("data-state")).toBe("ready");
  });

  it("another note opened in the EHR meanwhile: the pending view until that note and its draft have answered (the view waits, not the loader), then that note", async () => {
    bff.on("GET", NOTE_PATH, ok(noteResponse, { note: NOTE }));
    bff.on("GET", `${NOTE_PATH}/draft`, ok(noteDraftResponse, { draft: null }));
    const { queryClient } = renderRoute(Route, { url: "/note" });
    await waitFor(() => expect(noteView().getAttribute("data-note-version")).toBe(String(NOTE.version)));
    expect(screen.queryByRole("region", { name: "Unsaved text from earlier" })).toBeNull();

    const otherPath = `/api/notes/${OTHER_NOTE.id}`;
    const note = heldAnswer();
    const draft = heldAnswer();
    bff.once("GET", otherPath, note.answer);
    bff.once("GET", `${otherPath}/draft`, draft.answer);
    bff.on("GET", "/api/session", ok(session, { ...PHYSICIAN, context: { ...PHYSICIAN.context, noteId: OTHER_NOTE.id } }));
    await queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
    await waitFor(() => expect(noteView().getAttribute("data-state")).toBe("loading"));
    note.release(ok(noteResponse, { note: OTHER_NOTE }));
    await waitFor(() => expect(queryClient.getQueryData(noteQuery(OTHER_NOTE.id).queryKey)).toBeDefined());
    expect(noteView().getAttribute("data-state")).toBe("loading");
    draft.release(ok(noteDraftResponse, { draft: { ...DRAFT, noteVersion: OTHER_NOTE.version } }));
    expect(await screen.findByRole("region", { name: "Unsaved text from earlier" })).toBeTruthy();
    expect(noteView().getAttribute("data-state")).toBe("ready");
  });

  it("opens the note without the draft when the draft cannot be read", async () => {
    bff.on("GET", NOTE_PATH, ok(noteResponse, { note: NOTE }));
    bff.on("GET", `${NOTE_PATH}/draft`, failure(503, { code: "store_unavailable", message: "Tandem's store did not answer in time" }));
    renderRoute(Route, { url: "/note" });
    expect(await screen.findByRole("textbox", { name: "Sticky note" })).toBeTruthy();
    expect(noteView().getAttribute("data-state")).toBe("ready");
    expect(screen.queryByRole("region", { name: "Unsaved text from earlier" })).toBeNull();
  });

  it("names the system when the note cannot be read, and Try again loads the route again", async () => {
    bff.once("GET", NOTE_PATH, failure(502, { code: "unexpected_integration_error", message: "The EHR failed", upstream_trace_id: "svc_1" }));
    bff.on("GET", NOTE_PATH, ok(noteResponse, { note: NOTE }));
    bff.on("GET", `${NOTE_PATH}/draft`, ok(noteDraftResponse, { draft: null }));
    const { user } = renderRoute(Route, { url: "/note" });
    const problem = await screen.findByRole("alert");
    expect(problem.textContent).toContain("The EHR did not answer");
    expect(noteView().getAttribute("data-state")).toBe("error");
    await user.click(within(problem).getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("textbox", { name: "Sticky note" })).toBeTruthy();
    expect(noteView().getAttribute("data-state")).toBe("ready");
  });
});
