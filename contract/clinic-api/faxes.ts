import * as z from "zod/mini";
import { FAX_ERROR_KINDS } from "./events.ts";
import { anyId, rawUuid, utcTimestamp } from "./primitives.ts";
import { commaList, pageQuery } from "./queries.ts";

// Assumed contract of the fax send and read calls (seed 001 "Gaps": "the fax
// send and fax read calls" are referred to without a contract; "Fax event"
// gives the statuses, `errorKind`, `occurredAt` and `ehr_send_failed`). See
// docs/assumed-contracts.md, "Faxes".

/** `sent` is in flight and never announced; `delivered` and `failed` are terminal (seed 000, "Transitions that are shown"). */
export const FAX_STATUSES = ["sent", "delivered", "failed"] as const;
export type FaxStatus = (typeof FAX_STATUSES)[number];
export const FAX_TERMINAL_STATUSES = ["delivered", "failed"] as const;
export type FaxTerminalStatus = (typeof FAX_TERMINAL_STATUSES)[number];

/** The seed's table is closed: an unrecognised EHR code is itself mapped to `unknown_status`. */
export const faxErrorKind = z.enum(FAX_ERROR_KINDS);
export type FaxErrorKind = z.infer<typeof faxErrorKind>;

/** The synchronous refusal of a send: never an event (seed 001 "Fax event"). */
export const FAX_SEND_REFUSED_CODE = "ehr_send_failed";
/** Assumed: the send is a synchronous EHR push, and a failed push answers 502 as task creation does (seed 001 "Tasks"). */
export const FAX_SEND_REFUSED_STATUS = 502;

/** E.164: `+`, a country code not starting with 0, at most 15 digits in all. */
export const e164Number = z.string().check(z.regex(/^\+[1-9]\d{6,14}$/, "must be an E.164 number such as +12125550123"));

export const FAX_ATTACHMENT_TYPES = ["application/pdf", "image/tiff", "image/png", "image/jpeg"] as const;

/** A file sent with the fax that is not on the chart. */
export const faxAttachment = z.strictObject({
  filename: z.string().check(z.minLength(1), z.maxLength(255)),
  mimeType: z.enum(FAX_ATTACHMENT_TYPES),
  contentBase64: z.string().check(z.minLength(1), z.regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be base64")),
  /** Pages the file renders to; 1 when left out. */
  pages: z.optional(z.int().check(z.minimum(1), z.maximum(500))),
});

/** Body of `POST /v1/faxes`: at least one document id or attachment (checked by the service, 400 naming `documentIds`). */
export const faxSendBody = z.strictObject({
  toNumber: e164Number,
  /** A `pat_` id or a UUID; answered as the raw UUID. */
  patientId: z.optional(anyId),
  /** Patient document ids (as the documents list gives them); each counts one page. */
  documentIds: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(20))),
  attachments: z.optional(z.array(faxAttachment).check(z.maxLength(10))),
  /** Adds a cover page. */
  coverNote: z.optional(z.string().check(z.maxLength(2000))),
});
export type FaxSendBody = z.infer<typeof faxSendBody>;

/** The fax record. `errorKind` is set exactly when `status` is `failed`. */
export const fax = z
  .object({
    id: rawUuid,
    status: z.enum(FAX_STATUSES),
    toNumber: e164Number,
    patientId: z.nullable(rawUuid),
    documentIds: z.array(z.string()),
    pages: z.int().check(z.minimum(1)),
    createdAt: utcTimestamp,
    updatedAt: utcTimestamp,
    errorKind: z.nullable(faxErrorKind),
    /** When the current status was reached: the acceptance for `sent`, the outcome for the terminal ones. Order on it. */
    occurredAt: utcTimestamp,
  })
  .check(z.refine((record) => (record.status === "failed") === (record.errorKind !== null), { message: "errorKind: must be set exactly when status is failed", path: ["errorKind"] }));
export type Fax = z.infer<typeof fax>;

/** `data` of the send and of the read. */
export const faxData = z.object({ fax });

/** `GET /v1/faxes` (assumed, for reconciliation): `updatedSince` is inclusive; oldest change first. */
export const faxesQuery = z.object({
  status: z.optional(commaList(z.enum(FAX_STATUSES))),
  updatedSince: z.optional(utcTimestamp),
  patientId: z.optional(anyId),
  ...pageQuery,
});

/** `fax.status_changed` data: the fields the seed shows (`status`, `errorKind`, `occurredAt`) plus assumed identifiers. */
export const faxStatusChangedData = z
  .object({
    id: rawUuid,
    organizationId: rawUuid,
    status: z.enum(FAX_TERMINAL_STATUSES),
    errorKind: z.nullable(faxErrorKind),
    occurredAt: utcTimestamp,
    toNumber: e164Number,
    patientId: z.nullable(rawUuid),
    pages: z.int(),
    createdAt: utcTimestamp,
  })
  .check(z.refine((data) => (data.status === "failed") === (data.errorKind !== null), { message: "errorKind: must be set exactly when status is failed", path: ["errorKind"] }));
export type FaxStatusChangedData = z.infer<typeof faxStatusChangedData>;
