import { AlertDialog } from "radix-ui";
import { useRef, type ReactElement, type ReactNode } from "react";
import { Button } from "#src/components/ui/button.tsx";

// A yes/no question in a Radix AlertDialog (focus kept inside, Escape means
// no, focus given back on close). The safe answer is focused first.

interface ConfirmDialogProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel?: () => void;
  /** Controlled: open while this is true (no trigger). */
  open?: boolean;
  /** Uncontrolled: the button that opens it. */
  trigger?: ReactElement;
  /** Where focus goes after confirming, when the trigger is gone by then. */
  focusAfterConfirm?: () => HTMLElement | null;
}

export function ConfirmDialog({ title, description, confirmLabel, cancelLabel, onConfirm, onCancel, open, trigger, focusAfterConfirm }: ConfirmDialogProps) {
  const confirmed = useRef(false);
  /** Focused when the dialog opened: where focus goes back to when there is no trigger (Radix returns it only to one). */
  const openedFrom = useRef<HTMLElement | null>(null);
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(isOpen) => {
        if (isOpen) confirmed.current = false;
        else if (!confirmed.current) onCancel?.();
      }}
    >
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <AlertDialog.Content
          className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-slate-300 bg-white p-4 shadow-xl"
          onOpenAutoFocus={() => {
            openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = (confirmed.current ? focusAfterConfirm?.() : null) ?? (trigger ? null : openedFrom.current);
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          <AlertDialog.Title className="text-base font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">{description}</AlertDialog.Description>
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">{cancelLabel}</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button
                onClick={() => {
                  confirmed.current = true;
                  onConfirm();
                }}
              >
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
