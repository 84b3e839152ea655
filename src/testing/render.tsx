import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, configure, render, type RenderOptions, type RenderResult } from "@testing-library/react";
import { userEvent, type UserEvent } from "@testing-library/user-event";
import type { ReactElement, ReactNode } from "react";
import { afterEach } from "vitest";

// Component interaction tests: a component rendered into happy-dom's document
// (the test file starts with `// @vitest-environment happy-dom`), driven by
// user-event as a person would (click, type, Tab, Enter) and read back by
// role and name as a screen reader would. Layout, colour and axe are the e2e
// suite's, in Chromium through the host page.

afterEach(cleanup);

// `findBy…` and `waitFor` wait up to 5 s, not Testing Library's 1 s: on a loaded 2-core CI machine a route's
// loader, a Suspense boundary and a fake read can take longer than 1 s between them (the note route's test failed so).
configure({ asyncUtilTimeout: 5_000 });

export interface Rendered extends RenderResult {
  user: UserEvent;
  queryClient: QueryClient;
}

/** A query client that never retries and never refetches by itself: a test says what each read answers. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

/** Renders `ui` inside a query client (`queryClient`, or a fresh one) and returns a user to drive it. */
export function renderWithUser(ui: ReactElement, { queryClient = testQueryClient(), ...options }: RenderOptions & { queryClient?: QueryClient } = {}): Rendered {
  const user = userEvent.setup();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  return { ...render(ui, { wrapper, ...options }), user, queryClient };
}
