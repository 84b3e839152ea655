import * as z from "zod/mini";

// The host bridge (DESIGN.md "The host bridge", an assumed protocol): the
// messages between the SPA in the iframe and the EHR host page, validated
// on both sides. Anything else is ignored. Context only drives the UI;
// anything that grants access comes from the verified token.

const nonce = z.string().check(z.minLength(16), z.maxLength(128));
const requestId = z.string().check(z.minLength(1), z.maxLength(128));
const jwt = z.string().check(z.regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, "must be a JWT"));

/** What the host has in view. */
export const hostContext = z.object({
  organizationName: z.optional(z.string()),
  patientId: z.optional(z.nullable(z.string())),
  noteId: z.optional(z.nullable(z.string())),
  appointmentId: z.optional(z.nullable(z.string())),
  facilityId: z.optional(z.nullable(z.string())),
});
export type HostContext = z.infer<typeof hostContext>;

/** The held slot the app asks the EHR to book. */
export const bookingRequest = z.object({
  holdId: z.string(),
  providerId: z.string(),
  facilityId: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  appointmentTypeId: z.string(),
  isNewPatient: z.optional(z.boolean()),
  patientId: z.optional(z.nullable(z.string())),
});
export type BookingRequest = z.infer<typeof bookingRequest>;

export const appToHostMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tandem:ready"), nonce }),
  z.object({ type: z.literal("tandem:token-request"), nonce, requestId }),
  z.object({ type: z.literal("tandem:book"), nonce, requestId, hold: bookingRequest }),
]);
export type AppToHostMessage = z.infer<typeof appToHostMessage>;

export const hostToAppMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("tandem:context"), nonce, token: jwt, context: hostContext }),
  z.object({ type: z.literal("tandem:token"), nonce, requestId, token: jwt }),
  /** `reference`: the EHR's own reference for the appointment (what the front desk reads back), when the host has one. */
  z.object({ type: z.literal("tandem:booked"), nonce, requestId, appointmentId: z.string(), reference: z.optional(z.string().check(z.maxLength(64))) }),
  z.object({ type: z.literal("tandem:book-declined"), nonce, requestId, reason: z.string() }),
]);
export type HostToAppMessage = z.infer<typeof hostToAppMessage>;
