import type { Hono } from "hono";
import type { Clock } from "../clock.ts";
import type { EmulatorSettings, ServiceApp } from "../routes/route-deps.ts";
import type { OrgState, ServiceState } from "../service/service-state.ts";
import type { WebhookEvent } from "../webhooks/webhook-dispatcher.ts";

// A part of the service beside the core (billing, inventory, patient
// documents, faxes, on-demand sync): its own seeded data per organization,
// its endpoints, its sandbox controls, and its events. `emulator/app.ts`
// wires each one in a line; `ServiceState` resets them and lets them emit on
// each sync.

export interface DomainDeps {
  state: ServiceState;
  clock: Clock;
  settings: EmulatorSettings;
  /** The emulator's seed: a domain derives its own deterministic data from it and the seeded world. */
  seed: number;
  scale: "default" | "large";
}

export interface EmulatorDomain {
  readonly name: string;
  /** Endpoints under a version segment; they run behind the data pipeline (key, organization, rate limit, faults). */
  registerRoutes(service: ServiceApp): void;
  /** Controls under `/_sandbox/` (plain JSON, no envelope). */
  registerSandbox?(sandbox: Hono): void;
  /** Back to the seeded state (`POST /_sandbox/reset`), on the seed's clock. */
  reset(): void;
  /**
   * Runs with every sync of an organization (after the mirror's), on the
   * emulator's clock; returns the data events it emits. `ServiceState` sends
   * them only when the installation is active and grants the event's scope.
   */
  onSync?(org: OrgState, now: number): WebhookEvent[];
}
