// What the host page has in view (organization, user, patient, note, width)
// and how a deep link or a picker change turns into it. Pure functions, no
// DOM and no I/O: the emulator resolves the page's initial state with them
// (`host-page.ts`) and the browser runs the very same file (served as-is at
// `/_sandbox/host-selection.js`, plain ES2022, no build step), so the
// defaults cannot drift between the two. Types: `host-selection.d.ts`.

/** The iframe widths the host bar offers; `full` takes the whole page. */
export const WIDTHS = [
  { value: "360", label: "Phone (360 px)" },
  { value: "768", label: "Tablet (768 px)" },
  { value: "1024", label: "Laptop (1024 px)" },
  { value: "full", label: "Full width" },
];
export const DEFAULT_WIDTH = "full";

/** The query-string value that means "nothing in view" for a patient or a note. */
export const NONE = "none";

const RAW_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIXED = /^([a-z]{3})_([0-9a-f]{32})$/i;

/** The raw, lower-cased UUID behind an id in either form (`prv_…` or a UUID), or null. */
export function toRawId(value, prefix) {
  if (typeof value !== "string") return null;
  if (RAW_UUID.test(value)) return value.toLowerCase();
  const match = PREFIXED.exec(value);
  if (!match || (prefix !== undefined && match[1].toLowerCase() !== prefix)) return null;
  const hex = match[2].toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function resolveWidth(value) {
  if (value === undefined || value === null || value === "") return { width: DEFAULT_WIDTH, warning: null };
  const found = WIDTHS.find((width) => width.value === String(value).toLowerCase().replace(/px$/, ""));
  if (found) return { width: found.value, warning: null };
  return { width: DEFAULT_WIDTH, warning: `width "${value}" is not one of ${WIDTHS.map((width) => width.value).join(", ")}; showing ${DEFAULT_WIDTH}` };
}

/** `org` in the query string: the organization's UUID or its sandbox letter (`A`, `B`, `C`; `D`, `E`, `F` at the large scale). Default: A (else the first). */
export function resolveOrganization(organizations, value) {
  const fallback = organizations.find((org) => org.letter === "A") ?? organizations[0];
  if (!fallback) throw new Error("no organizations");
  if (value === undefined || value === null || value === "") return { organizationId: fallback.id, warning: null };
  const wanted = String(value);
  const found = organizations.find((org) => org.id === wanted.toLowerCase() || (org.letter !== null && org.letter === wanted.toUpperCase()));
  if (found) return { organizationId: found.id, warning: null };
  return { organizationId: fallback.id, warning: `organization "${wanted}" is not a sandbox organization; showing ${fallback.name}` };
}

function isUsable(user) {
  return user.active !== false && user.hidden !== true;
}

/** The first Physician (active, not hidden), else the first usable user, else the first user. */
export function defaultUser(users) {
  return users.find((user) => isUsable(user) && user.roles.includes("Physician")) ?? users.find(isUsable) ?? users[0] ?? null;
}

/** The user's first awaiting_sign note, else any of the user's notes, else the first awaiting_sign note, else the first note. */
export function defaultNote(notes, userId) {
  const mine = notes.filter((note) => userId !== null && note.assignedProviderIds.includes(userId));
  return (
    mine.find((note) => note.status === "awaiting_sign") ??
    mine[0] ??
    notes.find((note) => note.status === "awaiting_sign") ??
    notes[0] ??
    null
  );
}

/** The patients the patient picker lists: those of the organization's notes, once each, by name. */
export function patientsOf(notes) {
  const byId = new Map();
  for (const note of notes) if (!byId.has(note.patientId)) byId.set(note.patientId, { id: note.patientId, name: note.patientName });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/**
 * The user, patient and note in view for one organization, from the query
 * string (`user`, `patient`, `note`; each optional; `none` for no patient or
 * no note). A note brings its patient. A patient without a note means the
 * patient's chart with no note open. With neither: the default user's
 * default note and its patient. Unknown values fall back to the defaults
 * with a warning.
 */
export function resolveSelection(users, notes, query = {}) {
  const warnings = [];
  let user = null;
  if (query.user) {
    const wanted = toRawId(query.user, "prv");
    user = users.find((candidate) => candidate.id === wanted) ?? null;
    if (!user) warnings.push(`user "${query.user}" is not a user of this organization`);
  }
  user ??= defaultUser(users);
  const userId = user ? user.id : null;

  const patients = patientsOf(notes);
  let patientId;
  if (query.patient === NONE) patientId = null;
  else if (query.patient) {
    const wanted = toRawId(query.patient, "pat");
    const patient = patients.find((candidate) => candidate.id === wanted);
    if (patient) patientId = patient.id;
    else warnings.push(`patient "${query.patient}" is not a patient of this organization's notes`);
  }

  let note;
  if (query.note === NONE) note = null;
  else if (query.note) {
    const wanted = toRawId(query.note);
    note = notes.find((candidate) => candidate.id === wanted);
    if (!note) warnings.push(`note "${query.note}" is not a note of this organization`);
  }

  if (note) {
    if (patientId !== undefined && patientId !== note.patientId) warnings.push(`note ${note.id} is ${note.patientName}'s; showing that patient`);
    return { userId, patientId: note.patientId, noteId: note.id, warnings };
  }
  if (note === null || patientId !== undefined) return { userId, patientId: patientId ?? null, noteId: null, warnings };
  const fallback = defaultNote(notes, userId);
  return { userId, patientId: fallback ? fallback.patientId : null, noteId: fallback ? fallback.id : null, warnings };
}

/** Picking a patient: the open note stays only when it is that patient's. */
export function selectPatient(selection, notes, patientId) {
  const note = notes.find((candidate) => candidate.id === selection.noteId);
  const keepNote = note !== undefined && patientId !== null && note.patientId === patientId;
  return { ...selection, patientId, noteId: keepNote ? selection.noteId : null };
}

/** Picking a note brings its patient; "no note" keeps the patient. */
export function selectNote(selection, notes, noteId) {
  const note = notes.find((candidate) => candidate.id === noteId);
  if (!note) return { ...selection, noteId: null };
  return { ...selection, noteId: note.id, patientId: note.patientId };
}

/** The query string that deep-links to a selection (`?org=…&user=…&patient=…&note=…&width=…`). */
export function selectionQuery(selection) {
  const params = new URLSearchParams();
  params.set("org", selection.organizationId);
  if (selection.userId) params.set("user", selection.userId);
  params.set("patient", selection.patientId ?? NONE);
  params.set("note", selection.noteId ?? NONE);
  params.set("width", selection.width);
  return `?${params.toString()}`;
}

const VISIT_DATE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** A note's `visitDate` (`2026-11-20 16:20:00.000000+00`, the EHR's form) or an ISO date-time, as epoch ms; NaN when unreadable. */
export function parseVisitDate(value) {
  const match = VISIT_DATE.exec(String(value));
  if (!match) return Number.NaN;
  const [, date, hours, minutes, seconds = "00", fraction = "", zone = "Z"] = match;
  const millis = fraction ? fraction.slice(0, 4).padEnd(4, "0") : "";
  let offset = zone.toUpperCase();
  if (offset !== "Z") {
    const digits = offset.slice(1).replace(":", "");
    offset = `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2, 4).padEnd(2, "0")}`;
  }
  return Date.parse(`${date}T${hours}:${minutes}:${seconds}${millis}${offset}`);
}

/** "Tue 1 Dec 10:00" in a time zone (the facility's), UTC when the zone is unknown. */
export function formatWhen(epochMs, timeZone) {
  if (!Number.isFinite(epochMs)) return "unknown time";
  let format;
  try {
    format = new Intl.DateTimeFormat("en-GB", { timeZone: timeZone ?? "UTC", weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  } catch {
    return formatWhen(epochMs, "UTC");
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(epochMs)).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.hour}:${parts.minute}`;
}

const STATUS_LABELS = { in_progress: "in progress", awaiting_sign: "awaiting sign", signed: "signed" };

/** How the note picker names a note: "Justin Chen · awaiting sign · Fri 20 Nov 11:20". */
export function noteLabel(note, timeZone) {
  const status = STATUS_LABELS[note.status] ?? String(note.status).replaceAll("_", " ");
  return `${note.patientName} · ${status} · ${formatWhen(parseVisitDate(note.visitDate), timeZone)}`;
}

/** How the organization picker names an organization: "Front Range Family Clinic (C, uninstalled)". */
export function organizationLabel(org) {
  const notes = [org.letter, org.installationStatus === "active" ? null : org.installationStatus].filter(Boolean);
  return notes.length > 0 ? `${org.name} (${notes.join(", ")})` : org.name;
}

/** How the user picker names a user: "Dr. Jacob Brooks — Physician". */
export function userLabel(user) {
  const name = user.displayName || `${user.firstName} ${user.lastName}`.trim();
  const flags = [user.active === false ? "inactive" : null, user.hidden === true ? "hidden" : null].filter(Boolean);
  return `${name} — ${user.roles.join(", ") || "no role"}${flags.length ? ` (${flags.join(", ")})` : ""}`;
}
