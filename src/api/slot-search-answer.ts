import * as z from "zod/mini";
import { slotSearchResponse, type SlotSearchResponse } from "#contract/app-api/slots.ts";
import { slot, type Slot } from "#contract/clinic-api/schedule.ts";

// The contract's check of a slot search's answer (contract/app-api/slots.ts),
// with the same verdict and output, cheaper for a large group's answer: every
// facility over 14 days is about 24,000 slots, and checking each field of each
// slot afresh was 70-100 ms of one main-thread task. A slot's fields take few
// distinct values (a few hundred providers, a few thousand start times), so
// here each distinct value is checked once, with the contract's own field
// schema. Zod's `withParser` installs this as the schema's fast path: whatever
// it does not find plainly valid (INVALID) goes through the contract's schema
// whole, so a refusal, and its message, is the contract's own.

const fields = slot.def.shape;
const templateIdSchema = fields.templateIds.def.element;

/** Verdicts of one field's schema (of strings or of numbers) on the values met in one answer. */
class FieldVerdicts<T extends string | number> {
  private readonly verdicts = new Map<T, boolean>();
  constructor(
    private readonly schema: z.ZodMiniType<T>,
    private readonly type: T extends string ? "string" : "number",
  ) {}

  accepts(value: unknown): value is T {
    if (typeof value !== this.type) return false;
    const field = value as T;
    let verdict = this.verdicts.get(field);
    if (verdict === undefined) {
      verdict = z.safeParse(this.schema, field).success;
      this.verdicts.set(field, verdict);
    }
    return verdict;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The answer parsed as the contract would, or INVALID to have the contract's schema decide (and name the problem). */
export function quickSlotSearchParse(input: unknown): SlotSearchResponse | typeof z.INVALID {
  if (!isRecord(input) || !Array.isArray(input.slots)) return z.INVALID;
  // Everything but the slots (the next available dates, the meta) is small: the contract's schema checks it.
  const rest = z.safeParse(slotSearchResponse, { ...input, slots: [] });
  if (!rest.success) return z.INVALID;
  const providerIds = new FieldVerdicts(fields.providerId, "string");
  const facilityIds = new FieldVerdicts(fields.facilityId, "string");
  const starts = new FieldVerdicts(fields.startsAt, "string");
  const ends = new FieldVerdicts(fields.endsAt, "string");
  const capacities = new FieldVerdicts(fields.remainingCapacity, "number");
  const templateIds = new FieldVerdicts(templateIdSchema, "string");
  const slots: Slot[] = new Array<Slot>(input.slots.length);
  for (let index = 0; index < input.slots.length; index += 1) {
    const item: unknown = input.slots[index];
    if (!isRecord(item)) return z.INVALID;
    const { providerId, facilityId, startsAt, endsAt, remainingCapacity, templateIds: templates } = item;
    if (!providerIds.accepts(providerId) || !facilityIds.accepts(facilityId) || !starts.accepts(startsAt) || !ends.accepts(endsAt) || !capacities.accepts(remainingCapacity)) return z.INVALID;
    if (!Array.isArray(templates)) return z.INVALID;
    const checkedTemplates: string[] = [];
    for (const id of templates as unknown[]) {
      if (!templateIds.accepts(id)) return z.INVALID;
      checkedTemplates.push(id);
    }
    // Fresh objects with the contract's fields only, as the schema's parse gives (unknown keys dropped).
    slots[index] = { providerId, facilityId, startsAt, endsAt, remainingCapacity, templateIds: checkedTemplates };
  }
  return { ...rest.data, slots };
}

/** `slotSearchResponse` with the quick path in front: what the SPA parses `GET /api/slots` with. */
export const slotSearchAnswer = z.withParser(slotSearchResponse, quickSlotSearchParse);
