import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertDialog } from "radix-ui";
import { useEffect, useId, useRef, useState } from "react";
import type { NoteImage } from "../../../../contract/clinic-api/note.ts";
import { deleteNoteImage, markNoteSigned, noteImagesQuery } from "../../../api/note-queries.ts";
import { queryKeys } from "../../../api/query-keys.ts";
import { ApiErrorNotice } from "../../../components/shell/api-error-notice.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { IMAGES_ID } from "../note-outline.ts";
import { deleteButtonLabel, deleteDialogTitle, deletedAnnouncement, imageDeleteFailure, imageName, imageSummary, SIGNED_IMAGES_MESSAGE, type ImageDeleteFailure } from "./image-format.ts";

// The note's images, each deletable in the EHR after a confirmation that
// names the file. A signed note refuses deletes (409): the panel then turns
// read-only and says why, once.

export interface ImagePanelProps {
  noteId: string;
  /** Why the note's images cannot be deleted (signed); the list stays. */
  readOnlyReason: string | null;
  /** The facility's IANA zone. Taken for a uniform call site with the task panel: images carry no times. */
  timezone: string;
}

interface DeleteOutcome {
  image: NoteImage;
  error: unknown;
  failure: ImageDeleteFailure;
}

type FocusTarget = "heading" | "retry";

const removeImage = (imageId: string) => (current: { images: NoteImage[] } | undefined) => (current ? { ...current, images: current.images.filter((image) => image.id !== imageId) } : current);

export function ImagePanel({ noteId, readOnlyReason }: ImagePanelProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const images = useQuery(noteImagesQuery(noteId));

  const [isSignedByConflict, setIsSignedByConflict] = useState(false);
  const [confirming, setConfirming] = useState<NoteImage | null>(null);
  const [outcome, setOutcome] = useState<DeleteOutcome | null>(null);
  const [announcement, setAnnouncement] = useState({ id: 0, text: "" });
  const [focusRequest, setFocusRequest] = useState<{ target: FocusTarget; id: number } | null>(null);

  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  // Set synchronously: a second click before React re-renders (and disables the buttons) is ignored.
  const isDeleting = useRef(false);
  // The dialog closed because the delete finished: focus is placed by the panel, not returned to the row's button.
  const closedBySettle = useRef(false);

  const readOnlyText = readOnlyReason ?? (isSignedByConflict ? SIGNED_IMAGES_MESSAGE : null);
  const isReadOnly = readOnlyText !== null;

  const mutation = useMutation({
    mutationFn: (image: NoteImage) => deleteNoteImage(noteId, image.id),
    onSuccess: (_deleted, image) => {
      queryClient.setQueryData(noteImagesQuery(noteId).queryKey, removeImage(image.id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.note.images(noteId) });
      setOutcome(null);
      setAnnouncement((current) => ({ id: current.id + 1, text: deletedAnnouncement(imageName(image)) }));
    },
    onError: (error, image) => {
      const failure = imageDeleteFailure(error, imageName(image));
      if (failure.kind === "signed") {
        setIsSignedByConflict(true);
        markNoteSigned(queryClient, noteId);
      }
      if (failure.kind === "gone") {
        queryClient.setQueryData(noteImagesQuery(noteId).queryKey, removeImage(image.id));
        void queryClient.invalidateQueries({ queryKey: queryKeys.note.images(noteId) });
      }
      setAnnouncement((current) => ({ id: current.id + 1, text: "" }));
      setOutcome({ image, error, failure });
    },
    onSettled: (_data, error) => {
      isDeleting.current = false;
      closedBySettle.current = true;
      setConfirming(null);
      // The outcome state is not rendered yet here, so the failure is classified again (the file name plays no part in the kind).
      const kind = error ? imageDeleteFailure(error, "").kind : null;
      const retryable = kind === "ehr" || kind === "unreached";
      setFocusRequest((current) => ({ target: retryable ? "retry" : "heading", id: (current?.id ?? 0) + 1 }));
    },
  });
  const pendingImageId = mutation.isPending ? mutation.variables.id : null;

  useEffect(() => {
    if (!focusRequest) return;
    const retry = panelRef.current?.querySelector<HTMLButtonElement>("[data-image-retry]");
    if (focusRequest.target === "retry" && retry) retry.focus();
    else headingRef.current?.focus();
  }, [focusRequest]);

  const startDelete = (image: NoteImage) => {
    if (isDeleting.current || isReadOnly) return;
    isDeleting.current = true;
    setOutcome(null);
    setAnnouncement((current) => ({ id: current.id + 1, text: `Deleting ${imageName(image)}…` }));
    mutation.mutate(image);
  };

  const openConfirm = (image: NoteImage) => {
    if (isDeleting.current) return;
    closedBySettle.current = false;
    setConfirming(image);
  };

  const list = images.data?.images ?? [];

  return (
    <section ref={panelRef} id={IMAGES_ID} data-testid="image-panel" aria-labelledby={`${id}-heading`} className="scroll-mt-4 space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="text-base font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-700">
        Images
      </h2>

      {readOnlyReason ? (
        <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">{readOnlyReason}</p>
      ) : isSignedByConflict ? (
        <Notice tone="warning" title={SIGNED_IMAGES_MESSAGE} />
      ) : null}

      {outcome && (!isReadOnly || outcome.failure.kind === "gone") ? <OutcomeNotice outcome={outcome} isPending={mutation.isPending} onRetry={() => startDelete(outcome.image)} /> : null}

      {images.data === undefined ? (
        images.isError ? (
          <ApiErrorNotice error={images.error} onRetry={() => void images.refetch()} />
        ) : (
          <div aria-busy="true" className="space-y-2">
            <p className="sr-only">Loading images…</p>
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        )
      ) : (
        <>
          {images.isError ? <ApiErrorNotice error={images.error} onRetry={() => void images.refetch()} /> : null}
          {list.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-700">No images on this note.</p>
          ) : (
            <ul aria-label="Images on this note" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
              {list.map((image) => {
                const isThisPending = pendingImageId === image.id;
                return (
                  <li key={image.id} data-testid="note-image" data-image-id={image.id} className="flex items-start justify-between gap-3 p-3">
                    <div className="min-w-0">
                      <p className="text-sm font-medium break-all text-slate-900">{imageName(image)}</p>
                      <p className="text-xs text-slate-600">{imageSummary(image)}</p>
                    </div>
                    {isReadOnly ? null : (
                      <Button
                        variant="secondary"
                        className="shrink-0"
                        aria-label={isThisPending ? `Deleting ${imageName(image)}` : deleteButtonLabel(imageName(image))}
                        disabled={mutation.isPending}
                        onClick={() => openConfirm(image)}
                      >
                        {isThisPending ? "Deleting…" : "Delete"}
                      </Button>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}

      <p aria-live="polite" aria-atomic="true" className="text-sm text-slate-700">
        {announcement.text ? <span key={announcement.id}>{announcement.text}</span> : null}
      </p>

      <AlertDialog.Root
        open={confirming !== null && !isReadOnly}
        onOpenChange={(isOpen) => {
          // While the delete runs, the dialog stays: its outcome decides what comes next.
          if (!isOpen && !mutation.isPending) setConfirming(null);
        }}
      >
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
          {confirming ? (
            <AlertDialog.Content
              data-no-shortcuts=""
              onEscapeKeyDown={(event) => {
                if (mutation.isPending) event.preventDefault();
              }}
              onCloseAutoFocus={(event) => {
                // On Cancel Radix returns focus to the row's Delete button; after a delete the panel places it.
                if (closedBySettle.current) event.preventDefault();
              }}
              className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-slate-300 bg-white p-4 text-slate-900 shadow-lg"
            >
              <AlertDialog.Title className="text-base font-semibold break-all">{deleteDialogTitle(imageName(confirming))}</AlertDialog.Title>
              <AlertDialog.Description className="mt-2 text-sm text-slate-700">
                <span className="break-all">{imageName(confirming)}</span> will be deleted from this note in the EHR, not only in Tandem. This cannot be undone.
              </AlertDialog.Description>
              <div className="mt-4 flex flex-wrap justify-end gap-2">
                <AlertDialog.Cancel asChild>
                  <Button variant="secondary" disabled={mutation.isPending}>
                    Cancel
                  </Button>
                </AlertDialog.Cancel>
                <button
                  type="button"
                  onClick={() => startDelete(confirming)}
                  disabled={mutation.isPending}
                  className="inline-flex min-h-9 items-center justify-center gap-2 rounded-md bg-red-700 px-3 text-sm font-medium text-white transition-colors hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700"
                >
                  {mutation.isPending ? "Deleting…" : "Delete"}
                </button>
              </div>
            </AlertDialog.Content>
          ) : null}
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </section>
  );
}

function OutcomeNotice({ outcome, isPending, onRetry }: { outcome: DeleteOutcome; isPending: boolean; onRetry: () => void }) {
  const { failure } = outcome;
  switch (failure.kind) {
    case "signed":
      return null; // shown once, as the panel's read-only reason
    case "gone":
      return <Notice tone="info" title={failure.message} />;
    case "ehr":
    case "unreached":
      return (
        <Notice
          tone="error"
          title={failure.message}
          actions={
            <Button data-image-retry="" variant="secondary" onClick={onRetry} disabled={isPending} aria-label={`Try again to delete ${imageName(outcome.image)}`}>
              Try again
            </Button>
          }
        />
      );
    case "other":
      return <ApiErrorNotice error={outcome.error} onRetry={onRetry} kind="write" />;
  }
}
