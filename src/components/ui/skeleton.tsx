/** A placeholder block while data loads; hidden from screen readers (the region says it is busy). */
export function Skeleton({ className = "" }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-slate-200 ${className}`} />;
}

/**
 * A whole view's placeholder, the same at every step of opening (index.html draws these blocks before the code
 * loads, then the connection, the session and the route each draw them), so the frame neither blanks nor jumps.
 * What it waits for is text a screen reader reads: a `div` without a role may not carry an `aria-label`.
 */
export function PagePlaceholder({ label, className = "", testId }: { label: string; className?: string; testId?: string }) {
  return (
    <div aria-busy="true" data-testid={testId} className={`space-y-3 ${className}`}>
      <p className="sr-only">{label}</p>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
