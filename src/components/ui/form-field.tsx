import { CrossIcon } from "./icons.tsx";

// What every form's fields share: the input's look, its border when in error,
// its aria-describedby, and the error line under it.

export const inputClass = "min-h-9 w-full min-w-0 rounded-md border bg-white px-2 text-sm";

export const borderFor = (error: string | undefined) => (error ? "border-red-600" : "border-slate-300");

/** Only ids of elements that are rendered: a reference to a missing id is an accessibility error. */
export const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;

/** The field's error, under it, with `id` for its aria-describedby; nothing when there is none. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-700">
      <CrossIcon className="mr-1 h-[1em] w-[1em]" />
      {error}
    </p>
  );
}
