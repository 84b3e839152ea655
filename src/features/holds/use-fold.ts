import { useState } from "react";

// The held slots folded to their heading line on request (a narrow frame has
// little room); a new hold unfolds them, so it is never made out of sight.

export function useFold(count: number) {
  const [isFolded, setFolded] = useState(false);
  const [foldedAtCount, setFoldedAtCount] = useState(0);
  // Set during render (not in an effect), so the new hold never paints folded.
  if (isFolded && count > foldedAtCount) setFolded(false);
  const toggleFold = () => {
    setFoldedAtCount(count);
    setFolded(!isFolded);
  };
  return { isFolded, toggleFold };
}
