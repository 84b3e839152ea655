/* global window, document, history, location, HTMLSelectElement */
// The EHR host page's script (`GET /_sandbox/host.js`): plain browser
// JavaScript, an ES2022 module served as-is (no build step). It is the host
// side of the bridge, exactly as DESIGN.md "The host bridge" describes:
//
// - it listens only to `message` events whose `source` is the app's iframe
//   window and whose `origin` is the app's origin, checks their shape
//   (`host-bridge.js`, kept equivalent to `contract/bridge/messages.ts`), and
//   ignores anything else;
// - `tandem:ready {nonce}`: remembers the nonce, answers `tandem:context`
//   with a fresh host token (`POST /_sandbox/host-token`) and the context;
// - `tandem:token-request`: answers `tandem:token` with a fresh token;
// - `tandem:book`: books the held slot in the EHR
//   (`POST /_sandbox/ehr/{org}/appointments`), answers `tandem:booked` or
//   `tandem:book-declined`, and says so in the host bar;
// - it posts only to the app's origin, never to "*".
//
// Picking another patient or note pushes a new `tandem:context` (fresh
// token) without reloading the app. Picking another organization or user
// reloads the iframe: a new user or organization is a new session, as when
// someone else signs in to the EHR, so the app never mixes two sessions'
// data; the app then sends a new `tandem:ready` with a new nonce.
//
// Test hook: `window.__tandemHost.log` lists every message received
// (accepted or ignored, with the reason) and sent.

import { parseAppToHostMessage, parseHostToAppMessage } from "./host-bridge.js";
import {
  NONE,
  WIDTHS,
  noteLabel,
  organizationLabel,
  patientsOf,
  resolveSelection,
  selectNote,
  selectPatient,
  selectionQuery,
  userLabel,
  formatWhen,
} from "./host-selection.js";

const initial = JSON.parse(document.getElementById("host-initial-state").textContent);
const appUrl = initial.appUrl;
const appOrigin = new URL(appUrl).origin;

const elements = {
  org: byId("host-org"),
  user: byId("host-user"),
  patient: byId("host-patient"),
  note: byId("host-note"),
  width: byId("host-width"),
  reload: byId("host-reload"),
  status: byId("host-status"),
  booking: byId("host-booking-status"),
  bookingMessage: byId("host-booking-message"),
  bookingDismiss: byId("host-booking-dismiss"),
  frame: byId("host-app-frame"),
  iframe: byId("tandem-app"),
  controls: byId("host-controls"),
};

const state = {
  organizations: initial.organizations,
  users: initial.users,
  notes: initial.notes,
  selection: { ...initial.selection },
  /** Bumped on each organization change, so a slow fetch for an earlier pick is dropped. */
  orgLoad: 0,
};

/** The bridge session with the document in the iframe. A reload of the iframe ends it. */
const session = {
  nonce: null,
  /** Bumped on each iframe (re)load: answers computed for an earlier document are dropped. */
  generation: 0,
  /** Only the newest context push is sent when several are in flight. */
  contextSeq: 0,
  /** requestId -> Promise of the booking outcome: a repeated `tandem:book` is answered again, never booked twice. */
  bookings: new Map(),
};

const log = [];
window.__tandemHost = {
  log,
  appUrl,
  appOrigin,
  get nonce() {
    return session.nonce;
  },
  get selection() {
    return { ...state.selection };
  },
};

function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`host page: #${id} is missing`);
  return element;
}

function record(entry) {
  log.push({ time: new Date().toISOString(), ...entry });
}

// ---------------------------------------------------------------- the bridge

function send(message) {
  const checked = parseHostToAppMessage(message);
  if (!checked.ok) throw new Error(`host page bug: refusing to send an invalid message (${checked.error})`);
  const target = elements.iframe.contentWindow;
  if (!target) return;
  target.postMessage(checked.message, appOrigin);
  record({ direction: "out", type: checked.message.type, origin: appOrigin, data: checked.message });
}

function isCurrent(nonce, generation) {
  return session.nonce === nonce && session.generation === generation;
}

function typeOf(data) {
  return typeof data === "object" && data !== null && typeof data.type === "string" ? data.type : null;
}

window.addEventListener("message", (event) => {
  const ignore = (reason) => record({ direction: "in", type: typeOf(event.data), origin: event.origin, accepted: false, reason, data: event.data });
  if (event.source === null || event.source !== elements.iframe.contentWindow) return ignore("source is not the app's iframe");
  if (event.origin !== appOrigin) return ignore(`origin ${event.origin} is not the app's origin ${appOrigin}`);
  const parsed = parseAppToHostMessage(event.data);
  if (!parsed.ok) return ignore(parsed.error);
  const message = parsed.message;
  if (message.type !== "tandem:ready" && message.nonce !== session.nonce) return ignore("nonce does not match the session's");
  record({ direction: "in", type: message.type, origin: event.origin, accepted: true, data: message });

  switch (message.type) {
    case "tandem:ready":
      appAnswered();
      session.nonce = message.nonce;
      session.bookings = new Map();
      void sendContext();
      break;
    case "tandem:token-request":
      void answerTokenRequest(message);
      break;
    case "tandem:book":
      answerBooking(message);
      break;
  }
});

function currentOrganization() {
  return state.organizations.find((org) => org.id === state.selection.organizationId);
}

function noteById(noteId) {
  return noteId ? state.notes.find((note) => note.id === noteId) : undefined;
}

function contextOf(selection) {
  const note = noteById(selection.noteId);
  return {
    organizationName: currentOrganization()?.name ?? "",
    patientId: selection.patientId,
    noteId: selection.noteId,
    appointmentId: null,
    facilityId: note ? note.facilityId : null,
  };
}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** A fresh host token for what is in view (`POST /_sandbox/host-token`). */
async function issueToken(selection) {
  if (!selection.userId) throw new Error("this organization has no user to sign in as");
  const note = noteById(selection.noteId);
  const body = { organizationId: selection.organizationId, userId: selection.userId };
  if (selection.patientId) body.patientId = selection.patientId;
  if (note) {
    body.noteId = note.id;
    body.facilityId = note.facilityId;
  }
  const response = await fetch("/_sandbox/host-token", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const json = await readJson(response);
  if (!response.ok || typeof json?.token !== "string") throw new Error(json?.message ?? `the emulator answered ${response.status}`);
  return json.token;
}

function tokenFailed(error) {
  showStatus(`Could not issue a host token: ${error instanceof Error ? error.message : String(error)}`, "error");
}

async function sendContext() {
  const nonce = session.nonce;
  if (nonce === null) return;
  const generation = session.generation;
  const seq = ++session.contextSeq;
  const selection = { ...state.selection };
  let token;
  try {
    token = await issueToken(selection);
  } catch (error) {
    tokenFailed(error);
    return;
  }
  if (!isCurrent(nonce, generation) || seq !== session.contextSeq) return;
  send({ type: "tandem:context", nonce, token, context: contextOf(selection) });
}

async function answerTokenRequest(message) {
  const generation = session.generation;
  let token;
  try {
    token = await issueToken({ ...state.selection });
  } catch (error) {
    tokenFailed(error);
    return;
  }
  if (!isCurrent(message.nonce, generation)) return;
  send({ type: "tandem:token", nonce: message.nonce, requestId: message.requestId, token });
}

function answerBooking(message) {
  const { nonce, requestId } = message;
  const generation = session.generation;
  let outcome = session.bookings.get(requestId);
  if (!outcome) {
    outcome = bookInEhr(message.hold);
    session.bookings.set(requestId, outcome);
  }
  void outcome.then((result) => {
    if (!isCurrent(nonce, generation)) return;
    if (result.ok) send({ type: "tandem:booked", nonce, requestId, appointmentId: result.appointmentId, reference: result.reference });
    else send({ type: "tandem:book-declined", nonce, requestId, reason: result.reason });
  });
}

/** Books the held slot in the EHR; resolves to `{ok: true, appointmentId}` or `{ok: false, reason}`, never rejects. */
async function bookInEhr(hold) {
  const organization = currentOrganization();
  const patientId = hold.patientId ?? state.selection.patientId;
  if (!patientId) return declined("Pick a patient in the EHR first");
  const body = {
    patientId,
    providerId: hold.providerId,
    facilityId: hold.facilityId,
    startsAt: hold.startsAt,
    endsAt: hold.endsAt,
    appointmentTypeId: hold.appointmentTypeId,
  };
  if (typeof hold.isNewPatient === "boolean") body.isNewPatient = hold.isNewPatient;
  let response;
  try {
    response = await fetch(`/_sandbox/ehr/${encodeURIComponent(organization.id)}/appointments`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return declined(`The EHR could not be reached: ${detail}`, `the EHR could not be reached (${detail})`);
  }
  const json = await readJson(response);
  const appointment = json?.appointment;
  if (!response.ok || typeof appointment?.id !== "string") {
    const detail = json?.message ?? `the EHR answered ${response.status}`;
    return declined(`The EHR could not book this slot: ${detail}`, detail);
  }
  showBooking("booked", bookedText(organization, appointment));
  return { ok: true, appointmentId: appointment.id, reference: appointment.integrationAppointmentId };
}

/** `reason` goes to the app (a sentence for its user); `detail` to the host bar. */
function declined(reason, detail = reason) {
  showBooking("declined", `Not booked in EHR: ${detail}`);
  return { ok: false, reason };
}

function bookedText(organization, appointment) {
  const timezone = organization.facilities.find((facility) => facility.id === appointment.facilityId)?.timezone;
  const when = formatWhen(Date.parse(appointment.scheduledStartDate), timezone);
  const user = state.users.find((candidate) => candidate.id === appointment.providerId);
  const provider = user?.displayName || `${appointment.providerFirstName} ${appointment.providerLastName}`.trim();
  const patient = `${appointment.patientFirstName} ${appointment.patientLastName}`.trim();
  return `Booked in EHR: ${when} with ${provider}${patient ? ` for ${patient}` : ""}${appointment.facilityName ? ` at ${appointment.facilityName}` : ""}`;
}

// ------------------------------------------------------------- the host bar

function showStatus(text, kind = "info") {
  elements.status.textContent = text;
  elements.status.dataset.kind = text ? kind : "";
}

function showBooking(kind, text) {
  elements.booking.dataset.state = kind;
  elements.bookingMessage.textContent = text;
}

elements.bookingDismiss.addEventListener("click", () => {
  elements.booking.dataset.state = "";
  elements.bookingMessage.textContent = "";
  elements.iframe.focus();
});

function fillSelect(select, options, selectedValue) {
  select.replaceChildren(
    ...options.map(({ value, label }) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label;
      option.selected = value === selectedValue;
      return option;
    }),
  );
  select.value = selectedValue;
}

function render() {
  const { selection } = state;
  const organization = currentOrganization();
  const timezoneOf = (facilityId) => organization?.facilities.find((facility) => facility.id === facilityId)?.timezone;
  fillSelect(elements.org, state.organizations.map((org) => ({ value: org.id, label: organizationLabel(org) })), selection.organizationId);
  fillSelect(elements.user, state.users.map((user) => ({ value: user.id, label: userLabel(user) })), selection.userId ?? "");
  fillSelect(
    elements.patient,
    [{ value: NONE, label: "No patient" }, ...patientsOf(state.notes).map((patient) => ({ value: patient.id, label: patient.name }))],
    selection.patientId ?? NONE,
  );
  fillSelect(
    elements.note,
    [{ value: NONE, label: "No note" }, ...state.notes.map((note) => ({ value: note.id, label: noteLabel(note, timezoneOf(note.facilityId)) }))],
    selection.noteId ?? NONE,
  );
  fillSelect(elements.width, WIDTHS, selection.width);
  elements.frame.dataset.width = selection.width;
}

function updateQuery() {
  history.replaceState(history.state, "", `${location.pathname}${selectionQuery(state.selection)}`);
}

function setBusy(busy) {
  for (const select of elements.controls.querySelectorAll("select, button")) select.disabled = busy;
  elements.controls.setAttribute("aria-busy", String(busy));
}

/** A new session: the app is loaded afresh and will send a new `tandem:ready`. */
function loadApp() {
  session.nonce = null;
  session.generation += 1;
  session.bookings = new Map();
  elements.iframe.src = appUrl;
  waitForApp();
}

// A person who opens the page without the app running learns why it is blank.
const WAITING_MS = 8000;
let waitingTimer = null;
let waitingText = "";

function waitForApp() {
  if (waitingTimer !== null) window.clearTimeout(waitingTimer);
  waitingTimer = window.setTimeout(() => {
    waitingTimer = null;
    if (session.nonce !== null || elements.status.textContent !== "") return;
    waitingText = `No tandem:ready from the app at ${appUrl} yet. Is it running (npm start)?`;
    showStatus(waitingText, "warning");
  }, WAITING_MS);
}

function appAnswered() {
  if (waitingTimer !== null) window.clearTimeout(waitingTimer);
  waitingTimer = null;
  if (waitingText !== "" && elements.status.textContent === waitingText) showStatus("");
  waitingText = "";
}

function endSession() {
  session.nonce = null;
  session.generation += 1;
  session.bookings = new Map();
}

async function fetchList(path, key) {
  const response = await fetch(path);
  const json = await readJson(response);
  if (!response.ok || !Array.isArray(json?.[key])) throw new Error(json?.message ?? `${path} answered ${response.status}`);
  return json[key];
}

async function changeOrganization(organizationId) {
  const load = ++state.orgLoad;
  const organization = state.organizations.find((org) => org.id === organizationId);
  endSession();
  elements.iframe.src = "about:blank";
  setBusy(true);
  showStatus(`Loading ${organization?.name ?? organizationId}…`);
  try {
    const base = `/_sandbox/ehr/${encodeURIComponent(organizationId)}`;
    const [users, notes] = await Promise.all([fetchList(`${base}/users`, "users"), fetchList(`${base}/notes`, "notes")]);
    if (load !== state.orgLoad) return;
    const picked = resolveSelection(users, notes, {});
    state.users = users;
    state.notes = notes;
    state.selection = { ...state.selection, organizationId, userId: picked.userId, patientId: picked.patientId, noteId: picked.noteId };
    showStatus("");
  } catch (error) {
    if (load !== state.orgLoad) return;
    showStatus(`Could not load ${organization?.name ?? organizationId}: ${error instanceof Error ? error.message : String(error)}`, "error");
  } finally {
    if (load === state.orgLoad) setBusy(false);
  }
  if (load !== state.orgLoad) return;
  render();
  updateQuery();
  loadApp();
  elements.org.focus();
}

function selectValue(select) {
  return select instanceof HTMLSelectElement && select.value !== NONE && select.value !== "" ? select.value : null;
}

elements.controls.addEventListener("submit", (event) => event.preventDefault());

elements.org.addEventListener("change", () => {
  if (elements.org.value !== state.selection.organizationId) void changeOrganization(elements.org.value);
});

elements.user.addEventListener("change", () => {
  state.selection = { ...state.selection, userId: selectValue(elements.user) };
  updateQuery();
  loadApp();
});

elements.patient.addEventListener("change", () => {
  state.selection = selectPatient(state.selection, state.notes, selectValue(elements.patient));
  render();
  updateQuery();
  void sendContext();
});

elements.note.addEventListener("change", () => {
  state.selection = selectNote(state.selection, state.notes, selectValue(elements.note));
  render();
  updateQuery();
  void sendContext();
});

elements.width.addEventListener("change", () => {
  state.selection = { ...state.selection, width: elements.width.value };
  elements.frame.dataset.width = state.selection.width;
  updateQuery();
});

elements.reload.addEventListener("click", () => loadApp());

// ------------------------------------------------------------------- start

render();
updateQuery();
if (initial.warnings.length > 0) showStatus(`Deep link: ${initial.warnings.join("; ")}`, "warning");
// The iframe gets its src only now, with the listener above in place, so the
// app's first `tandem:ready` cannot arrive before the host can answer it.
loadApp();
