import type { Note } from "#contract/clinic-api/note.ts";
import { isSameId } from "#contract/ids.ts";

// A Tandem user is known to the audit trail by their provider id (the
// provider of their person key, ADR 0024; before person keys, the host
// token's `sub`). They are named only as the note itself names them, as the
// note view does (ADR 0013): an assigned provider by their display name, else
// the care-team member with the same username, else that username. Anyone
// else stays unnamed: Tandem does not look colleagues up to tell a clinician
// who touched a note the note does not put them on.

const textOf = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
};

const joinName = (...parts: (string | null)[]): string | null => textOf(parts.filter((part) => part !== null).join(" "));

/** The user's name as the note gives it, or null when the note does not name them. */
export function tandemUserName(note: Pick<Note, "assignedProviders" | "soapNote">, userId: string): string | null {
  const provider = note.assignedProviders.find((candidate) => isSameId(candidate.id, userId));
  if (provider === undefined) return null;
  const own = joinName(textOf(provider.displayFirstName) ?? textOf(provider.firstName), textOf(provider.displayLastName) ?? textOf(provider.lastName));
  if (own !== null) return own;
  const username = textOf(provider.username);
  if (username === null) return null;
  const { physician, primaryBiller, attendees } = note.soapNote.careTeam;
  const member = [physician, primaryBiller, ...attendees.map((attendee) => attendee.staff)].find((candidate) => candidate !== null && textOf(candidate.username)?.toLowerCase() === username.toLowerCase());
  return (member ? (textOf(member.fullName) ?? joinName(textOf(member.firstName), textOf(member.lastName))) : null) ?? username;
}
