/** A small turning ring beside text that says what is under way; hidden from screen readers (the text says it). */
export function Spinner({ onDark = false, className = "" }: { onDark?: boolean; className?: string }) {
  const colour = onDark ? "border-white" : "border-slate-400";
  return <span aria-hidden="true" data-testid="spinner" className={`inline-block h-3 w-3 shrink-0 animate-spin rounded-full border-2 border-t-transparent align-middle ${colour} ${className}`} />;
}
