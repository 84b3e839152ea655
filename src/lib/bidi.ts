// Text from the EHR or a user (names, note text, titles) can carry
// right-to-left script or explicit bidirectional controls (U+202E RIGHT-TO-
// LEFT OVERRIDE); dropped into one of Tandem's own sentences, it would
// reorder the words after it ("10:30 with <name> on Tuesday"). Elements are
// isolated by styles.css; text joined into a sentence is isolated here,
// between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (Unicode UAX #9).

const FIRST_STRONG_ISOLATE = "\u2068";
const POP_DIRECTIONAL_ISOLATE = "\u2069";

// Explicit embeddings, overrides, isolates and marks, and the right-to-left scripts' blocks.
const DIRECTIONAL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/;

/**
 * The text as an isolate in a sentence: unchanged when it holds nothing that
 * could reorder what is around it (so plain names read and compare as before).
 */
export function isolateText(text: string): string {
  return DIRECTIONAL.test(text) ? `${FIRST_STRONG_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}` : text;
}
