import { toRawUuid } from "../../contract/ids.ts";

/** The raw UUID behind either id form (pickers give raw UUIDs, slots `prv_`/`fac_` ids); other strings lower-cased. */
export function rawId(id: string): string {
  try {
    return toRawUuid(id);
  } catch {
    return id.toLowerCase();
  }
}
