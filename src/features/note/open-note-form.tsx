import { useRouter } from "@tanstack/react-router";
import { useId, useState } from "react";
import { Button } from "../../components/ui/button.tsx";

// Outside the EHR no note is in view: the clinician names one (its id, as
// the EHR shows it). The BFF opens it only if it is assigned to them.

const NOTE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function OpenNoteForm() {
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="mx-auto max-w-xl space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      onSubmit={(event) => {
        event.preventDefault();
        const noteId = value.trim();
        if (!NOTE_ID.test(noteId)) {
          setError("A note id is a UUID, like 3f2c…-…: copy it from the note in the EHR.");
          return;
        }
        setError(null);
        void router.navigate({ to: "/note", search: { noteId: noteId.toLowerCase() } });
      }}
    >
      <h1 className="text-lg font-semibold text-slate-900">Open a note</h1>
      <p className="text-sm text-slate-700">Outside the EHR, Tandem opens the notes assigned to you. Enter the note&apos;s id from the EHR.</p>
      <div className="space-y-1">
        <label htmlFor={`${id}-note`} className="block text-sm font-medium">
          Note id
        </label>
        <input
          id={`${id}-note`}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoComplete="off"
          className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        />
        {error ? (
          <p id={`${id}-error`} className="text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit">Open note</Button>
    </form>
  );
}
