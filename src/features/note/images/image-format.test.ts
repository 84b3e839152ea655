import { describe, expect, it } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import {
  deleteButtonLabel,
  deleteDialogTitle,
  deletedAnnouncement,
  formatImageSize,
  imageDeleteFailure,
  settledImageDelete,
  imageName,
  imageStatusText,
  imageSummary,
  imageTypeText,
  SIGNED_IMAGES_MESSAGE,
} from "./image-format.ts";

const apiError = (status: number, code: string, message = "The service said no", extra: Record<string, unknown> = {}) => new ApiError(status, { code, message, trace_id: "trace-1", ...extra });

describe("image size", () => {
  it("shows KB below a megabyte", () => {
    expect(formatImageSize(240)).toBe("240 KB");
    expect(formatImageSize(1)).toBe("1 KB");
    expect(formatImageSize(1023)).toBe("1,023 KB");
  });

  it("shows MB with one decimal below 10, whole above", () => {
    expect(formatImageSize(1229)).toBe("1.2 MB");
    expect(formatImageSize(1024)).toBe("1 MB");
    expect(formatImageSize(10_239)).toBe("10 MB");
    expect(formatImageSize(15_360)).toBe("15 MB");
  });

  it("shows GB for very large files", () => {
    expect(formatImageSize(1536 * 1024)).toBe("1.5 GB");
  });

  it("says when the size is tiny or unknown", () => {
    expect(formatImageSize(0)).toBe("Less than 1 KB");
    expect(formatImageSize(-1)).toBe("Size unknown");
    expect(formatImageSize(Number.NaN)).toBe("Size unknown");
  });
});

describe("image type", () => {
  it("names common types", () => {
    expect(imageTypeText("image/png")).toBe("PNG image");
    expect(imageTypeText("IMAGE/JPEG")).toBe("JPEG image");
    expect(imageTypeText("application/pdf")).toBe("PDF document");
  });

  it("shows other types rather than hiding them", () => {
    expect(imageTypeText("image/x-portable-pixmap")).toBe("PORTABLE-PIXMAP image");
    expect(imageTypeText("application/octet-stream")).toBe("application/octet-stream");
    expect(imageTypeText("")).toBe("Type unknown");
  });
});

describe("image status", () => {
  it("reads the status the seeds show, and makes others readable", () => {
    expect(imageStatusText("pending_upload")).toBe("Upload pending");
    expect(imageStatusText("archived")).toBe("Deleted");
    expect(imageStatusText("virus_scan-running")).toBe("Virus scan running");
    expect(imageStatusText("")).toBe("Status unknown");
  });

  it("summarises an image on one line", () => {
    expect(imageSummary({ mimeType: "image/png", sizeKb: 240, status: "pending_upload" })).toBe("PNG image · 240 KB · Upload pending");
  });
});

describe("image name", () => {
  it("is the file name as written", () => {
    expect(imageName({ fileName: " left-forearm-clinical-1.jpg ", mimeType: "image/jpeg", sizeKb: 1229 })).toBe("left-forearm-clinical-1.jpg");
  });

  it("says what the image is when it has no file name, never its id", () => {
    expect(imageName({ fileName: "", mimeType: "image/jpeg", sizeKb: 1229 })).toBe("Untitled JPEG image (1.2 MB)");
    expect(imageName({ fileName: "  ", mimeType: "application/pdf", sizeKb: 240 })).toBe("Untitled PDF document (240 KB)");
    expect(imageName({ fileName: "", mimeType: "", sizeKb: -1 })).toBe("Untitled image");
  });
});

describe("deleting an image", () => {
  it("names the file in the button, the dialog and the announcement", () => {
    expect(deleteButtonLabel("knee-xray.png")).toBe("Delete knee-xray.png");
    expect(deleteDialogTitle("knee-xray.png")).toBe("Delete knee-xray.png?");
    expect(deletedAnnouncement("knee-xray.png")).toBe("knee-xray.png deleted");
  });

  it("says how long to wait when the clinic data service is busy, as the wait counts down on screen: never a wait long over", () => {
    const busy = apiError(503, "rate_limited", "Too many requests", { retry_after_seconds: 3 });
    expect(imageDeleteFailure(busy, "knee-xray.png")).toEqual({ kind: "ehr", message: "The clinic data service is busy, so knee-xray.png was not deleted. Try again in 3 seconds." });
    expect(imageDeleteFailure(busy, "knee-xray.png", 1)).toEqual({ kind: "ehr", message: "The clinic data service is busy, so knee-xray.png was not deleted. Try again in 1 second." });
    expect(imageDeleteFailure(busy, "knee-xray.png", 0)).toEqual({ kind: "ehr", message: "The clinic data service is busy, so knee-xray.png was not deleted. Try again now." });
  });

  it("turns the panel read-only on a 409 (signed note)", () => {
    expect(imageDeleteFailure(apiError(409, "conflict"), "knee-xray.png")).toEqual({ kind: "signed", message: SIGNED_IMAGES_MESSAGE });
    expect(SIGNED_IMAGES_MESSAGE).toBe("This note was signed in the EHR, so its images can no longer be deleted.");
  });

  it("offers a retry that finds out when the EHR failed after the delete reached it (it may be deleted already), and when the service was not reached", () => {
    expect(imageDeleteFailure(apiError(502, "unexpected_integration_error"), "knee-xray.png")).toEqual({ kind: "unreached", message: "The EHR reported a failure, so knee-xray.png may be deleted already. Try again to find out." });
    expect(imageDeleteFailure(apiError(503, "upstream_unavailable"), "knee-xray.png").kind).toBe("ehr");
    // No answer in time: the EHR may have deleted it, so "did not delete" would not be known.
    expect(imageDeleteFailure(apiError(503, "upstream_timeout"), "knee-xray.png")).toEqual({ kind: "unreached", message: "The EHR did not answer in time, so knee-xray.png may be deleted already. Try again to find out." });
  });

  it("an outcome_unknown names the system whose answer was lost and says the EHR may have deleted it, never that it was not deleted", () => {
    const failure = imageDeleteFailure(apiError(503, "outcome_unknown", "…", { failed_system: "service", intent_id: "i-1" }), "knee-xray.png");
    expect(failure).toEqual({ kind: "unknown", message: "The clinic data service's answer did not reach Tandem. The EHR may have deleted knee-xray.png: Tandem is reading the note's images again to find out." });
    expect("message" in failure ? failure.message : "").not.toMatch(/not deleted|did not delete/);
  });

  it("after an unknown outcome, the images read again say what happened", () => {
    expect(settledImageDelete("knee-xray.png", false)).toMatchObject({ kind: "gone", message: expect.stringMatching(/^The EHR deleted knee-xray\.png/) as unknown });
    expect(settledImageDelete("knee-xray.png", true)).toEqual({ kind: "ehr", message: "The EHR did not delete knee-xray.png: it is still on the note. Try again." });
  });

  it("says an image already gone is gone", () => {
    expect(imageDeleteFailure(apiError(404, "not_found"), "knee-xray.png")).toEqual({ kind: "gone", message: "knee-xray.png is no longer on this note: it was already deleted." });
  });

  it("names Tandem's server, not the EHR, when its store could not answer or it failed: whether it was deleted is for a retry to find out", () => {
    expect(imageDeleteFailure(apiError(503, "store_unavailable"), "knee-xray.png")).toEqual({ kind: "unreached", message: "Tandem's server is having trouble, so knee-xray.png may not have been deleted. Try again to find out." });
    expect(imageDeleteFailure(apiError(500, "internal_error"), "knee-xray.png").kind).toBe("unreached");
    expect(imageDeleteFailure(apiError(503, "upstream_unavailable"), "knee-xray.png")).toEqual({ kind: "ehr", message: "The clinic data service did not answer, so knee-xray.png was not deleted. Try again." });
  });

  it("does not claim the EHR refused when the server was not reached", () => {
    expect(imageDeleteFailure(new TypeError("Failed to fetch"), "knee-xray.png").kind).toBe("unreached");
  });

  it("leaves other errors to the shared description", () => {
    expect(imageDeleteFailure(apiError(403, "scope_not_granted"), "knee-xray.png")).toEqual({ kind: "other" });
  });
});
