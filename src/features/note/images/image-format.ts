import { APP_ERROR_CODES } from "#contract/app-api/errors.ts";
import { ApiError } from "#src/api/bff-client.ts";
import { failingSystemOf } from "#src/api/failing-system.ts";
import { unknownWriteOf } from "#src/api/note-queries.ts";
import { isolateText } from "#src/lib/bidi.ts";
import { formatNumber, formatRetryWait } from "#src/lib/time-format.ts";
import { unknownOutcomeLead } from "../unknown-outcome.ts";

// The words the images panel shows: an image's size, type and status, and
// what a failed delete means. Pure, so they are tested.

const KB_PER_MB = 1024;
const KB_PER_GB = 1024 * 1024;

const oneDecimal = (value: number) => formatNumber(value, { maximumFractionDigits: 1 });
const whole = (value: number) => formatNumber(value, { maximumFractionDigits: 0 });

/**
 * "240 KB", "1.2 MB", "15 MB", "1.5 GB" from the service's `sizeKb` (binary
 * units: 1024 KB to the MB). One decimal below 10 of a unit, whole numbers above.
 */
export function formatImageSize(sizeKb: number): string {
  if (!Number.isFinite(sizeKb) || sizeKb < 0) return "Size unknown";
  if (sizeKb < 1) return "Less than 1 KB";
  if (sizeKb < KB_PER_MB) return `${whole(Math.round(sizeKb))} KB`;
  const [value, unit] = sizeKb < KB_PER_GB ? [sizeKb / KB_PER_MB, "MB"] : [sizeKb / KB_PER_GB, "GB"];
  return `${(value < 10 ? oneDecimal : whole)(value)} ${unit}`;
}

const TYPE_NAMES: Record<string, string> = {
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
  "image/jpg": "JPEG image",
  "image/gif": "GIF image",
  "image/webp": "WebP image",
  "image/heic": "HEIC image",
  "image/heif": "HEIF image",
  "image/tiff": "TIFF image",
  "image/bmp": "BMP image",
  "image/svg+xml": "SVG image",
  "application/pdf": "PDF document",
  "application/dicom": "DICOM image",
};

/** "PNG image" for `image/png`; another `image/…` type by its subtype; anything else as given. */
export function imageTypeText(mimeType: string): string {
  const type = mimeType.trim().toLowerCase();
  if (type === "") return "Type unknown";
  const known = TYPE_NAMES[type];
  if (known) return known;
  const [major, sub] = type.split("/");
  if (major === "image" && sub) return `${sub.replace(/^x-/, "").toUpperCase()} image`;
  return mimeType.trim();
}

const STATUS_TEXT: Record<string, string> = {
  pending_upload: "Upload pending",
  uploading: "Uploading",
  uploaded: "Uploaded",
  available: "Available",
  ready: "Available",
  active: "Available",
  failed: "Upload failed",
  upload_failed: "Upload failed",
  archived: "Deleted",
};

/** The image's status in words (only `pending_upload` is shown by the seeds); any other value made readable, never hidden. */
export function imageStatusText(status: string): string {
  const key = status.trim().toLowerCase();
  const known = STATUS_TEXT[key];
  if (known) return known;
  const words = key.replace(/[_-]+/g, " ").replace(/\s+/g, " ");
  return words === "" ? "Status unknown" : words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What the panel calls an image: its file name, else what the service says
 * about it ("Untitled JPEG image (1.2 MB)"); never its id.
 */
export function imageName(image: { fileName: string; mimeType: string; sizeKb: number }): string {
  const fileName = image.fileName.trim();
  // Isolated: the name goes into sentences ("Delete <name>?"), and a file name can carry an override.
  if (fileName !== "") return isolateText(fileName);
  const type = image.mimeType.trim() === "" ? "image" : imageTypeText(image.mimeType);
  const size = formatImageSize(image.sizeKb);
  return size === "Size unknown" ? `Untitled ${type}` : `Untitled ${type} (${size})`;
}

/** "PNG image · 240 KB · Upload pending": the line under the file name. */
export function imageSummary(image: { mimeType: string; sizeKb: number; status: string }): string {
  return [imageTypeText(image.mimeType), formatImageSize(image.sizeKb), imageStatusText(image.status)].join(" · ");
}

export const SIGNED_IMAGES_MESSAGE = "This note was signed in the EHR, so its images can no longer be deleted.";

export const deleteDialogTitle = (fileName: string) => `Delete ${fileName}?`;
export const deleteButtonLabel = (fileName: string) => `Delete ${fileName}`;
export const deletedAnnouncement = (fileName: string) => `${fileName} deleted`;

export type ImageDeleteFailure =
  /** 409: the note was signed; the panel turns read-only. */
  | { kind: "signed"; message: string }
  /** 404: the image is no longer on the note (deleted elsewhere, or by an earlier try whose answer was lost). */
  | { kind: "gone"; message: string }
  /** The EHR did not delete it, or the clinic data service did not take the request: Retry. */
  | { kind: "ehr"; message: string }
  /** Tandem's server was not reached, its answer was lost, it failed, or the EHR did not answer in time: it may or may not be deleted; Retry finds out. */
  | { kind: "unreached"; message: string }
  /** Sent, and the answer lost or failed after: the EHR may have deleted it; the note's images, read again, tell (settledImageDelete). */
  | { kind: "unknown"; message: string }
  /** Anything else: described by `describeApiError`. */
  | { kind: "other" };

/** What a failed delete means, naming the file; `waitLeft`: a rate limit's wait as it counts down on screen (useRateLimitWaitLeft). */
export function imageDeleteFailure(error: unknown, fileName: string, waitLeft: number | null = null): ImageDeleteFailure {
  if (!(error instanceof ApiError)) return { kind: "unreached", message: `Tandem could not reach its server, so ${fileName} may not have been deleted. Try again.` };
  if (unknownWriteOf(error)?.code === "outcome_unknown") return { kind: "unknown", message: `${unknownOutcomeLead(error)} The EHR may have deleted ${fileName}: Tandem is reading the note's images again to find out.` };
  if (error.status === 409 || error.body.code === "conflict") return { kind: "signed", message: SIGNED_IMAGES_MESSAGE };
  if (error.status === 404 || error.body.code === "not_found") return { kind: "gone", message: `${fileName} is no longer on this note: it was already deleted.` };
  // Sent, and the EHR may have carried it out after the BFF stopped waiting: a Try again finds out (404: deleted).
  if (error.body.code === "upstream_timeout") return { kind: "unreached", message: `The EHR did not answer in time, so ${fileName} may be deleted already. Try again to find out.` };
  switch (failingSystemOf(error)) {
    case "tandem":
      return { kind: "unreached", message: `Tandem's server is having trouble, so ${fileName} may not have been deleted. Try again to find out.` };
    case "service": {
      if (error.body.code !== APP_ERROR_CODES.rateLimited) return { kind: "ehr", message: `The clinic data service did not answer, so ${fileName} was not deleted. Try again.` };
      return { kind: "ehr", message: `The clinic data service is busy, so ${fileName} was not deleted. Try again ${formatRetryWait(waitLeft ?? error.body.retry_after_seconds)}.` };
    }
    case "ehr":
      // Failed after the delete reached it: it may have gone through (a Try again finds out: 404 is deleted).
      return { kind: "unreached", message: `The EHR reported a failure, so ${fileName} may be deleted already. Try again to find out.` };
    case null:
      return error.status === 502 ? { kind: "unreached", message: `The EHR reported a failure, so ${fileName} may be deleted already. Try again to find out.` } : { kind: "other" };
  }
}

/** What the note's images, read again after a delete whose outcome was unknown, say happened to it. */
export function settledImageDelete(fileName: string, isStillOnNote: boolean): ImageDeleteFailure {
  return isStillOnNote
    ? { kind: "ehr", message: `The EHR did not delete ${fileName}: it is still on the note. Try again.` }
    : { kind: "gone", message: `The EHR deleted ${fileName}; its answer was lost on the way, and the note's images now show it gone.` };
}
