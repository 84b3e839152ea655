import type { Pagination } from "#contract/clinic-api/envelope.ts";

/** Seed 001 "Common rules": page from 1, pageSize default 100 (max 100); an empty list has totalCount 0. */
export function paginate<T>(items: readonly T[], page = 1, pageSize = 100): { items: T[]; pagination: Pagination } {
  const start = (page - 1) * pageSize;
  return {
    items: items.slice(start, start + pageSize),
    pagination: { page, pageSize, totalCount: items.length, totalPages: Math.ceil(items.length / pageSize) },
  };
}
