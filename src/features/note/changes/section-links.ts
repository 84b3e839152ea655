import type { NoteSectionKey } from "#contract/note/section-digests.ts";
import { noteSectionById } from "../reading/note-sections.ts";

// A section the BFF reports by its key (contract/note/section-digests.ts) is
// the note view's `section-<key>` element (reading/note-sections.ts).

export const sectionIdOf = (key: NoteSectionKey): string => `section-${key}`;

export function sectionTitleOf(key: NoteSectionKey): string {
  return noteSectionById(sectionIdOf(key))?.title ?? key;
}
