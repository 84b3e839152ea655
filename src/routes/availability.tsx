import { createFileRoute } from "@tanstack/react-router";
import { ViewNotBuilt } from "../components/shell/view-not-built.tsx";

export const Route = createFileRoute("/availability")({
  component: () => <ViewNotBuilt title="Availability" purpose="See when each provider is bookable, week by week, in the facility's time zone." />,
});
