// The host bridge's message shapes, checked by hand (DESIGN.md "The host
// bridge"). This file is served as-is to the browser (plain ES2022 module, no
// build step), so it cannot import zod. The checks are kept equivalent to
// the zod schemas in `contract/bridge/messages.ts` (`appToHostMessage`,
// `hostToAppMessage`, `hostContext`, `bookingRequest`): same accepted inputs,
// same output (unknown keys dropped, as zod's objects do).
// `host-bridge.test.ts` checks that equivalence against the zod schemas with
// generated inputs; change both together.

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A plain object, as zod's `z.object` accepts it (not null, not an array). */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isString(value) {
  return typeof value === "string";
}

/** `nonce`: a string of 16 to 128 characters. */
function isNonce(value) {
  return isString(value) && value.length >= 16 && value.length <= 128;
}

/** `requestId`: a string of 1 to 128 characters. */
function isRequestId(value) {
  return isString(value) && value.length >= 1 && value.length <= 128;
}

function isJwt(value) {
  return isString(value) && JWT.test(value);
}

/** `z.optional(z.nullable(z.string()))` */
function isOptionalNullableString(value) {
  return value === undefined || value === null || isString(value);
}

/** Copies the keys a schema knows (zod strips the rest); a key missing in the input stays missing. */
function pick(source, keys) {
  const result = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}

const CONTEXT_KEYS = ["organizationName", "patientId", "noteId", "appointmentId", "facilityId"];

/** `hostContext`; returns the parsed value or null. */
export function parseHostContext(value) {
  if (!isObject(value)) return null;
  if (value.organizationName !== undefined && !isString(value.organizationName)) return null;
  for (const key of ["patientId", "noteId", "appointmentId", "facilityId"]) {
    if (!isOptionalNullableString(value[key])) return null;
  }
  return pick(value, CONTEXT_KEYS);
}

const HOLD_KEYS = ["holdId", "providerId", "facilityId", "startsAt", "endsAt", "appointmentTypeId", "isNewPatient", "patientId"];

/** `bookingRequest`; returns the parsed value or null. */
export function parseBookingRequest(value) {
  if (!isObject(value)) return null;
  for (const key of ["holdId", "providerId", "facilityId", "startsAt", "endsAt", "appointmentTypeId"]) {
    if (!isString(value[key])) return null;
  }
  if (value.isNewPatient !== undefined && typeof value.isNewPatient !== "boolean") return null;
  if (!isOptionalNullableString(value.patientId)) return null;
  return pick(value, HOLD_KEYS);
}

/**
 * `appToHostMessage`: what the app in the iframe may send.
 * Returns `{ ok: true, message }` or `{ ok: false, error }`.
 */
export function parseAppToHostMessage(data) {
  if (!isObject(data)) return { ok: false, error: "not an object" };
  switch (data.type) {
    case "tandem:ready":
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:ready: bad nonce" };
      return { ok: true, message: { type: data.type, nonce: data.nonce } };
    case "tandem:token-request":
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:token-request: bad nonce" };
      if (!isRequestId(data.requestId)) return { ok: false, error: "tandem:token-request: bad requestId" };
      return { ok: true, message: { type: data.type, nonce: data.nonce, requestId: data.requestId } };
    case "tandem:book": {
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:book: bad nonce" };
      if (!isRequestId(data.requestId)) return { ok: false, error: "tandem:book: bad requestId" };
      const hold = parseBookingRequest(data.hold);
      if (hold === null) return { ok: false, error: "tandem:book: bad hold" };
      return { ok: true, message: { type: data.type, nonce: data.nonce, requestId: data.requestId, hold } };
    }
    default:
      return { ok: false, error: "unknown message type" };
  }
}

/**
 * `hostToAppMessage`: what the host may send. The host page checks every
 * message before posting it, so a bug here shows up in the host, not as a
 * message the app silently ignores.
 */
export function parseHostToAppMessage(data) {
  if (!isObject(data)) return { ok: false, error: "not an object" };
  switch (data.type) {
    case "tandem:context": {
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:context: bad nonce" };
      if (!isJwt(data.token)) return { ok: false, error: "tandem:context: token must be a JWT" };
      const context = parseHostContext(data.context);
      if (context === null) return { ok: false, error: "tandem:context: bad context" };
      return { ok: true, message: { type: data.type, nonce: data.nonce, token: data.token, context } };
    }
    case "tandem:token":
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:token: bad nonce" };
      if (!isRequestId(data.requestId)) return { ok: false, error: "tandem:token: bad requestId" };
      if (!isJwt(data.token)) return { ok: false, error: "tandem:token: token must be a JWT" };
      return { ok: true, message: { type: data.type, nonce: data.nonce, requestId: data.requestId, token: data.token } };
    case "tandem:booked":
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:booked: bad nonce" };
      if (!isRequestId(data.requestId)) return { ok: false, error: "tandem:booked: bad requestId" };
      if (!isString(data.appointmentId)) return { ok: false, error: "tandem:booked: bad appointmentId" };
      if (data.reference !== undefined && !(isString(data.reference) && data.reference.length <= 64)) return { ok: false, error: "tandem:booked: bad reference" };
      return {
        ok: true,
        message: { type: data.type, nonce: data.nonce, requestId: data.requestId, appointmentId: data.appointmentId, ...(data.reference === undefined ? {} : { reference: data.reference }) },
      };
    case "tandem:book-declined":
      if (!isNonce(data.nonce)) return { ok: false, error: "tandem:book-declined: bad nonce" };
      if (!isRequestId(data.requestId)) return { ok: false, error: "tandem:book-declined: bad requestId" };
      if (!isString(data.reason)) return { ok: false, error: "tandem:book-declined: bad reason" };
      return { ok: true, message: { type: data.type, nonce: data.nonce, requestId: data.requestId, reason: data.reason } };
    default:
      return { ok: false, error: "unknown message type" };
  }
}
