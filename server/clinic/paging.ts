import type { Pagination } from "#contract/clinic-api/envelope.ts";
import type { ClinicApiRoute } from "#contract/clinic-api/responses.ts";
import type { ClinicData } from "./response-reader.ts";
import type { ClinicCall, ReadRoute } from "./upstream-request.ts";

// Paging through a list (seed 001 "Common rules": `page` from 1, `pageSize`
// at most 100, `data.pagination.totalPages`).

export type PaginatedRoute = {
  [R in ClinicApiRoute]: ClinicData<R> extends { pagination: Pagination } ? R : never;
}[ClinicApiRoute];

/** The name of the list in a paginated answer (`providers`, `installations`, …). */
export type ItemsKey<R extends PaginatedRoute> = Exclude<keyof ClinicData<R>, "pagination">;

export type ItemOf<R extends PaginatedRoute, K extends ItemsKey<R>> = ClinicData<R>[K] extends readonly (infer Item)[] ? Item : never;

interface Requester {
  read<R extends ReadRoute>(route: R, call?: ClinicCall): Promise<{ data(): ClinicData<R> }>;
}

const PAGE_SIZE = 100;
/** ClinicClient.listAll's cap: a runaway `totalPages` must not loop forever (100,000 items is far beyond any list the BFF reads). */
const MAX_PAGES = 1_000;

/** A list longer than its caller's page cap: nothing past the first page was fetched. */
export class TooManyPages extends Error {
  constructor(
    readonly route: PaginatedRoute,
    readonly totalPages: number,
    readonly totalCount: number,
    readonly maxPages: number,
  ) {
    super(`${route}: ${totalCount} items in ${totalPages} pages, more than the ${maxPages} pages allowed`);
    this.name = "TooManyPages";
  }
}

/**
 * Every item of a list that fits in `maxPages` pages: past it (the first page
 * says), `TooManyPages` and no further page, so one request's cost upstream
 * is bounded. The others `concurrency` at a time, items in page order.
 */
export async function listBoundedPages<R extends PaginatedRoute, K extends ItemsKey<R>>(
  client: Requester,
  route: R,
  key: K,
  call: ClinicCall,
  { maxPages, concurrency = 4 }: { maxPages: number; concurrency?: number },
): Promise<ItemOf<R, K>[]> {
  const pageOf = async (page: number) => {
    const data = (await client.read(route, { ...call, query: { ...call.query, page, pageSize: PAGE_SIZE } })).data();
    // TypeScript cannot resolve `ClinicData<R>[K]` for a generic R; ItemsKey<R> names the list of a paginated answer.
    return { items: data[key] as readonly ItemOf<R, K>[], pagination: data.pagination };
  };
  const first = await pageOf(1);
  const { totalPages, totalCount } = first.pagination;
  if (totalPages > maxPages) throw new TooManyPages(route, totalPages, totalCount, maxPages);
  const pages: (readonly ItemOf<R, K>[])[] = [first.items];
  for (let next = 2; next <= totalPages; next += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, totalPages - next + 1) }, (_unused, offset) => pageOf(next + offset));
    for (const page of await Promise.all(batch)) pages.push(page.items);
  }
  return pages.flat();
}

/** ClinicClient.listAll: one page at a time. */
export const listAllPages = <R extends PaginatedRoute, K extends ItemsKey<R>>(client: Requester, route: R, key: K, call: ClinicCall = {}) => listBoundedPages(client, route, key, call, { maxPages: MAX_PAGES, concurrency: 1 });
