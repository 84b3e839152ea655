import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

// The shell (router, bridge, views) arrives with the SPA issue; until then the
// page only says what it is, so `npm run build` has a real entry to bundle.
function Placeholder() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "1.5rem" }}>
      <h1>Tandem</h1>
      <p>The app shell is not built yet. Run the emulator with <code>npm run emulator</code>.</p>
    </main>
  );
}

const root = document.getElementById("root");
if (root) createRoot(root).render(<StrictMode><Placeholder /></StrictMode>);
