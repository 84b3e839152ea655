import type { ReactNode } from "react";
import { AlertIcon, CrossIcon, InfoIcon } from "./icons.tsx";

type Tone = "info" | "warning" | "error";

const TONES: Record<Tone, { box: string; icon: ReactNode; label: string }> = {
  info: { box: "border-sky-200 bg-sky-50 text-sky-950", icon: <InfoIcon className="h-3 w-3" />, label: "Information" },
  warning: { box: "border-amber-300 bg-amber-50 text-amber-950", icon: <AlertIcon className="h-3 w-3" />, label: "Warning" },
  error: { box: "border-red-300 bg-red-50 text-red-950", icon: <CrossIcon className="h-3 w-3" />, label: "Problem" },
};

/** A message box; the tone is in the text and the icon's label, never colour alone. */
export function Notice({ tone = "info", title, children, actions }: { tone?: Tone; title: string; children?: ReactNode; actions?: ReactNode }) {
  const style = TONES[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-lg border p-4 ${style.box}`}>
      <div className="flex gap-3">
        <span aria-label={style.label} role="img" className="mt-0.5 grid h-5 w-5 shrink-0 place-items-center rounded-full border border-current">
          {style.icon}
        </span>
        <div className="min-w-0 space-y-1">
          <p className="font-semibold">{title}</p>
          {children ? <div className="text-sm">{children}</div> : null}
          {actions ? <div className="flex flex-wrap gap-2 pt-2">{actions}</div> : null}
        </div>
      </div>
    </div>
  );
}
