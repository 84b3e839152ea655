// A form's errors after an edit: a field changed is no longer known to be
// wrong, so its error goes at once, until the next check (the screen kept
// saying the dates were too far apart after they were put right). Each form
// says which errors an edit touches (fields checked together go together).

/** `errors` without those of the `changed` fields; the others stay. */
export function withoutErrorsOf<Field extends string>(errors: Partial<Record<Field, string>>, changed: ReadonlySet<Field>): Partial<Record<Field, string>> {
  const left: Partial<Record<Field, string>> = {};
  for (const [field, error] of Object.entries(errors) as [Field, string | undefined][]) if (!changed.has(field)) left[field] = error;
  return left;
}
