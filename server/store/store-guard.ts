import { E_TIMEOUT, Mutex, withTimeout } from "async-mutex";
import { storeFailure, StoreUnavailableError } from "./store-unavailable.ts";

// Every call into the store goes through here (create-store.ts wraps each
// repository): its failures come out as StoreUnavailableError when the
// store cannot answer, and no caller waits longer than `callMs` for one.
// A call that has started is not cancelled when its caller gives up (no
// engine takes a query back from the outside): on PostgreSQL the server's
// own timeouts end it. PGlite is one session, so its calls take turns
// here: a call whose turn has not come by `callMs` never runs, rather than
// running after its caller was told it failed.

export type StoreCall<R> = () => Promise<R>;

export interface StoreGuard {
  run<R>(call: StoreCall<R>): Promise<R>;
}

export interface StoreGuardOptions {
  callMs: number;
  /** The engine is one session (PGlite): calls take turns, and one whose turn does not come in time is dropped. */
  oneSession?: boolean;
}

export function createStoreGuard({ callMs, oneSession = false }: StoreGuardOptions): StoreGuard {
  const session = oneSession ? new Mutex() : null;
  return {
    run<R>(call: StoreCall<R>): Promise<R> {
      const started = session === null ? call() : withTimeout(session, callMs).runExclusive(call);
      const work = started.catch((error: unknown) => {
        throw error === E_TIMEOUT ? new StoreUnavailableError("timeout") : storeFailure(error);
      });
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailableError("timeout")), callMs);
        // A call in flight keeps the process busy anyway; the timer alone must not.
        timer.unref();
      });
      // A late failure of a call given up on is nobody's to handle.
      work.catch(() => undefined);
      return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
    },
  };
}

/** An object of async methods only: a repository. */
export type AsyncMethods<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> };

/** `repository` with each method run through `guard`. */
export function guardRepository<T extends AsyncMethods<T>>(repository: T, guard: StoreGuard): T {
  const guarded: Partial<Record<keyof T, unknown>> = {};
  for (const name of Object.keys(repository) as (keyof T)[]) {
    const method = repository[name];
    guarded[name] = (...args: Parameters<typeof method>) => guard.run(() => method.apply(repository, args));
  }
  return guarded as T;
}
