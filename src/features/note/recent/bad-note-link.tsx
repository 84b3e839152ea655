import { Link } from "@tanstack/react-router";

/** `/note?noteId=` with something that is not a note id: said plainly, with the way to the user's notes. */
export function BadNoteLink() {
  return (
    <section className="mx-auto max-w-3xl space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="bad-note-link">
      <h1 className="text-lg font-semibold">This link does not name a note</h1>
      <p className="text-sm">
        A link to a note in Tandem ends in <span className="font-mono">?noteId=</span> and the note&apos;s id, and this one has something else there: it may have been cut short when it was
        copied. Ask for the link again, or choose the note from your recent notes.
      </p>
      <Link to="/note" className="inline-flex min-h-9 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800">
        Your recent notes
      </Link>
    </section>
  );
}
