import type { KnownErrorCode } from "#contract/clinic-api/envelope.ts";
import { STATUS_BY_CODE } from "./service-error.ts";

// Fault injection per route (DESIGN.md `/_sandbox/faults`): `path` is written
// as in the spec (`/v1/notes/{noteId}`); a fault with only `code` gets that
// code's status; `count` limits how many requests it hits, then it is gone.
// `afterAction: "reset"` lets the handler act and then destroys the
// connection, so the caller never gets the answer of a write that happened.

export interface FaultSpec {
  method: string;
  path: string;
  status?: number;
  code?: string;
  latencyMs?: number;
  probability?: number;
  count?: number;
  /** `reset`: the request is carried out, then the connection is destroyed before its answer (a lost answer: issue 35 item 4). */
  afterAction?: "reset";
}

export interface Fault extends FaultSpec {
  id: number;
  pattern: RegExp;
  remaining: number | null;
  hits: number;
}

export interface FaultDecision {
  latencyMs: number;
  error: { status: number; code: string } | null;
  /** Carry the request out, then destroy its connection. */
  resetAfterAction: boolean;
}

const DEFAULT_CODE_BY_STATUS: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limit_exceeded",
  500: "internal_error",
  502: "unexpected_integration_error",
  503: "server_unresponsive",
};

function patternOf(path: string): RegExp {
  const escaped = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${escaped}/?$`);
}

export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;

  constructor(private readonly random: () => number = Math.random) {}

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, method: spec.method.toUpperCase(), id: this.nextId++, pattern: patternOf(spec.path), remaining: spec.count ?? null, hits: 0 };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  clear(): void {
    this.faults = [];
  }

  /** What the matching faults do to this request; consumes their counts. */
  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, error: null, resetAfterAction: false };
    for (const fault of this.faults) {
      if ((fault.method !== "*" && fault.method !== method.toUpperCase()) || !fault.pattern.test(path)) continue;
      if (fault.probability !== undefined && this.random() >= fault.probability) continue;
      fault.hits += 1;
      if (fault.remaining !== null) fault.remaining -= 1;
      decision.latencyMs += fault.latencyMs ?? 0;
      if (fault.afterAction === "reset") decision.resetAfterAction = true;
      if (decision.error === null && (fault.status !== undefined || fault.code !== undefined)) {
        const status = fault.status ?? STATUS_BY_CODE[fault.code as KnownErrorCode] ?? 500;
        decision.error = { status, code: fault.code ?? DEFAULT_CODE_BY_STATUS[status] ?? "internal_error" };
      }
    }
    this.faults = this.faults.filter((fault) => fault.remaining === null || fault.remaining > 0);
    return decision;
  }
}
