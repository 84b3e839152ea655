import type { CSSProperties } from "react";

// How a template's bands look: a colour, a pattern and a letter key (the
// legend shows all three), so colour is never the only signal. Colours are
// light fills with dark text and a dark edge (text contrast stays above 4.5:1
// over the patterns); inactive templates are grey, dashed and say so in words.

const COLOURS = [
  { fill: "#ccfbf1", edge: "#0f766e" }, // teal
  { fill: "#e0e7ff", edge: "#4338ca" }, // indigo
  { fill: "#fef3c7", edge: "#b45309" }, // amber
  { fill: "#fce7f3", edge: "#be185d" }, // pink
  { fill: "#dcfce7", edge: "#15803d" }, // green
  { fill: "#e0f2fe", edge: "#0369a1" }, // sky
  { fill: "#ffedd5", edge: "#c2410c" }, // orange
  { fill: "#f3e8ff", edge: "#7e22ce" }, // purple
] as const;

const PATTERNS = [
  "none",
  "repeating-linear-gradient(135deg, rgba(15,23,42,0.07) 0 4px, transparent 4px 9px)",
  "radial-gradient(rgba(15,23,42,0.12) 1px, transparent 1.5px) 0 0 / 6px 6px",
] as const;

export const PATTERN_NAMES = ["plain", "striped", "dotted"] as const;

export interface BandLook {
  style: CSSProperties;
  /** "striped", for the legend's words. */
  patternName: string;
}

/** The look of the template at `index` in its grid's legend. */
export function bandLook(index: number, isInactive: boolean): BandLook {
  if (isInactive) {
    return {
      style: {
        backgroundColor: "#f1f5f9",
        backgroundImage: "repeating-linear-gradient(45deg, rgba(71,85,105,0.12) 0 2px, transparent 2px 7px)",
        borderColor: "#64748b",
        borderStyle: "dashed",
        color: "#334155",
      },
      patternName: "grey, dashed",
    };
  }
  const colour = COLOURS[index % COLOURS.length] ?? COLOURS[0];
  const patternIndex = Math.floor(index / COLOURS.length) % PATTERNS.length;
  const pattern = PATTERNS[patternIndex] ?? "none";
  return {
    style: { backgroundColor: colour.fill, background: pattern === "none" ? colour.fill : `${pattern}, ${colour.fill}`, borderColor: colour.edge, borderStyle: "solid", color: "#0f172a" },
    patternName: PATTERN_NAMES[patternIndex] ?? "plain",
  };
}
