// The part of the GS1 application identifier table a parser needs (GS1
// General Specifications 3.2 and figure 7.8.5-2): how many digits an AI has,
// whether its data has a predefined length (so no FNC1 separator follows
// it), and the longest value of the variable-length AIs a clinic sees.

/** Digits of the AIs that start with each two-digit prefix; a prefix not listed is not a GS1 AI. */
function aiLengthOf(prefix: number): 2 | 3 | 4 | null {
  if (prefix <= 4 || (prefix >= 10 && prefix <= 22) || prefix === 30 || prefix === 37 || prefix >= 90) return 2;
  if (prefix === 23 || prefix === 24 || prefix === 25 || prefix === 40 || prefix === 41 || prefix === 42 || prefix === 71) return 3;
  if ((prefix >= 31 && prefix <= 36) || prefix === 39 || prefix === 43 || prefix === 70 || prefix === 72 || (prefix >= 80 && prefix <= 82)) return 4;
  return null;
}

/** Data lengths fixed by the two-digit prefix (the "predefined length" table): these need no separator. */
const PREDEFINED_DATA_LENGTH: Record<string, number> = {
  "00": 18,
  "01": 14,
  "02": 14,
  "03": 14,
  "04": 16,
  "11": 6,
  "12": 6,
  "13": 6,
  "14": 6,
  "15": 6,
  "16": 6,
  "17": 6,
  "18": 6,
  "19": 6,
  "20": 2,
  "31": 6,
  "32": 6,
  "33": 6,
  "34": 6,
  "35": 6,
  "36": 6,
  "41": 13,
};

/** Longest values of common variable-length AIs; others are capped at 90 (the longest any AI allows). */
const MAX_VARIABLE_LENGTH: Record<string, number> = {
  "10": 20,
  "21": 20,
  "22": 20,
  "30": 8,
  "37": 8,
  "240": 30,
  "241": 30,
  "250": 30,
  "251": 30,
  "400": 30,
  "7003": 10,
};

/** AIs whose value is a date `YYMMDD` (production, best before, expiry…). */
export const DATE_AIS: ReadonlySet<string> = new Set(["11", "12", "13", "15", "16", "17"]);

/** AIs whose value is a GTIN. */
export const GTIN_AIS: ReadonlySet<string> = new Set(["01", "02"]);

export interface AiDefinition {
  ai: string;
  /** Set when the value has a predefined length; otherwise it runs to a separator or the end. */
  fixedLength: number | null;
  maxLength: number;
}

/** The AI that starts `text` at `position`, or null when those digits start no GS1 AI. */
export function aiAt(text: string, position: number): AiDefinition | null {
  const prefix = text.slice(position, position + 2);
  if (!/^\d\d$/.test(prefix)) return null;
  const length = aiLengthOf(Number(prefix));
  if (length === null) return null;
  const ai = text.slice(position, position + length);
  if (!/^\d+$/.test(ai) || ai.length !== length) return null;
  const fixedLength = PREDEFINED_DATA_LENGTH[prefix] ?? null;
  return { ai, fixedLength, maxLength: fixedLength ?? MAX_VARIABLE_LENGTH[ai] ?? 90 };
}

/** The definition of a whole AI, e.g. "17" or "3103". */
export function aiDefinition(ai: string): AiDefinition | null {
  const definition = aiAt(ai, 0);
  return definition?.ai === ai ? definition : null;
}
