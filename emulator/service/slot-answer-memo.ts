import type { EhrAppointment, EhrTemplate } from "../world/types.ts";
import type { HoldRecord } from "./service-state.ts";

// Load bench only (`EMULATOR_BENCH_ANSWER_MEMO=1`, route-deps.ts
// `benchAnswerMemo`; off by default: the seeds describe no such thing).
// A cached (mirror) slot search's answer, serialized, kept while nothing it
// is made of has changed: the mirror's templates and bookings (replaced, never
// changed in place, by a sync: mirror-sync.ts), the active holds that bear on
// it (the caller's: those of providers the search can list), and the minute. When a mirror sync expires every cached answer of a BFF, each of
// its processes asks again for the same searches within the same second; a
// large group's search is 20-100 ms of work and up to 3 MB of JSON, and the
// emulator, on the same cores as the BFFs in the load benchmark, queued every
// other call behind them. Live (`consistency=strong`) reads are never kept.

/** What an answer was made from; it is served again only while all of these are the same. */
export interface SlotAnswerInputs {
  templates: readonly EhrTemplate[];
  appointmentsByProvider: ReadonlyMap<string, readonly EhrAppointment[]>;
  activeHolds: readonly HoldRecord[];
  now: number;
}

interface Kept {
  templates: readonly EhrTemplate[];
  appointmentsByProvider: ReadonlyMap<string, readonly EhrAppointment[]>;
  holds: string;
  minute: number;
  json: string;
}

/** Searches, and characters of JSON, kept per organization; past either, the organization's are dropped together (its next sync makes them useless anyway). */
const MAX_KEPT_PER_ORGANIZATION = 256;
const MAX_KEPT_CHARS_PER_ORGANIZATION = 32 * 1024 * 1024;
const MINUTE_MS = 60_000;

/**
 * Slots start on whole minutes (templates are `HH:MM` in zones with
 * whole-minute offsets, and intervals are minutes), and a search lists those
 * starting at or after `now`: so every `now` in (m-1 min, m min] gives the
 * same answer.
 */
const minuteOf = (now: number) => Math.ceil(now / MINUTE_MS);

/** A hold's id, provider and times never change; the active set is named by its ids. */
const holdsOf = (holds: readonly HoldRecord[]) =>
  holds
    .map((hold) => hold.id)
    .sort()
    .join(",");

interface OrganizationAnswers {
  answers: Map<string, Kept>;
  chars: number;
}

export class SlotAnswerMemo {
  private readonly byOrganization = new Map<string, OrganizationAnswers>();

  /** The answer's JSON for `search` (a key naming every parameter) made from `inputs`: kept, or made by `make` and kept. */
  answer(organizationId: string, search: string, inputs: SlotAnswerInputs, make: () => string): string {
    const kept = this.organization(organizationId);
    const holds = holdsOf(inputs.activeHolds);
    const minute = minuteOf(inputs.now);
    const found = kept.answers.get(search);
    if (found && found.templates === inputs.templates && found.appointmentsByProvider === inputs.appointmentsByProvider && found.holds === holds && found.minute === minute) return found.json;
    const json = make();
    if (found) kept.chars -= found.json.length;
    if (kept.answers.size >= MAX_KEPT_PER_ORGANIZATION || kept.chars + json.length > MAX_KEPT_CHARS_PER_ORGANIZATION) {
      kept.answers.clear();
      kept.chars = 0;
    }
    kept.answers.set(search, { templates: inputs.templates, appointmentsByProvider: inputs.appointmentsByProvider, holds, minute, json });
    kept.chars += json.length;
    return json;
  }

  private organization(organizationId: string): OrganizationAnswers {
    let kept = this.byOrganization.get(organizationId);
    if (kept === undefined) {
      kept = { answers: new Map(), chars: 0 };
      this.byOrganization.set(organizationId, kept);
    }
    return kept;
  }
}
