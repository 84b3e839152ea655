// @vitest-environment happy-dom
import { act, render, renderHook, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import { ApiErrorNotice, useApiErrorDescription } from "./api-error-notice.tsx";

// A rate limit's wait on screen: every notice left up counts it down
// (useApiErrorDescription), so none states a wait long over; ApiErrorNotice's
// Try again waits with it.

const busy = (seconds: number) => new ApiError(503, { code: "rate_limited", message: "Too many requests", trace_id: "tdm_1", retry_after_seconds: seconds });

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("useApiErrorDescription", () => {
  it("counts a rate limit's wait down once a second, then says the user can try again", () => {
    const error = busy(2);
    const { result } = renderHook(() => useApiErrorDescription(error, "write"));
    expect(result.current).toMatchObject({ title: "The clinic data service is busy", detail: "Try again in 2 seconds.", waitSecondsLeft: 2 });
    act(() => void vi.advanceTimersByTime(1_000));
    expect(result.current).toMatchObject({ detail: "Try again in 1 second.", waitSecondsLeft: 1 });
    act(() => void vi.advanceTimersByTime(1_000));
    expect(result.current).toMatchObject({ detail: "You can try again now.", waitSecondsLeft: 0 });
  });

  it("restarts the count for a new failure, and leaves every other failure's words as describeApiError has them", () => {
    let error: unknown = busy(5);
    const { result, rerender } = renderHook(() => useApiErrorDescription(error));
    act(() => void vi.advanceTimersByTime(5_000));
    expect(result.current.detail).toBe("You can try again now.");
    error = busy(3);
    rerender();
    expect(result.current.detail).toBe("Try again in 3 seconds.");
    error = new ApiError(502, { code: "server_unresponsive", message: "Injected fault", trace_id: "tdm_2" });
    rerender();
    expect(result.current).toEqual({ title: "The EHR did not answer", detail: "Try again in a moment.", canRetry: true, waitSecondsLeft: null });
  });
});

describe("ApiErrorNotice", () => {
  it("offers Try again only once the wait is over", () => {
    const error = busy(1);
    render(<ApiErrorNotice error={error} onRetry={() => undefined} />);
    expect(screen.getByTestId("retry-countdown").textContent).toBe("Try again in 1 second.");
    expect(screen.getByRole("button", { name: "Try again" })).toHaveProperty("disabled", true);
    act(() => void vi.advanceTimersByTime(1_000));
    expect(screen.getByTestId("retry-countdown").textContent).toBe("You can try again now.");
    expect(screen.getByRole("button", { name: "Try again" })).toHaveProperty("disabled", false);
  });
});
