import type { SlotDescriber } from "#src/scheduling/use-slot-describer.ts";

// A slot describer for component tests: a slot is its start's clock time and
// its provider's name, so each slot a test uses reads differently.

const PROVIDER_NAMES: Record<string, string> = {
  prv_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: "Dr. Noah Müller, MD",
  prv_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: "Dr. Ana Ruiz, DO",
};

const providerName = (providerId: string) => PROVIDER_NAMES[providerId] ?? "Unlisted provider";
const time = ({ startsAt }: { startsAt: string }) => startsAt.slice(11, 16);

export const FAKE_DESCRIBER: SlotDescriber = {
  phrase: (slot) => `${time(slot)} with ${providerName(slot.providerId)} on Tue 1 Dec`,
  time,
  timeAt: () => "10:42",
  label: (slot) => `${time(slot)} with ${providerName(slot.providerId)}`,
  day: (slot) => (slot.startsAt.slice(0, 10) === "2026-12-01" ? "Tue 1 Dec" : "Wed 2 Dec"),
  providerName,
  facilityName: () => "Upper West Side",
  appointmentTypeName: () => "Follow-up",
};
