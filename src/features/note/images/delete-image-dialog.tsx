import { AlertDialog } from "radix-ui";
import type { NoteImage } from "#contract/clinic-api/note.ts";
import { Button } from "#src/components/ui/button.tsx";
import { deleteDialogTitle, imageName } from "./image-format.ts";

// The confirmation before an image is deleted in the EHR, naming the file.
// It stays open while the delete runs: the outcome decides what comes next.

interface DeleteImageDialogProps {
  /** The image to confirm, or null. */
  confirming: NoteImage | null;
  isOpen: boolean;
  isPending: boolean;
  /** The dialog closed because the delete finished: the panel places focus, not Radix. */
  closedBySettle: { readonly current: boolean };
  onCancel: () => void;
  /** Closed without deleting: focus goes back to the image's own Delete button. */
  returnFocus: (image: NoteImage) => void;
  onDelete: (image: NoteImage) => void;
}

export function DeleteImageDialog({ confirming, isOpen, isPending, closedBySettle, onCancel, returnFocus, onDelete }: DeleteImageDialogProps) {
  return (
    <AlertDialog.Root
      open={isOpen}
      onOpenChange={(nextOpen) => {
        // While the delete runs, the dialog stays: its outcome decides what comes next.
        if (!nextOpen && !isPending) onCancel();
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        {confirming ? (
          <AlertDialog.Content
            data-no-shortcuts=""
            onEscapeKeyDown={(event) => {
              if (isPending) event.preventDefault();
            }}
            onCloseAutoFocus={(event) => {
              // Radix gives focus back only to a Trigger, and this dialog has none (each row opens it): on Cancel it
              // goes back to the row's Delete button here; after a delete the panel places it.
              event.preventDefault();
              if (!closedBySettle.current) returnFocus(confirming);
            }}
            className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-slate-300 bg-white p-4 text-slate-900 shadow-lg"
          >
            <AlertDialog.Title className="text-base font-semibold break-all">{deleteDialogTitle(imageName(confirming))}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-slate-700">
              <span className="break-all">{imageName(confirming)}</span> will be deleted from this note in the EHR, not only in Tandem. This cannot be undone.
            </AlertDialog.Description>
            <div className="mt-4 flex flex-wrap justify-end gap-2">
              <AlertDialog.Cancel asChild>
                <Button variant="secondary" disabled={isPending}>
                  Cancel
                </Button>
              </AlertDialog.Cancel>
              <button
                type="button"
                onClick={() => onDelete(confirming)}
                disabled={isPending}
                className="inline-flex min-h-9 items-center justify-center gap-2 rounded-md bg-red-700 px-3 text-sm font-medium text-white transition-colors hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-700"
              >
                {isPending ? "Deleting…" : "Delete"}
              </button>
            </div>
          </AlertDialog.Content>
        ) : null}
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
