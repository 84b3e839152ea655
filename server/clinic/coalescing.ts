import { isTouched, type Invalidation, type RequestScope } from "./answer-cache.ts";

// Identical reads in flight share one call (DESIGN.md "Upstream"): the first
// starts it, the others join its promise. A change the service announced cuts
// the reads it touches loose: later callers start their own, and the read's
// answer, which may predate the change, is not kept (`touched`).

export interface Flight {
  organization: string;
  route: string;
  scope: RequestScope;
  touched: boolean;
}

export class InFlightReads {
  private readonly flights = new Map<string, Flight & { promise: Promise<unknown> }>();
  joined = 0;

  /** Keys name the route: the promise is of what `start` gave for it. */
  join<T>(key: string): Promise<T> | undefined {
    const flight = this.flights.get(key);
    if (flight === undefined) return undefined;
    this.joined += 1;
    return flight.promise as Promise<T>;
  }

  has(key: string): boolean {
    return this.flights.has(key);
  }

  start<T>(key: string, about: Omit<Flight, "touched">, read: (flight: Flight) => Promise<T>): Promise<T> {
    const flight: Flight & { promise: Promise<unknown> } = { ...about, touched: false, promise: Promise.resolve() };
    const promise = read(flight).finally(() => {
      if (this.flights.get(key) === flight) this.flights.delete(key);
    });
    flight.promise = promise;
    this.flights.set(key, flight);
    return promise;
  }

  invalidate(organization: string, change: Invalidation): void {
    for (const [key, flight] of this.flights) {
      if (flight.organization !== organization || !isTouched(flight.route, flight.scope, change)) continue;
      flight.touched = true;
      this.flights.delete(key);
    }
  }

  clear(): void {
    this.flights.clear();
  }
}
