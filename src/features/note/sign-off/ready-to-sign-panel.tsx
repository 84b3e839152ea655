import { useId } from "react";
import { focusNoteTarget } from "../focus-note-target.ts";
import { SIGN_OFF_ID } from "../note-outline.ts";
import type { ChecklistItem, ChecklistLink, SignOffChecklist } from "./sign-off-checklist.ts";
import { AlertIcon, CheckIcon } from "#src/components/ui/icons.tsx";

// The "Ready to sign" panel: one plain sentence, then each item with a link
// to its place; review items carry a "Reviewed" checkbox.

const STATE_STYLE: Record<SignOffChecklist["state"], string> = {
  ready: "border-emerald-300 bg-emerald-50",
  signed: "border-slate-300 bg-slate-50",
  not_ready: "border-amber-300 bg-amber-50",
};

export function ReadyToSignPanel({ checklist, onReviewedChange }: { checklist: SignOffChecklist; onReviewedChange: (key: string, isReviewed: boolean) => void }) {
  const headingId = useId();
  return (
    <section id={SIGN_OFF_ID} aria-labelledby={headingId} className={`rounded-lg border p-3 ${STATE_STYLE[checklist.state]}`}>
      <h2 id={headingId} tabIndex={-1} className="text-base font-semibold text-slate-900">
        Ready to sign
      </h2>
      <p role="status" aria-live="polite" className="mt-1 flex items-baseline gap-1.5 text-sm font-medium text-slate-900">
        {checklist.state === "ready" ? <CheckIcon className="h-[1em] w-[1em] text-emerald-800" /> : checklist.state === "not_ready" ? <AlertIcon className="h-[1em] w-[1em] text-amber-800" /> : null}
        <span>{checklist.summary}</span>
      </p>
      {checklist.items.length > 0 ? (
        <ul className="mt-2 space-y-2">
          {checklist.items.map((item) => (
            <ChecklistRow key={item.key} item={item} onReviewedChange={onReviewedChange} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ChecklistLinkTo({ link }: { link: ChecklistLink }) {
  return (
    <a
      href={`#${link.targetId}`}
      className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
      onClick={(event) => {
        // Let the browser open a new tab or window when asked to.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        focusNoteTarget(link.targetId);
      }}
    >
      {link.label}
    </a>
  );
}

function ChecklistRow({ item, onReviewedChange }: { item: ChecklistItem; onReviewedChange: (key: string, isReviewed: boolean) => void }) {
  const checkboxId = useId();
  const status = item.kind === "save" ? "Needs saving" : item.kind === "service" ? "In the EHR" : item.needsAction ? "To review" : "Reviewed";
  const [onlyLink] = item.links.length === 1 ? item.links : [];
  return (
    <li className="rounded-md border border-slate-200 bg-white p-2 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="font-medium text-slate-900">
          {item.title} <span className={`ml-1 text-xs font-semibold ${item.needsAction ? "text-amber-800" : "text-emerald-800"}`}>({status})</span>
        </p>
        {onlyLink ? <ChecklistLinkTo link={onlyLink} /> : null}
      </div>
      <p className="mt-0.5 text-slate-700">{item.detail}</p>
      {item.links.length > 1 ? (
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {item.links.map((link) => (
            <li key={link.targetId}>
              <ChecklistLinkTo link={link} />
            </li>
          ))}
        </ul>
      ) : null}
      {item.kind === "review" ? (
        <div className="mt-1 flex items-center gap-2">
          <input id={checkboxId} type="checkbox" className="h-4 w-4 accent-brand-700" checked={!item.needsAction} onChange={(event) => onReviewedChange(item.key, event.target.checked)} />
          <label htmlFor={checkboxId} className="text-slate-800">
            Reviewed<span className="sr-only">: {item.title}</span>
          </label>
        </div>
      ) : null}
    </li>
  );
}
