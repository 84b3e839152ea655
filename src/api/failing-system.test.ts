import { describe, expect, it } from "vitest";
import { ApiError } from "./bff-client.ts";
import { failingSystemOf } from "./failing-system.ts";
import { isSystemFailure, saveFailureReasonOf } from "./note-queries.ts";

// Which system a failed call met, from what the BFF answers: its own codes
// (store_unavailable, not_ready), the service's codes for the EHR behind it,
// the BFF's codes for the service itself, and a 5xx with or without the
// service's trace id.

const apiError = (status: number, code: string, extra: Record<string, unknown> = {}) => new ApiError(status, { code, message: code, trace_id: "tdm_1", ...extra });

describe("failingSystemOf", () => {
  it("Tandem's server: its store, a restart, its own 500, an answer with no error body, not reached", () => {
    expect(failingSystemOf(apiError(503, "store_unavailable"))).toBe("tandem");
    expect(failingSystemOf(apiError(503, "not_ready"))).toBe("tandem");
    expect(failingSystemOf(apiError(500, "internal_error"))).toBe("tandem");
    expect(failingSystemOf(apiError(502, "unexpected_response"))).toBe("tandem");
    expect(failingSystemOf(new TypeError("Failed to fetch"))).toBe("tandem");
  });

  it("the EHR: the service's integration codes", () => {
    expect(failingSystemOf(apiError(503, "server_unresponsive"))).toBe("ehr");
    expect(failingSystemOf(apiError(502, "unexpected_integration_error"))).toBe("ehr");
  });

  it("the clinic data service: not reached, too slow, busy, outside its contract, its own 500 (passed on as 502 with its trace id)", () => {
    for (const code of ["upstream_unavailable", "upstream_timeout", "rate_limited", "contract_violation"]) expect(failingSystemOf(apiError(503, code))).toBe("service");
    expect(failingSystemOf(apiError(502, "internal_error", { upstream_trace_id: "trc_1" }))).toBe("service");
  });

  it("a refusal is no system's failure", () => {
    expect(failingSystemOf(apiError(400, "bad_request"))).toBeNull();
    expect(failingSystemOf(apiError(409, "conflict"))).toBeNull();
    expect(isSystemFailure(apiError(403, "role_forbidden"))).toBe(false);
  });
});

describe("saveFailureReasonOf (the note editor's status)", () => {
  it("names Tandem's server for store_unavailable and its own 500, the service for upstream_unavailable, the EHR for its codes", () => {
    expect(saveFailureReasonOf(apiError(503, "store_unavailable"))).toBe("tandem");
    expect(saveFailureReasonOf(apiError(500, "internal_error"))).toBe("tandem");
    expect(saveFailureReasonOf(new TypeError("Failed to fetch"))).toBe("unreached");
    expect(saveFailureReasonOf(apiError(503, "upstream_unavailable"))).toBe("service");
    expect(saveFailureReasonOf(apiError(502, "internal_error", { upstream_trace_id: "trc_1" }))).toBe("service");
    expect(saveFailureReasonOf(apiError(503, "server_unresponsive"))).toBe("ehr");
    expect(saveFailureReasonOf(apiError(503, "rate_limited"))).toBe("busy");
    expect(saveFailureReasonOf(apiError(503, "upstream_timeout"))).toBe("unconfirmed");
    expect(isSystemFailure(apiError(503, "store_unavailable"))).toBe(true);
  });

  it("tells Tandem's server restarting (a deploy's drain) from one not reached at all", () => {
    expect(saveFailureReasonOf(apiError(503, "not_ready"))).toBe("restarting");
    expect(saveFailureReasonOf(new TypeError("Failed to fetch"))).toBe("unreached");
  });
});
