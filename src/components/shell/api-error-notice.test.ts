import { describe, expect, it } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import { describeApiError } from "./api-error-notice.tsx";

const apiError = (status: number, code: string, extra: Record<string, unknown> = {}) => new ApiError(status, { code, message: `${code} happened`, trace_id: "tdm_1", ...extra });

describe("describeApiError", () => {
  it("a BFF process starting or shutting down (not_ready) is Tandem's server restarting, to try again, not 'Something went wrong'; a write says nothing was changed", () => {
    const error = new ApiError(503, { code: "not_ready", message: "This Tandem process is shutting down; try again", trace_id: "tdm_1" });
    expect(describeApiError(error)).toEqual({ title: "Tandem's server is restarting", detail: "Try again in a moment.", canRetry: true });
    expect(describeApiError(error, "write").detail).toBe("Nothing was changed. Try again in a moment.");
  });

  it("a hold refused because the EHR switched patient after the slot was chosen says so, and offers to hold it for the patient open now", () => {
    expect(describeApiError(apiError(409, "patient_changed"), "write")).toEqual({ title: "The patient open in the EHR changed", detail: "Try again to hold this slot for the patient open now.", canRetry: true });
  });

  describe("three systems, three messages (DESIGN.md: messages name the system that failed)", () => {
    it("Tandem's server: its store could not answer, it failed (its own 500), or it was not reached; never 'The EHR did not answer'", () => {
      const store = new ApiError(503, { code: "store_unavailable", message: "Tandem's server could not use its database just now: try again in a few seconds", trace_id: "tdm_1", retry_after_seconds: 5 });
      expect(describeApiError(store)).toEqual({ title: "Tandem's server is having trouble", detail: "Tandem's server could not use its database just now: try again in a few seconds.", canRetry: true });
      // A write's own account of what became of it is kept (the BFF's message).
      const hold = new ApiError(503, { code: "store_unavailable", message: "Tandem could not keep a record of the hold, so it released it: nothing is held. Try again.", trace_id: "tdm_2" });
      expect(describeApiError(hold, "write").detail).toBe("Tandem could not keep a record of the hold, so it released it: nothing is held. Try again.");
      expect(describeApiError(apiError(500, "internal_error"))).toEqual({ title: "Tandem's server is having trouble", detail: "Try again in a moment; if it keeps happening, quote reference tdm_1.", canRetry: true });
      // An answer with no error body: a proxy's page with no Tandem process behind it.
      expect(describeApiError(apiError(502, "unexpected_response")).title).toBe("Tandem's server is having trouble");
      expect(describeApiError(new TypeError("Failed to fetch"))).toEqual({ title: "Tandem could not reach its server", detail: "It may be restarting, or the network may be down. Try again in a moment.", canRetry: true });
    });

    it("the EHR behind the service: server_unresponsive, unexpected_integration_error", () => {
      for (const code of ["server_unresponsive", "unexpected_integration_error"]) {
        expect(describeApiError(apiError(503, code))).toEqual({ title: "The EHR did not answer", detail: "Try again in a moment.", canRetry: true });
        expect(describeApiError(apiError(503, code), "write").detail).toBe("Nothing was changed. Try again in a moment.");
      }
    });

    it("the clinic data service: busy (rate limited), not reached or failing (upstream_unavailable, its own 500), too slow; never 'The EHR did not answer'", () => {
      expect(describeApiError(apiError(503, "rate_limited", { retry_after_seconds: 3 }))).toEqual({ title: "The clinic data service is busy", detail: "Try again in 3 seconds.", canRetry: true });
      expect(describeApiError(apiError(503, "upstream_unavailable"))).toEqual({ title: "The clinic data service did not answer", detail: "Try again in a moment.", canRetry: true });
      const failing = describeApiError(apiError(502, "internal_error", { upstream_trace_id: "trc_9" }));
      expect(failing).toEqual({ title: "The clinic data service is having trouble", detail: "internal_error happened. Try again in a moment (reference tdm_1).", canRetry: true });
      expect(describeApiError(apiError(504, "upstream_timeout")).title).toBe("The clinic data service did not answer in time");
      // A write it may have carried out after Tandem stopped waiting is not called undone.
      expect(describeApiError(apiError(503, "upstream_timeout"), "write").detail).toBe("It may have been done already: check before trying again.");
    });

    it("a refusal is none of the three", () => {
      expect(describeApiError(apiError(404, "not_found"))).toEqual({ title: "Something went wrong", detail: "not_found happened (reference tdm_1)", canRetry: false });
    });
  });

  it("a search too large says what to narrow; an answer too large names the clinic data service (issue 34)", () => {
    const tooLarge = new ApiError(422, { code: "search_too_large", message: "This search is too large: choose fewer facilities or fewer days (…)", trace_id: "tdm_2" });
    expect(describeApiError(tooLarge)).toEqual({ title: "This search is too large", detail: "Choose fewer facilities or fewer days, then search again.", canRetry: false });
    const upstream = new ApiError(502, { code: "upstream_too_large", message: "The Clinic Data Service answered more than Tandem reads (over 16 MB)", trace_id: "tdm_3" });
    expect(describeApiError(upstream)).toMatchObject({ title: "The clinic data service answered more than Tandem reads", canRetry: false });
    expect(describeApiError(upstream).detail).toContain("tdm_3");
  });
});
