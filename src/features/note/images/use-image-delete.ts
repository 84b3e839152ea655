import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { NoteImage } from "#contract/clinic-api/note.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { deleteNoteImage, markNoteSigned, noteImagesQuery } from "#src/api/note-queries.ts";
import { queryKeys } from "#src/api/query-keys.ts";
import { useBffAnsweredAgain } from "#src/api/use-bff-answered-again.ts";
import { idKey } from "#contract/ids.ts";
import { deletedAnnouncement, imageDeleteFailure, imageName, settledImageDelete, SIGNED_IMAGES_MESSAGE, type ImageDeleteFailure } from "./image-format.ts";

// Deleting one of the note's images in the EHR: one delete at a time, after a
// confirmation; its outcome kept for the panel to show (a signed note's 409
// turns the panel read-only), what is announced, and where focus goes once it
// settles (Try again when there is one, else the panel's heading).

export interface DeleteOutcome {
  image: NoteImage;
  error: unknown;
  failure: ImageDeleteFailure;
}

type FocusTarget = "heading" | "retry";

const removeImage = (imageId: string) => (current: { images: NoteImage[] } | undefined) => (current ? { ...current, images: current.images.filter((image) => image.id !== imageId) } : current);

export function useImageDelete(noteId: string, readOnlyReason: string | null) {
  const queryClient = useQueryClient();

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

  // The EHR may have deleted it: the note's images, read again, say whether it did (the BFF settles its record by the same read).
  const settleByReading = (image: NoteImage, error: unknown) => {
    void queryClient.fetchQuery({ ...noteImagesQuery(noteId), staleTime: 0 }).then(
      ({ images }) => {
        const isStillOnNote = images.some((listed) => idKey(listed.id) === idKey(image.id));
        setOutcome({ image, error, failure: settledImageDelete(imageName(image), isStillOnNote) });
        if (!isStillOnNote) setAnnouncement((current) => ({ id: current.id + 1, text: deletedAnnouncement(imageName(image)) }));
      },
      // Not read: the words stay "may have deleted", and Try again finds out (404: deleted).
      () => undefined,
    );
  };

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
      if (failure.kind === "unknown") settleByReading(image, error);
    },
    onSettled: (_data, error) => {
      isDeleting.current = false;
      closedBySettle.current = true;
      setConfirming(null);
      // The outcome state is not rendered yet here, so the failure is classified again (the file name plays no part in the kind).
      const kind = error ? imageDeleteFailure(error, "").kind : null;
      const retryable = kind === "ehr" || kind === "unreached" || kind === "unknown";
      setFocusRequest((current) => ({ target: retryable ? "retry" : "heading", id: (current?.id ?? 0) + 1 }));
    },
  });
  const pendingImageId = mutation.isPending ? mutation.variables.id : null;

  // A delete that could not reach Tandem's server may have reached it before the connection failed (found walking a
  // restart mid-delete: the EHR had deleted the image while the notice still said it may not have been): once the
  // server answers again, the note's images, read again, say which.
  const unreached = outcome && outcome.failure.kind === "unreached" && !(outcome.error instanceof ApiError) ? outcome : null;
  const serverBack = useBffAnsweredAgain(unreached?.error ?? null);
  useEffect(() => {
    // Once for this failure: the settled outcome is no longer unreached.
    if (serverBack && unreached) settleByReading(unreached.image, unreached.error);
  }, [serverBack]);

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

  /** Back to the Delete button of the image's row, once its confirmation is closed without deleting. */
  const returnFocusToRow = (image: NoteImage) => {
    const rows = panelRef.current?.querySelectorAll<HTMLElement>("[data-image-id]") ?? [];
    [...rows].find((row) => row.dataset.imageId === image.id)?.querySelector("button")?.focus();
  };

  const openConfirm = (image: NoteImage) => {
    if (isDeleting.current) return;
    closedBySettle.current = false;
    setConfirming(image);
  };

  return { isReadOnly, isSignedByConflict, confirming, setConfirming, outcome, announcement, mutation, pendingImageId, headingRef, panelRef, closedBySettle, startDelete, openConfirm, returnFocusToRow };
}
