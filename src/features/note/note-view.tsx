import { usePrefetchQuery, useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { Session } from "#contract/app-api/session.ts";
import type { Note, WritableNoteField } from "#contract/clinic-api/note.ts";
import type { NoteDraftBody } from "#contract/app-api/note.ts";
import { noteDraftQuery, noteImagesQuery, noteQuery, noteTasksQuery } from "#src/api/note-queries.ts";
import { sessionQuery } from "#src/api/session-query.ts";
import { useBridge } from "#src/bridge/bridge-provider.tsx";
import { useSettledQuery } from "#src/api/use-settled-query.ts";
import { Notice } from "#src/components/ui/notice.tsx";
import { fieldChangeMarkOf, sectionChangeMarkOf } from "./changes/changed-under-reader-mark.tsx";
import { useChangesUnderReader } from "./changes/use-changes-under-reader.ts";
import { usePrefetchNoteChanges } from "./changes/use-note-changes.ts";
import { WhatChangedPanel } from "./changes/what-changed-panel.tsx";
import { DraftRestoreNotice } from "./editing/draft-restore-notice.tsx";
import { LeaveGuardDialog } from "./editing/leave-guard-dialog.tsx";
import { NoteRereadNotice } from "./editing/note-reread-notice.tsx";
import { ReadOnlyDraftCopy } from "./editing/read-only-draft-copy.tsx";
import { RemoteChangeNotice } from "./editing/remote-change-notice.tsx";
import { handleSaveShortcut, SaveStatusBar } from "./editing/save-status-bar.tsx";
import { useLeaveGuard } from "./editing/use-leave-guard.ts";
import { useNoteEditor, type NoteEditor } from "./editing/use-note-editor.ts";
import { WritableFieldEditor } from "./editing/writable-field-editor.tsx";
import { ImagePanel } from "./images/image-panel.tsx";
import { BadNoteLink } from "./recent/bad-note-link.tsx";
import type { NoteLink } from "./recent/note-link.ts";
import { RecentNotes } from "./recent/recent-notes.tsx";
import { noteToOpen } from "./note-to-open.ts";
import { NoteHeader } from "./reading/note-header.tsx";
import { peopleOf } from "./reading/people.ts";
import { NoteSectionList } from "./reading/note-section-list.tsx";
import { hasText } from "./reading/note-format.ts";
import { emptySectionIds, NOTE_SECTIONS, noteSectionById, SIGNER_USUALLY_FILLS, type NoteSectionInfo } from "./reading/note-sections.ts";
import { buildNoteOutline, listedTaskCount } from "./note-outline.ts";
import { NoteOutlineNav } from "./note-outline-nav.tsx";
import { buildSignOffChecklist } from "./sign-off/sign-off-checklist.ts";
import { ReadyToSignPanel } from "./sign-off/ready-to-sign-panel.tsx";
import { useReviewMarks } from "./sign-off/use-review-marks.ts";
import { isTaskOpen } from "./tasks/task-form-model.ts";
import { TaskPanel } from "./tasks/task-panel.tsx";
import { useStickyScrollPadding } from "./use-sticky-scroll-padding.ts";
import { WRITABLE_FIELD_INFO } from "./writable-fields.ts";

// The note in the EHR's context, prepared for sign-off (ADR 0008): the whole
// note read-only, the four writable fields edited in place, tasks, images and
// the "Ready to sign" panel. Which note: note-to-open.ts.

const WRITE_SCOPE = "write:soap_notes";
/** The save bar's element (save-status-bar.tsx): it sticks to the top of the frame. */
const SAVE_STATUS_ID = "note-save-status";
const FIELDS_IN_NOTE_ORDER = NOTE_SECTIONS.flatMap((section) => (section.writableField ? [section.writableField] : []));

export function NoteView({ standaloneLink }: { standaloneLink: NoteLink }) {
  const session = useQuery(sessionQuery());
  const { bridge } = useBridge();
  if (!session.data) return null; // the shell renders only with a session
  const toOpen = noteToOpen(session.data, bridge.mode, standaloneLink);
  switch (toOpen.kind) {
    case "not-clinical":
      return <Notice title="Notes are for clinical roles">Your role in the EHR does not give access to visit notes. Slots and availability are open to you.</Notice>;
    case "none-in-ehr":
      return <Notice title="No note is open in the EHR">Open the visit note in the EHR, and Tandem shows it here.</Notice>;
    // Outside the EHR the clinician's recent notes stand in for the EHR's context; nobody types a note id.
    case "bad-link":
      return <BadNoteLink />;
    case "recent-notes":
      return <RecentNotes />;
    case "note":
      return <NoteLoader key={toOpen.noteId} noteId={toOpen.noteId} session={session.data} />;
  }
}

// The route's loader has read the note and its stored draft (routes/note.tsx); another note opened in the EHR
// meanwhile, or another identity, is read here, the route's pending view standing in until both have answered.
// Only a note never read is replaced by the route's error view: a failed re-read leaves the editor and its text in
// place (issue 35). A draft that could not be read is not offered; this tab's copy still is.
function NoteLoader({ noteId, session }: { noteId: string; session: Session }) {
  // Both reads start before either is waited for.
  usePrefetchQuery(noteDraftQuery(noteId));
  const note = useSuspenseQuery(noteQuery(noteId));
  const draft = useSettledQuery(noteDraftQuery(noteId));
  usePrefetchNoteChanges(noteId);
  const canWrite = session.grantedScopes.includes(WRITE_SCOPE);
  return (
    <NoteWorkspace
      noteId={noteId}
      note={note.data.note}
      rereadError={note.isError ? note.error : null}
      initialDraft={draft.data?.draft ?? null}
      canEdit={canWrite}
      cannotEditReason={canWrite ? undefined : "This organization has not granted Tandem permission to change notes."}
    />
  );
}

interface NoteWorkspaceProps {
  noteId: string;
  note: Note;
  /** The latest re-read of the note failed (the note shown is the last one read); null when it did not. */
  rereadError: Error | null;
  initialDraft: NoteDraftBody | null;
  canEdit: boolean;
  cannotEditReason: string | undefined;
}

function NoteWorkspace({ noteId, note, rereadError, initialDraft, canEdit, cannotEditReason }: NoteWorkspaceProps) {
  const timezone = note.facility.timezone;
  const editor = useNoteEditor({ noteId, note, initialDraft, canEdit, ...(cannotEditReason ? { cannotEditReason } : {}), timezone });
  const guard = useLeaveGuard(editor.hasUnsavedChanges);
  const checklist = useSignOffChecklist(noteId, note, editor);
  const outline = useNoteOutline(noteId, note);
  const changedUnderReader = useChangesUnderReader(note, editor.values, editor.dirtyFields);
  const readOnlyReason = editor.readOnlyReason;
  useStickyScrollPadding(SAVE_STATUS_ID);
  const renderWritableField = (field: WritableNoteField) => <WritableFieldEditor field={field} editor={editor} mark={fieldChangeMarkOf(changedUnderReader, field, timezone)} />;
  const renderSectionMark = (section: NoteSectionInfo) => sectionChangeMarkOf(changedUnderReader, section, timezone);

  return (
    <div className="mx-auto max-w-6xl space-y-3" data-testid="note-view" data-state="ready" data-note-version={note.version} onKeyDown={(event) => handleSaveShortcut(event, editor)}>
      <h1 className="sr-only">Visit note</h1>
      <p role="status" aria-live="polite" className="sr-only" data-testid="field-change-announcement">
        {/* A new node each time, so the same words said again are announced again. */}
        <span key={changedUnderReader.announcement.count}>{changedUnderReader.announcement.text}</span>
      </p>
      <SaveStatusBar editor={editor} timezone={timezone} />
      {rereadError ? <NoteRereadNotice error={rereadError} editor={editor} /> : null}
      <DraftRestoreNotice editor={editor} />
      <RemoteChangeNotice editor={editor} />
      <ReadOnlyDraftCopy editor={editor} />
      <WhatChangedPanel noteId={noteId} note={note} />
      <div className="grid gap-3 lg:grid-cols-[13rem_minmax(0,1fr)]">
        {/* Below the sticky save bar, and scrolling on its own when the frame is shorter than the list. */}
        <aside className="lg:sticky lg:top-16 lg:max-h-[calc(100vh-5rem)] lg:self-start lg:overflow-y-auto">
          <NoteOutlineNav outline={outline} />
        </aside>
        <div className="min-w-0 space-y-3">
          <NoteHeader note={note} />
          <ReadyToSignPanel checklist={checklist.value} onReviewedChange={checklist.toggle} />
          <NoteSectionList note={note} renderWritableField={renderWritableField} renderSectionMark={renderSectionMark} />
          <TaskPanel noteId={noteId} readOnlyReason={readOnlyReason} timezone={timezone} people={peopleOf(note)} />
          <ImagePanel noteId={noteId} readOnlyReason={readOnlyReason} timezone={timezone} />
        </div>
      </div>
      <LeaveGuardDialog guard={guard} />
    </div>
  );
}

function useSignOffChecklist(noteId: string, note: Note, editor: NoteEditor) {
  const tasks = useQuery(noteTasksQuery(noteId));
  const marks = useReviewMarks(noteId);
  const value = useMemo(() => {
    const empty = new Set(emptySectionIds(note));
    const emptySignerSections = SIGNER_USUALLY_FILLS.filter((id) => empty.has(id)).map((id) => ({ id, title: noteSectionById(id)?.title ?? id }));
    const status = editor.status;
    const saveProblem =
      status.kind === "failed"
        ? status.failure.kind === "system" && status.failure.reason === "unconfirmed"
          ? "Your last save is not confirmed by the EHR"
          : "Your last save did not reach the EHR"
        : status.kind === "conflict"
          ? "A field was changed in the EHR while you edited it: choose which text to keep"
          : null;
    return buildSignOffChecklist({
      note,
      emptySignerSections,
      unsavedFields: editor.readOnlyReason === null ? editor.dirtyFields.map((field) => WRITABLE_FIELD_INFO[field]) : [],
      emptyFields: editor.readOnlyReason === null ? FIELDS_IN_NOTE_ORDER.filter((field) => !hasText(editor.values[field])).map((field) => WRITABLE_FIELD_INFO[field]) : [],
      saveProblem,
      hasWaitingDraft: editor.draftOffer !== null && editor.readOnlyReason === null,
      openTasks: (tasks.data?.tasks ?? []).filter(isTaskOpen).map((task) => ({ id: task.id, description: task.notes })),
      unconfirmedTasks: (tasks.data?.unconfirmed ?? []).map((task) => ({ intentId: task.intentId, description: task.notes })),
      reviewed: marks.reviewed,
    });
  }, [note, editor.status, editor.dirtyFields, editor.values, editor.readOnlyReason, editor.draftOffer, tasks.data, marks.reviewed]);
  return { value, toggle: marks.toggle };
}

function useNoteOutline(noteId: string, note: Note) {
  const tasks = useQuery(noteTasksQuery(noteId));
  const images = useQuery(noteImagesQuery(noteId));
  const taskCount = listedTaskCount(tasks.data);
  const imageCount = images.data?.images.length ?? null;
  return useMemo(() => buildNoteOutline(note, { tasks: taskCount, images: imageCount }), [note, taskCount, imageCount]);
}
