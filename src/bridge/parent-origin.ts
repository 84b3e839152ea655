// DESIGN.md "The host bridge" 1: the parent's origin from
// `location.ancestorOrigins` (Chromium, Safari), else `document.referrer`.

export type Embedding = { kind: "standalone" } | { kind: "embedded"; parentOrigin: string | null };

export function detectEmbedding(win: Window): Embedding {
  if (win.parent === win) return { kind: "standalone" };
  const ancestor = win.location.ancestorOrigins?.[0];
  if (ancestor) return { kind: "embedded", parentOrigin: ancestor };
  try {
    return { kind: "embedded", parentOrigin: win.document.referrer ? new URL(win.document.referrer).origin : null };
  } catch {
    return { kind: "embedded", parentOrigin: null };
  }
}

export function isAllowedOrigin(origin: string | null, allowed: readonly string[]): origin is string {
  return origin !== null && allowed.includes(origin);
}
