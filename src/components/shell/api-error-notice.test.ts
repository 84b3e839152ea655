import { describe, expect, it } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import { describeApiError } from "./api-error-notice.tsx";

describe("describeApiError", () => {
  it("a BFF process starting or shutting down (not_ready) is a restart to try again, not 'Something went wrong'; a write says nothing was changed", () => {
    const error = new ApiError(503, { code: "not_ready", message: "This Tandem process is shutting down; try again", trace_id: "tdm_1" });
    expect(describeApiError(error)).toEqual({ title: "Tandem is restarting", detail: "Try again in a moment.", canRetry: true });
    expect(describeApiError(error, "write").detail).toBe("Nothing was changed. Try again in a moment.");
  });
});
