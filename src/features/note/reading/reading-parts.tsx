import type { ReactNode } from "react";
import { hasText } from "./note-format.ts";

// Small building blocks of the read-only note: label/value lists, text
// blocks that keep the EHR's line breaks, and text badges.

export interface Field {
  label: string;
  value: ReactNode;
}

/** A definition list of the fields that have a value; nothing when none do. */
export function FieldList({ fields, className = "" }: { fields: readonly (Field | null | false)[]; className?: string }) {
  const shown = fields.filter((field): field is Field => field !== null && field !== false && field.value !== null && field.value !== undefined && field.value !== "");
  if (shown.length === 0) return null;
  return (
    <dl className={`grid grid-cols-1 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[minmax(8rem,max-content)_1fr] ${className}`}>
      {shown.map((field, index) => (
        <div key={`${index}-${field.label}`} className="contents">
          <dt className="font-medium text-slate-700">{field.label}</dt>
          <dd data-user-text="" className="min-w-0 break-words whitespace-pre-line text-slate-900">{field.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Free text as written in the EHR, line breaks kept; null when blank. */
export function TextBlock({ text, className = "" }: { text: string | null | undefined; className?: string }) {
  if (!hasText(text)) return null;
  return <p data-user-text="" className={`break-words whitespace-pre-line text-sm text-slate-900 ${className}`}>{text.trim()}</p>;
}

/** Text or null, for FieldList values. */
export function textOrNull(text: string | null | undefined): string | null {
  return hasText(text) ? text.trim() : null;
}

export function Subheading({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <h3 id={id} className="text-sm font-semibold text-slate-900">
      {children}
    </h3>
  );
}

export type BadgeTone = "neutral" | "brand" | "warning" | "info" | "success";

const BADGE_TONES: Record<BadgeTone, string> = {
  neutral: "border-slate-300 bg-white text-slate-700",
  brand: "border-brand-700 bg-brand-50 text-brand-800",
  warning: "border-amber-400 bg-amber-50 text-amber-950",
  info: "border-sky-300 bg-sky-50 text-sky-950",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
};

/** A small labelled pill; the meaning is always in its text, never its colour alone. */
export function TextBadge({ children, tone = "neutral" }: { children: ReactNode; tone?: BadgeTone }) {
  return <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium ${BADGE_TONES[tone]}`}>{children}</span>;
}

/** Codes such as ICD-10 and CPT, in a monospace face. */
export function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-[0.8125rem] text-slate-900">{children}</span>;
}

/** A comma-separated list of codes. */
export function CodeList({ codes }: { codes: readonly string[] }) {
  const shown = codes.filter(hasText);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((code, index) => (
        <span key={`${code}-${index}`}>
          {index > 0 ? ", " : ""}
          <Code>{code}</Code>
        </span>
      ))}
    </>
  );
}

/** A plain bulleted list of text lines; blank lines are dropped. */
export function LineList({ lines, label }: { lines: readonly string[]; label?: string }) {
  const shown = lines.filter(hasText);
  if (shown.length === 0) return null;
  return (
    <ul aria-label={label} className="list-disc space-y-0.5 pl-5 text-sm text-slate-900">
      {shown.map((line, index) => (
        <li key={`${index}-${line}`} data-user-text="" className="break-words whitespace-pre-line">
          {line.trim()}
        </li>
      ))}
    </ul>
  );
}

export function NotRecorded({ children = "Not recorded" }: { children?: ReactNode }) {
  return <span className="text-slate-600 italic">{children}</span>;
}
