import type { Pagination } from "../../contract/clinic-api/envelope.ts";
import type { ClinicApiRoute } from "../../contract/clinic-api/responses.ts";
import type { ClinicData } from "./response-reader.ts";
import type { ClinicCall } from "./upstream-request.ts";

// Paging through a list endpoint (seed 001 "Common rules": `page` from 1,
// `pageSize` at most 100, `data.pagination.totalPages`).

export type PaginatedRoute = {
  [R in ClinicApiRoute]: ClinicData<R> extends { pagination: Pagination } ? R : never;
}[ClinicApiRoute];

/** The name of the list in a paginated answer (`providers`, `installations`, …). */
export type ItemsKey<R extends PaginatedRoute> = Exclude<keyof ClinicData<R>, "pagination">;

export type ItemOf<R extends PaginatedRoute, K extends ItemsKey<R>> = ClinicData<R>[K] extends readonly (infer Item)[] ? Item : never;

interface Requester {
  request<R extends ClinicApiRoute>(route: R, call?: ClinicCall): Promise<ClinicData<R>>;
}

const PAGE_SIZE = 100;
/** A runaway `totalPages` must not turn into an endless loop: 100,000 items is far beyond any list the BFF reads. */
const MAX_PAGES = 1_000;

export async function listAllPages<R extends PaginatedRoute, K extends ItemsKey<R>>(client: Requester, route: R, key: K, call: ClinicCall = {}): Promise<ItemOf<R, K>[]> {
  const items: ItemOf<R, K>[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const data = await client.request(route, { ...call, query: { ...call.query, page, pageSize: PAGE_SIZE } });
    // TypeScript cannot resolve `ClinicData<R>[K]` for a generic R; ItemsKey<R> names the list of a paginated answer.
    const pageItems = data[key] as readonly ItemOf<R, K>[];
    items.push(...pageItems);
    if (page >= data.pagination.totalPages) break;
  }
  return items;
}
