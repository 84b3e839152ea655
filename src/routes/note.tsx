import { createFileRoute } from "@tanstack/react-router";
import { ViewNotBuilt } from "../components/shell/view-not-built.tsx";

export const Route = createFileRoute("/note")({
  component: () => <ViewNotBuilt title="Note" purpose="Read the note in view and prepare it for sign-off: the four writable fields, tasks and images." />,
});
