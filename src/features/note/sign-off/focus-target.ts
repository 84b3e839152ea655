// Moves the reader to an element of the note: opens the collapsed section it
// sits in, scrolls it into view inside the iframe and gives it focus, without
// touching the URL's hash (the router owns the URL).

export function focusNoteTarget(targetId: string): void {
  const target = document.getElementById(targetId);
  if (!target) return;
  const details = target instanceof HTMLDetailsElement ? target : target.closest("details");
  if (details) details.open = true;
  const focusable = target.matches("input, textarea, select, button, a[href], [tabindex]") ? target : (target.querySelector<HTMLElement>("h2, h3, [tabindex]") ?? target);
  if (!focusable.hasAttribute("tabindex") && !focusable.matches("input, textarea, select, button, a[href]")) focusable.setAttribute("tabindex", "-1");
  focusable.scrollIntoView({ block: "start", behavior: "smooth" });
  focusable.focus({ preventScroll: true });
}
