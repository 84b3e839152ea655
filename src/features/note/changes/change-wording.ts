import type { NoteChangeActor, NoteFieldChange } from "#contract/app-api/note-changes.ts";

// The words of the "Changed since you last looked" panel: who changed a
// field, said as surely as Tandem knows it and no more (see
// contract/app-api/note-changes.ts for what each attribution means).

function actorText(actor: Exclude<NoteChangeActor, { kind: "ehr" }>): string {
  switch (actor.kind) {
    case "you":
      return "you";
    case "tandem_user":
      return actor.name;
    case "other_tandem_users":
      return actor.count === 1 ? "another Tandem user" : `${actor.count} other Tandem users`;
  }
}

/** "you", "you and Dr. Maria Chen", "you, Dr. Maria Chen and another Tandem user". */
function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`;
}

/** Who changed the field, in a sentence. */
export function changedByText(change: Pick<NoteFieldChange, "attribution" | "changedBy">): string {
  const inTandem = listOf(change.changedBy.flatMap((actor) => (actor.kind === "ehr" ? [] : [actorText(actor)])));
  switch (change.attribution) {
    case "ehr":
      return "Changed in the EHR";
    case "tandem":
      return inTandem === "" ? "Changed in Tandem" : `Changed in Tandem by ${inTandem}`;
    case "unclear":
      return `Changed in Tandem by ${inTandem === "" ? "someone" : inTandem}, or in the EHR: Tandem cannot tell which`;
  }
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "1 field changed.", "2 fields and 1 other section changed.", "3 sections changed in the EHR." */
export function changeSummary(fieldCount: number, sectionCount: number): string {
  if (fieldCount === 0) return `${count(sectionCount, "section", "sections")} changed in the EHR.`;
  if (sectionCount === 0) return `${count(fieldCount, "field", "fields")} changed.`;
  return `${count(fieldCount, "field", "fields")} and ${count(sectionCount, "other section", "other sections")} changed.`;
}
