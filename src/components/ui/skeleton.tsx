/** A placeholder block while data loads; hidden from screen readers (the region says it is busy). */
export function Skeleton({ className = "" }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-slate-200 ${className}`} />;
}
