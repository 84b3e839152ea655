import { ConfirmDialog } from "#src/components/ui/confirm-dialog.tsx";
import { LEAVE_DETAIL, LEAVE_TITLE, type LeaveGuard } from "./use-leave-guard.ts";

// The question useLeaveGuard asks when the user moves to another page with unsaved text.

export function LeaveGuardDialog({ guard }: { guard: LeaveGuard }) {
  return (
    <ConfirmDialog
      open={guard.isAsking}
      title={LEAVE_TITLE}
      description={LEAVE_DETAIL}
      cancelLabel="Stay on this note"
      confirmLabel="Leave"
      onCancel={guard.stay}
      onConfirm={guard.leave}
    />
  );
}
