import type { Note, SoapNote } from "#contract/clinic-api/note.ts";
import type { NoteProvider } from "#contract/clinic-api/people.ts";
import { idKey } from "#contract/ids.ts";

// Who the ids in a note are. The note names people in two lists: its care
// team (physician, primary biller, attendees), keyed by the EHR's integration
// user id, which is what vitals, the sticky note and appointments refer to;
// and its assigned providers, keyed by the service's provider id. Both carry
// a username, which ties a care-team member to their provider record. Nothing
// else in the note names anyone, so an id found in neither is "an EHR user",
// never a bare number on screen.

/** What the note view calls someone the note does not name, in running text ("Left by an EHR user"). */
export const UNNAMED_EHR_USER = "an EHR user";
/** The same, standing alone as a value (a table cell, a field). */
export const UNNAMED_EHR_USER_LABEL = "An EHR user";

/** The forms the service writes a person's id in: integration user ids as text or integers, provider ids as raw UUIDs or `prv_` ids. */
export type PersonId = string | number | null | undefined;

export interface PeopleDirectory {
  /** The person's name as the note gives it; null when the note names no one by that id. */
  nameOf(id: PersonId): string | null;
  /** For running text: the name, else "an EHR user"; null when there is no id at all. */
  mention(id: PersonId): string | null;
  /** As a value of its own: the name, else "An EHR user"; null when there is no id at all. */
  label(id: PersonId): string | null;
}

/**
 * One key per person, whatever form the id came in: `"026211"`, `26211` and
 * `" 26211 "` are one EHR user; a `prv_` id and its raw UUID are one provider
 * (the same reading as `isSameId`). Null for a blank id.
 */
export function personIdKey(id: PersonId): string | null {
  if (id === null || id === undefined) return null;
  if (typeof id === "number" && !Number.isSafeInteger(id)) return null;
  const text = String(id).trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) return text.replace(/^0+(?=\d)/, "");
  // idKey gives the raw UUID (already lower case) for either id form, any other string as given.
  return idKey(text).toLowerCase();
}

/** True when two ids name the same person. */
export function isSamePerson(a: PersonId, b: PersonId): boolean {
  const key = personIdKey(a);
  return key !== null && key === personIdKey(b);
}

function textOf(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

function joinName(...parts: (string | null | undefined)[]): string | null {
  return textOf(parts.map((part) => part?.trim() ?? "").filter((part) => part !== "").join(" "));
}

type CareTeamMember = NonNullable<SoapNote["careTeam"]["physician"]>;

/** "Maria Chen, MD": the care team's full name, else first and last name; null when it has none. */
export function careTeamMemberName(member: Pick<CareTeamMember, "fullName" | "firstName" | "lastName">): string | null {
  return textOf(member.fullName) ?? joinName(member.firstName, member.lastName);
}

/** "Dr. Maria Chen, MD": the EHR's display names, each part else the legal one; null when it has none. */
export function providerName(provider: Pick<NoteProvider, "firstName" | "lastName" | "displayFirstName" | "displayLastName">): string | null {
  return joinName(textOf(provider.displayFirstName) ?? provider.firstName, textOf(provider.displayLastName) ?? provider.lastName);
}

interface PersonRecord {
  id: PersonId;
  name: string | null;
  username: string | null;
}

interface Person {
  /** Every name the note gives them, care team first. */
  names: string[];
  username: string | null;
}

interface IdEntry {
  /** The name the record with this id gives: an id is named as its own record names it. */
  ownName: string | null;
  person: Person;
}

function recordsOf(note: Pick<Note, "assignedProviders" | "soapNote">): PersonRecord[] {
  const { physician, primaryBiller, attendees } = note.soapNote.careTeam;
  // An attendee's own integer `id` is not taken as a user id: the seeds do not
  // say it is one (it may number the attendance), and naming the wrong person
  // is worse than naming no one. Its `staff.id` is the user id.
  const members = [physician, primaryBiller, ...attendees.map((attendee) => attendee.staff)].filter((member): member is CareTeamMember => member !== null);
  return [
    ...members.map((member) => ({ id: member.id, name: careTeamMemberName(member), username: textOf(member.username) })),
    ...note.assignedProviders.map((provider) => ({ id: provider.id, name: providerName(provider), username: textOf(provider.username) })),
  ];
}

/** The people a note names, by every id it gives them. Pure; {@link peopleOf} keeps one per note. */
export function buildPeopleDirectory(note: Pick<Note, "assignedProviders" | "soapNote">): PeopleDirectory {
  const byId = new Map<string, IdEntry>();
  const byUsername = new Map<string, Person>();
  for (const record of recordsOf(note)) {
    const recordKey = personIdKey(record.id);
    const usernameKey = record.username?.toLowerCase() ?? null;
    const known = recordKey === null ? undefined : byId.get(recordKey);
    const person = known?.person ?? (usernameKey === null ? undefined : byUsername.get(usernameKey)) ?? { names: [], username: null };
    if (record.name !== null && !person.names.includes(record.name)) person.names.push(record.name);
    person.username ??= record.username;
    if (usernameKey !== null && !byUsername.has(usernameKey)) byUsername.set(usernameKey, person);
    if (recordKey === null) continue;
    if (known === undefined) byId.set(recordKey, { ownName: record.name, person });
    else known.ownName ??= record.name;
  }

  const nameOf = (id: PersonId): string | null => {
    const key = personIdKey(id);
    const entry = key === null ? undefined : byId.get(key);
    if (entry === undefined) return null;
    return entry.ownName ?? entry.person.names[0] ?? entry.person.username;
  };
  return {
    nameOf,
    mention: (id) => (personIdKey(id) === null ? null : (nameOf(id) ?? UNNAMED_EHR_USER)),
    label: (id) => (personIdKey(id) === null ? null : (nameOf(id) ?? UNNAMED_EHR_USER_LABEL)),
  };
}

// Every section, the header and the task panel ask for the same note's
// people; the note object is replaced when the note is re-read, so keying on
// it builds the directory once per version of the note.
const directories = new WeakMap<object, PeopleDirectory>();

/** The note's people directory, built once per note object. */
export function peopleOf(note: Pick<Note, "assignedProviders" | "soapNote">): PeopleDirectory {
  let directory = directories.get(note);
  if (directory === undefined) {
    directory = buildPeopleDirectory(note);
    directories.set(note, directory);
  }
  return directory;
}
