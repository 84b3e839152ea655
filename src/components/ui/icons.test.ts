import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { LockIcon } from "./icons.tsx";

// ADR 0008 "Icons": a lock drawn as 🔒 once showed as an empty box in Chromium
// on Debian, which has no emoji font. Icons are inline SVG (icons.tsx); this
// guards the whole SPA against a glyph icon coming back. Plain punctuation
// (·, –, …, quotes) and units (°, ², ½) are text and stay.

const SRC = fileURLToPath(new URL("../..", import.meta.url));

/** Arrows, technical symbols, shapes, dingbats (✓ ✎ ⚠), emoji, and the bullets, crosses and angle quotes used as icons. */
const GLYPH_ICON = /[\u2190-\u21FF\u2300-\u23FF\u2500-\u27BF\u27F0-\u27FF\u2900-\u297F\u2B00-\u2BFF\u{1F000}-\u{1FFFF}\u2022\u00D7\u2139\u2039\u203A]|\uFE0F/u;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Comments may name glyphs ("→", "⌘"); only code and text can draw one. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

describe("icons", () => {
  it("are never font glyphs anywhere in the SPA", () => {
    const offending = sourceFiles(SRC).flatMap((path) =>
      withoutComments(readFileSync(path, "utf8"))
        .split("\n")
        .filter((line) => GLYPH_ICON.test(line))
        .map((line) => `${relative(SRC, path)}: ${line.trim()}`),
    );
    expect(offending).toEqual([]);
  });

  it("are hidden from assistive technology and take the text's colour", () => {
    const markup = renderToStaticMarkup(createElement(LockIcon));
    expect(markup).toMatch(/^<svg aria-hidden="true" focusable="false" data-icon="lock"/);
    expect(markup).toContain('stroke="currentColor"');
  });
});
