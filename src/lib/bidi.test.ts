import { describe, expect, it } from "vitest";
import { isolateText } from "./bidi.ts";

describe("isolateText", () => {
  it("leaves text without directional content as it is", () => {
    expect(isolateText("Dr. Jacob Brooks, MD")).toBe("Dr. Jacob Brooks, MD");
    expect(isolateText("Müller-Lüdenscheidt, Zoë")).toBe("Müller-Lüdenscheidt, Zoë");
  });

  it("isolates text with an override, an embedding or right-to-left script", () => {
    expect(isolateText("\u202eBrooks")).toBe("\u2068\u202eBrooks\u2069");
    expect(isolateText("a\u202ab")).toBe("\u2068a\u202ab\u2069");
    expect(isolateText("أحمد")).toBe("\u2068أحمد\u2069");
    expect(isolateText("שרה כהן")).toBe("\u2068שרה כהן\u2069");
  });
});
