import * as z from "zod/mini";
import { rawUuid } from "#contract/clinic-api/primitives.ts";

// Bodies of the patient documents controls under `/_sandbox/`.

const text = z.optional(z.string().check(z.minLength(1), z.maxLength(300)));

const isoDateTime = z.string().check(
  z.refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date-time"),
);

/** File documents in a chart; every field is optional. */
export const fileDocumentsRequest = z.strictObject({
  kind: text,
  sourceCategory: text,
  title: text,
  filename: text,
  mimeType: text,
  bytes: z.optional(z.int().check(z.nonnegative(), z.maximum(2_000_000_000))),
  /** The EHR's date for the document (back-date it to before the chart's last listing); default now. */
  createdAt: z.optional(isoDateTime),
  /** The service id of a document on the same chart: file a re-scan of it, under a new EHR id. */
  rescanOf: z.optional(rawUuid),
  /** A burst: this many documents, one millisecond apart, the first at `createdAt`. */
  count: z.optional(z.int().check(z.minimum(1), z.maximum(500))),
});
export type FileDocumentsRequest = z.infer<typeof fileDocumentsRequest>;
