import { Notice } from "../ui/notice.tsx";

/** Honest placeholder for a view whose issue has not landed yet. */
export function ViewNotBuilt({ title, purpose }: { title: string; purpose: string }) {
  return (
    <section aria-labelledby="view-title" className="space-y-3">
      <h1 id="view-title" className="text-lg font-semibold">
        {title}
      </h1>
      <Notice tone="info" title="Not available yet">
        {purpose} This view is not part of this version of Tandem yet.
      </Notice>
    </section>
  );
}
