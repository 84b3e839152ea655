import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { noteImagesQuery } from "#src/api/note-queries.ts";
import { ApiErrorNotice, useRateLimitWaitLeft } from "#src/components/shell/api-error-notice.tsx";
import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { Skeleton } from "#src/components/ui/skeleton.tsx";
import { IMAGES_ID } from "../note-outline.ts";
import { DeleteImageDialog } from "./delete-image-dialog.tsx";
import { deleteButtonLabel, imageDeleteFailure, imageName, imageSummary, SIGNED_IMAGES_MESSAGE } from "./image-format.ts";
import { useImageDelete, type DeleteOutcome } from "./use-image-delete.ts";

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

export function ImagePanel({ noteId, readOnlyReason }: ImagePanelProps) {
  const id = useId();
  const images = useQuery(noteImagesQuery(noteId));
  const { isSignedByConflict, isReadOnly, confirming, setConfirming, outcome, announcement, mutation, pendingImageId, headingRef, panelRef, closedBySettle, startDelete, openConfirm, returnFocusToRow } = useImageDelete(noteId, readOnlyReason);

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

      <DeleteImageDialog confirming={confirming} isOpen={confirming !== null && !isReadOnly} isPending={mutation.isPending} closedBySettle={closedBySettle} onCancel={() => setConfirming(null)} returnFocus={returnFocusToRow} onDelete={startDelete} />
    </section>
  );
}

function OutcomeNotice({ outcome, isPending, onRetry }: { outcome: DeleteOutcome; isPending: boolean; onRetry: () => void }) {
  // A rate limit's wait counts down while the notice is up, never a wait long over.
  const waitLeft = useRateLimitWaitLeft(outcome.error);
  const failure = waitLeft === null ? outcome.failure : imageDeleteFailure(outcome.error, imageName(outcome.image), waitLeft);
  switch (failure.kind) {
    case "signed":
      return null; // shown once, as the panel's read-only reason
    case "gone":
      return <Notice tone="info" title={failure.message} />;
    case "ehr":
    case "unreached":
    case "unknown":
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
