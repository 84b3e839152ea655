import { describe, expect, it } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import { describeApiError } from "./api-error-notice.tsx";

describe("describeApiError", () => {
  it("a BFF process starting or shutting down (not_ready) is a restart to try again, not 'Something went wrong'; a write says nothing was changed", () => {
    const error = new ApiError(503, { code: "not_ready", message: "This Tandem process is shutting down; try again", trace_id: "tdm_1" });
    expect(describeApiError(error)).toEqual({ title: "Tandem is restarting", detail: "Try again in a moment.", canRetry: true });
    expect(describeApiError(error, "write").detail).toBe("Nothing was changed. Try again in a moment.");
  });

  it("a search too large says what to narrow; an answer too large names the clinic data service (issue 34)", () => {
    const tooLarge = new ApiError(422, { code: "search_too_large", message: "This search is too large: choose fewer facilities or fewer days (…)", trace_id: "tdm_2" });
    expect(describeApiError(tooLarge)).toEqual({ title: "This search is too large", detail: "Choose fewer facilities or fewer days, then search again.", canRetry: false });
    const upstream = new ApiError(502, { code: "upstream_too_large", message: "The Clinic Data Service answered more than Tandem reads (over 16 MB)", trace_id: "tdm_3" });
    expect(describeApiError(upstream)).toMatchObject({ title: "The clinic data service answered more than Tandem reads", canRetry: false });
    expect(describeApiError(upstream).detail).toContain("tdm_3");
  });
});
