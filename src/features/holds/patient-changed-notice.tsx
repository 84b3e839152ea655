import { Button } from "#src/components/ui/button.tsx";
import { Notice } from "#src/components/ui/notice.tsx";
import { patientChangedText, releaseUnconfirmedLabel } from "./holds-text.ts";

/** The EHR opened another patient while the user holds slots for the one before: release them, or keep holding. */
export function PatientChangedNotice({ count, patientName, onRelease, onKeep }: { count: number; patientName: string | null; onRelease: () => void; onKeep: () => void }) {
  return (
    <Notice
      tone="warning"
      title="The patient changed in the EHR"
      actions={
        <>
          <Button variant="secondary" onClick={onRelease}>
            {releaseUnconfirmedLabel(count)}
          </Button>
          <Button variant="ghost" onClick={onKeep}>
            Keep holding
          </Button>
        </>
      }
    >
      {patientChangedText(count, patientName)}
    </Notice>
  );
}
