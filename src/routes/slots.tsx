import { createFileRoute } from "@tanstack/react-router";
import { ViewNotBuilt } from "../components/shell/view-not-built.tsx";

export const Route = createFileRoute("/slots")({
  component: () => <ViewNotBuilt title="Slots" purpose="Find a bookable slot for the patient on the phone, check it live, hold it and book it in the EHR." />,
});
