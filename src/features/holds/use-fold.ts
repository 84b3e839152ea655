import { useState } from "react";
import { useMediaQuery } from "#src/lib/use-media-query.ts";

/** A frame this narrow or less shows the held slots as one line until asked (issue 36 item 10: three holds took 58% of a 400 px frame). */
export const NARROW_FRAME_QUERY = "(max-width: 40rem)";

// The held slots (and those the EHR did not confirm) folded to their heading
// line: on request, and by default in a narrow frame. Until the user chooses,
// the width decides; a new hold drops the choice, so a wide frame never makes
// it out of sight while a narrow one keeps its one line (the count in it says
// the hold was made).

export function useFold(count: number) {
  const isNarrow = useMediaQuery(NARROW_FRAME_QUERY);
  const [chosen, setChosen] = useState<{ isFolded: boolean; count: number } | null>(null);
  // Set during render (not in an effect), so the new hold never paints folded in a wide frame.
  if (chosen !== null && count !== chosen.count) setChosen(count > chosen.count ? null : { ...chosen, count });
  const isFolded = chosen?.isFolded ?? isNarrow;
  const toggleFold = () => setChosen({ isFolded: !isFolded, count });
  return { isFolded, toggleFold };
}
