// Reads the sign-in and consent pages' forms in tests, without a DOM: the
// pages are the emulator's own, with double-quoted attributes.

export interface HtmlForm {
  action: string;
  /** Hidden inputs, by name. */
  hidden: Record<string, string>;
}

export interface HtmlOption {
  value: string;
  label: string;
  selected: boolean;
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function attributes(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z][\w-]*)(?:="([^"]*)")?/g)) {
    const [, name, value] = match;
    if (name) result[name] = decodeEntities(value ?? "");
  }
  return result;
}

function formSource(html: string, formId: string): { tag: string; inner: string } | null {
  const match = new RegExp(`<form ([^>]*id="${formId}"[^>]*)>([\\s\\S]*?)</form>`).exec(html);
  return match ? { tag: match[1] ?? "", inner: match[2] ?? "" } : null;
}

export function readForm(html: string, formId: string): HtmlForm {
  const source = formSource(html, formId);
  if (!source) throw new Error(`no form #${formId} in the page`);
  const hidden: Record<string, string> = {};
  for (const [tag] of source.inner.matchAll(/<input [^>]*>/g)) {
    const attrs = attributes(tag);
    if (attrs.type === "hidden" && attrs.name) hidden[attrs.name] = attrs.value ?? "";
  }
  return { action: attributes(source.tag).action ?? "", hidden };
}

/** `value`s of the ticked checkboxes with that name. */
export function checkedValues(html: string, name: string): string[] {
  return [...html.matchAll(/<input [^>]*>/g)]
    .map(([tag]) => attributes(tag))
    .filter((attrs) => attrs.type === "checkbox" && attrs.name === name && "checked" in attrs)
    .map((attrs) => attrs.value ?? "");
}

/** `value`s of every checkbox with that name. */
export function checkboxValues(html: string, name: string): string[] {
  return [...html.matchAll(/<input [^>]*>/g)]
    .map(([tag]) => attributes(tag))
    .filter((attrs) => attrs.type === "checkbox" && attrs.name === name)
    .map((attrs) => attrs.value ?? "");
}

export function selectOptions(html: string, selectId: string): HtmlOption[] {
  const select = new RegExp(`<select [^>]*id="${selectId}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  if (!select) throw new Error(`no select #${selectId} in the page`);
  return [...(select[1] ?? "").matchAll(/<option ([^>]*)>([\s\S]*?)<\/option>/g)].map(([, tag, label]) => {
    const attrs = attributes(tag ?? "");
    return { value: attrs.value ?? "", label: decodeEntities(label ?? ""), selected: "selected" in attrs };
  });
}

export function pageTitle(html: string): string {
  return decodeEntities(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? "");
}

/** The text of the element with that id, tags stripped. */
export function textOf(html: string, id: string): string | null {
  const match = new RegExp(`<(\\w+) [^>]*id="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match ? decodeEntities((match[2] ?? "").replace(/<[^>]*>/g, "")).trim() : null;
}
