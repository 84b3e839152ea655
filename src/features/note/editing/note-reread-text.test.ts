import { describe, expect, it } from "vitest";
import { ApiError } from "#src/api/bff-client.ts";
import { noteRereadText } from "./note-reread-text.ts";

// A failed re-read of the open note leaves the editor in place; one line says
// which system failed and what becomes of the text (issue 35 item 1).

const apiError = (status: number, code: string, extra: Record<string, unknown> = {}) => new ApiError(status, { code, message: "m", trace_id: "tdm_1", ...extra });
const typing = { hasUnsavedText: true, isDraftInBff: false, canKeepInTab: true, isReadOnly: false };

describe("the line shown when the note could not be read again", () => {
  it("names Tandem's server restarting (a deploy's drain) or not answering, and keeps the text in this tab", () => {
    expect(noteRereadText(apiError(503, "not_ready"), typing)).toBe("Tandem's server is restarting: your text is kept in this tab; it will be saved when Tandem is back.");
    expect(noteRereadText(new TypeError("Failed to fetch"), typing)).toBe("Tandem's server is not answering: your text is kept in this tab; it will be saved when Tandem is back.");
    expect(noteRereadText(apiError(503, "store_unavailable"), typing)).toMatch(/^Tandem's server is not answering: /);
  });

  it("does not claim the tab holds text the BFF had before it stopped, nor a save of a read-only note", () => {
    expect(noteRereadText(new TypeError("Failed to fetch"), { ...typing, isDraftInBff: true })).toBe("Tandem's server is not answering: your text was kept before it stopped; it will be saved when Tandem is back.");
    expect(noteRereadText(new TypeError("Failed to fetch"), { ...typing, isReadOnly: true })).toBe("Tandem's server is not answering: your text is kept in this tab to copy.");
    expect(noteRereadText(new TypeError("Failed to fetch"), { hasUnsavedText: false, isDraftInBff: false, canKeepInTab: true, isReadOnly: false })).toBe(
      "Tandem's server is not answering: the note below is as Tandem last read it; it is read again when Tandem is back.",
    );
  });

  it("never claims the tab keeps text where the browser denies the EHR's frame its storage: the page alone holds it", () => {
    const denied = { ...typing, canKeepInTab: false };
    expect(noteRereadText(new TypeError("Failed to fetch"), denied)).toBe("Tandem's server is not answering: your text is on this page only; keep it open and it will be saved when Tandem is back.");
    expect(noteRereadText(new TypeError("Failed to fetch"), { ...denied, isReadOnly: true })).toBe("Tandem's server is not answering: your text is on this page only, to copy: keep it open.");
    expect(noteRereadText(new TypeError("Failed to fetch"), { ...denied, isDraftInBff: true })).toMatch(/your text was kept before it stopped/);
  });

  it("names the clinic data service or the EHR when they failed, never Tandem's server", () => {
    expect(noteRereadText(apiError(503, "upstream_unavailable"), typing)).toBe("The clinic data service did not answer: the note below is as Tandem last read it; your text is kept.");
    expect(noteRereadText(apiError(503, "server_unresponsive"), typing)).toBe("The EHR did not answer: the note below is as Tandem last read it; your text is kept.");
    expect(noteRereadText(apiError(502, "internal_error", { upstream_trace_id: "trc_1" }), { ...typing, hasUnsavedText: false })).toBe(
      "The clinic data service did not answer: the note below is as Tandem last read it; it is read again shortly.",
    );
  });
});
